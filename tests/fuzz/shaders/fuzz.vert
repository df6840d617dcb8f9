#version 450
// The fuzz prelude's graphics pipeline: one vec4 attribute from binding 0.
layout(location = 0) in vec4 position;
void main() { gl_Position = position; }
