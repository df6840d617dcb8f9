// The renderer sandbox from the inside: a renderer under test (--test-faults)
// does what a renderer taken over through its driver would try first
// (host-renderer/src/renderer/forbidden_attempts.h), for real, after its
// sandbox is in place; each must be refused, and the supervisor and a
// witness guest must carry on. From the outside: what a renderer process
// holds (its capabilities, filter, environment), and memory shared with the
// supervisor that someone shrinks.
#include <dirent.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "host_fixture.h"
#include "renderer_guests.h"
#include "src/renderer/forbidden_attempts.h"
#include "wire/address.h"

namespace hosttest {
namespace {

using host::Forbidden;

const char* const kTestToken = "sandbox-test-token-never-in-renderers";

// The supervisor is this process: renderers name the file after it.
std::string host_file() { return "/tmp/conduit-fault-write-" + std::to_string(::getpid()); }

// The suite's program cache, where renderers must not write either.
std::string program_cache() { return "/tmp/conduit-program-cache-" + std::to_string(::getpid()); }

host::HostOptions with_program_cache() {
  host::HostOptions o = isolated();
  o.program_cache = program_cache();
  o.cache_scope = "host";
  std::filesystem::create_directories(program_cache() + "/programs/host");
  return o;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// One host for the suite (renderers take a while to start): a witness guest
// and an attacker, each served by a renderer of its own.
class Sandbox : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!std::getenv("CONDUIT_EXE")) return;
    std::ofstream(host_file(), std::ios::trunc) << "original";
    // Variables a renderer must not inherit, and one it keeps (drivers read
    // MESA_*), for as long as the suite's renderers start.
    set_display_ = !std::getenv("DISPLAY");
    ::setenv("CONDUIT_TOKEN", kTestToken, 1);
    if (set_display_) ::setenv("DISPLAY", ":99", 1);
    ::setenv("MESA_CONDUIT_SANDBOX_TEST", "kept", 1);
    host_ = new RunningHost(with_program_cache());
    ::getrlimit(RLIMIT_NOFILE, &files_before_);
    if (!host_->ok()) return;
    witness_ = ready_guest(host_->address()).release();
    attacker_ = ready_guest(host_->address()).release();
  }
  static void TearDownTestSuite() {
    delete attacker_;
    delete witness_;
    delete host_;
    attacker_ = witness_ = nullptr;
    host_ = nullptr;
    ::unlink(host_file().c_str());
    std::filesystem::remove_all(program_cache());
    ::unsetenv("CONDUIT_TOKEN");
    ::unsetenv("MESA_CONDUIT_SANDBOX_TEST");
    if (set_display_) ::unsetenv("DISPLAY");
  }
  void SetUp() override {
    if (!std::getenv("CONDUIT_EXE")) GTEST_SKIP() << "CONDUIT_EXE not set";
    ASSERT_TRUE(host_->ok()) << host_->error();
    ASSERT_TRUE(witness_ && attacker_);
  }

  // The supervisor carries on: its limits are its own, it counts no crash,
  // and the witness renders.
  static void expect_supervisor_unharmed(uint32_t frame) {
    rlimit files{};
    ::getrlimit(RLIMIT_NOFILE, &files);
    EXPECT_EQ(files.rlim_cur, files_before_.rlim_cur);
    EXPECT_EQ(host_->server().stats_json()["renderers"]["crashed"], 0);
    EXPECT_TRUE(renders(*witness_, 50, frame)) << "the witness renders";
  }

  // The renderer process of the live session at `index`: 0 is the witness's, 1 the attacker's.
  static int renderer_pid(size_t index) {
    const nlohmann::json stats = host_->server().stats_json();
    return stats["sessions"].at(index)["renderer_pid"].get<int>();
  }

  static inline RunningHost* host_ = nullptr;
  static inline TestGuest* witness_ = nullptr;
  static inline TestGuest* attacker_ = nullptr;
  static inline rlimit files_before_{};
  static inline bool set_display_ = false;
};

// The parameter is a Forbidden, by number (forbidden_attempts.h names them).
class SandboxRefusesEscape : public Sandbox, public ::testing::WithParamInterface<uint32_t> {};

