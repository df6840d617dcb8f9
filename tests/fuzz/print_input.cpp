// Lists the commands of fuzz inputs, one a line, by the generated command
// model: what a crash input does, so that it can be turned into a test.
//   usage: fuzz-print-input FILE...
#include <cinttypes>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <vector>

#include "command_stream.h"
#include "wire/format.h"
#include "wire/vk_codec.h"

namespace {

void print_arg(const fuzz::ArgSpec& spec, const fuzz::Arg& a) {
  if (!fuzz::is_data(spec.kind)) {
    std::printf(" 0x%" PRIx64, a.scalar);
    return;
  }
  switch (a.kind) {
    case wire::DataKind::kNull: std::printf(" null"); break;
    case wire::DataKind::kInline: std::printf(" [%zu bytes]", a.bytes.size()); break;
    case wire::DataKind::kBufferOffset: std::printf(" buffer+%" PRIu64, a.offset); break;
    default: std::printf(" heap+%" PRIu64 "/%u", a.offset, a.heap_length); break;
  }
}

void print_command(const fuzz::Command& c) {
  const fuzz::CommandSpec* spec = fuzz::find_command(c.opcode);
  if (!spec) {
    // Vulkan commands by name; their arguments are not in the GL model.
    const wire::vk::CommandDesc* vk =
        wire::range_of(c.opcode) == wire::OpcodeRange::kVulkan ? wire::vk::command_desc(c.opcode) : nullptr;
    std::printf("%s %u [%zu bytes]\n", vk ? vk->name : "control", c.opcode, c.payload.size());
    return;
  }
  std::printf("%s", spec->name);
  auto args = fuzz::parse_args(*spec, c.payload);
  if (!args) {
    std::printf(" (malformed, %zu bytes)\n", c.payload.size());
    return;
  }
  auto specs = fuzz::args_of(*spec);
  for (size_t i = 0; i < args->size(); ++i) print_arg(specs[i], (*args)[i]);
  std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    std::ifstream in(argv[i], std::ios::binary);
    std::vector<uint8_t> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    std::printf("# %s\n", argv[i]);
    for (const fuzz::Command& c : fuzz::split_commands(bytes)) print_command(c);
  }
  return 0;
}
