// How the supervisor turns a guest away: the guest library prints why.
#pragma once

#include <string>

#include "wire/transport.h"

namespace host {

// Sends `why` (wire::ControlOp::kRefused) in place of the answer to the
// guest's hello, then closes the channel.
void refuse_guest(wire::Channel& channel, const std::string& why);

}  // namespace host
