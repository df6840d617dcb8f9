// Opaque fds of device memory (VK_KHR_external_memory_fd): an import is
// checked against the export it names before the driver maps it, and only
// memory allocated to be exported is exported.
#include <unistd.h>

#include <cstdlib>

#include "vk_memory_fds.h"
#include "vk_objects.h"
#include "vk_refused.h"

namespace {

using guesttest::expect_accepted_with;
using guesttest::expect_refused_with;

const std::vector<const char*> kMemoryFd = {VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME};
constexpr VkDeviceSize kBytes = 65536;

TEST(VulkanMemoryFds, ImportOfMoreBytesThanExported) {
  // The driver would map as many bytes of the export as the import says.
  expect_refused_with(kMemoryFd, [](VkInstance, VkPhysicalDevice, VkDevice device) {
    const int fd = guesttest::memory_fd(device, guesttest::exportable_memory(device, kBytes, 0));
    VkDeviceMemory imported = VK_NULL_HANDLE;
    guesttest::import_memory(device, fd, kBytes * 64, 0, &imported);
  });
}

TEST(VulkanMemoryFds, ExportOfMemoryNotAllocatedForIt) {
  expect_refused_with(kMemoryFd, [](VkInstance, VkPhysicalDevice, VkDevice device) {
    guesttest::memory_fd(device, guesttest::memory_of(device, kBytes, 0));
  });
}

TEST(VulkanMemoryFds, ImportOnADeviceWithoutTheExtension) {
  expect_refused_with(kMemoryFd, [](VkInstance, VkPhysicalDevice gpu, VkDevice device) {
    const int fd = guesttest::memory_fd(device, guesttest::exportable_memory(device, kBytes, 0));
    VkDevice bare = guesttest::make_device(gpu);
    VkDeviceMemory imported = VK_NULL_HANDLE;
    guesttest::import_memory(bare, fd, kBytes, 0, &imported);
  });
}

TEST(VulkanMemoryFds, ImportOfTheSameSizeAndTypeRuns) {
  expect_accepted_with(kMemoryFd, [](VkInstance, VkPhysicalDevice gpu, VkDevice device) {
    const int fd = guesttest::memory_fd(device, guesttest::exportable_memory(device, kBytes, 0));
    VkDevice second = guesttest::make_device(gpu, kMemoryFd);
    VkDeviceMemory imported = VK_NULL_HANDLE;
    if (guesttest::import_memory(second, fd, kBytes, 0, &imported) != VK_SUCCESS) std::exit(8);
  });
}

TEST(VulkanMemoryFds, ExportsNeverImportedAreBounded) {
  // Each export holds a descriptor in the renderer until it is imported.
  expect_accepted_with(kMemoryFd, [](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkDeviceMemory memory = guesttest::exportable_memory(device, kBytes, 0);
    int made = 0;
    for (int fd; made < 100 && (fd = guesttest::memory_fd(device, memory)) >= 0; ++made) close(fd);
    if (made != 64) std::exit(8);  // a child's exit code is what its case checks
  });
}

}  // namespace
