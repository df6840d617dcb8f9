// A guest's Vulkan: decodes each command against the guest's own handle
// table, runs it on the host's driver through the loader, and answers the
// commands the guest waits for. The first error loses the guest's Vulkan
// (the session says so); its GL contexts and every other guest carry on.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <unordered_set>
#include <unordered_map>
#include <vector>

#include "host/api_handler.h"
#include "host/memory_exports.h"
#include "host/resource_account.h"
#include "host/stats.h"
#include "vk/compute_state.h"
#include "vk/dispatch_clamps.h"
#include "vk/handle_table.h"
#include "vk/object_holds.h"
#include "vk/host_calls.h"
#include "vk/pipeline_caches.h"
#include "vk/resource_shapes.h"
#include "vk/shader_checks.h"
#include "vk/vertex_input.h"
#include "wire/reader.h"
#include "wire/result.h"
#include "wire/control.h"
#include "wire/vk_codec.h"
#include "wire/vk_memory.h"
#include "wire/writer.h"

namespace host::vk {

class VkHandler final : public ApiHandler {
 public:
  // What goes out of the handler through its session: finished frames of a
  // window surface (to the guest and viewers, as GL's), the end of a
  // window's frames, and the fences found signalled (to the guest).
  struct ToGuest {
    std::function<void(const wire::Frame&, std::span<const std::byte>)> frame;
    std::function<void(uint32_t surface_id)> window_gone;
    std::function<void(std::span<const uint64_t>)> fences_signalled;
  };

  // Device memory and objects are charged to `account`, the guest's one
  // account with its GL objects. `area` is the channel's shared area (empty
  // on sockets), mapped for longer than the handler lives; `counters` are
  // the session's.
  VkHandler(ResourceAccount& account, ToGuest to_guest, Counters& counters, std::span<std::byte> area = {});
  ~VkHandler() override;
  VkHandler(const VkHandler&) = delete;
  VkHandler& operator=(const VkHandler&) = delete;

  // ApiHandler. Once lost, the guest's Vulkan runs nothing more; device
  // memory is freed when the guest frees it, so there is nothing to reclaim.
  wire::Status run(const ApiCommand& cmd) override;
  void end_batch() override;
  void reclaim() override {}
  std::optional<uint32_t> lose() override;
  const char* command_name(uint32_t opcode) const override;

  // One command; what the guest waits for goes to `reply`.
  wire::Status run(uint32_t opcode, wire::Reader& payload, wire::Writer& reply);

  // An export of the guest's that its GL imports (memory_fds.cpp).
  std::optional<int> take_export(uint32_t number, uint64_t bytes);

  // A command whose driver call needs the host's own care first.
  using Special = wire::Result<uint64_t> (VkHandler::*)(void* args);
  // What runs a command: its description, and the driver's entry or the
  // handler's own; null for an opcode the host does not run.
  struct Runner {
    const wire::vk::CommandDesc* desc = nullptr;
    HostCall call = nullptr;
    Special own = nullptr;
    // Recorded, returns nothing, parameters decoded by decode_flat_command
    // with this layout; null for every other command.
    const wire::vk::FlatPrefix* flat = nullptr;
    ResourceShapes::Check range_check = nullptr;  // what resources_ checks of it, if anything
  };
  // Most of a frame's commands (vkCmdDraw, vkCmdPushConstants...) are
  // flat: the session runs them straight, without the steps of run().
  // Their runner while the guest's Vulkan is not lost, or null.
  const Runner* flat_runner(uint32_t opcode) const {
    const Runner* r = lost_ ? nullptr : runner(opcode);
    return r && r->flat ? r : nullptr;
  }
  wire::Status run_flat(const wire::CommandIterator::Command& cmd, const Runner& runs, wire::HeapCopies& heap) {
    wire::Reader payload(cmd.payload, cmd.offset + sizeof(wire::CommandHeader), heap);
    return run_flat(cmd.opcode, runs, payload);
  }

