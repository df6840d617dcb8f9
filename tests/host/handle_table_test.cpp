// The host's table of one guest's Vulkan objects: what an id names changes
// only with the table, whatever was looked up before.
#include <gtest/gtest.h>

#include "vk/handle_table.h"

namespace {

using host::vk::HandleTable;

uint64_t found(HandleTable& table, VkObjectType type, uint64_t id) {
  auto r = table.from_wire(type, false, id);
  return r ? *r : ~uint64_t{0};
}

TEST(HandleTable, AnIdReusedForAnotherTypeNamesOnlyTheNewObject) {
  HandleTable table;
  table.add(VK_OBJECT_TYPE_BUFFER, 7, 0x1000);
  EXPECT_EQ(found(table, VK_OBJECT_TYPE_BUFFER, 7), 0x1000u);
  table.remove(VK_OBJECT_TYPE_BUFFER, 0x1000);
  EXPECT_FALSE(table.from_wire(VK_OBJECT_TYPE_BUFFER, false, 7).ok());
  table.add(VK_OBJECT_TYPE_IMAGE, 7, 0x2000);
  EXPECT_FALSE(table.from_wire(VK_OBJECT_TYPE_BUFFER, false, 7).ok());
  EXPECT_EQ(found(table, VK_OBJECT_TYPE_IMAGE, 7), 0x2000u);
}

TEST(HandleTable, IdsSharingARecentSlotEachNameTheirOwn) {
  HandleTable table;
  for (uint64_t id = 3; id < 3 + 64 * 4; id += 64) table.add(VK_OBJECT_TYPE_PIPELINE, id, 0x100 + id);
  for (int round = 0; round < 2; ++round)
    for (uint64_t id = 3; id < 3 + 64 * 4; id += 64) EXPECT_EQ(found(table, VK_OBJECT_TYPE_PIPELINE, id), 0x100 + id);
}

TEST(HandleTable, ADevicesObjectsGoWithIt) {
  HandleTable table;
  table.add(VK_OBJECT_TYPE_DEVICE, 1, 0xd0);
  table.add(VK_OBJECT_TYPE_COMMAND_BUFFER, 2, 0xc0, 0xd0);
  EXPECT_EQ(found(table, VK_OBJECT_TYPE_COMMAND_BUFFER, 2), 0xc0u);
  table.remove_children(0xd0);
  EXPECT_FALSE(table.from_wire(VK_OBJECT_TYPE_COMMAND_BUFFER, false, 2).ok());
  table.remove_all(VK_OBJECT_TYPE_DEVICE);
  EXPECT_FALSE(table.from_wire(VK_OBJECT_TYPE_DEVICE, true, 1).ok());
}

TEST(HandleTable, AnUnknownIdOrAWrongTypeIsRefused) {
  HandleTable table;
  table.add(VK_OBJECT_TYPE_FENCE, 9, 0xf0);
  EXPECT_EQ(found(table, VK_OBJECT_TYPE_FENCE, 9), 0xf0u);
  EXPECT_FALSE(table.from_wire(VK_OBJECT_TYPE_SEMAPHORE, false, 9).ok());
  EXPECT_FALSE(table.from_wire(VK_OBJECT_TYPE_FENCE, false, 9 + 64).ok());
  EXPECT_EQ(found(table, VK_OBJECT_TYPE_FENCE, 0), 0u);  // VK_NULL_HANDLE
}

}  // namespace
