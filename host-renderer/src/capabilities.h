// A renderer holds no capability: a host started as root would otherwise
// give each renderer, and whoever takes one over through its driver, the
// power to override file permissions, signal or trace any process, mount
// and load modules.
#pragma once

#include "wire/result.h"

namespace host {

// Empties this thread's bounding, ambient, inheritable, permitted and
// effective sets; run before any other thread starts (capabilities belong to
// threads). Fails when any capability is left.
wire::Status drop_capabilities();

}  // namespace host
