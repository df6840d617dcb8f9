#version 450
// An array of storage buffers as long as a specialization constant says.
layout(local_size_x = 1) in;
layout(constant_id = 0) const int kBuffers = 1;
layout(set = 0, binding = 0) buffer Value { uint value; } values[kBuffers];
void main() { values[kBuffers - 1].value = 1u; }
