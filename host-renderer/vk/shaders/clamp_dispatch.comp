#version 450
// One guest dispatch's workgroup counts, as its buffer held them when the
// dispatch came (copied by the host into `raw`), written to `clamped`, which
// the dispatch reads instead: as they were where every side is within the
// device's maxComputeWorkGroupCount and all of them within the host's limit,
// no workgroups at all otherwise.
layout(local_size_x = 1) in;

layout(std430, set = 0, binding = 0) buffer Slot {
  uvec4 raw;
  uvec4 clamped;
};

// xyz: the most workgroups on each side; w: the most in all.
layout(push_constant) uniform Limits {
  uvec4 most;
};

void main() {
  const uvec3 g = raw.xyz;
  const bool each_side = all(lessThanEqual(g, most.xyz));
  const bool empty = any(equal(g, uvec3(0)));
  // x * y * z <= w without a product that could wrap.
  const uint per_x = most.w / max(g.x, 1u);
  const bool in_all = empty || (g.y <= per_x && g.z <= per_x / max(g.y, 1u));
  clamped = (each_side && in_all) ? uvec4(g, 0) : uvec4(0);
}
