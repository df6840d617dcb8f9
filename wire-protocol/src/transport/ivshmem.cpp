// ivshmem:auto | ivshmem:BDF — inside a QEMU guest, the shared region of an
// `ivshmem-plain` PCI device. Its BAR 2 is the host's ring file, so the
// channel is the polled shm:file= one, opened on the BAR's sysfs resource.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <vector>

#include "transports.h"

namespace wire::transport {
namespace {

namespace fs = std::filesystem;

constexpr unsigned kRedHatVendor = 0x1af4;
constexpr unsigned kIvshmemDevice = 0x1110;

// A sysfs attribute such as "0x1af4\n" as a number; 0 if unreadable.
unsigned read_id(const fs::path& file) {
  std::ifstream in(file);
  std::string text;
  if (!(in >> text)) return 0;
  try {
    return static_cast<unsigned>(std::stoul(text, nullptr, 16));
  } catch (const std::exception&) {
    return 0;
  }
}

bool is_ivshmem(const fs::path& device) {
  return read_id(device / "vendor") == kRedHatVendor &&
         read_id(device / "device") == kIvshmemDevice;
}

// Addresses may leave out the PCI domain, as lspci does.
std::string full_bdf(std::string_view bdf) {
  return std::count(bdf.begin(), bdf.end(), ':') == 1 ? "0000:" + std::string(bdf)
                                                       : std::string(bdf);
}

Result<fs::path> pick_device(const fs::path& devices, std::string_view which) {
  if (which != "auto") {
    fs::path device = devices / full_bdf(which);
    if (is_ivshmem(device)) return device;
    return make_error(Errc::kIo, "PCI device " + std::string(which) +
                                           " is not an ivshmem device (1af4:1110)");
  }
  std::vector<fs::path> found;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(devices, ec)) {
    if (is_ivshmem(entry.path())) found.push_back(entry.path());
  }
  if (found.empty()) {
    return make_error(Errc::kIo,
                      "no ivshmem device (1af4:1110) under " + devices.string() +
                          "; give the VM one with -device ivshmem-plain,memdev=...");
  }
  return *std::min_element(found.begin(), found.end());
}

}  // namespace

Result<std::string> ivshmem_region_path(std::string_view which, const std::string& devices) {
  auto device = pick_device(devices, which);
  if (!device) return device.error();
  return (*device / "resource2").string();
}

Result<std::unique_ptr<Channel>> ivshmem_connect_channel(const Address& a,
                                                         const TransportOptions& opts) {
  auto region = ivshmem_region_path(a.path);
  if (!region) return region.error();
  Address file = a;
  file.kind = Address::Kind::kShmFile;
  file.path = *region;
  return shm_file_connect_channel(file, opts);
}

}  // namespace wire::transport
