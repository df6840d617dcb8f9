// Reporting the system calls the renderer's filter refuses: the filter traps
// them instead of failing them silently, and the handler makes the call fail
// with EPERM as before, after one line on stderr that names the call (and the
// file, for opens). A driver that needs a refused call is then found from
// the log instead of from a crash somewhere later.
#pragma once

namespace host {

// Installs the SIGSYS handler; before the filter is loaded.
bool report_refused_calls();

}  // namespace host
