#version 450
// One small quad per draw, placed by push constants: no vertex buffer, so a
// draw costs only its command.

layout(push_constant) uniform Draw {
  vec4 rect;    // centre x, centre y, depth, half size (clip space)
  vec4 colour;
} draw;

layout(location = 0) out vec4 v_colour;

void main() {
  // Triangle-strip corners 0..3: (-1,-1) (1,-1) (-1,1) (1,1).
  vec2 corner = vec2(gl_VertexIndex & 1, gl_VertexIndex >> 1) * 2.0 - 1.0;
  gl_Position = vec4(draw.rect.xy + corner * draw.rect.w, draw.rect.z, 1.0);
  v_colour = draw.colour;
}