  // Tells the guest which submitted fences are signalled now, without
  // waiting (the session calls it after each batch, and between batches
  // while fences are untold).
  void tell_signalled_fences();
  bool fences_untold() const {
    return !lost_ && std::any_of(submitted_fences_.begin(), submitted_fences_.end(),
                                 [](const SubmittedFence& s) { return !s.told; });
  }

  // submission_clock.cpp: work submitted and not known done yet, and work
  // running past the guest's --submission-timeout (the session then ends
  // the renderer: nothing else stops it).
  bool work_pending() const;
  void watch_queues();
  bool work_overdue() const;

  // The persistent cache that devices' pipeline caches are seeded from and
  // stored to (pipeline_caches.h); null: none. Set before the first device.
  void set_program_cache(ProgramCacheClient* client) { pipeline_caches_.set_client(client); }

 private:
  // The member that runs a command by hand, or null (generated from
  // vk-annotations.toml [host_runs]: build/host-renderer/vk/vk_host_specials.cpp).
  static Special special(uint32_t opcode);
  static constexpr size_t kFlatRecordBytes = 128;  // the largest flat command's record fits
  static const std::vector<Runner> kRunners;
  static const Runner* runner(uint32_t opcode) {
    const Runner* r = wire::vk::entry_of(kRunners, opcode);
    return r && r->desc && (r->call || r->own) ? r : nullptr;
  }
  static bool runs_flat(const wire::vk::CommandDesc& cmd);
  wire::Status run_flat(uint32_t opcode, const Runner& runs, wire::Reader& payload);
  wire::Status run_recorded(uint32_t opcode, const wire::vk::CommandDesc& cmd, HostCall call, void* args);
  // vkCmdDispatchIndirect made to read its counts clamped (dispatch_clamps.h).
  wire::Status clamp_indirect_dispatch(void* args);
  void keep_drivers_loaded();

  wire::Result<uint64_t> create_instance(void* args);
  wire::Result<uint64_t> create_device(void* args);
  bool offers_protected_memory(VkPhysicalDevice gpu) const;
  wire::Status check_queue_requests(VkPhysicalDevice gpu, const VkDeviceCreateInfo& info);
  void bounds_shader_reads(VkPhysicalDevice gpu, VkDeviceCreateInfo& info, VkPhysicalDeviceFeatures& features);
  wire::Result<uint64_t> destroy_device(void* args);
  wire::Result<uint64_t> destroy_instance(void* args);
  bool end_device(VkDevice device);  // as vkDestroyDevice does, with every note it takes
  void note_physical_devices(uint32_t opcode, const void* args);
  wire::Status reserve(std::span<const wire::vk::NewHandle> made) const;
  wire::Status check_query_count(uint32_t opcode, const void* args) const;
  wire::Status name_private_data_object(uint32_t opcode, void* args);
  wire::Status check_queue_taken(uint32_t opcode, const void* args) const;
  // device_identity.cpp
  wire::Result<uint64_t> physical_device_properties(void* args);
  wire::Result<uint64_t> physical_device_properties2(void* args);
  wire::Result<uint64_t> physical_device_features2(void* args);
  wire::Result<uint64_t> enumerate_instance_extensions(void* args);
  wire::Result<uint64_t> enumerate_device_extensions(void* args);
  void forget_destroyed(const wire::vk::MemberDesc& gone, const void* args);

  // pool_children.cpp: what a pool's end takes with it.
  void note_children(uint32_t opcode, const void* args);
  void drop_children(uint64_t pool);
  void note_pool_children(uint64_t pool, uint64_t device, VkObjectType type, const void* items, uint32_t count);
  void forget_pool_children(uint64_t pool, VkObjectType type, const void* items, uint32_t count);
  static wire::Status check_named_once(uint32_t opcode, const void* args);

