#include "program_cache_root.h"

#include <unistd.h>

#include "control_socket.h"
#include "program_cache_channel.h"

namespace host {

shaders_cache::EntryStore& ProgramCacheRoot::store_for(const std::string& identity) {
  const std::string folder = shaders_cache::scope_folder(root_, scope_, identity);
  std::lock_guard lock(mutex_);
  auto& store = stores_[folder];
  if (!store) store = std::make_unique<shaders_cache::EntryStore>(folder, max_bytes_);
  return *store;
}

wire::Result<std::thread> ProgramCacheRoot::serve_renderer(RendererProcess& renderer, const std::string& identity) {
  auto pair = control_socket_pair();
  if (!pair) return pair.error();
  auto sent = renderer.give_program_cache(pair->second);
  ::close(pair->second);
  if (!sent) {
    ::close(pair->first);
    return sent.error();
  }
  shaders_cache::EntryStore& store = store_for(identity);
  return std::thread([fd = pair->first, &store] { serve_program_cache(fd, store); });
}

}  // namespace host
