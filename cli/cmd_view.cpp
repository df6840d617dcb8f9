// `conduit view HOST:PORT`: a native window on `conduit host --vnc` (or any
// VNC server), for people who want no browser.
#include <cstdio>
#include <memory>

#include "comp/vnc_viewer.h"
#include "commands.h"

namespace cli {

CLI::App* add_view_command(CLI::App& app, int* status) {
  auto* cmd = app.add_subcommand("view", "Watch and drive the guests a `conduit host --vnc` shows, "
                                         "in a window (or any VNC server's screen)");
  auto options = std::make_shared<comp::VncViewerOptions>();
  cmd->add_option("address", options->address, "The server, as HOST:PORT, [IPv6]:PORT, or PORT on 127.0.0.1")
      ->required()
      ->type_name("[HOST:]PORT");
  cmd->add_option("--password-file", options->password_file,
                  "File whose first line is the server's password; only its owner may read it")
      ->type_name("FILE");
  cmd->callback([status, options] {
    const wire::Status shown = comp::run_vnc_viewer(*options);
    if (!shown) std::fprintf(stderr, "conduit view: %s\n", shown.error().describe().c_str());
    *status = shown ? 0 : 1;
  });
  return cmd;
}

}  // namespace cli
