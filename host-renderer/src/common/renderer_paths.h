// The files a renderer may open once confined (landlock.h): what Mesa and
// NVIDIA's drivers, libglvnd, the Vulkan loader and the dynamic loader read
// while a renderer serves guests, and the GPU's device nodes, which drivers
// also write. Measured on Mesa's llvmpipe and lavapipe; NVIDIA's device
// nodes, /proc/driver and configuration folders are there for its driver,
// not yet measured (docs/host.md, "Threat model").
#pragma once

#include <string>
#include <vector>

namespace host {

// Files and folders (everything beneath) the renderer may read.
std::vector<std::string> readable_paths();

// Device nodes the renderer may read, write and send ioctls to: /dev/dri,
// /dev/nvidia* and /dev/null.
std::vector<std::string> gpu_device_paths();

}  // namespace host
