// What the host spends decoding the Vulkan commands of a frame: draws,
// push constants, a buffer copy of four regions and a submit, each into an
// argument record of its own, as the host's handler does (one arena, reset
// per command; the draws and push constants also as flat commands); and what the guest spends encoding a draw and push
// constants into its batch.
#include <benchmark/benchmark.h>

#include <vector>

#include "identity_handles.h"
#include "wire/vk_commands.h"

namespace {

using namespace wire::vk;

struct Ids final : wiretest::IdentityHandles {
  Ids() : IdentityHandles(0x100) {}
};

template <typename Args>
std::vector<std::byte> encoded(VkOp op, Args& args) {
  Ids ids;
  wire::Writer w;
  encode_args(w, *command_desc(static_cast<uint32_t>(op)), &args, ids);
  return {w.bytes().begin(), w.bytes().end()};
}

void decode_loop(benchmark::State& state, VkOp op, const std::vector<std::byte>& bytes) {
  const CommandDesc& desc = *command_desc(static_cast<uint32_t>(op));
  Ids ids;
  Arena arena;
  std::vector<NewHandle> created;
  for (auto _ : state) {
    arena.reset();
    created.clear();
    auto args = arena.alloc(1, desc.args_size, 0);
    wire::Reader r(bytes, 0);
    benchmark::DoNotOptimize(decode_args(r, desc, arena, *args, ids, created).ok());
  }
}

// As the host's handler decodes flat commands (decode_flat_command): into a
// record on the stack, without the arena.
void flat_loop(benchmark::State& state, VkOp op, const std::vector<std::byte>& bytes) {
  const CommandDesc& desc = *command_desc(static_cast<uint32_t>(op));
  Ids ids;
  alignas(16) std::byte args[128];
  for (auto _ : state) {
    wire::Reader r(bytes, 0);
    benchmark::DoNotOptimize(decode_flat_command(r, desc, args, ids).ok());
  }
}

VkCommandBuffer cb() { return reinterpret_cast<VkCommandBuffer>(uint64_t{0x10}); }

using Loop = void (*)(benchmark::State&, VkOp, const std::vector<std::byte>&);

template <Loop loop>
void BM_DecodeDrawIndexed(benchmark::State& state) {
  VkArgs_vkCmdDrawIndexed a{cb(), 36, 1, 0, 0, 0};
  loop(state, VkOp::vkCmdDrawIndexed, encoded(VkOp::vkCmdDrawIndexed, a));
}

template <Loop loop>
void BM_DecodeDraw(benchmark::State& state) {
  VkArgs_vkCmdDraw a{cb(), 4, 1, 0, 0};
  loop(state, VkOp::vkCmdDraw, encoded(VkOp::vkCmdDraw, a));
}

template <Loop loop>
void BM_DecodePushConstants32(benchmark::State& state) {
  const float values[8] = {0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f, 0.7f, 1.0f};
  VkArgs_vkCmdPushConstants a{cb(), reinterpret_cast<VkPipelineLayout>(uint64_t{0x13}), VK_SHADER_STAGE_VERTEX_BIT,
                              0, sizeof values, values};
  loop(state, VkOp::vkCmdPushConstants, encoded(VkOp::vkCmdPushConstants, a));
}

void BM_DecodeCopyBuffer4(benchmark::State& state) {
  VkBufferCopy regions[4] = {{0, 0, 64}, {64, 64, 64}, {128, 128, 64}, {192, 192, 64}};
  VkArgs_vkCmdCopyBuffer a{cb(), reinterpret_cast<VkBuffer>(uint64_t{0x11}), reinterpret_cast<VkBuffer>(uint64_t{0x12}),
                           4, regions};
  decode_loop(state, VkOp::vkCmdCopyBuffer, encoded(VkOp::vkCmdCopyBuffer, a));
}

void BM_DecodeQueueSubmit(benchmark::State& state) {
  VkCommandBuffer buffers[1] = {cb()};
  VkSemaphore wait = reinterpret_cast<VkSemaphore>(uint64_t{0x20});
  VkSemaphore signal = reinterpret_cast<VkSemaphore>(uint64_t{0x21});
  VkPipelineStageFlags stage = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO, nullptr, 1, &wait, &stage, 1, buffers, 1, &signal};
  VkArgs_vkQueueSubmit a{reinterpret_cast<VkQueue>(uint64_t{0x30}), 1, &submit,
                         reinterpret_cast<VkFence>(uint64_t{0x31})};
  decode_loop(state, VkOp::vkQueueSubmit, encoded(VkOp::vkQueueSubmit, a));
}

// The guest's side: one command after another into a batch, sent (here:
// dropped) when it passes the guest's flush size.
void encode_loop(benchmark::State& state, VkOp op, const void* args) {
  const CommandDesc& desc = *command_desc(static_cast<uint32_t>(op));
  Ids ids;
  wire::Writer w;
  for (auto _ : state) {
    const size_t at = w.begin(desc.opcode);
    benchmark::DoNotOptimize(encode_args(w, desc, args, ids));
    w.end(at);
    if (w.size() >= 8 * 1024) w.clear();
  }
}

void BM_EncodeDraw(benchmark::State& state) {
  VkArgs_vkCmdDraw a{cb(), 4, 1, 0, 0};
  encode_loop(state, VkOp::vkCmdDraw, &a);
}

void BM_EncodePushConstants32(benchmark::State& state) {
  const float values[8] = {0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f, 0.7f, 1.0f};
  VkArgs_vkCmdPushConstants a{cb(), reinterpret_cast<VkPipelineLayout>(uint64_t{0x13}), VK_SHADER_STAGE_VERTEX_BIT,
                              0, sizeof values, values};
  encode_loop(state, VkOp::vkCmdPushConstants, &a);
}

BENCHMARK(BM_DecodeDrawIndexed<decode_loop>)->Name("BM_DecodeDrawIndexed");
BENCHMARK(BM_DecodeDrawIndexed<flat_loop>)->Name("BM_DecodeDrawIndexedFlat");
BENCHMARK(BM_DecodeDraw<decode_loop>)->Name("BM_DecodeDraw");
BENCHMARK(BM_DecodeDraw<flat_loop>)->Name("BM_DecodeDrawFlat");
BENCHMARK(BM_DecodePushConstants32<decode_loop>)->Name("BM_DecodePushConstants32");
BENCHMARK(BM_DecodePushConstants32<flat_loop>)->Name("BM_DecodePushConstants32Flat");
BENCHMARK(BM_DecodeCopyBuffer4);
BENCHMARK(BM_DecodeQueueSubmit);
BENCHMARK(BM_EncodeDraw);
BENCHMARK(BM_EncodePushConstants32);

}  // namespace

BENCHMARK_MAIN();
