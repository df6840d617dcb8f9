// A native viewer for the host's RFB server (or any VNC server), on
// libvncclient and SDL2: the remote picture in a resizable window, scaled
// to fit and keeping its shape; the pointer and keys go back.
#pragma once

#include <cstdint>
#include <string>

#include "comp/compositor.h"
#include "wire/result.h"

namespace comp {

struct VncViewerOptions {
  std::string address;        // HOST:PORT, [IPv6]:PORT or PORT (on 127.0.0.1)
  std::string password_file;  // first line is the password; owner-only. Empty: none
};

// Shows the server's picture until the window is closed (ok), or fails
// with why: the connection could not be made, or the server went away.
wire::Status run_vnc_viewer(const VncViewerOptions& options);

}  // namespace comp
