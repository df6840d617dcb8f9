#include "egl/objects.h"

namespace icd {

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
