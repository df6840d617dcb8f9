#include "options.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "check.h"
#include "frames.h"
#include "scene.h"

namespace vkbench {
namespace {

void usage(FILE* out) {
  std::fputs(
      "usage: conduit-vkbench [options]\n"
      "  -b, --benchmark SCENE[:OPT=VAL...]  run SCENE (repeatable; default: every scene)\n"
      "  -s, --size WxH             frame size (default 800x600)\n"
      "      --off-screen           render into an image of its own, without a window\n"
      "      --present-mode MODE    fifo (default), mailbox or immediate\n"
      "      --results LIST         accepted for glmark2's harnesses (fps and cpu are given)\n"
      "      --results-file FILE    also write the results as CSV\n"
      "      --frames-in-flight N   frames recorded before waiting for the oldest (1-4, default "
      "2)\n"
      "      --data-path DIR        accepted for glmark2's harnesses; unused\n"
      "  -h, --help                 this text\n"
      "Scenes and their options (every scene also takes duration=SECONDS, default 5):\n",
      out);
  for (const SceneInfo& scene : scene_table()) {
    std::fprintf(out, "  %s", scene.name);
    for (const auto& [name, value] : scene.defaults) std::fprintf(out, " %s=%s", name, value);
    std::fputc('\n', out);
  }
}

uint32_t parse_frames_in_flight(const std::string& text) {
  char* end = nullptr;
  const long value = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end || value < 1 || value > long{kMaxFramesInFlight})
    fail("--frames-in-flight %s: not a number from 1 to %u", text.c_str(), kMaxFramesInFlight);
  return static_cast<uint32_t>(value);
}

double parse_duration(const std::string& scene, const std::string& text) {
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end || !(value > 0.0)) {
    fail("scene %s: duration=%s is not a positive number of seconds", scene.c_str(), text.c_str());
  }
  return value;
}

SceneSpec parse_scene(const std::string& text) {
  SceneSpec spec;
  size_t colon = text.find(':');
  spec.name = text.substr(0, colon);
  const SceneInfo* info = find_scene(spec.name);
  if (!info) fail("no scene named '%s' (see --help)", spec.name.c_str());
  while (colon != std::string::npos) {
    const size_t start = colon + 1;
    colon = text.find(':', start);
    const std::string option = text.substr(start, colon - start);
    const size_t equals = option.find('=');
    if (equals == std::string::npos) fail("scene option '%s' is not NAME=VALUE", option.c_str());
    const std::string name = option.substr(0, equals);
    const std::string value = option.substr(equals + 1);
    bool known = name == "duration";
    for (const auto& entry : info->defaults) known = known || name == entry.first;
    if (!known) fail("scene %s has no option '%s' (see --help)", spec.name.c_str(), name.c_str());
    if (name == "duration") spec.duration_s = parse_duration(spec.name, value);
    spec.given[name] = value;
  }
  return spec;
}

VkExtent2D parse_size(const std::string& text) {
  unsigned width = 0, height = 0;
  char extra = 0;
  if (std::sscanf(text.c_str(), "%ux%u%c", &width, &height, &extra) != 2 || width == 0 ||
      height == 0 || width > 16384 || height > 16384) {
    fail("size '%s' is not WxH", text.c_str());
  }
  return {width, height};
}

VkPresentModeKHR parse_present_mode(const std::string& text) {
  if (text == "fifo") return VK_PRESENT_MODE_FIFO_KHR;
  if (text == "mailbox") return VK_PRESENT_MODE_MAILBOX_KHR;
  if (text == "immediate") return VK_PRESENT_MODE_IMMEDIATE_KHR;
  fail("present mode '%s' is not fifo, mailbox or immediate", text.c_str());
}

}  // namespace

std::string SceneSpec::title() const {
  std::string options;
  for (const auto& [name, value] : given) {
    options += (options.empty() ? "" : ":") + name + "=" + value;
  }
  return "[" + name + "] " + (options.empty() ? "<default>" : options);
}

Options parse_options(int argc, char** argv) {
  Options options;
  for (int i = 0; i < argc; ++i) {
    options.command_line += (i ? " " : "") + std::string(argv[i]);
  }
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    std::string value;
    bool has_value = false;
    // --name=value as well as --name value.
    const size_t equals = arg.find('=');
    if (arg.rfind("--", 0) == 0 && equals != std::string::npos) {
      value = arg.substr(equals + 1);
      arg = arg.substr(0, equals);
      has_value = true;
    }
    auto next = [&]() -> std::string {
      if (has_value) return value;
      if (i + 1 >= argc) fail("%s needs a value", arg.c_str());
      return argv[++i];
    };
    if (arg == "-h" || arg == "--help") {
      usage(stdout);
      std::exit(0);
    } else if (arg == "-b" || arg == "--benchmark") {
      options.scenes.push_back(parse_scene(next()));
    } else if (arg == "-s" || arg == "--size") {
      options.size = parse_size(next());
    } else if (arg == "--off-screen") {
      options.offscreen = true;
    } else if (arg == "--present-mode") {
      options.present_mode = parse_present_mode(next());
    } else if (arg == "--results" || arg == "--data-path") {
      next();
    } else if (arg == "--results-file") {
      options.results_file = next();
    } else if (arg == "--frames-in-flight") {
      options.frames_in_flight = parse_frames_in_flight(next());
    } else {
      usage(stderr);
      fail("unknown argument '%s'", argv[i]);
    }
  }
  if (options.scenes.empty()) {
    for (const SceneInfo& scene : scene_table()) options.scenes.push_back(parse_scene(scene.name));
  }
  return options;
}

}  // namespace vkbench
