#version 450
// Shows the compute scene's buffer as a grid of elements stretched over the frame.

layout(std430, set = 0, binding = 0) readonly buffer Values {
  float values[];
};

layout(push_constant) uniform Params {
  uint count;
  uint columns;
  float time;
} params;

layout(location = 0) in vec2 v_uv;
layout(location = 0) out vec4 out_colour;

void main() {
  uint rows = (params.count + params.columns - 1) / params.columns;
  uint x = min(uint(v_uv.x * float(params.columns)), params.columns - 1);
  uint y = min(uint(v_uv.y * float(rows)), rows - 1);
  float v = values[min(y * params.columns + x, params.count - 1)];
  out_colour = vec4(v, v * v, 1.0 - v, 1.0);
}
