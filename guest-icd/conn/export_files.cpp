#include "conn/export_files.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <unistd.h>

#include <cstring>

namespace icd {
namespace {

// What an exported memory's file holds.
struct ExportFile {
  char magic[8];
  uint64_t process;  // this process's key
  uint32_t number;   // the host's export
};
constexpr char kMagic[8] = {'c', 'o', 'n', 'd', 'u', 'i', 't', 'm'};

uint64_t process_key() {
  static const uint64_t key = [] {
    uint64_t k = 0;
    while (getrandom(&k, sizeof k, 0) != sizeof k) {
    }
    return k;
  }();
  return key;
}

}  // namespace

int export_file(uint32_t number) {
  const int fd = memfd_create("conduit-vk-memory", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (fd < 0) return -1;
  ExportFile f{};
  std::memcpy(f.magic, kMagic, sizeof kMagic);
  f.process = process_key();
  f.number = number;
  if (pwrite(fd, &f, sizeof f, 0) != static_cast<ssize_t>(sizeof f) ||
      fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

std::optional<uint32_t> export_number(int fd) {
  ExportFile f{};
  if (pread(fd, &f, sizeof f, 0) != static_cast<ssize_t>(sizeof f) ||
      std::memcmp(f.magic, kMagic, sizeof kMagic) != 0 || f.process != process_key())
    return std::nullopt;
  return f.number;
}

}  // namespace icd