  // recording.cpp: each command buffer's recording state, checked before a
  // command is recorded into it, a secondary is executed or a buffer is
  // submitted (drivers trust these and crash on what the spec forbids).
  struct Recording {
    enum class Stage : uint8_t { kInitial, kRecording, kExecutable, kInvalid };
    // kContinued: a secondary begun to continue its primary's render pass,
    // for the whole of its recording (it can begin or end none).
    enum class Within : uint8_t { kNone, kRenderPass, kRendering, kContinued };
    uint64_t device = 0;
    bool secondary = false;
    // The device's limits on what a command names by index or offset.
    struct Limits {
      uint32_t push_constant_bytes = 0;  // maxPushConstantsSize
      VertexInputLimits vertex_input;     // maxVertexInputBindings and the rest (vertex_input.h)
      uint32_t viewports = 0;            // maxViewports (scissors too)
      // VK_EXT_transform_feedback's, 0 on a device without it enabled.
      uint32_t feedback_buffers = 0;      // maxTransformFeedbackBuffers
      uint32_t feedback_streams = 0;      // maxTransformFeedbackStreams
      uint32_t feedback_stride = 0;       // maxTransformFeedbackBufferDataStride
      uint32_t color_attachments = 0;     // maxColorAttachments
      uint32_t multi_draws = 0;           // maxMultiDrawCount, 0 without VK_EXT_multi_draw
      uint32_t compute_groups[3] = {};    // maxComputeWorkGroupCount
      uint32_t dynamic_state3 = 0;        // VK_EXT_extended_dynamic_state3's features enabled (dynamic_state3.h)
      // Sample counts of rendering into single-sampled attachments
      // (VK_EXT_multisampled_render_to_single_sampled), 0 without it.
      VkSampleCountFlags single_sampled_counts = 0;
    };
    Limits limits;
    Stage stage = Stage::kInitial;
    Within within = Within::kNone;
    bool one_time = false;   // invalid once submitted
    uint32_t subpass = 0;
    uint32_t subpasses = 0;
    bool graphics_bound = false;
    bool compute_bound = false;
    // Push constants given to a graphics stage: lavapipe begins a query by
    // handing them to the bound graphics pipeline, and follows a null one.
    bool graphics_pushed = false;
    uint64_t index_room = 0;  // indices the bound index buffer holds past its offset
    bool feedback_active = false;  // between vkCmdBegin- and vkCmdEndTransformFeedbackEXT
    uint32_t feedback_bound = 0;   // transform feedback bindings given a buffer, a bit each
    // Queries begun and not yet ended, and where: lavapipe ends a query that
    // is not active by reading through a null pointer.
    struct ActiveQuery {
      uint64_t pool;
      uint32_t query;
      bool in_render_pass;
      uint32_t subpass;
      uint32_t index = 0;  // the vertex stream of vkCmdBeginQueryIndexedEXT
    };
    std::vector<ActiveQuery> active_queries;
    ComputeState compute;  // bound again after the host's own dispatches
    // The objects its commands named (recorded_uses.cpp), and the count of
    // the guest's removed objects when all of them were last found live.
    std::vector<ObjectUse> uses;
    uint64_t uses_live_at = 0;
    // The same command buffer as allocated, nothing recorded (reset, begun).
    Recording fresh() const { return {.device = device, .secondary = secondary, .limits = limits}; }
  };
  wire::Status check_recording(uint32_t opcode, const wire::vk::CommandDesc& cmd, const void* args);
  wire::Status check_command(const wire::vk::CommandDesc& cmd, uint32_t opcode, const void* args);
  wire::Status check_begin(const void* args) const;
  static wire::Status check_push_constants(const Recording& r, const void* args);
  static wire::Status check_indexed_state(const Recording& r, uint32_t opcode, const void* args);
  static wire::Status check_indices(const Recording& r, const void* args);
  static wire::Status check_query_state(const Recording& r, uint32_t opcode, const void* args);
  wire::Status check_submits(uint32_t opcode, const void* args);
  wire::Status check_executed(const Recording& primary, const void* args) const;
  // transform_feedback.cpp: VK_EXT_transform_feedback's bindings, streams
  // and indexed queries against the device's limits and the recording.
  static wire::Status check_transform_feedback(const Recording& r, uint32_t opcode, const void* args);
  static void note_transform_feedback(Recording& r, uint32_t opcode, const void* args);
  // multi_draw.cpp: the draws' count and indexed draws' indices.
  static wire::Status check_multi_draw(const Recording& r, uint32_t opcode, const void* args);
  // work_limits.cpp: the vertices and workgroups one command asks for.
  wire::Status check_draw_work(uint32_t opcode, const void* args) const;
  wire::Status check_dispatch_work(const Recording& r, uint32_t opcode, const void* args) const;
  // dynamic_state3.cpp: features enabled, attachments within the device's limits.
  static wire::Status check_dynamic_state3(const Recording& r, uint32_t opcode, const void* args);
  void note_recording(uint32_t opcode, const wire::vk::CommandDesc& cmd, const void* args);
  void note_recorded(Recording& r, uint32_t opcode, const void* args);
  void note_submitted(uint32_t opcode, const void* args);
  void reset_recordings_of_pool(uint64_t pool, bool forget);
  std::unordered_map<VkCommandBuffer, Recording> recordings_;
  // recorded_uses.cpp: what a recording names, and whether all of it and
  // all it reaches through other objects lives when it is submitted.
  void keep_uses(Recording& r, uint32_t opcode, const void* args);
  void note_holds(uint32_t opcode, const void* args);
  std::array<ObjectUse, 2> named_by(const VkWriteDescriptorSet& w, uint32_t k, const BindingShape& b) const;
  void note_descriptor_holds(const VkWriteDescriptorSet* writes, uint32_t write_count,
                             const VkCopyDescriptorSet* copies, uint32_t copy_count);
  wire::Status check_uses_live(Recording& r);
  bool uses_live(const Recording& r, std::unordered_set<uint64_t>& seen) const;
  ObjectHolds holds_;
  // The buffer the last recorded command went into, and its state.
  VkCommandBuffer recording_now_key_ = VK_NULL_HANDLE;
  Recording* recording_now_ = nullptr;

