// Results in glmark2's formats, which `conduit bench` already reads: the
// console lines and the CSV file of `--results fps:cpu --results-file`.
#pragma once

#include <string>
#include <vector>

namespace vkbench {

struct RunInfo {
  std::string command_line;
  std::string vendor;
  std::string renderer;  // the device's name
  std::string api_version;
  std::string driver;
  std::string surface;  // "800x600 off-screen"
  uint32_t frames_in_flight = 2;
};

struct SceneResult {
  std::string title;  // "[draws] draws=500"
  double fps = 0;
  double frame_time_ms = 0;
  double user_ms = 0;    // per frame
  double system_ms = 0;  // per frame
  double busy_pct = 0;
  bool ok = false;
};

void print_header(const RunInfo& info);
void print_result(const SceneResult& result);
// The mean FPS of the scenes that ran, as glmark2's score.
void print_score(const std::vector<SceneResult>& results);
// Exits naming the file if it cannot be written.
void write_csv(const std::string& path, const RunInfo& info,
               const std::vector<SceneResult>& results);

}  // namespace vkbench
