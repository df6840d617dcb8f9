// Whether this test binary runs under AddressSanitizer, whose allocator
// keeps freed memory in its quarantine: tests of what a process gives
// back to the system cannot measure it there.
#pragma once

#if defined(__SANITIZE_ADDRESS__)
#define CONDUIT_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CONDUIT_UNDER_ASAN 1
#endif
#endif
