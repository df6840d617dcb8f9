#include "gl/uniform_reach.h"

#include <algorithm>
#include <cstdint>

#include "wire/control.h"
#include "wire/reader.h"

namespace icd {

namespace {

// Values up to this many bytes are sent as the program passes them: more
// than a default-block uniform array of any driver holds, so only absurd
// counts cost a round trip.
constexpr uint64_t kUnaskedBytes = 64u << 10;

}  // namespace

bool bound_uniform_count(Stream& s, GLuint program, GLint location, GLsizei* count, size_t bytes_each) {
  if (*count <= 1 || static_cast<uint64_t>(*count) * bytes_each <= kUnaskedBytes) return true;
  if (!s.host_offers(wire::kFeatureUniformReach)) return true;
  wire::Writer& w = s.writer();
  const size_t at = w.begin(static_cast<uint32_t>(wire::ControlOp::kUniformReach));
  w.put(wire::UniformReach{program, location, *count});
  w.end(at);
  auto reply = s.roundtrip();
  if (!reply) return false;
  wire::Reader r(*reply, 0);
  auto reach = r.get<int32_t>();
  if (!reach || *reach < 0) return false;
  *count = std::min(*count, *reach);
  return true;
}

}  // namespace icd