TEST_P(SandboxRefusesEscape, AndEveryoneElseCarriesOn) {
  const uint32_t err = fault(*attacker_, wire::Fault::kForbidden, GetParam());
  EXPECT_TRUE(err == EPERM || err == EACCES)
      << "attempt " << GetParam() << " answered "
      << (err == 0     ? "success"
          : err == ~0u ? "nothing"
                       : std::strerror(static_cast<int>(err)));
  EXPECT_TRUE(renders(*attacker_, 120, GetParam())) << "the attacker's renderer carries on";
  expect_supervisor_unharmed(GetParam());
}

// Test names, in the order of forbidden_attempts.h.
constexpr const char* kAttemptNames[] = {
    "SignalSupervisor",
    "QueueSignalSupervisor",
    "SignalEveryone",
    "PidfdOfSupervisor",
    "ProcDirOfSupervisor",
    "LimitsOfSupervisor",
    "SupervisorEnvironment",
    "SupervisorMemory",
    "TraceSupervisor",
    "ReadShadow",
    "ReadHostFile",
    "WriteHostFile",
    "CreateFile",
    "Mount",
    "Fsopen",
    "OpenTree",
    "RegainCapabilities",
    "UserNamespace",
    "InetSocket",
    "UnixSocket",
    "Execute",
    "Bpf",
    "ShrinkCountersPage",
    "HoldRootIds",
    "BecomeRoot",
    "PriorityOfSupervisor",
    "SchedulingOfSupervisor",
    "WriteProgramCache",
};
static_assert(std::size(kAttemptNames) == host::kForbiddenCount);

INSTANTIATE_TEST_SUITE_P(Attempts, SandboxRefusesEscape,
                         ::testing::Range(static_cast<uint32_t>(Forbidden::kSignalSupervisor),
                                          host::kForbiddenCount + 1),
                         [](const ::testing::TestParamInfo<uint32_t>& info) {
                           return kAttemptNames[info.param - 1];
                         });

TEST_F(Sandbox, HostFileKeptItsContents) {
  EXPECT_NE(
      fault(*attacker_, wire::Fault::kForbidden, static_cast<uint64_t>(Forbidden::kWriteHostFile)),
      0u);
  EXPECT_EQ(read_text(host_file()), "original");
}

// "CapEff:\t0000..." lines of /proc/PID/status, by name.
std::map<std::string, std::string> status_of(const std::string& path) {
  std::map<std::string, std::string> fields;
  std::istringstream in(read_text(path));
  for (std::string line; std::getline(in, line);) {
    const size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    size_t value = line.find_first_not_of(" \t", colon + 1);
    fields[line.substr(0, colon)] = value == std::string::npos ? "" : line.substr(value);
  }
  return fields;
}

// Every thread, also those the driver started before the filter was loaded.
TEST_F(Sandbox, EveryThreadIsFilteredAndHoldsNoCapability) {
  const std::string task = "/proc/" + std::to_string(renderer_pid(1)) + "/task";
  DIR* d = ::opendir(task.c_str());
  ASSERT_TRUE(d);
  int threads = 0;
  while (dirent* e = ::readdir(d)) {
    if (e->d_name[0] == '.') continue;
    auto s = status_of(task + "/" + e->d_name + "/status");
    if (s.empty()) continue;  // a thread that ended meanwhile
    ++threads;
    SCOPED_TRACE(std::string("thread ") + e->d_name);
    EXPECT_EQ(s["Seccomp"], "2") << "a system call filter";
    EXPECT_EQ(s["NoNewPrivs"], "1");
    for (const char* set : {"CapInh", "CapPrm", "CapEff", "CapAmb"})
      EXPECT_EQ(s[set], "0000000000000000") << set;
    // Only a privileged host can empty the bounding set; it then must.
    if (::geteuid() == 0) {
      EXPECT_EQ(s["CapBnd"], "0000000000000000");
    }
  }
  ::closedir(d);
  EXPECT_GT(threads, 1) << "the driver's threads are there too";
}

// Ids as the kernel sees them: "Uid:\t0\t0\t0\t0" (real, effective, saved, files).
std::vector<long> ids_in(const std::string& field) {
  std::vector<long> ids;
  std::istringstream in(field);
  for (long id; in >> id;) ids.push_back(id);
  return ids;
}

