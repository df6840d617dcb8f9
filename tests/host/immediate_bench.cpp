// What a desktop GL program's immediate mode costs on the host: batches of
// glBegin / glColor / three glVertex / glEnd, one round trip each, in a
// compatibility context (where the host checks vertex arrays at glBegin,
// gl/array_reads.h), with `arrays` generic attributes enabled from a buffer.
#include <benchmark/benchmark.h>

#include <memory>

#include "host_fixture.h"
#include "test_guest.h"
#include "wire/gl_encode.h"

namespace hosttest {
namespace {

constexpr GLenum kTriangles = 0x0004, kArrayBuffer = 0x8892, kStaticDraw = 0x88E4;
constexpr GLenum kFloat = 0x1406;
constexpr int kTrianglesPerBatch = 1000;

void BM_ImmediateTriangles(benchmark::State& state) {
  RunningHost host;
  auto g = TestGuest::connect(host.address());
  if (!g || !g->hello().ok() ||
      g->create_context(1, wire::Api::kGl, 3, 0, wire::Profile::kCompatibility) != 0) {
    state.SkipWithError("no host");
    return;
  }
  g->create_surface(1, 64, 64);
  g->make_current(1, 1, 1);
  GLuint buffer = 1;
  wire::encode_glGenBuffers(g->w(), 1, &buffer, sizeof buffer);
  wire::encode_glBindBuffer(g->w(), kArrayBuffer, buffer);
  wire::encode_glBufferData(g->w(), kArrayBuffer, 4096, nullptr, kStaticDraw, 0);
  for (GLuint i = 1; i <= static_cast<GLuint>(state.range(0)); ++i) {
    wire::encode_glVertexAttribFormat(g->w(), i, 4, kFloat, 0, 0);
    wire::encode_glVertexAttribBinding(g->w(), i, 0);
    wire::encode_glEnableVertexAttribArray(g->w(), i);
  }
  if (state.range(0) > 0) wire::encode_glBindVertexBuffer(g->w(), 0, buffer, 0, 16);
  for (auto _ : state) {
    for (int t = 0; t < kTrianglesPerBatch; ++t) {
      wire::encode_glBegin(g->w(), kTriangles);
      wire::encode_glColor3f(g->w(), 1, 0, 0);
      wire::encode_glVertex3f(g->w(), -1, -1, 0);
      wire::encode_glVertex3f(g->w(), 1, -1, 0);
      wire::encode_glVertex3f(g->w(), 0, 1, 0);
      wire::encode_glEnd(g->w());
    }
    g->control(wire::ControlOp::kSync);
    if (!g->call() || !g->lost.empty()) state.SkipWithError("the context is lost");
  }
  state.SetItemsProcessed(state.iterations() * kTrianglesPerBatch);
}

BENCHMARK(BM_ImmediateTriangles)->Arg(0)->Arg(4)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace hosttest

BENCHMARK_MAIN();
