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
  // The context the host made for `request`.
  ContextStream(std::shared_ptr<Connection> connection, const wire::CreateContext& request);
  ~ContextStream() override;

  void flush() override;
  wire::Result<std::span<const std::byte>> roundtrip() override;
  bool lost() const override;
  bool host_offers(uint32_t feature) const override;
  GlState& gl_state() override { return state_; }
  const wire::ContextStrings* context_strings() override;

  // Surfaces the context renders to from the next batch on.
  void bind(uint32_t draw_id, uint32_t read_id);
  uint32_t context_id() const { return binding_.context_id; }
  Connection& connection() { return *connection_; }

 private:
  std::shared_ptr<Connection> connection_;
  Binding binding_;
  GlState state_;
  ContextKey key_;
  std::shared_ptr<const wire::ContextStrings> strings_;
  bool strings_refused_ = false;  // the host could not send them together
  // Sends what the before-send hook writes, ahead of the batch.
  void send_ahead();

  std::vector<std::byte> reply_;
  wire::Writer ahead_;
};

// Makes `stream` the calling thread's current stream (null: none).
void set_current_stream(Stream* stream);

}  // namespace icd
