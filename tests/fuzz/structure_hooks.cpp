// The structure-aware mutator hooks, linked into the fuzz targets that take
// command streams (not into the replay tests, which have no libFuzzer).
#include <cstddef>
#include <cstdint>

#include "stream_mutator.h"

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size, unsigned seed) {
  return fuzz::mutate_stream(data, size, max_size, seed);
}

extern "C" size_t LLVMFuzzerCustomCrossOver(const uint8_t* a, size_t a_size, const uint8_t* b, size_t b_size,
                                            uint8_t* out, size_t max_size, unsigned seed) {
  return fuzz::cross_over_streams(a, a_size, b, b_size, out, max_size, seed);
}
