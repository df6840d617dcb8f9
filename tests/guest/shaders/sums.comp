#version 450
// Adds two of three storage buffers and a push constant into the third: a
// stage that uses a descriptor array, and push constants past the block's
// first member only (its layout's range may start at byte 16).
layout(local_size_x = 1) in;
layout(push_constant) uniform Push {
  uvec4 unused;
  uint add;
} push;
layout(set = 0, binding = 0) buffer Value { uint value; } values[3];
void main() { values[2].value = values[0].value + values[1].value + push.add; }
