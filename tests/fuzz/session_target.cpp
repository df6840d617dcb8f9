// libFuzzer target: a GL (or recorded Vulkan) command stream run by a real
// host session after the GL prelude (fuzz_session.cpp); the host opened by
// session_target_init.cpp.
#include <cstddef>
#include <cstdint>

#include "fuzz_session.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::run_stream({data, size});
  return 0;
}
