#version 450
// Writes the uniform's value plus one: shows which buffers a descriptor set holds.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) uniform In { uint value; } in_;
layout(set = 0, binding = 1) buffer Out { uint value; } out_;
void main() { out_.value = in_.value + 1u; }
