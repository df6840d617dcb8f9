#include "vk_stream_mutator.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "command_stream.h"
#include "hostile.h"
#include "vk_hostile.h"

namespace fuzz {
namespace {

// Mostly model-made commands and values; the byte mutator keeps the
// decoder's own refusals in reach too.
void mutate_once(std::vector<Command>& cmds, Rng& rng) {
  const uint32_t roll = rng.below(100);
  if (cmds.empty() || roll < 35) {
    insert_at_random(cmds, vk::hostile_vk_command(rng), rng);
    return;
  }
  if (roll < 40) {
    insert_at_random(cmds, vk::hostile_memory_command(rng), rng);
    return;
  }
  Command& some = cmds[rng.below(static_cast<uint32_t>(cmds.size()))];
  if (roll < 75) {
    if (!vk::change_vk_argument(some, rng)) mutate_bytes(some);
  } else if (roll < 83) {
    cmds.erase(cmds.begin() + (&some - cmds.data()));
  } else if (roll < 90) {
    Command copy = some;
    insert_at_random(cmds, std::move(copy), rng);
  } else if (roll < 94) {
    std::swap(some, cmds[rng.below(static_cast<uint32_t>(cmds.size()))]);
  } else {
    mutate_bytes(some);
  }
}

}  // namespace

size_t mutate_vk_stream(uint8_t* data, size_t size, size_t max_size, unsigned seed) {
  Rng rng(seed);
  auto cmds = split_commands({data, size});
  const uint32_t rounds = 1 + rng.below(3);
  for (uint32_t i = 0; i < rounds; ++i) mutate_once(cmds, rng);
  return join_commands(cmds, data, max_size);
}

}  // namespace fuzz
