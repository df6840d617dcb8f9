#version 450
// What a pipeline's layout must hold for this stage: a uniform buffer used
// through a function, a combined image sampler array sized by a
// specialization constant, a texel buffer, a storage image, and two members
// of the push-constant block; the block `Unused` is declared, never used.
layout(constant_id = 3) const int kTextures = 2;
layout(set = 0, binding = 0) uniform Used { vec4 tint; } used;
layout(set = 0, binding = 1) uniform Unused { vec4 never; } unused;
layout(set = 1, binding = 2) uniform sampler2D textures[kTextures];
layout(set = 2, binding = 0) uniform samplerBuffer texels;
layout(set = 2, binding = 1, rgba8) uniform readonly image2D picture;
layout(push_constant) uniform Push {
  mat3 rotation;
  vec4 skipped;
  float scale;
} push;
layout(location = 0) out vec4 colour;

vec4 tinted(vec4 c) { return c * used.tint; }

void main() {
  vec3 turned = push.rotation * vec3(push.scale);
  colour = tinted(texture(textures[1], turned.xy)) + texelFetch(texels, 0) + imageLoad(picture, ivec2(0));
}
