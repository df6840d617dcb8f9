// Host-visible device memory in the guest. On shared-memory transports,
// coherent memory is placed in the channel's shared area, which the host's
// driver imports: the program maps the GPU's own memory. Otherwise the
// program maps a copy (shadow); what changed goes to the host before
// anything the GPU does with it (a submit, a flush, an unmap), found by
// comparing the shadow with what was last sent, so coherent memory needs no
// flush. What the GPU wrote comes back after waits, for memory the GPU may
// write (gpu_writes.cpp), and after invalidates (docs/vulkan.md, "Memory").
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <optional>
#include <set>
#include <unordered_map>
#include <utility>
#include <vector>

#include "conn/area_allocator.h"
#include "conn/changed_ranges.h"
#include "conn/connection.h"
#include "vk/entry.h"
#include "vk/fences.h"
#include "vk/memory.h"
#include "vk/memory_fds.h"
#include "wire/vk_memory.h"

namespace icd::vk {

using namespace wire::vk;

namespace {

struct Shadow {
  VkDeviceSize size = 0;
  std::byte* shared = nullptr;  // in the shared area: mapped without a shadow
  uint64_t area_offset = 0;
  bool host_visible = false;
  bool mapped = false;
  bool gpu_writes = false;  // bound where the GPU may write it
  std::vector<std::byte> bytes;  // what the program sees
  std::vector<std::byte> sent;   // what the host has
};

struct Memories {
  std::mutex mu;
  std::unordered_map<uint64_t, Shadow> by_id;  // VkDeviceMemory ids
  std::unordered_map<VkDevice, VkPhysicalDevice> device_gpus;
  std::unordered_map<VkPhysicalDevice, VkPhysicalDeviceMemoryProperties> properties;
  // The shared area, looked for at the first coherent allocation.
  bool area_looked_for = false;
  std::byte* area_base = nullptr;
  std::optional<icd::AreaAllocator> area;
  std::set<std::pair<VkDevice, uint32_t>> unplaceable;  // memory types the host cannot import
  std::set<VkDevice> preinitialized_images;             // devices with such images: nothing placed
};

Memories& memories() {
  static Memories* m = new Memories;
  return *m;
}

uint64_t id_of(VkDeviceMemory memory) { return reinterpret_cast<uint64_t>(memory); }

void send_changes(uint64_t id, Shadow& s) {
  for (const ByteRange& r : changed_ranges(s.bytes.data(), s.sent.data(), s.size)) {
    send_async(static_cast<uint32_t>(MemoryOp::kWriteMemory), [&](wire::Writer& w) {
      w.put(MemoryRange{id, r.offset, r.length});
      w.put_data(s.bytes.data() + r.offset, r.length);
    });
    std::memcpy(s.sent.data() + r.offset, s.bytes.data() + r.offset, r.length);
  }
}

bool read_range(uint64_t id, uint64_t size, std::byte* out) {
  auto reply = send_sync([&](wire::Writer& w) { write_memory_read(w, id, size); });
  if (!reply) return false;
  wire::Reader r(*reply, 0);
  return take_memory_read(r, size, out);
}

// The host's contents into the shadow (the program's unsent writes first).
bool fetch(uint64_t id, Shadow& s) {
  send_changes(id, s);
  if (!read_range(id, s.size, s.bytes.data())) return false;
  s.sent = s.bytes;
  return true;
}

template <typename Each>
void each_mapped(Each each) {
  Memories& m = memories();
  std::lock_guard lock(m.mu);
  for (auto& [id, s] : m.by_id)
    if (s.mapped) each(id, s);
}

}  // namespace

VkMemoryPropertyFlags memory_type_flags(VkDevice device, uint32_t type) {
  Memories& m = memories();
  VkPhysicalDevice gpu;
  {
    std::lock_guard lock(m.mu);
    auto it = m.device_gpus.find(device);
    if (it == m.device_gpus.end()) return 0;
    gpu = it->second;
    if (auto p = m.properties.find(gpu); p != m.properties.end())
      return type < p->second.memoryTypeCount ? p->second.memoryTypes[type].propertyFlags : 0;
  }
  VkArgs_vkGetPhysicalDeviceMemoryProperties a{gpu, nullptr};
  VkPhysicalDeviceMemoryProperties props{};
  a.pMemoryProperties = &props;
  run_generated(VkOp::vkGetPhysicalDeviceMemoryProperties, a);
  std::lock_guard lock(m.mu);
  m.properties[gpu] = props;
  return type < props.memoryTypeCount ? props.memoryTypes[type].propertyFlags : 0;
}

void note_gpu_writes(uint64_t memory) {
  Memories& m = memories();
  std::lock_guard lock(m.mu);
  if (auto it = m.by_id.find(memory); it != m.by_id.end()) it->second.gpu_writes = true;
}

VKAPI_ATTR VkResult VKAPI_CALL create_device(VkPhysicalDevice gpu, const VkDeviceCreateInfo* info,
                                            const VkAllocationCallbacks* allocator, VkDevice* device) {
  VkArgs_vkCreateDevice a{gpu, info, allocator, device};
  const VkResult r = as_result(run_generated(VkOp::vkCreateDevice, a));
  if (r == VK_SUCCESS) {
    std::lock_guard lock(memories().mu);
    memories().device_gpus[*device] = gpu;
  }
  return r;
}

// An image that starts preinitialized cannot be declared importable
// (VUID-VkImageCreateInfo-pNext-01443), so it must not be bound to memory
// the host imported: once a device has one, its later allocations stay
// ordinary (programs make an image before the memory they bind it to).
VKAPI_ATTR VkResult VKAPI_CALL create_image(VkDevice device, const VkImageCreateInfo* info,
                                           const VkAllocationCallbacks* allocator, VkImage* image) {
  if (info->initialLayout == VK_IMAGE_LAYOUT_PREINITIALIZED) {
    std::lock_guard lock(memories().mu);
    memories().preinitialized_images.insert(device);
  }
  VkArgs_vkCreateImage a{device, info, allocator, image};
  return as_result(run_generated(VkOp::vkCreateImage, a));
}

namespace {

// Memory with device addresses may be written through a pointer in any shader.
bool shaders_may_address(const VkMemoryAllocateInfo& info) {
  for (auto* p = static_cast<const VkBaseInStructure*>(info.pNext); p; p = p->pNext)
    if (p->sType == VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO &&
        (reinterpret_cast<const VkMemoryAllocateFlagsInfo*>(p)->flags & VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT))
      return true;
  return false;
}

// The shared area's allocator, or null: sockets have none, and
// CONDUIT_VK_SHARED_MEMORY=0 keeps every allocation in a shadow.
icd::AreaAllocator* area_of(Memories& m) {
  if (!m.area_looked_for) {
    m.area_looked_for = true;
    const char* use = std::getenv("CONDUIT_VK_SHARED_MEMORY");
    auto conn = vulkan_connection();
    if (conn && !(use && std::strcmp(use, "0") == 0) && !conn->shared_area().empty()) {
      m.area_base = conn->shared_area().data();
      m.area.emplace(conn->shared_area().size());
    }
  }
  return m.area ? &*m.area : nullptr;
}

constexpr VkMemoryPropertyFlags kShareable = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;

// Coherent memory in the shared area, when it has room and the host can
// import it there; nullopt to allocate it as ordinary memory instead.
std::optional<VkResult> allocate_in_area(VkDevice device, const VkMemoryAllocateInfo* info,
                                         const VkAllocationCallbacks* allocator, VkDeviceMemory* memory) {
  Memories& m = memories();
  const auto type = std::make_pair(device, info->memoryTypeIndex);
  std::optional<uint64_t> offset;
  {
    std::lock_guard lock(m.mu);
    icd::AreaAllocator* area = area_of(m);
    if (!area || m.unplaceable.contains(type) || m.preinitialized_images.contains(device)) return std::nullopt;
    offset = area->allocate(info->allocationSize);
    if (!offset) return std::nullopt;
  }
  send_async(static_cast<uint32_t>(MemoryOp::kPlaceInArea), [&](wire::Writer& w) {
    w.put(AreaPlacement{*offset, icd::AreaAllocator::rounded(info->allocationSize)});
  });
  VkArgs_vkAllocateMemory a{device, info, allocator, memory};
  const VkResult r = as_result(run_generated(VkOp::vkAllocateMemory, a));
  std::lock_guard lock(m.mu);
  if (r != VK_SUCCESS) {
    m.area->release(*offset);
    if (r != VK_ERROR_INVALID_EXTERNAL_HANDLE) return r;
    m.unplaceable.insert(type);
    return std::nullopt;
  }
  Shadow& s = m.by_id[id_of(*memory)];
  s.size = info->allocationSize;
  s.shared = m.area_base + *offset;
  s.area_offset = *offset;
  s.host_visible = true;
  if (auto conn = vulkan_connection()) conn->stats().shared_allocations.fetch_add(1, std::memory_order_relaxed);
  return VK_SUCCESS;
}

}  // namespace

VKAPI_ATTR VkResult VKAPI_CALL allocate_memory(VkDevice device, const VkMemoryAllocateInfo* info,
                                              const VkAllocationCallbacks* allocator, VkDeviceMemory* memory) {
  const VkMemoryPropertyFlags flags = memory_type_flags(device, info->memoryTypeIndex);
  if ((flags & kShareable) == kShareable && placeable_chain(info->pNext))
    if (auto placed = allocate_in_area(device, info, allocator, memory)) return *placed;
  FdImport import;
  if (const VkResult named = import.read(*info); named != VK_SUCCESS) return named;
  VkArgs_vkAllocateMemory a{device, &import.info(), allocator, memory};
  const VkResult r = as_result(run_generated(VkOp::vkAllocateMemory, a));
  if (r == VK_SUCCESS) {
    std::lock_guard lock(memories().mu);
    Shadow& s = memories().by_id[id_of(*memory)];
    s.size = info->allocationSize;
    s.host_visible = flags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
    s.gpu_writes = shaders_may_address(*info) || import.imports();  // its exporter writes it too
    import.imported();
  }
  return r;
}

// The area's range is given back after the free is sent: the host frees
// the import before it reads a placement of the same pages.
VKAPI_ATTR void VKAPI_CALL free_memory(VkDevice device, VkDeviceMemory memory, const VkAllocationCallbacks* allocator) {
  std::optional<uint64_t> area_offset;
  {
    std::lock_guard lock(memories().mu);
    auto it = memories().by_id.find(id_of(memory));
    if (it != memories().by_id.end()) {
      if (it->second.shared) area_offset = it->second.area_offset;
      memories().by_id.erase(it);
    }
  }
  VkArgs_vkFreeMemory a{device, memory, allocator};
  run_generated(VkOp::vkFreeMemory, a);
  if (area_offset) {
    std::lock_guard lock(memories().mu);
    memories().area->release(*area_offset);
  }
}

VKAPI_ATTR VkResult VKAPI_CALL map_memory(VkDevice, VkDeviceMemory memory, VkDeviceSize offset, VkDeviceSize,
                                         VkMemoryMapFlags, void** data) {
  Memories& m = memories();
  std::lock_guard lock(m.mu);
  auto it = m.by_id.find(id_of(memory));
  if (it == m.by_id.end() || !it->second.host_visible || it->second.mapped || offset > it->second.size)
    return VK_ERROR_MEMORY_MAP_FAILED;
  if (it->second.shared) {  // the GPU's memory itself: nothing to copy, now or later
    *data = it->second.shared + offset;
    return VK_SUCCESS;
  }
  // The shadow starts as the memory's contents: bytes the program does not
  // write keep theirs.
  Shadow& s = it->second;
  s.bytes.resize(s.size);
  if (!read_range(it->first, s.size, s.bytes.data())) return VK_ERROR_DEVICE_LOST;
  s.sent = s.bytes;
  s.mapped = true;
  *data = s.bytes.data() + offset;
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL unmap_memory(VkDevice, VkDeviceMemory memory) {
  Memories& m = memories();
  std::lock_guard lock(m.mu);
  auto it = m.by_id.find(id_of(memory));
  if (it == m.by_id.end() || !it->second.mapped) return;
  send_changes(it->first, it->second);
  it->second.mapped = false;
  it->second.bytes = {};
  it->second.sent = {};
}

VKAPI_ATTR VkResult VKAPI_CALL flush_ranges(VkDevice, uint32_t count, const VkMappedMemoryRange* ranges) {
  Memories& m = memories();
  std::lock_guard lock(m.mu);
  for (uint32_t i = 0; i < count; ++i)
    if (auto it = m.by_id.find(id_of(ranges[i].memory)); it != m.by_id.end() && it->second.mapped)
      send_changes(it->first, it->second);
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL invalidate_ranges(VkDevice, uint32_t count, const VkMappedMemoryRange* ranges) {
  Memories& m = memories();
  std::lock_guard lock(m.mu);
  for (uint32_t i = 0; i < count; ++i)
    if (auto it = m.by_id.find(id_of(ranges[i].memory)); it != m.by_id.end() && it->second.mapped)
      if (!fetch(it->first, it->second)) return VK_ERROR_DEVICE_LOST;
  return VK_SUCCESS;
}

namespace {

void send_all_changes() { each_mapped([](uint64_t id, Shadow& s) { send_changes(id, s); }); }

// A wait, and in the same round trip the host's contents of every mapped
// allocation the GPU may write (the program's unsent writes go first).
template <typename Args>
VkResult wait_and_fetch(VkOp op, Args& args) {
  Memories& m = memories();
  std::lock_guard lock(m.mu);
  std::vector<MemoryRead> reads;
  std::vector<Shadow*> shadows;
  for (auto& [id, s] : m.by_id) {
    if (!s.mapped || !s.gpu_writes) continue;
    send_changes(id, s);
    reads.push_back({id, s.size, s.bytes.data()});
    shadows.push_back(&s);
  }
  bool read = false;
  const VkResult r = run_then_read(op, args, reads, &read);
  if (read)
    for (Shadow* s : shadows) s->sent = s->bytes;
  return r;
}

// Whether a wait must bring back what the GPU wrote into mapped memory.
bool gpu_written_mappings() {
  bool any = false;
  each_mapped([&](uint64_t, Shadow& s) { any = any || s.gpu_writes; });
  return any;
}

}  // namespace

// Submissions: what the program wrote into mapped memory goes first, and
// the work goes to the host at once, as a driver's goes to the GPU: the
// host starts it, and tells of its fence, while the program records the
// next frame.
VKAPI_ATTR VkResult VKAPI_CALL queue_submit(VkQueue queue, uint32_t count, const VkSubmitInfo* submits, VkFence fence) {
  send_all_changes();
  note_fence_submitted(queue, fence);
  VkArgs_vkQueueSubmit a{queue, count, submits, fence};
  const VkResult r = as_result(run_generated(VkOp::vkQueueSubmit, a));
  send_commands_now();
  return r;
}

VKAPI_ATTR VkResult VKAPI_CALL queue_submit2(VkQueue queue, uint32_t count, const VkSubmitInfo2* submits,
                                            VkFence fence) {
  send_all_changes();
  note_fence_submitted(queue, fence);
  VkArgs_vkQueueSubmit2 a{queue, count, submits, fence};
  const VkResult r = as_result(run_generated(VkOp::vkQueueSubmit2, a));
  send_commands_now();
  return r;
}

namespace {

// A wait with no memory to bring back ends as soon as the host tells that
// the fences signalled, which it does after each batch: the program goes on
// while the host still runs the batches sent before the wait.
VkResult wait_or_told(VkArgs_vkWaitForFences& a) {
  static const CommandDesc& desc = *command_desc(static_cast<uint32_t>(VkOp::vkWaitForFences));
  bool unused = false;
  const auto r = run_command_unless(desc, &a, {}, &unused, told_signalled({a.pFences, a.fenceCount}, a.waitAll));
  return r ? as_result(*r) : VK_SUCCESS;
}

// The host waits at most kMostWaitNs at a time, so that a wait nothing
// will end cannot hold its renderer: the rest of the program's timeout is
// waited for in more asks. ask(slice) is one ask; VK_TIMEOUT means not yet.
template <typename Ask>
VkResult wait_in_slices(uint64_t timeout, Ask ask) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  for (;;) {
    const auto waited = static_cast<uint64_t>(std::chrono::nanoseconds(Clock::now() - start).count());
    const uint64_t left = timeout > waited ? timeout - waited : 0;
    const VkResult r = ask(std::min(left, kMostWaitNs));
    if (r != VK_TIMEOUT || left <= kMostWaitNs) return r;
  }
}

}  // namespace

// Waits: once the GPU's work is done, mapped memory shows what it wrote.
// Without such memory, fences the host told of need no round trip.
VKAPI_ATTR VkResult VKAPI_CALL wait_for_fences(VkDevice device, uint32_t count, const VkFence* fences,
                                              VkBool32 all, uint64_t timeout) {
  VkResult r = VK_SUCCESS;
  const bool fetch = gpu_written_mappings();
  if (!fetch && wait_without_asking({fences, count}, all, timeout, &r)) return r;
  return wait_in_slices(timeout, [&](uint64_t slice) {
    VkArgs_vkWaitForFences a{device, count, fences, all, slice};
    return fetch ? wait_and_fetch(VkOp::vkWaitForFences, a) : wait_or_told(a);
  });
}

VKAPI_ATTR VkResult VKAPI_CALL wait_semaphores(VkDevice device, const VkSemaphoreWaitInfo* info, uint64_t timeout) {
  return wait_in_slices(timeout, [&](uint64_t slice) {
    VkArgs_vkWaitSemaphores a{device, info, slice};
    return wait_and_fetch(VkOp::vkWaitSemaphores, a);
  });
}

VKAPI_ATTR VkResult VKAPI_CALL get_fence_status(VkDevice device, VkFence fence) {
  if (!gpu_written_mappings() && known_signalled(fence)) return VK_SUCCESS;
  VkArgs_vkGetFenceStatus a{device, fence};
  return wait_and_fetch(VkOp::vkGetFenceStatus, a);
}

// Results asked to be waited for: the host polls a slice at a time.
VKAPI_ATTR VkResult VKAPI_CALL get_query_pool_results(VkDevice device, VkQueryPool pool, uint32_t first,
                                                     uint32_t count, size_t size, void* data, VkDeviceSize stride,
                                                     VkQueryResultFlags flags) {
  VkArgs_vkGetQueryPoolResults a{device, pool, first, count, size, data, stride, flags};
  return wait_in_slices(UINT64_MAX, [&](uint64_t) { return as_result(run_generated(VkOp::vkGetQueryPoolResults, a)); });
}

// An idle wait has no timeout: the host answers VK_TIMEOUT for "not yet".
VKAPI_ATTR VkResult VKAPI_CALL queue_wait_idle(VkQueue queue) {
  VkArgs_vkQueueWaitIdle a{queue};
  return wait_in_slices(UINT64_MAX, [&](uint64_t) { return wait_and_fetch(VkOp::vkQueueWaitIdle, a); });
}

VKAPI_ATTR VkResult VKAPI_CALL device_wait_idle(VkDevice device) {
  VkArgs_vkDeviceWaitIdle a{device};
  return wait_in_slices(UINT64_MAX, [&](uint64_t) { return wait_and_fetch(VkOp::vkDeviceWaitIdle, a); });
}

}  // namespace icd::vk