  // driver_reads.cpp: room for what the driver reads by other objects' state.
  wire::Status fit_driver_reads(uint32_t opcode, void* args);
  wire::Status fit_clear_values(const VkRenderPassBeginInfo* begin);

  // object_shapes.cpp: what later commands are checked against (render
  // passes' attachments and subpasses, framebuffers' attachments,
  // pipelines' bind points), kept while the object lives.
  void note_shapes(uint32_t opcode, const void* args);
  void note_pipelines(uint64_t device, uint32_t count, const VkPipeline* made, VkPipelineBindPoint point);
  void note_libraries(uint32_t count, const VkGraphicsPipelineCreateInfo* infos, const VkPipeline* made);
  void forget_shapes_of(uint64_t device);
  wire::Status check_bind(const void* args) const;
  wire::Status check_render_pass_begin(const VkRenderPassBeginInfo& begin) const;
  // render_pass_checks.cpp
  wire::Status check_render_passes(uint32_t opcode, const void* args) const;
  // single_sampled.cpp: rendering multisampled into single-sampled attachments.
  wire::Result<bool> renders_single_sampled(const char* command, uint64_t device, const void* chain) const;
  wire::Status check_single_sampled(uint32_t opcode, const void* args);

  // shader_commands.cpp: shader modules validated, pipelines' stages
  // checked against their layouts.
  wire::Status check_shaders(uint32_t opcode, const void* args);
  void note_shaders(uint32_t opcode, const void* args);
  const SpirvTarget& spirv_target(VkDevice device);
  ShaderChecks shaders_;

  // memory_commands.cpp: device memory, mapped where the host can see it,
  // and the guest's copies of it written in and read out.
  struct HostMemory {
    VkDevice device;
    uint64_t size;
    void* mapped;  // host-visible memory stays mapped while it lives
    bool coherent;
    uint32_t type_index = 0;
    VkExternalMemoryHandleTypeFlags export_types = 0;  // as allocated (VkExportMemoryAllocateInfo)
  };
  wire::Result<uint64_t> allocate_memory(void* args);
  wire::Result<uint64_t> free_memory(void* args);
  wire::Status run_memory_op(uint32_t opcode, wire::Reader& payload, wire::Writer& reply);
  using MemoryMap = std::unordered_map<VkDeviceMemory, HostMemory>;
  wire::Result<MemoryMap::iterator> mapped_range(wire::Reader& payload, uint64_t* offset, uint64_t* size);
  void free_memory_of(VkDevice device);  // every allocation of `device`, or of all with null
  void clear_fresh_memory(VkDevice device, VkDeviceMemory memory, void* mapped, VkDeviceSize size, bool coherent);

