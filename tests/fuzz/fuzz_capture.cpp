// libFuzzer target: a capture file as `conduit replay` reads it (the
// header, the zstd stream, every record, then the session's own checks of
// the batches). Seeds: seeds/capture, captures of real programs.
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "host/egl_display.h"
#include "host/replay.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static auto display = host::EglDisplay::open({});
  if (!display) return 0;
  const int fd = ::memfd_create("capture", MFD_CLOEXEC);
  if (fd < 0) return 0;
  size_t done = 0;
  while (done < size) {
    const ssize_t n = ::write(fd, data + done, size - done);
    if (n <= 0) break;
    done += static_cast<size_t>(n);
  }
  host::ReplayOptions options;
  options.last = 100;  // an input's time stays bounded
  (void)host::replay_capture("/proc/self/fd/" + std::to_string(fd), **display, options);
  ::close(fd);
  return 0;
}
