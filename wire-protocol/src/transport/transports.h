// The transport implementations behind wire::connect / wire::listen.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "wire/address.h"
#include "wire/transport.h"

namespace wire::transport {

Result<std::unique_ptr<Channel>> unix_connect_channel(const Address& a, const TransportOptions& o);
Result<std::unique_ptr<Listener>> unix_listen_channel(const Address& a, const TransportOptions& o);
Result<std::unique_ptr<Channel>> tcp_connect_channel(const Address& a, const TransportOptions& o);
Result<std::unique_ptr<Listener>> tcp_listen_channel(const Address& a, const TransportOptions& o);
Result<std::unique_ptr<Channel>> shm_connect_channel(const Address& a, const TransportOptions& o);
Result<std::unique_ptr<Listener>> shm_listen_channel(const Address& a, const TransportOptions& o);
Result<std::unique_ptr<Channel>> shm_file_connect_channel(const Address& a,
                                                          const TransportOptions& o);
Result<std::unique_ptr<Listener>> shm_file_listen_channel(const Address& a,
                                                          const TransportOptions& o);
Result<std::unique_ptr<Channel>> ivshmem_connect_channel(const Address& a,
                                                         const TransportOptions& o);
// The sysfs file of the ivshmem BAR named by `which` ("auto" or a PCI
// address) among the PCI devices listed in `devices`.
Result<std::string> ivshmem_region_path(std::string_view which,
                                        const std::string& devices = "/sys/bus/pci/devices");

}  // namespace wire::transport
