// A short known command sequence must encode to the committed bytes, so an
// accidental change of the wire format is caught.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "wire/gl_encode.h"

#ifndef GOLDEN_BATCH_FILE
#error "GOLDEN_BATCH_FILE must name the committed golden batch"
#endif

namespace {

std::string hex(std::span<const std::byte> bytes) {
  std::string out;
  char buf[4];
  for (size_t i = 0; i < bytes.size(); ++i) {
    std::snprintf(buf, sizeof buf, "%02x", static_cast<unsigned>(bytes[i]));
    out += buf;
    out += (i % 16 == 15) ? '\n' : ' ';
  }
  return out;
}

std::string encode_sequence() {
  wire::Writer w;
  const float vertices[] = {-1.f, -1.f, 1.f, -1.f, 0.f, 1.f};
  wire::encode_glClearColor(w, 0.25f, 0.5f, 0.75f, 1.0f);
  wire::encode_glClear(w, 0x4000);
  wire::encode_glViewport(w, 0, 0, 640, 480);
  const GLuint buffer = 1;
  wire::encode_glGenBuffers(w, 1, const_cast<GLuint*>(&buffer), sizeof buffer);
  wire::encode_glBindBuffer(w, 0x8892, buffer);
  wire::encode_glBufferData(w, 0x8892, sizeof vertices, vertices, 0x88E4, sizeof vertices);
  wire::encode_glUniform4fv(w, 3, 1, vertices, 4 * sizeof(float));
  wire::encode_glBindAttribLocation(w, 7, 0, "position");
  wire::encode_glDrawArrays(w, 4, 0, 3);
  return hex(w.bytes());
}

TEST(GoldenBatch, MatchesCommittedBytes) {
  std::ifstream in(GOLDEN_BATCH_FILE);
  std::stringstream expected;
  expected << in.rdbuf();
  const std::string actual = encode_sequence();
  if (std::getenv("CONDUIT_WRITE_GOLDEN")) std::ofstream(GOLDEN_BATCH_FILE) << actual;
  EXPECT_EQ(actual, expected.str()) << "the wire format changed; if on purpose, bump "
                                       "wire::kProtocolVersion and rerun with CONDUIT_WRITE_GOLDEN=1";
}

}  // namespace