  // memory_fds.cpp: memory a guest exported as an opaque fd. The driver's
  // fd stays in the renderer; the guest holds its number, which one import
  // of the guest's takes (an import owns its fd). Only this guest's own
  // exports can be imported: its renderer holds no other.
  struct MemoryExport {
    int fd;
    uint64_t size;
    uint32_t type_index;
    VkPhysicalDevice gpu;
  };
  static constexpr size_t kMostExports = 64;  // fds the guest may leave unimported
  std::map<uint32_t, MemoryExport> exports_;
  uint32_t next_export_ = 1;
  struct FdImport {
    bool present = false;  // the allocation imports an fd
    bool known = false;    // of an export of this guest's not imported yet
    uint32_t number = 0;
  };
  wire::Result<uint64_t> get_memory_fd(void* args);
  wire::Result<FdImport> take_fd_import(VkDevice device, const VkMemoryAllocateInfo& info);
  void close_exports();

  // shared_area.cpp: host-visible memory the guest placed in the shared area.
  bool add_area_import(const std::vector<VkExtensionProperties>& offered, std::vector<const char*>& names) const;
 public:
  // Placements in the area are taken, but no allocation is imported from
  // it: the guest keeps its memory in shadows, whose changes cross in the
  // stream (a captured or replayed session, docs/capture.md).
  void refuse_area_imports() { imports_refused_ = true; }

 private:
  wire::Status place_in_area(wire::Reader& payload);
  wire::Result<uint64_t> create_buffer(void* args);
  wire::Result<uint64_t> create_image(void* args);
  VkResult import_from_area(VkDevice device, const VkMemoryAllocateInfo& info, VkMemoryPropertyFlags flags,
                            const wire::vk::AreaPlacement& place, VkDeviceMemory* memory);
  std::span<std::byte> area_;
  bool imports_refused_ = false;  // refuse_area_imports()
  Counters& counters_;
  std::optional<wire::vk::AreaPlacement> placement_;  // for the next vkAllocateMemory only
  std::unordered_set<VkDevice> area_devices_;         // created with the import extension

  // present_commands.cpp: a swapchain image's copy sent as a frame, and
  // the fences submitted before it told signalled.
  struct SubmittedFence {
    VkDevice device;
    VkQueue queue;
    VkFence fence;
    bool told = false;  // signalled, and the guest told so; kept for a present that names it
  };
  wire::Status present_memory(wire::Reader& payload);
  wire::Status tell_fences_before(VkFence presented);
  void note_fences(uint32_t opcode, const void* args);
  std::vector<SubmittedFence> submitted_fences_;  // in submission order, until reset or presented

  // submission_clock.cpp: each queue's watch over its submitted work.
  struct QueueClock {
    VkDevice device = VK_NULL_HANDLE;
    VkFence fence = VK_NULL_HANDLE;  // the host's, of the empty submission that watches
    bool watching = false;           // that submission is pending
    bool unwatched = false;          // work was submitted after it
    uint64_t since_ms = 0;           // when the watch was submitted
  };
  void note_submitted_work(uint32_t opcode, const void* args);
  void forget_clocks_of(VkDevice device);
  std::unordered_map<VkQueue, QueueClock> clocks_;

  // in_flight.cpp: the host waits for a submission before a command buffer
  // or fence it uses is re-recorded, reset or freed.
  struct InFlight {
    VkDevice device;
    VkQueue queue;
    VkFence fence;  // of the submission; null when none (or destroyed since)
  };
  wire::Status settle_before(uint32_t opcode, void* args);
  void note_in_flight(uint32_t opcode, const void* args);
  wire::Status settle(VkCommandBuffer cb);
  wire::Status settle_pool(VkCommandPool pool);
  wire::Status settle_work_of(VkDevice device);
  wire::Status retire(VkDevice device, VkFence fence);
  wire::Status check_submit_fence(VkQueue queue, VkFence fence);

