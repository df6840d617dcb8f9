// Finding a guest's ivshmem device among the PCI devices sysfs lists, and
// talking to a host through the BAR file found.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "transports.h"
#include "wire/transport.h"

namespace wire {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

// A directory shaped like /sys/bus/pci/devices.
class FakePciBus : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::path(::testing::TempDir()) / ("conduit-pci-" + std::to_string(getpid()));
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }

  fs::path add_device(const std::string& bdf, const char* vendor, const char* device) {
    fs::path dir = root_ / bdf;
    fs::create_directories(dir);
    std::ofstream(dir / "vendor") << vendor << "\n";
    std::ofstream(dir / "device") << device << "\n";
    return dir;
  }
  std::string find(std::string_view which) {
    auto path = transport::ivshmem_region_path(which, root_.string());
    return path ? *path : "error: " + path.error().describe();
  }

  fs::path root_;
};

TEST_F(FakePciBus, AutoPicksTheFirstIvshmemDevice) {
  add_device("0000:00:02.0", "0x1234", "0x1111");  // the VGA card
  add_device("0000:00:06.0", "0x1af4", "0x1110");
  add_device("0000:00:05.0", "0x1af4", "0x1110");
  add_device("0000:00:03.0", "0x1af4", "0x1000");  // virtio-net: same vendor
  EXPECT_EQ(find("auto"), (root_ / "0000:00:05.0" / "resource2").string());
}

TEST_F(FakePciBus, AnAddressNamesOneDeviceWithOrWithoutDomain) {
  add_device("0000:00:05.0", "0x1af4", "0x1110");
  add_device("0000:00:06.0", "0x1af4", "0x1110");
  EXPECT_EQ(find("0000:00:06.0"), (root_ / "0000:00:06.0" / "resource2").string());
  EXPECT_EQ(find("00:06.0"), (root_ / "0000:00:06.0" / "resource2").string());
}

TEST_F(FakePciBus, MissingOrWrongDevicesAreClearErrors) {
  EXPECT_NE(find("auto").find("no ivshmem device"), std::string::npos) << find("auto");
  add_device("0000:00:02.0", "0x1234", "0x1111");
  EXPECT_NE(find("00:02.0").find("not an ivshmem device"), std::string::npos);
  EXPECT_NE(find("00:09.0").find("not an ivshmem device"), std::string::npos);
  EXPECT_NE(find("garbage/../..").find("error"), std::string::npos);
}

TEST(IvshmemAddress, ListeningIsRefusedWithAHint) {
  auto l = wire::listen("ivshmem:auto", {});
  ASSERT_FALSE(l);
  EXPECT_NE(l.error().describe().find("shm:file="), std::string::npos);
}

// The guest's BAR is the host's ring file: a device whose resource2 is
// that file connects to the listener and exchanges messages both ways.
TEST_F(FakePciBus, TheDevicesBarCarriesAChannel) {
  TransportOptions opts;
  opts.ring_bytes = 1u << 16;
  opts.heap_bytes = 1u << 16;
  const fs::path ring = root_ / "ring";
  auto listener = wire::listen("shm:file=" + ring.string(), opts);
  ASSERT_TRUE(listener) << listener.error().describe();
  EXPECT_EQ(fs::file_size(ring) & (fs::file_size(ring) - 1), 0u) << "BAR sizes are powers of two";
  fs::create_symlink(ring, add_device("0000:00:04.0", "0x1af4", "0x1110") / "resource2");

  std::thread guest([&] {
    auto bar = transport::ivshmem_region_path("auto", root_.string());
    ASSERT_TRUE(bar) << bar.error().describe();
    auto ch = wire::connect("shm:file=" + *bar, opts);
    ASSERT_TRUE(ch) << ch.error().describe();
    const std::byte ping[4] = {std::byte{1}, std::byte{2}, std::byte{3}, std::byte{4}};
    ASSERT_TRUE((*ch)->send(ping));
    auto pong = (*ch)->receive(5s);
    ASSERT_TRUE(pong);
    EXPECT_EQ(pong->size(), 2u);
  });
  auto host = (*listener)->accept(5s);
  ASSERT_TRUE(host) << host.error().describe();
  auto ping = (*host)->receive(5s);
  ASSERT_TRUE(ping);
  EXPECT_EQ(ping->size(), 4u);
  (*host)->release();
  const std::byte pong[2] = {};
  EXPECT_TRUE((*host)->send(pong));
  guest.join();
}

}  // namespace
}  // namespace wire
