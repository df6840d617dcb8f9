// The real encoder through batches, zstd and an in-process channel to the
// real decoder: every command arrives with its arguments intact.
#include <gtest/gtest.h>

#include "decode_any.h"
#include "wire/batch.h"
#include "wire/gl_decode.h"
#include "wire/gl_encode.h"
#include "wire/loopback.h"

namespace {

using namespace std::chrono_literals;

TEST(Loopback, BatchesArriveDecodableAndInOrder) {
  auto [guest, host] = wire::make_loopback();
  wire::BatchEncoder encoder(wire::Compression::kFast);
  wire::BatchDecoder decoder(1u << 24);
  for (int frame = 0; frame < 20; ++frame) {
    wire::Writer w;
    for (int i = 0; i < 50; ++i) {
      wire::encode_glUniform1f(w, i, static_cast<float>(frame) + 0.5f);
      wire::encode_glDrawArrays(w, 4, i, 3);
    }
    auto message = encoder.encode(w.bytes());
    ASSERT_TRUE(message.ok());
    ASSERT_TRUE(guest->send(*message).ok());
  }
  for (int frame = 0; frame < 20; ++frame) {
    auto message = host->receive(1000ms);
    ASSERT_TRUE(message.ok());
    auto batch = decoder.decode(*message);
    ASSERT_TRUE(batch.ok()) << batch.error().describe();
    wire::CommandIterator it(batch->commands);
    for (int i = 0; i < 50; ++i) {
      auto uniform = it.next();
      ASSERT_TRUE(uniform.ok());
      wire::Reader r(uniform->payload, uniform->offset);
      wire::Args_glUniform1f a;
      ASSERT_TRUE(wire::decode_glUniform1f(r, a).ok());
      EXPECT_EQ(a.location, i);
      EXPECT_EQ(a.v0, static_cast<float>(frame) + 0.5f);
      auto draw = it.next();
      ASSERT_TRUE(draw.ok());
      wire::Reader d(draw->payload, draw->offset);
      EXPECT_TRUE(decode_any(draw->opcode, d).ok());
    }
    EXPECT_TRUE(it.done());
    host->release();
  }
}

TEST(Loopback, ClosedPeerIsReported) {
  auto [guest, host] = wire::make_loopback();
  guest->close();
  EXPECT_FALSE(host->receive(10ms).ok());
  EXPECT_FALSE(host->send(std::vector<std::byte>(4)).ok());
}

}  // namespace
