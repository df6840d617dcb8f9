#include "counters_page.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <new>

namespace host {

namespace {
constexpr size_t kPageBytes = 4096;
static_assert(sizeof(CountersPage) <= kPageBytes);

wire::Error sys_error(const char* what) {
  return wire::make_error(wire::Errc::kIo, std::string(what) + ": " + std::strerror(errno));
}

void* map_page(int fd) {
  void* p = ::mmap(nullptr, kPageBytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  return p == MAP_FAILED ? nullptr : p;
}
}  // namespace

wire::Result<std::unique_ptr<SharedCounters>> SharedCounters::create() {
  int fd = ::memfd_create("conduit-counters", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (fd < 0) return sys_error("memfd_create");
  // Sealed at its size before the renderer sees it: a renderer that could
  // shrink the page would make the supervisor's next read fault (SIGBUS).
  const bool sized = ::ftruncate(fd, kPageBytes) == 0 &&
                     ::fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) == 0;
  void* p = sized ? map_page(fd) : nullptr;
  if (!p) {
    auto e = sys_error("counters page");
    ::close(fd);
    return e;
  }
  return std::unique_ptr<SharedCounters>(new SharedCounters(fd, new (p) CountersPage()));
}

wire::Result<std::unique_ptr<SharedCounters>> SharedCounters::map(int fd) {
  void* p = map_page(fd);
  if (!p) {
    auto e = sys_error("map counters page");
    ::close(fd);
    return e;
  }
  // The supervisor constructed the page; its zeroes are valid atomics here.
  return std::unique_ptr<SharedCounters>(new SharedCounters(fd, static_cast<CountersPage*>(p)));
}

SharedCounters::~SharedCounters() {
  ::munmap(page_, kPageBytes);
  ::close(fd_);
}

}  // namespace host
