#version 450
// The first pass of the render-to-texture chain: an animated pattern with
// sharp edges, for the later passes to blur.

layout(push_constant) uniform Params {
  vec2 texel;  // unused here; the filter's step
  float time;
  float hue;
} params;

layout(location = 0) in vec2 v_uv;
layout(location = 0) out vec4 out_colour;

void main() {
  vec2 p = v_uv * 2.0 - 1.0;
  float rings = sin(length(p) * 24.0 - params.time * 3.0);
  float stripes = step(0.0, sin((p.x + p.y) * 18.0 + params.time));
  out_colour = vec4(0.5 + 0.5 * rings, stripes, 0.5 + 0.5 * sin(p.x * 9.0 + params.time), 1.0);
}
