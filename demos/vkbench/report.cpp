#include "report.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "check.h"

namespace vkbench {
namespace {

constexpr const char* kRule = "=======================================================";

std::string quoted(const std::string& field) {
  std::string out = "\"";
  for (char c : field) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string number(const char* format, double value) {
  char text[64];
  std::snprintf(text, sizeof(text), format, value);
  return text;
}

void write_row(FILE* file, const std::vector<std::string>& fields) {
  for (size_t i = 0; i < fields.size(); ++i) {
    std::fprintf(file, "%s%s", i ? "," : "", quoted(fields[i]).c_str());
  }
  std::fputc('\n', file);
}

}  // namespace

void print_header(const RunInfo& info) {
  std::printf("%s\n    conduit-vkbench\n%s\n", kRule, kRule);
  std::printf("    Vulkan Information\n");
  std::printf("    GL_VENDOR:      %s\n", info.vendor.c_str());
  std::printf("    GL_RENDERER:    %s\n", info.renderer.c_str());
  std::printf("    GL_VERSION:     Vulkan %s (%s)\n", info.api_version.c_str(),
              info.driver.c_str());
  std::printf("    Surface Size:   %s\n", info.surface.c_str());
  std::printf("%s\n", kRule);
  std::fflush(stdout);
}

void print_result(const SceneResult& r) {
  std::printf("%s: FPS: %.0f FrameTime: %.3f ms (User: %.3f ms, System: %.3f ms)\n",
              r.title.c_str(), std::floor(r.fps + 0.5), r.frame_time_ms, r.user_ms, r.system_ms);
  std::fflush(stdout);
}

void print_score(const std::vector<SceneResult>& results) {
  double sum = 0;
  for (const SceneResult& r : results) sum += r.fps;
  const double score = results.empty() ? 0 : sum / double(results.size());
  std::printf("%s\nvkbench Score: %.0f\n%s\n", kRule, std::floor(score + 0.5), kRule);
  std::fflush(stdout);
}

void write_csv(const std::string& path, const RunInfo& info,
               const std::vector<SceneResult>& results) {
  FILE* file = std::fopen(path.c_str(), "w");
  if (!file) fail("cannot write %s: %s", path.c_str(), std::strerror(errno));
  write_row(file, {info.command_line, "conduit-vkbench", "0.1.0", info.vendor, info.renderer,
                   "Vulkan " + info.api_version,
                   "frames-in-flight=" + std::to_string(info.frames_in_flight), info.surface});
  for (const SceneResult& r : results) {
    write_row(file,
              {r.title, number("%.0f", std::floor(r.fps + 0.5)), number("%.3f", r.frame_time_ms),
               number("%.3f", r.user_ms), number("%.3f", r.system_ms), number("%.0f", r.busy_pct),
               r.ok ? "Success" : "Fail"});
  }
  if (std::fclose(file) != 0) fail("cannot write %s: %s", path.c_str(), std::strerror(errno));
}

}  // namespace vkbench
