// conduit-vkbench: Vulkan scenes timed like glmark2's, with its command line
// and output, so `conduit bench --flavour vk` runs them natively and through
// Conduit side by side.
#include <vulkan/vulkan.h>

#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "canvas.h"
#include "check.h"
#include "context.h"
#include "frames.h"
#include "measure.h"
#include "options.h"
#include "report.h"
#include "scene.h"
#include "target.h"

namespace vkbench {
namespace {

std::string version_text(uint32_t version) {
  return std::to_string(VK_API_VERSION_MAJOR(version)) + "." +
         std::to_string(VK_API_VERSION_MINOR(version)) + "." +
         std::to_string(VK_API_VERSION_PATCH(version));
}

RunInfo describe(const Context& context, const Target& target, const Options& options) {
  const VkPhysicalDeviceProperties& props = context.properties();
  char text[32];
  RunInfo info;
  info.command_line = options.command_line;
  std::snprintf(text, sizeof(text), "0x%04x", props.vendorID);
  info.vendor = text;
  info.renderer = props.deviceName;
  info.api_version = version_text(props.apiVersion);
  std::snprintf(text, sizeof(text), "driver 0x%x", props.driverVersion);
  info.driver = text;
  info.surface = target.description();
  info.frames_in_flight = options.frames_in_flight;
  return info;
}

std::unique_ptr<Scene> make_scene(const SceneSpec& spec, const Context& context,
                                  const Canvas& canvas) {
  const SceneInfo* info = find_scene(spec.name);
  std::map<std::string, std::string> values;
  for (const auto& [name, value] : info->defaults) values[name] = value;
  for (const auto& [name, value] : spec.given) {
    if (name != "duration") values[name] = value;
  }
  return info->make(context, canvas, SceneOptions(spec.name, values));
}

// Draws frames for the scene's duration, as many in flight as asked, then
// checks the last.
SceneResult run_scene(const SceneSpec& spec, const Context& context, const Canvas& canvas,
                      Target& target, FrameRing& frames) {
  std::unique_ptr<Scene> scene = make_scene(spec, context, canvas);
  uint64_t count = 0;
  const Measurement measurement;
  do {
    FrameSlot& slot = frames.wait_next();
    target.acquire(slot);
    frames.begin(slot);
    scene->record(slot.cmd, slot.index, count);
    target.record_output(slot.cmd, canvas);
    check(vkEndCommandBuffer(slot.cmd), "vkEndCommandBuffer");
    target.submit(slot);
    ++count;
  } while (measurement.elapsed_s() < spec.duration_s);
  // The time includes finishing the frames still in flight.
  check(vkDeviceWaitIdle(context.device()), "vkDeviceWaitIdle");
  const Costs costs = measurement.finish();

  SceneResult result;
  result.title = spec.title();
  result.fps = double(count) / costs.wall_s;
  result.frame_time_ms = 1000.0 * costs.wall_s / double(count);
  result.user_ms = 1000.0 * costs.user_s / double(count);
  result.system_ms = 1000.0 * costs.system_s / double(count);
  result.busy_pct = costs.busy_pct;
  result.ok = pixels_unlike_first(canvas.read_back()) > 0;
  return result;
}

int run(const Options& options) {
  Context context(!options.offscreen);
  std::unique_ptr<Target> target =
      options.offscreen ? make_offscreen_target(context, options.size)
                        : make_window_target(context, options.size, options.present_mode);
  Canvas canvas(context, options.size);
  FrameRing frames(context, options.frames_in_flight);
  const RunInfo info = describe(context, *target, options);
  print_header(info);
  std::vector<SceneResult> results;
  for (const SceneSpec& spec : options.scenes) {
    results.push_back(run_scene(spec, context, canvas, *target, frames));
    if (!results.back().ok) {
      if (!options.results_file.empty()) write_csv(options.results_file, info, results);
      fail("%s: the last frame is all one colour: the scene did not render", spec.title().c_str());
    }
    print_result(results.back());
  }
  print_score(results);
  if (!options.results_file.empty()) write_csv(options.results_file, info, results);
  return 0;
}

}  // namespace
}  // namespace vkbench

int main(int argc, char** argv) { return vkbench::run(vkbench::parse_options(argc, argv)); }
