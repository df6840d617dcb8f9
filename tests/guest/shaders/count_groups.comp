#version 450
// Adds the push constant once for every workgroup dispatched: counts what a
// dispatch ran, through the program's own set and push constants.
layout(local_size_x = 1) in;
layout(push_constant) uniform Push { uint add; } push;
layout(set = 0, binding = 0) buffer Count { uint total; } count;
void main() { atomicAdd(count.total, push.add); }
