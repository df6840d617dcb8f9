// Argument values a hostile guest would send: edge integers, huge counts,
// names that exist and names that don't, enums of the argument's own group,
// arrays shorter or longer than GL reads, offsets far outside any buffer.
#pragma once

#include <cstdint>
#include <random>

#include "command_stream.h"

namespace fuzz {

class Rng {
 public:
  explicit Rng(uint32_t seed) : engine_(seed) {}
  uint32_t below(uint32_t n) { return n ? static_cast<uint32_t>(engine_() % n) : 0; }
  bool percent(uint32_t p) { return below(100) < p; }
  uint32_t next() { return static_cast<uint32_t>(engine_()); }

 private:
  std::mt19937 engine_;
};

uint64_t hostile_scalar(const ArgSpec& spec, Rng& rng);
Arg hostile_arg(const ArgSpec& spec, Rng& rng);
// A GL command of the generated model with every argument hostile.
Command hostile_gl_command(Rng& rng);
// One of Conduit's own commands (contexts, surfaces, make-current, swaps)
// with small ids, so that most of them name the fuzz session's objects.
Command hostile_control_command(Rng& rng);

}  // namespace fuzz
