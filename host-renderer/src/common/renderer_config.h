// What the supervisor tells a renderer process at start (its options) and
// what the renderer answers (what its display offers), as JSON.
#pragma once

#include <optional>

#include <nlohmann/json.hpp>

#include "host/egl_display.h"
#include "host/session.h"
#include "renderer_user.h"
#include "sandbox.h"
#include "wire/transport.h"

namespace host {

struct RendererConfig {
  DisplayOptions display;
  SessionLimits limits;
  wire::TransportOptions transport;  // token unused: guests arrive authenticated
  SandboxLimits sandbox;
  std::optional<RendererIdentity> identity;  // the ids it takes (a root host's renderers)
  // How often an idle renderer beats (CountersPage::heartbeat): a quarter
  // of the supervisor's watchdog.
  std::chrono::milliseconds idle_beat{7500};
  bool viewers = false;  // window frames also go to the supervisor's compositor
  std::string shader_cache;  // its private shader cache folder (shader_cache.h); empty: none
  bool log_frame_hashes = false;  // Session::set_log_frame_hashes
};

nlohmann::json to_json(const RendererConfig& c);
wire::Result<RendererConfig> config_from_json(const nlohmann::json& j);

nlohmann::json to_json(const RendererInfo& info);
RendererInfo info_from_json(const nlohmann::json& j);

}  // namespace host
