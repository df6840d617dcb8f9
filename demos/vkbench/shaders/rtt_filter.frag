#version 450
// A later pass of the chain: a 9-tap Gaussian blur along one axis (5 bilinear
// fetches between texel pairs) and a small rotation of the colour channels.

layout(set = 0, binding = 0) uniform sampler2D source;

layout(push_constant) uniform Params {
  vec2 texel;  // one texel along the blur's axis
  float time;
  float hue;   // how far red moves toward green, green toward blue, ...
} params;

layout(location = 0) in vec2 v_uv;
layout(location = 0) out vec4 out_colour;

void main() {
  vec2 near = params.texel * 1.3846154;
  vec2 far = params.texel * 3.2307692;
  vec3 sum = texture(source, v_uv).rgb * 0.2270270;
  sum += (texture(source, v_uv + near).rgb + texture(source, v_uv - near).rgb) * 0.3162162;
  sum += (texture(source, v_uv + far).rgb + texture(source, v_uv - far).rgb) * 0.0702703;
  out_colour = vec4(mix(sum, sum.gbr, params.hue), 1.0);
}
