// libFuzzer target: a Vulkan command stream run by a real host session into
// the host's Vulkan driver, between a prelude that makes objects every input
// can name and an epilogue that submits what the input recorded
// (vk_prelude.h). The custom mutator (vk_stream_mutator.cpp) writes commands
// from the generated Vulkan model with the prelude's handles and hostile
// ranges, so inputs pass the decoder and meet the host's checks.
#include <cstddef>
#include <cstdint>

#include "fuzz_session.h"
#include "vk_stream_mutator.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::run_vk_stream({data, size});
  return 0;
}

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size, unsigned seed) {
  return fuzz::mutate_vk_stream(data, size, max_size, seed);
}

extern "C" size_t LLVMFuzzerCustomCrossOver(const uint8_t* a, size_t a_size, const uint8_t* b, size_t b_size,
                                            uint8_t* out, size_t max_size, unsigned seed) {
  return fuzz::cross_over_streams(a, a_size, b, b_size, out, max_size, seed);
}
