// Whether this build runs under AddressSanitizer. GCC and clang announce it
// differently; code that must behave otherwise there (no memory limits, a
// looser sandbox for LeakSanitizer) asks CONDUIT_ASAN.
#pragma once

#if defined(__SANITIZE_ADDRESS__)
#define CONDUIT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CONDUIT_ASAN 1
#endif
#endif

#ifndef CONDUIT_ASAN
#define CONDUIT_ASAN 0
#endif
