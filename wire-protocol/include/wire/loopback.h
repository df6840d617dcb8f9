// An in-process pair of channels: what one side sends, the other receives.
// Tests and tools use it to run the real encoder against the real decoder
// (or a host session) without a socket.
#pragma once

#include <memory>
#include <utility>

#include "wire/transport.h"

namespace wire {

std::pair<std::unique_ptr<Channel>, std::unique_ptr<Channel>> make_loopback();

}  // namespace wire
