// icd::Stream of one context: its batch goes out through the process's
// connection with the context's binding, so the host switches to it first.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "conn/connection.h"
#include "gl/gl_state.h"
#include "icd/stream.h"

namespace icd {

class ContextStream final : public Stream {
 public:
  ContextStream(std::shared_ptr<Connection> connection, uint32_t context_id, bool gles, int major,
                int minor);
  ~ContextStream() override;

  void flush() override;
  wire::Result<std::span<const std::byte>> roundtrip() override;
  bool lost() const override;
  bool host_offers(uint32_t feature) const override;
  GlState& gl_state() override { return state_; }

  // Surfaces the context renders to from the next batch on.
  void bind(uint32_t draw_id, uint32_t read_id);
  uint32_t context_id() const { return binding_.context_id; }
  Connection& connection() { return *connection_; }

 private:
  std::shared_ptr<Connection> connection_;
  Binding binding_;
  GlState state_;
  // Sends what the before-send hook writes, ahead of the batch.
  void send_ahead();

  std::vector<std::byte> reply_;
  wire::Writer ahead_;
};

// Makes `stream` the calling thread's current stream (null: none).
void set_current_stream(Stream* stream);

}  // namespace icd
