// kTestFault: faults a test asks a renderer to commit, to show that a
// renderer that crashes, aborts or is refused something costs only its own
// guest. Honoured only by hosts started with --test-faults.
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>

#include "forbidden_attempts.h"
#include "host/session.h"

namespace host {

namespace {

uint32_t try_create_file() {
  const std::string path = "/tmp/conduit-fault-" + std::to_string(::getpid());
  int fd = ::open(path.c_str(), O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600);
  if (fd < 0) return static_cast<uint32_t>(errno);
  ::close(fd);
  ::unlink(path.c_str());
  return 0;
}

// A file of the host's user that exists already (the test, the renderer's
// parent, made it).
uint32_t try_write_file() {
  const std::string path = "/tmp/conduit-fault-write-" + std::to_string(::getppid());
  int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return static_cast<uint32_t>(errno);
  const bool wrote = ::write(fd, "changed", 7) == 7;
  ::close(fd);
  return wrote ? 0 : static_cast<uint32_t>(errno);
}

// In `folder`, or where its driver's shader cache is when empty.
uint32_t try_create_in(std::string folder) {
  if (folder.empty()) {
    const char* cache = std::getenv("MESA_SHADER_CACHE_DIR");
    folder = cache ? cache : "";
  }
  const std::string path = folder + "/conduit-fault-" + std::to_string(::getpid());
  int fd = ::open(path.c_str(), O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600);
  if (fd < 0) return static_cast<uint32_t>(errno);
  ::close(fd);
  return 0;
}

uint32_t try_socket() {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return static_cast<uint32_t>(errno);
  ::close(fd);
  return 0;
}

uint32_t try_allocate(uint64_t bytes) {
  std::unique_ptr<char[]> p(new (std::nothrow) char[bytes]);
  if (!p) return ENOMEM;
  std::memset(p.get(), 1, bytes);  // touched, so it really is memory
  return 0;
}

uint32_t try_fork() {
  pid_t pid = ::fork();
  if (pid < 0) return static_cast<uint32_t>(errno);
  if (pid == 0) ::_exit(0);
  ::waitpid(pid, nullptr, 0);
  return 0;
}

}  // namespace

wire::Status Session::test_fault(wire::Reader& r) {
  auto f = r.get<wire::TestFault>();
  if (!f) return f.error();
  uint32_t result = 0;
  switch (static_cast<wire::Fault>(f->fault)) {
    case wire::Fault::kNullWrite: {
      volatile int* volatile nowhere = nullptr;
      *nowhere = 1;
      break;
    }
    case wire::Fault::kAbort: std::abort();
    case wire::Fault::kCreateFile: result = try_create_file(); break;
    case wire::Fault::kSocket: result = try_socket(); break;
    case wire::Fault::kAllocate: result = try_allocate(f->bytes); break;
    case wire::Fault::kFork: result = try_fork(); break;
    case wire::Fault::kWriteFile: result = try_write_file(); break;
    case wire::Fault::kStall: std::this_thread::sleep_for(std::chrono::milliseconds(f->bytes)); break;
    case wire::Fault::kCreateIn: {
      auto folder = r.get_data();
      if (!folder) return folder.error();
      const auto* text = reinterpret_cast<const char*>(folder->bytes.data());
      result = try_create_in(std::string(text, folder->bytes.size()));
      break;
    }
    case wire::Fault::kForbidden: result = try_forbidden(static_cast<Forbidden>(f->bytes)); break;
    default: return wire::make_error(wire::Errc::kBadValue, "fault " + std::to_string(f->fault));
  }
  reply_.put(result);
  return {};
}

}  // namespace host
