#include "gl/context_stream.h"

namespace icd {
namespace {

thread_local Stream* t_current = nullptr;

}  // namespace

Stream* current_stream() { return t_current; }

void set_current_stream(Stream* stream) { t_current = stream; }

ContextStream::ContextStream(std::shared_ptr<Connection> connection, const wire::CreateContext& request)
    : connection_(std::move(connection)),
      state_(request.api == static_cast<uint32_t>(wire::Api::kGles), static_cast<int>(request.major),
             static_cast<int>(request.minor)),
      key_(context_key(request)) {
  const uint32_t context_id = request.context_id;
  binding_.context_id = context_id;
  writer_.set_blob_sink(connection_->blob_sink());
  ahead_.set_blob_sink(connection_->blob_sink());
  // What the host tells of this context's links reaches its share group.
  const void* conn = connection_.get();
  route_program_reflections(conn, context_id, &state_.programs());
  connection_->listen(wire::ControlOp::kProgramReflection,
                      [conn](wire::Reader& r) { receive_program_reflection(conn, r); });
}

ContextStream::~ContextStream() { unroute_program_reflections(connection_.get(), binding_.context_id); }

void ContextStream::bind(uint32_t draw_id, uint32_t read_id) {
  if (draw_id == binding_.draw_id && read_id == binding_.read_id) return;
  // Commands queued so far belong to the old surfaces.
  flush();
  binding_.draw_id = draw_id;
  binding_.read_id = read_id;
}

void ContextStream::send_ahead() {
  if (!before_send_ || lost()) return;
  before_send_(*this, ahead_);
  if (ahead_.size() != 0) (void)connection_->send(&binding_, ahead_.bytes(), ahead_.commands());
  ahead_.clear();
}

void ContextStream::flush() {
  if (writer_.size() == 0) return;
  send_ahead();
  if (!lost()) (void)connection_->send(&binding_, writer_.bytes(), writer_.commands());
  writer_.clear();
}

wire::Result<std::span<const std::byte>> ContextStream::roundtrip() {
  if (lost()) {
    writer_.clear();
    return wire::make_error(wire::Errc::kClosed, "context lost");
  }
  send_ahead();
  uint64_t ticket = 0;
  auto sent = connection_->send(&binding_, writer_.bytes(), writer_.commands(), &ticket);
  writer_.clear();
  if (!sent) return sent.error();
  auto reply = connection_->wait_reply(ticket);
  if (!reply) return reply.error();
  reply_ = std::move(reply.value());
  return std::span<const std::byte>(reply_);
}

const wire::ContextStrings* ContextStream::context_strings() {
  if (strings_ || strings_refused_) return strings_.get();
  if (!host_offers(wire::kFeatureContextStrings)) return nullptr;
  strings_ = connection_->context_strings().find(key_);
  if (strings_) return strings_.get();
  strings_ = fetch_context_strings(*this);
  if (!strings_) {
    strings_refused_ = !lost();
    return nullptr;
  }
  connection_->context_strings().keep(key_, strings_);
  return strings_.get();
}

bool ContextStream::host_offers(uint32_t feature) const { return connection_->host().reply.features & feature; }

bool ContextStream::lost() const { return connection_->context_lost(binding_.context_id); }

}  // namespace icd
