#version 450
// Each vertex's index, captured by transform feedback into buffer 0.
layout(location = 0, xfb_buffer = 0, xfb_offset = 0, xfb_stride = 16) out vec4 captured;

void main() {
  captured = vec4(float(gl_VertexIndex));
  gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
