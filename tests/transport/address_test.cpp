// wire::Address: every form an address takes, read and written back, and
// the default address.
#include "wire/address.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>

namespace wire {
namespace {

using Kind = Address::Kind;

Address parsed(const std::string& text) {
  auto a = Address::parse(text);
  EXPECT_TRUE(a) << text << ": " << a.error().describe();
  return a ? *a : Address{};
}

TEST(Address, ReadsEveryForm) {
  struct Form {
    const char* text;
    Kind kind;
    const char* path;
    const char* host;
    uint16_t port;
  };
  for (const Form& f : {
           Form{"unix:/run/conduit/host.sock", Kind::kUnix, "/run/conduit/host.sock", "", 0},
           Form{"shm:/tmp/h.sock", Kind::kShm, "/tmp/h.sock", "", 0},
           Form{"shm:file=/dev/shm/vm0", Kind::kShmFile, "/dev/shm/vm0", "", 0},
           Form{"ivshmem:0000:00:04.0", Kind::kIvshmem, "0000:00:04.0", "", 0},
           Form{"tcp:10.0.0.2:7600", Kind::kTcp, "", "10.0.0.2", 7600},
           Form{"tcp:[::1]:0", Kind::kTcp, "", "::1", 0},
       }) {
    const Address a = parsed(f.text);
    EXPECT_EQ(a.kind, f.kind) << f.text;
    EXPECT_EQ(a.path, f.path) << f.text;
    EXPECT_EQ(a.host, f.host) << f.text;
    EXPECT_EQ(a.port, f.port) << f.text;
  }
}

TEST(Address, DescribeReadsBack) {
  for (const char* text : {"unix:/a/b.sock", "unix:@abstract", "shm:/a/b.sock", "shm:file=/dev/shm/r",
                           "ivshmem:auto", "tcp:example.org:65535", "tcp:[fe80::1]:7600"}) {
    EXPECT_EQ(parsed(text).describe(), text);
  }
  EXPECT_EQ(parsed("tcp:[fe80::1]:7600").describe_host(), "tcp:[fe80::1]");
  EXPECT_EQ(parsed("tcp:10.0.0.2:51234").describe_host(), "tcp:10.0.0.2");
}

TEST(Address, RefusesWhatNamesNoAddress) {
  for (const char* text : {"", "unix", "unix:", "tcp:host", "tcp::7600", "tcp:host:99999", "tcp:host:x",
                           "tcp:host:", "tcp:1.2.3.4:5 (TLS)", "carrier-pigeon:x", "shm:", "shm:file="}) {
    auto a = Address::parse(text);
    ASSERT_FALSE(a) << text;
    EXPECT_EQ(a.error().code, Errc::kBadValue) << text;
    EXPECT_NE(a.error().describe().find(text), std::string::npos) << a.error().describe();
  }
}

TEST(Address, OnlyTcpLeavesTheMachine) {
  EXPECT_FALSE(parsed("tcp:127.0.0.1:7600").is_local());
  for (const char* text : {"unix:/s", "shm:/s", "shm:file=/r", "ivshmem:auto"}) {
    EXPECT_TRUE(parsed(text).is_local()) << text;
  }
}

// Sets an environment variable for one scope (nullptr: unset), then puts
// it back.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    value ? ::setenv(name, value, 1) : ::unsetenv(name);
  }
  ~ScopedEnv() { old_ ? ::setenv(name_, old_->c_str(), 1) : ::unsetenv(name_); }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

TEST(Address, DefaultIsTheUsersRuntimeSocket) {
  {
    ScopedEnv runtime("XDG_RUNTIME_DIR", "/run/user/4242");
    EXPECT_EQ(default_address(), "unix:/run/user/4242/conduit/host.sock");
  }
  const std::string fallback = "unix:/tmp/conduit-" + std::to_string(::getuid()) + "/host.sock";
  {
    ScopedEnv runtime("XDG_RUNTIME_DIR", nullptr);
    EXPECT_EQ(default_address(), fallback);
  }
  ScopedEnv runtime("XDG_RUNTIME_DIR", "");
  EXPECT_EQ(default_address(), fallback);
}

TEST(Address, EnvironmentNamesTheGuestsHost) {
  ScopedEnv runtime("XDG_RUNTIME_DIR", "/run/user/4242");
  {
    ScopedEnv host("CONDUIT_HOST", "tcp:10.0.0.1:7600");
    EXPECT_EQ(address_from_environment(), "tcp:10.0.0.1:7600");
  }
  {
    ScopedEnv host("CONDUIT_HOST", "");
    EXPECT_EQ(address_from_environment(), default_address());
  }
  ScopedEnv host("CONDUIT_HOST", nullptr);
  EXPECT_EQ(address_from_environment(), default_address());
}

}  // namespace
}  // namespace wire
