// libFuzzer's start of every session target: the host that each input's
// session runs on is opened once, before the first input.
#include "fuzz_session.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  fuzz::open_shared_host();
  return 0;
}
