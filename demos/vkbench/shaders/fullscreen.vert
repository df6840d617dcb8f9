#version 450
// One triangle that covers the target; v_uv runs 0..1 across it, (0,0) at
// the top left as in Vulkan's framebuffer and texture coordinates.

layout(location = 0) out vec2 v_uv;

void main() {
  v_uv = vec2((gl_VertexIndex << 1) & 2, gl_VertexIndex & 2);
  gl_Position = vec4(v_uv * 2.0 - 1.0, 0.0, 1.0);
}
