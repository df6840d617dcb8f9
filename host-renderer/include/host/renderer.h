// `conduit renderer`: the process that serves one guest program for the
// supervisor (`conduit host`), confined once its display is open
// (docs/host-processes.md).
#pragma once

namespace host {

// Serves what the supervisor hands over on `control_fd`; returns the
// process's exit status.
int run_renderer(int control_fd);

}  // namespace host