// A host run as root (tests here are) gives its renderers an unprivileged
// user's ids (--renderer-user, "auto": nobody where there is no
// conduit-renderer), with no root group among its supplementary groups;
// both the renderer started with the host and one started later.
TEST_F(Sandbox, RenderersOfARootHostHoldNoRootId) {
  if (::geteuid() != 0) GTEST_SKIP() << "the host is not root: renderers keep its ids";
  for (size_t index : {0u, 1u}) {
    SCOPED_TRACE("renderer " + std::to_string(index));
    auto s = status_of("/proc/" + std::to_string(renderer_pid(index)) + "/status");
    for (const char* field : {"Uid", "Gid"}) {
      const std::vector<long> ids = ids_in(s[field]);
      ASSERT_EQ(ids.size(), 4u) << field << ": " << s[field];
      for (long id : ids) EXPECT_NE(id, 0) << field << ": " << s[field];
    }
    for (long group : ids_in(s["Groups"])) EXPECT_NE(group, 0) << "Groups: " << s["Groups"];
  }
}

// A terminal it holds as stderr cannot be typed into (TIOCSTI needs it to
// be the controlling terminal, or CAP_SYS_ADMIN).
TEST_F(Sandbox, RenderersHaveNoControllingTerminal) {
  const int pid = renderer_pid(1);
  const std::string stat = read_text("/proc/" + std::to_string(pid) + "/stat");
  std::istringstream fields(stat.substr(stat.rfind(')') + 2));
  std::string state;
  int ppid = 0, group = 0, session = 0, tty = -1;
  fields >> state >> ppid >> group >> session >> tty;
  EXPECT_EQ(session, pid) << "a session of its own";
  EXPECT_EQ(tty, 0) << "no controlling terminal";
}

// Both renderers (the witness's started with the host, the attacker's
// after it) started while the host's environment held the token.
TEST_F(Sandbox, RenderersGetOnlyTheDriversEnvironment) {
  for (size_t index : {0u, 1u}) {
    SCOPED_TRACE("renderer " + std::to_string(index));
    const std::string text = read_text("/proc/" + std::to_string(renderer_pid(index)) + "/environ");
    if (text.empty()) GTEST_SKIP() << "another process's environment is not readable here";
    std::vector<std::string> vars;
    for (size_t at = 0, end; at < text.size(); at = end + 1) {
      end = text.find('\0', at);
      if (end == std::string::npos) end = text.size();
      vars.push_back(text.substr(at, end - at));
    }
    EXPECT_EQ(text.find(kTestToken), std::string::npos) << "the token stays with the supervisor";
    for (const auto& v : vars) {
      EXPECT_NE(v.rfind("CONDUIT_", 0), 0u) << v;
      EXPECT_NE(v.rfind("DISPLAY=", 0), 0u) << v;
      EXPECT_NE(v.rfind("PATH=", 0), 0u) << v;
    }
    EXPECT_NE(std::find(vars.begin(), vars.end(), "MESA_CONDUIT_SANDBOX_TEST=kept"), vars.end());
  }
}

// A ring file is a plain file: any process of its owner may truncate it
// while the host listens on it (the listener maps it).
TEST(SharedMemory, ARingFileTruncatedUnderTheHostDoesNotEndIt) {
  if (!std::getenv("CONDUIT_EXE")) GTEST_SKIP() << "CONDUIT_EXE not set";
  RunningHost host(isolated(), true);
  ASSERT_TRUE(host.ok()) << host.error();
  auto witness = ready_guest(host.address());
  ASSERT_TRUE(witness);
  ASSERT_TRUE(renders(*witness, 30, 1));
  const std::string ring = wire::Address::parse(host.ring_address())->path;
  ASSERT_EQ(::truncate(ring.c_str(), 0), 0);
  // The listener looks at the region every few milliseconds.
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_TRUE(renders(*witness, 31, 2)) << "the host is alive and serves its guests";
  auto newcomer = ready_guest(host.address());
  ASSERT_TRUE(newcomer);
  EXPECT_TRUE(renders(*newcomer, 32, 1));
}

}  // namespace
}  // namespace hosttest
