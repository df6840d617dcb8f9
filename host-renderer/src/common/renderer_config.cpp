#include "renderer_config.h"

#include "wire/patience.h"

namespace host {

namespace {

nlohmann::json to_json(const std::optional<RendererIdentity>& id) {
  if (!id) return nullptr;
  return {{"uid", id->uid}, {"gid", id->gid}, {"groups", id->groups}};
}

std::optional<RendererIdentity> identity_from_json(const nlohmann::json& j) {
  if (j.is_null()) return std::nullopt;
  return RendererIdentity{j.at("uid").get<uid_t>(), j.at("gid").get<gid_t>(),
                          j.at("groups").get<std::vector<gid_t>>()};
}

}  // namespace

nlohmann::json to_json(const RendererConfig& c) {
  const auto& l = c.limits;
  return {{"identity", to_json(c.identity)},
          {"platform", static_cast<int>(c.display.platform)},
          {"gpu", c.display.gpu},
          {"max_object_bytes", l.guest.max_object_bytes},
          {"max_total_bytes", l.guest.max_total_bytes},
          {"max_objects", l.guest.max_objects},
          {"max_draw_vertices", l.guest.max_draw_vertices},
          {"max_dispatch_groups", l.guest.max_dispatch_groups},
          {"submission_timeout_s", l.guest.submission_timeout_s},
          {"promote_shader_precision", l.guest.promote_shader_precision},
          {"max_batch_bytes", l.max_batch_bytes},
          {"max_contexts", l.max_contexts},
          {"max_surfaces", l.max_surfaces},
          {"frame_ring", l.frame_ring},
          {"test_faults", l.test_faults},
          {"viewers", c.viewers},
          {"idle_beat_ms", c.idle_beat.count()},
          {"max_message_bytes", c.transport.max_message_bytes},
          {"io_timeout_ms", c.transport.io_timeout.count()},
          {"ring_silence_ms", c.transport.ring_silence.count()},
          {"patient_waits", c.transport.patient_waits.value_or(wire::Patience::wanted())},
          {"data_bytes", c.sandbox.data_bytes},
          {"open_files", c.sandbox.open_files},
          {"shader_cache", c.shader_cache},
          {"log_frame_hashes", c.log_frame_hashes}};
}

wire::Result<RendererConfig> config_from_json(const nlohmann::json& j) {
  RendererConfig c;
  try {
    c.display.platform = static_cast<PlatformKind>(j.at("platform").get<int>());
    c.display.gpu = j.at("gpu").get<int>();
    auto& l = c.limits;
    l.guest.max_object_bytes = j.at("max_object_bytes").get<size_t>();
    l.guest.max_total_bytes = j.at("max_total_bytes").get<size_t>();
    l.guest.max_objects = j.at("max_objects").get<size_t>();
    l.guest.max_draw_vertices = j.at("max_draw_vertices").get<uint64_t>();
    l.guest.max_dispatch_groups = j.at("max_dispatch_groups").get<uint64_t>();
    l.guest.submission_timeout_s = j.at("submission_timeout_s").get<uint32_t>();
    l.guest.promote_shader_precision = j.at("promote_shader_precision").get<bool>();
    l.max_batch_bytes = j.at("max_batch_bytes").get<size_t>();
    l.max_contexts = j.at("max_contexts").get<uint32_t>();
    l.max_surfaces = j.at("max_surfaces").get<uint32_t>();
    l.frame_ring = j.at("frame_ring").get<uint32_t>();
    l.test_faults = j.at("test_faults").get<bool>();
    c.viewers = j.at("viewers").get<bool>();
    c.idle_beat = std::chrono::milliseconds(j.at("idle_beat_ms").get<int64_t>());
    c.transport.max_message_bytes = j.at("max_message_bytes").get<size_t>();
    c.transport.io_timeout = std::chrono::milliseconds(j.at("io_timeout_ms").get<int64_t>());
    c.transport.ring_silence = std::chrono::milliseconds(j.at("ring_silence_ms").get<int64_t>());
    c.transport.patient_waits = j.at("patient_waits").get<bool>();
    c.sandbox.data_bytes = j.at("data_bytes").get<size_t>();
    c.sandbox.open_files = j.at("open_files").get<size_t>();
    c.identity = identity_from_json(j.at("identity"));
    c.shader_cache = j.at("shader_cache").get<std::string>();
    c.log_frame_hashes = j.value("log_frame_hashes", false);
  } catch (const nlohmann::json::exception& e) {
    return wire::make_error(wire::Errc::kBadValue, std::string("renderer configuration: ") + e.what());
  }
  return c;
}

nlohmann::json to_json(const RendererInfo& i) {
  return {{"platform", i.platform},
          {"renderer", i.renderer},
          {"vendor", i.vendor},
          {"gles_version", i.gles_version},
          {"gl_core_version", i.gl_core_version},
          {"gl_compat_version", i.gl_compat_version},
          {"max_gles", i.max_gles},
          {"max_gl_core", i.max_gl_core},
          {"max_gl_compat", i.max_gl_compat},
          {"gles1_version", i.gles1_version},
          {"max_gles1", i.max_gles1},
          {"egl_version", i.egl_version},
          {"egl_extensions", i.egl_extensions},
          {"gles1_extensions", i.gles1_extensions},
          {"gles_extensions", i.gles_extensions},
          {"gl_extensions", i.gl_extensions},
          {"gl_compat_extensions", i.gl_compat_extensions}};
}

RendererInfo info_from_json(const nlohmann::json& j) {
  RendererInfo i;
  auto text = [&](const char* key) { return j.value(key, std::string()); };
  i.platform = text("platform");
  i.renderer = text("renderer");
  i.vendor = text("vendor");
  i.gles_version = text("gles_version");
  i.gl_core_version = text("gl_core_version");
  i.gl_compat_version = text("gl_compat_version");
  i.max_gles = j.value("max_gles", 0u);
  i.max_gl_core = j.value("max_gl_core", 0u);
  i.max_gl_compat = j.value("max_gl_compat", 0u);
  i.gles1_version = text("gles1_version");
  i.max_gles1 = j.value("max_gles1", 0u);
  i.egl_version = text("egl_version");
  i.egl_extensions = text("egl_extensions");
  i.gles1_extensions = text("gles1_extensions");
  i.gles_extensions = text("gles_extensions");
  i.gl_extensions = text("gl_extensions");
  i.gl_compat_extensions = text("gl_compat_extensions");
  return i;
}

}  // namespace host
