// The contract between the generated GL entry points and the EGL/GLX front:
// the command stream of the calling thread's current context.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "wire/result.h"
#include "wire/writer.h"

namespace wire {
struct ContextStrings;  // wire/context_strings.h
}

namespace icd {

class GlState;  // guest-side GL state of a context (gl/gl_state.h)

class Stream {
 public:
  virtual ~Stream() = default;

  wire::Writer& writer() { return writer_; }

  // Called after every encoded command: flushes when the batch is large.
  void commit() {
    if (writer_.size() >= flush_threshold_) flush();
    if (after_command_) after_command_(*this);
  }

  // Runs after every command while set (synchronous debug output).
  void set_after_command(void (*hook)(Stream&)) { after_command_ = hook; }
  // Runs before each batch goes out while set, writing commands that go
  // ahead of it (what the program wrote through persistent mappings).
  void set_before_send(void (*hook)(Stream&, wire::Writer&)) { before_send_ = hook; }

  // Runs after glFlush and glFinish while set, with `arg` (a single-buffered
  // window's size followed there).
  void set_at_flush(void (*hook)(Stream&, void*), void* arg) {
    at_flush_ = hook;
    at_flush_arg_ = arg;
  }
  void run_at_flush() {
    if (at_flush_) at_flush_(*this, at_flush_arg_);
  }

  // Sends what is queued without waiting for the host.
  virtual void flush() = 0;

  // Sends what is queued, asks for a reply to the last command and waits for
  // it. The span stays valid until the next call on this stream. On a lost
  // connection or context it returns an error and GL calls become no-ops.
  virtual wire::Result<std::span<const std::byte>> roundtrip() = 0;

  // True once the host declared this context lost.
  virtual bool lost() const = 0;

  // Whether the host offers a wire::Feature.
  virtual bool host_offers(uint32_t feature) const = 0;

  // Guest-side GL state of the current context.
  virtual GlState& gl_state() = 0;
  // Every string glGetString and glGetStringi(GL_EXTENSIONS) answer on this
  // context, fetched once for the contexts of its attributes; null when the
  // host cannot send them together (then each is asked for alone).
  virtual const wire::ContextStrings* context_strings() = 0;

 protected:
  wire::Writer writer_;
  size_t flush_threshold_ = 256 * 1024;
  void (*after_command_)(Stream&) = nullptr;
  void (*before_send_)(Stream&, wire::Writer&) = nullptr;
  void (*at_flush_)(Stream&, void*) = nullptr;
  void* at_flush_arg_ = nullptr;
};

// The calling thread's current context stream, or null when none is current.
Stream* current_stream();

// Resolves a GL entry point implemented by the ICD (generated table).
void* gl_proc_address(const char* name);

}  // namespace icd
