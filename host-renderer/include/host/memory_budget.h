// The host-wide memory budget (--max-host-memory): how its size is given,
// and what of a renderer process's memory it counts.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string_view>

namespace host {

// "512M", "2G", "65536": bytes with an optional K/M/G (1024-based) suffix.
std::optional<uint64_t> parse_size(std::string_view text);

// A size as parse_size reads it, or "N%" (1 to 100) of `physical` bytes.
std::optional<uint64_t> parse_memory_share(std::string_view text, uint64_t physical);

// The machine's memory (MemTotal).
uint64_t physical_memory_bytes();

// What --max-host-memory is when not given: this share of physical memory.
constexpr unsigned kDefaultHostMemoryPercent = 75;

// Memory that process `pid` holds and that no other process would hold
// without it: its private pages and the shared memory it maps (RssAnon +
// RssShmem of /proc/PID/status, readable also for a process that is not
// dumpable). Library code shared with other processes is not counted.
// 0 when it cannot be read (the process has ended).
uint64_t process_memory_bytes(pid_t pid);

}  // namespace host
