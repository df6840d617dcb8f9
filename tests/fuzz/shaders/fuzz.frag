#version 450
// Reads the prelude's descriptor set, so draws reach its buffers and images.
layout(set = 0, binding = 0) uniform Tint { vec4 tint; } tint_;
layout(set = 0, binding = 2) uniform sampler2D picture;
layout(location = 0) out vec4 colour;
void main() { colour = tint_.tint * texture(picture, gl_FragCoord.xy / 64.0); }
