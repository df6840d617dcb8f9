// The environment a renderer starts with: only what GPU drivers, their
// loaders and the sanitizers read. The host's own variables (CONDUIT_TOKEN
// above all) and the user's session (DISPLAY, credentials, paths of other
// programs) stay with the supervisor.
#pragma once

#include <string>
#include <vector>

namespace host {

// "NAME=value" entries of `environ` a renderer keeps, in their order.
std::vector<std::string> renderer_environment(char** environ);

}  // namespace host
