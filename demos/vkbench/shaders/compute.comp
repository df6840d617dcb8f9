#version 450
// Moves every element a quarter of the way to a wave that changes with time:
// a read and a write of the whole buffer per frame.

layout(local_size_x = 256) in;

layout(std430, set = 0, binding = 0) buffer Values {
  float values[];
};

layout(push_constant) uniform Params {
  uint count;
  uint columns;  // the elements as a grid, for the wave and the picture
  float time;
} params;

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= params.count) return;
  float x = float(i % params.columns);
  float y = float(i / params.columns);
  float wave = 0.5 + 0.5 * sin(x * 0.031 + params.time) * cos(y * 0.023 - params.time * 0.7);
  values[i] = mix(values[i], wave, 0.25);
}
