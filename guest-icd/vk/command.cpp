// Vulkan commands to the host: one buffer for the whole program, so that
// commands reach the host in the order the program's threads called them
// (a command buffer recorded on one thread and submitted on another).
#include <cstring>
#include <functional>
#include <mutex>
#include <optional>

#include "conn/connection.h"
#include "conn/thin_lock.h"
#include "vk/entry.h"
#include "vk/objects.h"
#include "wire/control.h"
#include "wire/vk_memory.h"

namespace icd::vk {

using namespace wire::vk;

namespace {

// Asynchronous commands wait in the buffer until a command that returns
// something, or until this many bytes: small batches let the host decode and
// record a command buffer while the program still records the rest of it.
constexpr size_t kFlushBytes = 8 * 1024;

struct Outgoing {
  ThinLock mu;
  wire::Writer pending;
  // The program's Vulkan objects live on one connection, taken at the first
  // command and kept: another (after a loss) would reach a renderer that
  // knows none of them.
  std::shared_ptr<Connection> conn;
};

Outgoing& outgoing() {
  static Outgoing* out = new Outgoing;
  return *out;
}

uint64_t lost_value(const CommandDesc& cmd) {
  return cmd.ret == Ret::kResult ? static_cast<uint64_t>(static_cast<int64_t>(VK_ERROR_DEVICE_LOST)) : 0;
}

// The connection, while the host still runs this program's Vulkan; null
// once it does not. Called with `out.mu` held.
Connection* connection(Outgoing& out) {
  if (!out.conn) {
    out.conn = Connection::shared();
    // On shared memory, large data (memory contents, uploads) goes through
    // the blob heap: copied once, never compressed.
    if (out.conn) out.pending.set_blob_sink(out.conn->blob_sink());
  }
  const bool usable = out.conn && !out.conn->lost() && !out.conn->context_lost(wire::kVulkanContextId);
  return usable ? out.conn.get() : nullptr;
}

// The objects a destroy command ends are forgotten here too.
void forget_destroyed(const CommandDesc& cmd, const void* args) {
  const MemberDesc* gone = destroyed_param(cmd);
  if (!gone || !gone->dispatchable) return;
  uint64_t handle = 0;
  std::memcpy(&handle, static_cast<const std::byte*>(args) + gone->offset, sizeof handle);
  if (gone->kind == Kind::kHandle) GuestObjects::instance().discard(gone->object_type, true, handle);
}

void send_pending(Connection& conn, Outgoing& out, uint64_t* ticket) {
  if (out.pending.size() == 0) return;
  (void)conn.send(nullptr, out.pending.bytes(), out.pending.commands(), ticket);
  out.pending.clear();
}

}  // namespace

void send_async(uint32_t opcode, WriteFn fill) {
  Outgoing& out = outgoing();
  std::lock_guard lock(out.mu);
  Connection* conn = connection(out);
  if (!conn) return;
  const size_t at = out.pending.begin(opcode);
  fill(out.pending);
  out.pending.end(at);
  if (out.pending.size() >= kFlushBytes) send_pending(*conn, out, nullptr);
}

void send_commands_now() {
  Outgoing& out = outgoing();
  std::lock_guard lock(out.mu);
  if (Connection* conn = connection(out)) send_pending(*conn, out, nullptr);
}

std::shared_ptr<Connection> vulkan_connection() {
  Outgoing& out = outgoing();
  std::lock_guard lock(out.mu);
  return connection(out) ? out.conn : nullptr;
}

namespace {

wire::Result<std::optional<std::vector<std::byte>>> send_sync_unless(WriteFn write, const Connection::Enough& enough) {
  Outgoing& out = outgoing();
  std::unique_lock lock(out.mu);
  Connection* conn = connection(out);
  if (!conn) return wire::make_error(wire::Errc::kClosed, "the host lost this program's Vulkan");
  write(out.pending);
  uint64_t ticket = 0;
  send_pending(*conn, out, &ticket);
  lock.unlock();  // other threads send while this one waits; the connection lives as long as `out`
  return conn->wait_reply_unless(ticket, enough);
}

}  // namespace

wire::Result<std::vector<std::byte>> send_sync(WriteFn write) {
  auto reply = send_sync_unless(write, [] { return false; });
  if (!reply) return reply.error();
  return std::move(**reply);
}

void write_command(wire::Writer& w, uint32_t opcode, WriteFn fill) {
  const size_t at = w.begin(opcode);
  fill(w);
  w.end(at);
}

void write_memory_read(wire::Writer& w, uint64_t memory, uint64_t size) {
  write_command(w, static_cast<uint32_t>(MemoryOp::kReadMemory),
                [&](wire::Writer& c) { c.put(MemoryRange{memory, 0, size}); });
}

bool take_memory_read(wire::Reader& r, uint64_t size, std::byte* out) {
  auto data = r.get_data();
  if (!data || data->bytes.size() != size) return false;
  std::memcpy(out, data->bytes.data(), size);
  return true;
}

std::optional<uint64_t> run_command_unless(const CommandDesc& cmd, void* args, std::span<const MemoryRead> reads,
                                           bool* read, const std::function<bool()>& enough) {
  *read = false;
  GuestObjects& objects = GuestObjects::instance();
  Expected expected;
  auto encode = [&](wire::Writer& w) {
    expected = encode_args(w, cmd, args, objects);
    forget_destroyed(cmd, args);
  };
  if (!cmd.synchronous) {
    send_async(cmd.opcode, encode);
    return 0;
  }
  auto reply = send_sync_unless(
      [&](wire::Writer& w) {
        write_command(w, cmd.opcode, encode);
        for (const MemoryRead& m : reads) write_memory_read(w, m.memory, m.size);
      },
      enough);
  if (reply && !*reply) return std::nullopt;
  uint64_t ret = lost_value(cmd);
  bool answered = false;
  if (reply) {
    wire::Reader r(**reply, 0);
    answered = decode_reply(r, cmd, args, expected, objects, &ret).ok();
    *read = answered;
    for (const MemoryRead& m : reads) *read = *read && take_memory_read(r, m.size, m.out);
  }
  const bool failed = !answered || (cmd.ret == Ret::kResult && static_cast<int32_t>(ret) < 0);
  if (failed) {
    for (const MemberDesc& m : cmd.fields()) {
      if (m.kind != Kind::kOutHandles) continue;
      for (uint64_t h : expected.created) objects.discard(m.object_type, m.dispatchable, h);
      break;
    }
  }
  return answered ? ret : lost_value(cmd);
}

uint64_t run_command_then_read(const CommandDesc& cmd, void* args, std::span<const MemoryRead> reads,
                               bool* read) {
  return *run_command_unless(cmd, args, reads, read, [] { return false; });
}

void run_recorded(const CommandDesc& cmd, const void* args) {
  send_async(cmd.opcode, [&](wire::Writer& w) { encode_args(w, cmd, args, GuestObjects::instance()); });
}

uint64_t run_command(const CommandDesc& cmd, void* args) {
  bool unused = false;
  return run_command_then_read(cmd, args, {}, &unused);
}

}  // namespace icd::vk
