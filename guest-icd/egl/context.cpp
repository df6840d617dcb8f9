#include "egl/objects.h"

#include <cstring>

namespace icd {

HostAnswer make_on_host(Connection& connection, const wire::CreateContext& request) {
  uint64_t ticket = 0;
  if (!connection.send_control(wire::ControlOp::kCreateContext, request, &ticket)) return HostAnswer::kNoAnswer;
  auto reply = connection.wait_reply(ticket);
  if (!reply) return HostAnswer::kNoAnswer;
  uint32_t status = 1;  // a reply too short to hold one is a refusal
  if (reply->size() >= sizeof status) std::memcpy(&status, reply->data(), sizeof status);
  return status == 0 ? HostAnswer::kMade : HostAnswer::kRefused;
}

Context::Context(Display& display, std::shared_ptr<Connection> connection, const wire::CreateContext& request,
                 const Config* config)
    : display_(display),
      connection_(connection),
      config_(config ? *config : Config{}),
      has_config_(config != nullptr),
      api_(request.api == static_cast<uint32_t>(wire::Api::kGles) ? EGL_OPENGL_ES_API : EGL_OPENGL_API),
      major_(static_cast<int>(request.major)),
      stream_(std::move(connection), request) {}

Context::~Context() {
  stream_.flush();
  if (connection_->lost()) return;
  connection_->forget(id());
  (void)connection_->send_control(wire::ControlOp::kDestroyContext, wire::ObjectId{id()});
}

}  // namespace icd
