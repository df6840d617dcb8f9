// The files a program gets for device memory its Vulkan exported as an
// opaque fd. A file descriptor cannot cross to the host, and the host's
// driver must never see a number of the guest's as one: the host keeps the
// driver's export and tells its number (host-renderer/vk/memory_fds.cpp),
// and the program gets a sealed file naming that number and this process,
// which it may duplicate and pass on as any fd. An import, by Vulkan
// (vk/memory_fds.cpp) or by GL (gl/memory_object_entry.cpp), reads the
// file and sends the number.
#pragma once

#include <cstdint>
#include <optional>

namespace icd {

// A sealed file naming export `number` of this process, or -1.
int export_file(uint32_t number);

// The export `fd`'s file names; none for an fd that is no such file of
// this process (another process's exports are not its host's).
std::optional<uint32_t> export_number(int fd);

}  // namespace icd
