#include "egl/objects.h"

namespace icd {

Context::Context(Display& display, std::shared_ptr<Connection> connection, uint32_t id,
                 const Config* config, EGLenum api, int major, int minor)
    : display_(display),
      connection_(connection),
      config_(config ? *config : Config{}),
      has_config_(config != nullptr),
      api_(api),
      major_(major),
      stream_(std::move(connection), id, api == EGL_OPENGL_ES_API, major, minor) {}

Context::~Context() {
  stream_.flush();
  if (connection_->lost()) return;
  connection_->forget(id());
  (void)connection_->send_control(wire::ControlOp::kDestroyContext, wire::ObjectId{id()});
}

}  // namespace icd
