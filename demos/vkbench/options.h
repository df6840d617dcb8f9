// The command line: the part of glmark2's that `conduit bench` uses, and a
// present mode for on-screen runs.
#pragma once

#include <vulkan/vulkan.h>

#include <map>
#include <string>
#include <vector>

namespace vkbench {

struct SceneSpec {
  std::string name;
  std::map<std::string, std::string> given;  // options from -b, duration included
  double duration_s = 5.0;

  // glmark2's title: "[draws] draws=500:duration=2", "[draws] <default>".
  std::string title() const;
};

struct Options {
  std::vector<SceneSpec> scenes;  // every scene when no -b was given
  VkExtent2D size{800, 600};
  bool offscreen = false;
  VkPresentModeKHR present_mode = VK_PRESENT_MODE_FIFO_KHR;
  std::string results_file;
  uint32_t frames_in_flight = 2;
  std::string command_line;
};

// Exits with status 0 after --help and 1 on a usage error.
Options parse_options(int argc, char** argv);

}  // namespace vkbench
