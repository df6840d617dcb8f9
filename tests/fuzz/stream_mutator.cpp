#include "stream_mutator.h"

#include <algorithm>
#include <span>
#include <utility>

#include "hostile.h"

// libFuzzer's own byte-level mutator, for the payload of one command.
extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

namespace fuzz {

namespace {
constexpr size_t kMaxPayload = 64 * 1024;
}  // namespace

void insert_at_random(std::vector<Command>& cmds, Command c, Rng& rng) {
  auto at = cmds.begin() + rng.below(static_cast<uint32_t>(cmds.size() + 1));
  cmds.insert(at, std::move(c));
}

void mutate_bytes(Command& c) {
  if (c.payload.size() >= kMaxPayload) return;
  size_t size = c.payload.size();
  c.payload.resize(std::max<size_t>(size * 2, 16));
  auto* p = reinterpret_cast<uint8_t*>(c.payload.data());
  c.payload.resize(LLVMFuzzerMutate(p, size, c.payload.size()));
}

namespace {

// Replaces one argument of a GL command with a hostile value, keeping the rest.
bool change_argument(Command& c, Rng& rng) {
  const CommandSpec* spec = find_command(c.opcode);
  if (!spec || spec->arg_count == 0) return false;
  auto args = parse_args(*spec, c.payload);
  if (!args) return false;
  uint32_t i = rng.below(spec->arg_count);
  (*args)[i] = hostile_arg(args_of(*spec)[i], rng);
  c = encode_command(*spec, *args);
  return true;
}

void mutate_once(std::vector<Command>& cmds, Rng& rng) {
  uint32_t roll = rng.below(100);
  if (cmds.empty() || roll < 35) {
    insert_at_random(cmds, hostile_gl_command(rng), rng);
    return;
  }
  Command& some = cmds[rng.below(static_cast<uint32_t>(cmds.size()))];
  if (roll < 40) {
    insert_at_random(cmds, hostile_control_command(rng), rng);
  } else if (roll < 70) {
    if (!change_argument(some, rng)) mutate_bytes(some);
  } else if (roll < 78) {
    cmds.erase(cmds.begin() + (&some - cmds.data()));
  } else if (roll < 86) {
    Command copy = some;
    insert_at_random(cmds, std::move(copy), rng);
  } else if (roll < 90) {
    std::swap(some, cmds[rng.below(static_cast<uint32_t>(cmds.size()))]);
  } else if (some.payload.size() < kMaxPayload) {
    mutate_bytes(some);
  }
}

}  // namespace

size_t mutate_stream(uint8_t* data, size_t size, size_t max_size, unsigned seed) {
  Rng rng(seed);
  auto cmds = split_commands({data, size});
  uint32_t rounds = 1 + rng.below(3);
  for (uint32_t i = 0; i < rounds; ++i) mutate_once(cmds, rng);
  return join_commands(cmds, data, max_size);
}

size_t cross_over_streams(const uint8_t* a, size_t a_size, const uint8_t* b, size_t b_size, uint8_t* out,
                          size_t max_size, unsigned seed) {
  Rng rng(seed);
  auto first = split_commands({a, a_size});
  auto second = split_commands({b, b_size});
  first.resize(rng.below(static_cast<uint32_t>(first.size() + 1)));
  auto from = second.begin() + rng.below(static_cast<uint32_t>(second.size() + 1));
  first.insert(first.end(), std::make_move_iterator(from), std::make_move_iterator(second.end()));
  return join_commands(first, out, max_size);
}

}  // namespace fuzz