  // bounded_waits.cpp: every wait bounded, the guest's in asks of a slice.
  VkResult wait_queue(VkDevice device, VkQueue queue, uint64_t ns);
  VkResult wait_device(VkDevice device, uint64_t ns);
  void forget_idle_fence(VkDevice device, VkQueue queue);
  bool settle_queue(VkDevice device, VkQueue queue);
  bool settle_device(VkDevice device);
  void release_timeline(VkDevice device, VkSemaphore semaphore);
  wire::Result<uint64_t> queue_wait_idle(void* args);
  wire::Result<uint64_t> device_wait_idle(void* args);
  wire::Result<uint64_t> query_results(void* args);
  std::unordered_map<VkQueue, VkFence> idle_fences_;  // pending across a guest's asks
  std::unordered_map<VkCommandBuffer, InFlight> in_flight_;  // by the submission that used it last
  ToGuest to_guest_;
  HandleTable handles_;
  HostDispatch dispatch_;
  ResourceShapes resources_{dispatch_};  // after dispatch_, which it calls
  PipelineCaches pipeline_caches_{dispatch_, counters_};
  DispatchClamps dispatch_clamps_{dispatch_};
  wire::vk::Arena arena_;
  std::vector<wire::vk::NewHandle> created_;
  std::vector<VkInstance> instances_;
  std::vector<VkDevice> devices_;
  std::unordered_map<VkDevice, VkPhysicalDevice> device_gpus_;
  std::unordered_map<VkPhysicalDevice, VkInstance> gpu_instances_;  // the instance that enumerated each
  std::unordered_map<VkDevice, Recording::Limits> device_limits_;
  // Each device's enabled extensions: the loader calls a command of one the
  // device lacks through a null pointer.
  std::unordered_map<uint64_t, std::unordered_set<std::string>> device_extensions_;
  wire::Status check_extension_enabled(const wire::vk::CommandDesc& cmd, const void* args);
  // Each instance's enabled extensions, as the host enabled them: the
  // loader gives no entry point for a command of one the instance lacks.
  std::unordered_map<VkInstance, std::unordered_set<std::string>> instance_extensions_;
  wire::Status check_instance_extension(const wire::vk::CommandDesc& cmd, const void* args);
  // Each device's queues as created: (family, count). A driver answers a
  // queue it was not created with by a handle that is none.
  struct QueueRequest {
    uint32_t family, count;
    VkDeviceQueueCreateFlags flags;
  };
  std::unordered_map<VkDevice, std::vector<QueueRequest>> device_queues_;  // as each device was created
  // By pool: its device, and the command buffers or descriptor sets allocated from it.
  struct PoolChildren {
    uint64_t device;
    std::vector<std::pair<VkObjectType, uint64_t>> items;
  };
  std::unordered_map<uint64_t, PoolChildren> children_;
  MemoryMap memory_;
  struct RenderPassShape {
    uint64_t device;
    uint32_t attachments;
    uint32_t subpasses;
    bool single_sampled = false;  // a subpass renders multisampled into single-sampled attachments
  };
  struct FramebufferShape {
    uint64_t device;
    uint32_t attachments;
    bool imageless;
    bool repeats_views = false;  // names a view twice (single_sampled.cpp)
    uint32_t width = 0, height = 0;  // what a begin's render area must stay within
  };
  struct PipelineShape {
    uint64_t device;
    VkPipelineBindPoint bind_point;
    uint32_t library_parts = 0;  // a graphics library's parts (pipeline_libraries.h); 0: not a library
    bool discards = false;       // its pre-rasterization part discards every primitive
  };
  // pipeline_libraries.cpp
  wire::Status check_pipeline_parts(uint64_t device, const VkGraphicsPipelineCreateInfo& info) const;
  std::unordered_map<uint64_t, RenderPassShape> render_passes_;  // by render pass
  std::unordered_map<uint64_t, FramebufferShape> framebuffers_;
  std::unordered_map<uint64_t, PipelineShape> pipelines_;
  ResourceAccount& account_;
  bool lost_ = false;
};

}  // namespace host::vk
