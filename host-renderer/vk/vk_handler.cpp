#include "vk/vk_handler.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>

#include "vk/refusal.h"
#include "wire/vk_commands.h"
#include "wire/vk_memory.h"

namespace host::vk {

using wire::Errc;
using wire::make_error;
using namespace wire::vk;

namespace {

uint64_t load_u64(const std::byte* p) {
  uint64_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// The device a command's new objects belong to: its first parameter, when
// that is one (they go when it does).
uint64_t device_of(const CommandDesc& cmd, const void* args) {
  if (!cmd.param_count || cmd.params[0].kind != Kind::kHandle || cmd.params[0].object_type != VK_OBJECT_TYPE_DEVICE)
    return 0;
  return load_u64(static_cast<const std::byte*>(args) + cmd.params[0].offset);
}

// The loader finds a command's driver through its first handle when that
// is dispatchable (an instance, physical device, device, queue or command
// buffer): a null one it dereferences, or aborts on.
wire::Status check_dispatched(const CommandDesc& cmd, const void* args) {
  if (!cmd.param_count || cmd.params[0].kind != Kind::kHandle || !cmd.params[0].dispatchable) return {};
  if (load_u64(static_cast<const std::byte*>(args) + cmd.params[0].offset) == 0)
    return make_error(Errc::kBadName, std::string(cmd.name) + " of a null " + cmd.params[0].name);
  return {};
}

// The loader unwraps a swapchain's surface, named inside its create info,
// before the driver sees it, and aborts on a null one. (Surfaces passed as
// parameters are required handles, below.)
wire::Status check_swapchain_surface(uint32_t opcode, const void* args) {
  if (static_cast<VkOp>(opcode) != VkOp::vkCreateSwapchainKHR) return {};
  if (!raw_handle(static_cast<const VkArgs_vkCreateSwapchainKHR*>(args)->pCreateInfo->surface))
    return make_error(Errc::kBadName, "vkCreateSwapchainKHR of a null surface");
  return {};
}

// Where each command names objects it requires: a non-optional handle that
// is not its dispatchable first one, and the handles of its arrays of
// them. Drivers follow these without checking (lavapipe: vkGetEventStatus
// of a null event, vkWaitForFences of a null fence), and record them as
// pointers they follow when a command buffer runs, after the command was
// accepted (a null event of vkCmdWaitEvents), so a null one is refused
// here. Found once for every opcode.
struct RequiredHandles {
  std::vector<uint32_t> single;             // offsets of handles
  std::vector<const MemberDesc*> arrays;    // arrays of handles
};

// Arrays whose elements the spec lets be null: freeing a null set does
// nothing, a null set is bound where a pipeline library leaves a hole, and
// transform feedback without a counter starts at 0 and keeps none.
bool array_may_hold_nulls(const CommandDesc& c) {
  const std::string_view name = c.name;
  return name == "vkFreeDescriptorSets" || name == "vkCmdBindDescriptorSets" ||
         name == "vkCmdBeginTransformFeedbackEXT" || name == "vkCmdEndTransformFeedbackEXT";
}

const std::vector<RequiredHandles> kRequiredHandles = per_command<RequiredHandles>([](const CommandDesc& c) {
  RequiredHandles r;
  for (const MemberDesc& p : c.fields()) {
    if (p.kind == Kind::kHandle && !p.optional && !p.dispatchable) r.single.push_back(p.offset);
    if (p.kind == Kind::kArray && p.elem == Elem::kHandle && !p.dispatchable && !array_may_hold_nulls(c))
      r.arrays.push_back(&p);
  }
  return r;
});

bool holds_null(const MemberDesc& array, const std::byte* record) {
  const std::byte* items;
  std::memcpy(&items, record + array.offset, sizeof items);
  if (!items) return false;  // a missing array is the decoder's to judge
  const uint64_t n = array.count ? array.count(record) : 1;
  for (uint64_t i = 0; i < n; ++i)
    if (!load_u64(items + i * sizeof(uint64_t))) return true;
  return false;
}

wire::Status check_required_handles(uint32_t opcode, const CommandDesc& cmd, const void* args) {
  const auto* record = static_cast<const std::byte*>(args);
  const RequiredHandles* required = entry_of(kRequiredHandles, opcode);
  if (!required) return {};
  for (uint32_t offset : required->single)
    if (!load_u64(record + offset)) return make_error(Errc::kBadName, std::string(cmd.name) + " of a null handle");
  for (const MemberDesc* array : required->arrays)
    if (holds_null(*array, record))
      return make_error(Errc::kBadName, std::string(cmd.name) + " of a null handle in " + array->name);
  return {};
}

}  // namespace

VkHandler::VkHandler(ResourceAccount& account, ToGuest to_guest, Counters& counters, std::span<std::byte> area)
    : area_(area), counters_(counters), to_guest_(std::move(to_guest)), account_(account) {
  // Commands without an instance (vkCreateInstance, the global queries).
  dispatch_.load(vkGetInstanceProcAddr, VK_NULL_HANDLE);
  keep_drivers_loaded();
}

// One instance of the renderer's own, for as long as the renderer lives: the
// loader keeps the drivers loaded while any instance does, so a guest's
// instances after the first do not load and initialise them again, and what
// the drivers keep is still theirs (not an unloaded library's) at exit.
void VkHandler::keep_drivers_loaded() {
  static VkInstance kept = [this] {
    VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    VkInstance instance = VK_NULL_HANDLE;
    dispatch_.vkCreateInstance(&info, nullptr, &instance);
    return instance;
  }();
  (void)kept;
}

VkHandler::~VkHandler() {
  // What the guest left behind: its devices, then its instances. A device
  // whose work does not end within the bound is left with its instance to
  // the driver's end with the process (bounded_waits.cpp).
  bool all_ended = true;
  for (VkDevice d : std::vector<VkDevice>(devices_)) all_ended = end_device(d) && all_ended;
  if (all_ended)
    for (VkInstance i : instances_) dispatch_.vkDestroyInstance(i, nullptr);
  account_.objects -= std::min(account_.objects, handles_.size());
  close_exports();
}

wire::Status VkHandler::run(const ApiCommand& cmd) {
  if (lost_) return {};
  wire::Reader payload = cmd.reader();
  // Most of a frame's commands: straight to their own way.
  const Runner* runs = runner(cmd.opcode);
  if (runs && runs->flat) return run_flat(cmd.opcode, *runs, payload);
  return run(cmd.opcode, payload, cmd.reply);
}

void VkHandler::end_batch() {
  if (!lost_) tell_signalled_fences();
  holds_.forget(handles_.take_removed());
  watch_queues();
}

std::optional<uint32_t> VkHandler::lose() {
  if (lost_) return std::nullopt;
  lost_ = true;
  return wire::kVulkanContextId;
}

const char* VkHandler::command_name(uint32_t opcode) const {
  const CommandDesc* desc = command_desc(opcode);
  return desc ? desc->name : nullptr;
}

// Found once for every opcode, when the program starts: a frame's thousands
// of commands each cost one look into this table.
const std::vector<VkHandler::Runner> VkHandler::kRunners = per_command<Runner>(
    [](const CommandDesc& c) {
      return Runner{&c, host_call(c.opcode), special(c.opcode), runs_flat(c) ? flat_command(c) : nullptr,
                    ResourceShapes::check_of(c.opcode)};
    });

// What run() does with a recorded command that makes nothing and returns
// nothing, run_flat does without the arena and the notes (vkCmdDraw,
// vkCmdPushConstants...).
bool VkHandler::runs_flat(const CommandDesc& c) {
  return c.recorded.scope != RenderPassScope::kNone && c.ret == Ret::kVoid && !c.synchronous &&
         !special(c.opcode) && host_call(c.opcode) && c.args_size <= kFlatRecordBytes && is_flat_command(c);
}

wire::Status VkHandler::run(uint32_t opcode, wire::Reader& payload, wire::Writer& reply) {
  if (opcode == static_cast<uint32_t>(MemoryOp::kPresentMemory)) return present_memory(payload);
  if (opcode == static_cast<uint32_t>(MemoryOp::kWindowGone)) {
    auto gone = payload.get<WindowGone>();
    if (!gone) return gone.error();
    to_guest_.window_gone(gone->surface_id);
    return {};
  }
  if (opcode == static_cast<uint32_t>(MemoryOp::kPlaceInArea)) return place_in_area(payload);
  if (opcode >= static_cast<uint32_t>(MemoryOp::kWriteMemory)) return run_memory_op(opcode, payload, reply);
  const Runner* runs = runner(opcode);
  if (!runs)
    return make_error(Errc::kUnknownOpcode, "a Vulkan command the host does not run: " + std::to_string(opcode),
                      payload.offset());
  if (runs->flat) return run_flat(opcode, *runs, payload);
  const CommandDesc* cmd = runs->desc;
  const HostCall call = runs->call;
  const Special own = runs->own;
  arena_.reset();
  created_.clear();
  auto args = arena_.alloc(1, cmd->args_size, payload.offset());
  if (!args) return args.error();
  handles_.start_naming();
  WIRE_TRY(decode_args(payload, *cmd, arena_, *args, handles_, created_));
  WIRE_TRY(check_dispatched(*cmd, *args));
  WIRE_TRY(check_swapchain_surface(opcode, *args));
  WIRE_TRY(check_required_handles(opcode, *cmd, *args));
  if (cmd->device_extension) WIRE_TRY(check_extension_enabled(*cmd, *args));
  if (cmd->instance_extension) WIRE_TRY(check_instance_extension(*cmd, *args));
  WIRE_TRY(name_private_data_object(opcode, *args));
  WIRE_TRY(check_queue_taken(opcode, *args));
  WIRE_TRY(check_named_once(opcode, *args));
  if (!created_.empty()) WIRE_TRY(reserve(created_));
  WIRE_TRY(check_query_count(opcode, *args));
  WIRE_TRY(fit_driver_reads(opcode, *args));
  WIRE_TRY(check_recording(opcode, *cmd, *args));
  WIRE_TRY(resources_.check(opcode, *args));
  WIRE_TRY(check_shaders(opcode, *args));
  pipeline_caches_.supply(opcode, *args);
  WIRE_TRY(check_render_passes(opcode, *args));
  WIRE_TRY(check_single_sampled(opcode, *args));
  if (cmd->recorded.scope != RenderPassScope::kNone && cmd->ret == Ret::kVoid && !own && !cmd->synchronous)
    return run_recorded(opcode, *cmd, call, *args);
  WIRE_TRY(settle_before(opcode, *args));
  const size_t objects_before = handles_.size();
  uint64_t ret = 0;
  if (own) {
    auto r = (this->*own)(*args);
    if (!r) return r.error();
    ret = *r;
  } else {
    ret = call(dispatch_, *args);
  }
  const bool failed = cmd->ret == Ret::kResult && static_cast<int32_t>(ret) < 0;
  if (!failed) {
    const uint64_t device = device_of(*cmd, *args);
    for (const NewHandle& n : created_) handles_.add(n.type, n.id, *n.slot, device);
  }
  if (const MemberDesc* gone = destroyed_param(*cmd)) forget_destroyed(*gone, *args);
  if (!failed) {
    note_recording(opcode, *cmd, *args);  // before a pool's end drops its children
    note_children(opcode, *args);
    note_shapes(opcode, *args);
    note_holds(opcode, *args);  // before resources_ forgets a freed set's shape
    resources_.note(opcode, *args);
    note_physical_devices(opcode, *args);
    note_shaders(opcode, *args);
    note_fences(opcode, *args);
    note_in_flight(opcode, *args);
    note_submitted_work(opcode, *args);
  }
  const size_t objects_after = handles_.size();
  if (objects_after >= objects_before)
    account_.objects += objects_after - objects_before;
  else
    account_.objects -= std::min(account_.objects, objects_before - objects_after);
  // The guest was told this worked (async_results in vk-annotations.toml).
  if (failed && !cmd->synchronous)
    return make_error(Errc::kIo, std::string(cmd->name) + " failed on the host: VkResult " +
                                     std::to_string(static_cast<int32_t>(ret)), payload.offset());
  if (cmd->synchronous) encode_reply(reply, *cmd, *args, ret, handles_);
  return {};
}

// The path of most of a frame's commands, so each step is found once per
// opcode beforehand (Runner): the decoder refuses null required handles of
// flat parameters, and a recorded command is checked and noted against its
// command buffer's recording alone.
wire::Status VkHandler::run_flat(uint32_t opcode, const Runner& runs, wire::Reader& payload) {
  alignas(16) std::byte args[kFlatRecordBytes];
  const CommandDesc& cmd = *runs.desc;
  handles_.start_naming();
  WIRE_TRY(decode_flat_command(payload, *runs.flat, args, handles_));
  if (cmd.device_extension) WIRE_TRY(check_extension_enabled(cmd, args));
  if (cmd.instance_extension) WIRE_TRY(check_instance_extension(cmd, args));
  WIRE_TRY(check_command(cmd, opcode, args));
  if (runs.range_check) WIRE_TRY(resources_.check(runs.range_check, opcode, args));
  if (static_cast<VkOp>(opcode) == VkOp::vkCmdDispatchIndirect) WIRE_TRY(clamp_indirect_dispatch(args));
  runs.call(dispatch_, args);
  note_recorded(*recording_now_, opcode, args);
  return {};
}

// A command recorded into a command buffer (vk.xml gives it a render pass
// scope) makes, ends, waits for and submits nothing, and returns nothing:
// of the notes below only the recording's own state follows it. Most of a
// frame's commands take this way.
// A device-level command of an extension runs only on a device created
// with that extension. The device is found through the command's
// dispatchable first handle; a physical device's commands are the loader's
// to route.
wire::Status VkHandler::check_extension_enabled(const CommandDesc& cmd, const void* args) {
  const MemberDesc& first = cmd.params[0];
  uint64_t handle = load_u64(static_cast<const std::byte*>(args) + first.offset);
  uint64_t device = 0;
  if (first.object_type == VK_OBJECT_TYPE_DEVICE) device = handle;
  else if (first.object_type == VK_OBJECT_TYPE_QUEUE || first.object_type == VK_OBJECT_TYPE_COMMAND_BUFFER)
    device = handles_.device_of(handles_.to_wire(first.object_type, true, handle));
  else
    return {};
  auto enabled = device_extensions_.find(device);
  if (enabled == device_extensions_.end() || !enabled->second.contains(cmd.device_extension))
    return refused(cmd.name, std::string("on a device created without ") + cmd.device_extension);
  return {};
}

// A command of an instance extension runs only through an instance created
// with that extension, found from its dispatchable first handle. (The host
// enables none of the window system's: the guest answers those itself.)
wire::Status VkHandler::check_instance_extension(const CommandDesc& cmd, const void* args) {
  const MemberDesc& first = cmd.params[0];
  const uint64_t handle = load_u64(static_cast<const std::byte*>(args) + first.offset);
  VkInstance instance = VK_NULL_HANDLE;
  if (first.object_type == VK_OBJECT_TYPE_INSTANCE) {
    instance = reinterpret_cast<VkInstance>(handle);
  } else {
    VkPhysicalDevice gpu = reinterpret_cast<VkPhysicalDevice>(handle);
    if (first.object_type != VK_OBJECT_TYPE_PHYSICAL_DEVICE) {
      const uint64_t device = first.object_type == VK_OBJECT_TYPE_DEVICE
                                  ? handle
                                  : handles_.device_of(handles_.to_wire(first.object_type, true, handle));
      auto owner = device_gpus_.find(reinterpret_cast<VkDevice>(device));
      gpu = owner == device_gpus_.end() ? VK_NULL_HANDLE : owner->second;
    }
    auto of = gpu_instances_.find(gpu);
    if (of != gpu_instances_.end()) instance = of->second;
  }
  auto enabled = instance_extensions_.find(instance);
  if (enabled == instance_extensions_.end() || !enabled->second.contains(cmd.instance_extension))
    return refused(cmd.name, std::string("through an instance created without ") + cmd.instance_extension);
  return {};
}

wire::Status VkHandler::run_recorded(uint32_t opcode, const CommandDesc& cmd, HostCall call, void* args) {
  if (static_cast<VkOp>(opcode) == VkOp::vkCmdDispatchIndirect) WIRE_TRY(clamp_indirect_dispatch(args));
  call(dispatch_, args);
  note_recording(opcode, cmd, args);
  return {};
}

// vkSetPrivateData and vkGetPrivateData name their object as a bare
// 64-bit number beside its type, which the codec cannot know for a handle:
// the guest's id becomes the driver's handle here (the driver follows it as
// a pointer), and the slot must be one.
template <typename Args>
wire::Status name_object(HandleTable& handles, const char* command, Args& a) {
  if (!a.privateDataSlot) return make_error(Errc::kBadName, std::string(command) + " of a null private data slot");
  auto host = handles.from_wire(a.objectType, false, a.objectHandle);
  if (!host || !*host) return make_error(Errc::kBadName, std::string(command) + " of an object the guest does not have");
  a.objectHandle = *host;
  return {};
}

wire::Status VkHandler::name_private_data_object(uint32_t opcode, void* args) {
  if (static_cast<VkOp>(opcode) == VkOp::vkSetPrivateData)
    return name_object(handles_, "vkSetPrivateData", *static_cast<VkArgs_vkSetPrivateData*>(args));
  if (static_cast<VkOp>(opcode) == VkOp::vkGetPrivateData)
    return name_object(handles_, "vkGetPrivateData", *static_cast<VkArgs_vkGetPrivateData*>(args));
  return {};
}

// A queue is taken only of a family, index and flags the device was created
// with (found by the fuzzer: lavapipe answers another with a handle, or with
// none, that the loader later aborts on).
wire::Status VkHandler::check_queue_taken(uint32_t opcode, const void* args) const {
  VkDevice device;
  uint32_t family, index;
  VkDeviceQueueCreateFlags flags = 0;  // vkGetDeviceQueue takes only queues made without flags
  if (static_cast<VkOp>(opcode) == VkOp::vkGetDeviceQueue) {
    const auto& a = *static_cast<const VkArgs_vkGetDeviceQueue*>(args);
    device = a.device, family = a.queueFamilyIndex, index = a.queueIndex;
  } else if (static_cast<VkOp>(opcode) == VkOp::vkGetDeviceQueue2) {
    const auto& a = *static_cast<const VkArgs_vkGetDeviceQueue2*>(args);
    device = a.device, family = a.pQueueInfo->queueFamilyIndex, index = a.pQueueInfo->queueIndex;
    flags = a.pQueueInfo->flags;
  } else {
    return {};
  }
  // The driver answers any other with no queue (VUID-vkGetDeviceQueue-flags-01841),
  // which the host would then wait on and submit to.
  auto it = device_queues_.find(device);
  const bool created = it != device_queues_.end() &&
                       std::any_of(it->second.begin(), it->second.end(), [&](const QueueRequest& q) {
                         return q.family == family && index < q.count && q.flags == flags;
                       });
  if (!created) return make_error(Errc::kBadValue, "a queue the device was not created with (family, index and flags)");
  return {};
}

// New objects count against the guest's objects, GL's and Vulkan's together.
wire::Status VkHandler::reserve(std::span<const NewHandle> made) const {
  const size_t limit = account_.limits.max_objects;
  if (made.size() > limit - std::min(limit, account_.objects))
    return make_error(Errc::kLimit, "more than " + std::to_string(limit) + " objects");
  return handles_.reserve(made);
}

// Each query of a pool counts as an object for its size: drivers hold
// memory for every query from the start (lavapipe a pointer each, so a pool
// of 2^29 asked for 4 GiB), which no other limit sees.
wire::Status VkHandler::check_query_count(uint32_t opcode, const void* args) const {
  if (static_cast<VkOp>(opcode) != VkOp::vkCreateQueryPool) return {};
  const uint32_t queries = static_cast<const VkArgs_vkCreateQueryPool*>(args)->pCreateInfo->queryCount;
  if (queries > account_.limits.max_objects)
    return make_error(Errc::kLimit, "vkCreateQueryPool of more queries than the guest may hold objects (" +
                                        std::to_string(queries) + ")");
  return {};
}

// The destroyed object's id may name a new object from now on.
void VkHandler::forget_destroyed(const MemberDesc& gone, const void* args) {
  const auto* field = static_cast<const std::byte*>(args) + gone.offset;
  if (gone.kind == Kind::kHandle) {
    const uint64_t host = load_u64(field);
    handles_.remove(gone.object_type, host);
    if (gone.object_type == VK_OBJECT_TYPE_DEVICE) {
      std::erase(devices_, reinterpret_cast<VkDevice>(host));
      device_gpus_.erase(reinterpret_cast<VkDevice>(host));
      device_limits_.erase(reinterpret_cast<VkDevice>(host));
      device_extensions_.erase(host);
      device_queues_.erase(reinterpret_cast<VkDevice>(host));
      area_devices_.erase(reinterpret_cast<VkDevice>(host));
    }
    if (gone.object_type == VK_OBJECT_TYPE_INSTANCE) {
      std::erase(instances_, reinterpret_cast<VkInstance>(host));
      instance_extensions_.erase(reinterpret_cast<VkInstance>(host));
      // Its physical devices went with it.
      if (instances_.empty()) handles_.remove_all(VK_OBJECT_TYPE_PHYSICAL_DEVICE);
    }
    return;
  }
  const auto* items = reinterpret_cast<const std::byte*>(load_u64(field));
  const uint64_t n = items && gone.count ? gone.count(args) : 0;
  for (uint64_t i = 0; i < n; ++i) handles_.remove(gone.object_type, load_u64(items + i * 8));
}

}  // namespace host::vk
