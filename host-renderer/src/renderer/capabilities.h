// A renderer holds no capability: a host started as root would otherwise
// give each renderer, and whoever takes one over through its driver, the
// power to override file permissions, signal or trace any process, mount
// and load modules.
#pragma once

#include "wire/result.h"

namespace host {

// Empties the bounding set, which limits what any later program could
// gain, where this thread holds CAP_SETPCAP (a renderer of a root host).
void drop_bounding_set();
// Empties this thread's bounding, ambient, inheritable, permitted and
// effective sets; run before any other thread starts (capabilities belong to
// threads). Fails when any capability is left.
wire::Status drop_capabilities();

}  // namespace host
