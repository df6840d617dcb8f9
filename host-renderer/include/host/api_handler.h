// What a session asks of the handler of one API: each range of the opcode
// table (wire/format.h) beyond Conduit's own commands has one, GL's
// (gl/gl_handler.h) and Vulkan's (vk/vk_handler.h). The session frames
// batches, answers control commands, carries frames to the guest and to
// viewers and input back, and hands every other command to the handler of
// its range.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "wire/format.h"
#include "wire/reader.h"
#include "wire/result.h"
#include "wire/writer.h"

namespace host {

// One command of a handler's range, where its batch holds it.
struct ApiCommand {
  uint32_t opcode = 0;
  size_t offset = 0;                   // of its header in the batch, for error messages
  std::span<const std::byte> payload;  // after the header
  wire::HeapCopies& heap;              // private copies of the shared-heap bytes it names
  wire::Writer& reply;                 // what the guest waits for

  // A reader of the payload from its start. A new reader drops the heap
  // copies the last one made, so a command read twice copies no more than
  // once over.
  wire::Reader reader() const {
    return wire::Reader(payload, offset + sizeof(wire::CommandHeader), heap);
  }
};

class ApiHandler {
 public:
  // Destroying a handler tears down what it holds for the guest: every
  // host object of its API, given back to the guest's account. The session
  // destroys its handlers before what they send through.
  virtual ~ApiHandler() = default;

  // Decodes, validates and runs one command. An error is protocol abuse:
  // the session then calls lose().
  virtual wire::Status run(const ApiCommand& cmd) = 0;

  // Called after each batch, for work that waits for a batch's end.
  virtual void end_batch() = 0;

  // Memory: every handler charges the guest's one account (host/
  // resource_account.h) as it allocates and releases as it frees. This
  // frees what the guest deleted and the host still held for it, so the
  // account counts only what the guest has; the session calls it when a
  // charge would not fit and before it tells the guest its figure.
  virtual void reclaim() = 0;

  // Marks what a failed command belonged to lost, for good: its commands
  // are skipped from now on. Returns the context id the guest is told,
  // or none when that was lost already.
  virtual std::optional<uint32_t> lose() = 0;

  // The name of a command of the handler's range, for logs; null when the
  // opcode names none.
  virtual const char* command_name(uint32_t opcode) const = 0;
};

}  // namespace host
