// Batches of several commands cut at every byte: the iterator and decoders
// report clean errors, never read past the cut.
#include <gtest/gtest.h>

#include <vector>

#include "decode_any.h"
#include "wire/gl_encode.h"
#include "wire/reader.h"

namespace {

std::vector<std::byte> sample_batch() {
  wire::Writer w;
  const float m[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  wire::encode_glUseProgram(w, 3);
  wire::encode_glUniformMatrix4fv(w, 0, 1, 0, m, sizeof m);
  wire::encode_glShaderBinary(w, 0, nullptr, 0x1234, m, sizeof m, 0, 0);
  wire::encode_glDrawArrays(w, 4, 0, 36);
  wire::encode_glGetUniformLocation(w, 3, "mvp");
  return {w.bytes().begin(), w.bytes().end()};
}

// Decodes every command of `batch`; false at the first error.
bool decode_all(std::span<const std::byte> batch) {
  wire::CommandIterator it(batch);
  while (!it.done()) {
    auto cmd = it.next();
    if (!cmd) return false;
    wire::Reader r(cmd->payload, cmd->offset);
    if (!decode_any(cmd->opcode, r)) return false;
  }
  return true;
}

TEST(BatchTruncation, EveryCutFailsCleanly) {
  const auto batch = sample_batch();
  ASSERT_TRUE(decode_all(batch));
  for (size_t cut = 1; cut < batch.size(); ++cut) {
    std::vector<std::byte> prefix(batch.begin(), batch.begin() + cut);
    // A cut on a command boundary is a shorter valid batch; any other fails.
    wire::CommandIterator it(prefix);
    bool boundary = false;
    while (!it.done()) {
      auto c = it.next();
      if (!c) break;
      boundary = it.done();
    }
    EXPECT_EQ(decode_all(prefix), boundary) << "cut at " << cut;
  }
}

TEST(BatchTruncation, CorruptSizesAreRejected) {
  auto batch = sample_batch();
  for (uint32_t bad : {0u, 3u, 7u, 0xFFFFFFF0u}) {
    std::memcpy(batch.data() + 4, &bad, sizeof bad);
    EXPECT_FALSE(decode_all(batch)) << bad;
  }
}

TEST(BatchTruncation, UnknownOpcodeIsAnError) {
  wire::Writer w;
  size_t s = w.begin(0x7FFFFFFF);
  w.end(s);
  EXPECT_FALSE(decode_all(w.bytes()));
}

}  // namespace
