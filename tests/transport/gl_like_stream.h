// Command streams shaped like a GL frame (state changes, uniform matrices,
// small vertex uploads, draws), for compression and transport tests.
#pragma once

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "wire/writer.h"

namespace wire::testing {

// Appends one frame of `draws` draw calls; `frame` varies the animated values.
inline void write_gl_like_frame(Writer& w, uint32_t frame, uint32_t draws, std::mt19937& rng) {
  constexpr uint32_t kUseProgram = kFirstGlOpcode + 10, kUniformMatrix = kFirstGlOpcode + 11,
                     kBindBuffer = kFirstGlOpcode + 12, kBufferSubData = kFirstGlOpcode + 13,
                     kDrawElements = kFirstGlOpcode + 14, kEnable = kFirstGlOpcode + 15;
  size_t c = w.begin(kEnable);
  w.put<uint32_t>(0x0B71);  // GL_DEPTH_TEST
  w.end(c);
  for (uint32_t d = 0; d < draws; ++d) {
    c = w.begin(kUseProgram);
    w.put<uint32_t>(3 + d % 4);
    w.end(c);
    c = w.begin(kUniformMatrix);
    w.put<int32_t>(static_cast<int32_t>(d % 7));
    w.put<uint32_t>(1);
    float m[16];
    float angle = 0.01f * static_cast<float>(frame) + 0.3f * static_cast<float>(d);
    for (int i = 0; i < 16; ++i) m[i] = (i % 5 == 0) ? std::cos(angle) : (i == 12 ? 0.5f * d : 0.f);
    w.put_data(m, sizeof m);
    w.end(c);
    c = w.begin(kBindBuffer);
    w.put<uint32_t>(0x8892);
    w.put<uint32_t>(10 + d);
    w.end(c);
    if (d % 4 == 0) {
      std::vector<float> verts(48);
      for (auto& v : verts) v = static_cast<float>(rng() % 64) / 16.f;
      c = w.begin(kBufferSubData);
      w.put<uint32_t>(0x8892);
      w.put<uint64_t>(0);
      w.put_data(verts.data(), verts.size() * sizeof(float));
      w.end(c);
    }
    c = w.begin(kDrawElements);
    w.put<uint32_t>(4);
    w.put<int32_t>(36);
    w.put<uint32_t>(0x1403);
    w.put_buffer_offset(0);
    w.end(c);
  }
}

}  // namespace wire::testing
