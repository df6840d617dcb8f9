#include "gl/context_impl.h"
#include "gl/driver_workarounds.h"
#include "gl/references.h"

#include <epoxy/egl.h>
#include <epoxy/gl.h>

#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace host {
namespace {


void delete_each(const std::vector<GLuint>& names, void (*fn)(GLuint)) {
  for (GLuint n : names) fn(n);
}

// How to free host objects of each kind at teardown.
void delete_objects(ObjectType t, const std::vector<GLuint>& v) {
  const auto n = static_cast<GLsizei>(v.size());
  switch (t) {
    case ObjectType::kBuffer: glDeleteBuffers(n, v.data()); break;
    case ObjectType::kTexture: glDeleteTextures(n, v.data()); break;
    case ObjectType::kFramebuffer: glDeleteFramebuffers(n, v.data()); break;
    case ObjectType::kRenderbuffer: glDeleteRenderbuffers(n, v.data()); break;
    case ObjectType::kProgram: delete_each(v, [](GLuint p) { glDeleteProgram(p); }); break;
    case ObjectType::kShader: delete_each(v, [](GLuint s) { glDeleteShader(s); }); break;
    case ObjectType::kSampler: glDeleteSamplers(n, v.data()); break;
    case ObjectType::kQuery: glDeleteQueries(n, v.data()); break;
    case ObjectType::kTransformFeedback: glDeleteTransformFeedbacks(n, v.data()); break;
    case ObjectType::kVertexArray: glDeleteVertexArrays(n, v.data()); break;
    case ObjectType::kProgramPipeline: glDeleteProgramPipelines(n, v.data()); break;
    case ObjectType::kDisplayList: delete_each(v, [](GLuint l) { glDeleteLists(l, 1); }); break;
    case ObjectType::kAssemblyProgram: glDeleteProgramsARB(n, v.data()); break;
    case ObjectType::kMemoryObject: glDeleteMemoryObjectsEXT(n, v.data()); break;
    case ObjectType::kSync:
    case ObjectType::kCount: break;
  }
}

// A name for GL to create an object of kind `t` under on first bind.
GLuint gen_one(ObjectType t) {
  GLuint created = 0;
  switch (t) {
    case ObjectType::kBuffer: glGenBuffers(1, &created); break;
    case ObjectType::kTexture: glGenTextures(1, &created); break;
    case ObjectType::kFramebuffer: glGenFramebuffers(1, &created); break;
    case ObjectType::kRenderbuffer: glGenRenderbuffers(1, &created); break;
    case ObjectType::kDisplayList: created = glGenLists(1); break;
    case ObjectType::kAssemblyProgram: glGenProgramsARB(1, &created); break;
    case ObjectType::kQuery: glGenQueries(1, &created); break;
    default: break;
  }
  return created;
}

void release_map(ObjectType t, NameMap& map, ResourceAccount& account) {
  std::vector<GLuint> names;
  names.reserve(map.size());
  for (const auto& [guest, hostname] : map.entries()) names.push_back(hostname);
  if (!names.empty()) delete_objects(t, names);
  account.objects -= std::min(account.objects, names.size());
  map.clear();
}

// What a target or label identifier (EXT_debug_label's types too) names.
std::optional<ObjectType> object_type_named_by(GLenum kind) {
  switch (kind) {
    case GL_RENDERBUFFER: return ObjectType::kRenderbuffer;
    case GL_TEXTURE:
    case GL_TEXTURE_1D:
    case GL_TEXTURE_2D:
    case GL_TEXTURE_3D:
    case GL_TEXTURE_RECTANGLE:
    case GL_TEXTURE_CUBE_MAP:
    case GL_TEXTURE_1D_ARRAY:
    case GL_TEXTURE_2D_ARRAY:
    case GL_TEXTURE_CUBE_MAP_ARRAY:
    case GL_TEXTURE_2D_MULTISAMPLE:
    case GL_TEXTURE_2D_MULTISAMPLE_ARRAY: return ObjectType::kTexture;
    case GL_BUFFER:
    case GL_BUFFER_OBJECT_EXT: return ObjectType::kBuffer;
    case GL_SHADER:
    case GL_SHADER_OBJECT_EXT: return ObjectType::kShader;
    case GL_PROGRAM:
    case GL_PROGRAM_OBJECT_EXT: return ObjectType::kProgram;
    case GL_VERTEX_ARRAY:
    case GL_VERTEX_ARRAY_OBJECT_EXT: return ObjectType::kVertexArray;
    case GL_QUERY:
    case GL_QUERY_OBJECT_EXT: return ObjectType::kQuery;
    case GL_PROGRAM_PIPELINE:
    case GL_PROGRAM_PIPELINE_OBJECT_EXT: return ObjectType::kProgramPipeline;
    case GL_TRANSFORM_FEEDBACK: return ObjectType::kTransformFeedback;
    case GL_SAMPLER: return ObjectType::kSampler;
    case GL_FRAMEBUFFER: return ObjectType::kFramebuffer;
    default: return std::nullopt;
  }
}

// Whether GL still has a program or shader the guest deleted.
bool gl_keeps(ObjectType t, GLuint host) {
  return t == ObjectType::kProgram ? glIsProgram(host) : t == ObjectType::kShader && glIsShader(host);
}

}  // namespace

GlContextState::Impl::Impl(std::shared_ptr<ShareGroup> s, ResourceAccount& a, bool is_gles)
    : share(std::move(s)), account(a), gles(is_gles) {
  share->ledger.bind(account);
  share->lists.bind(account);
  local.ledger.bind(account);
}

wire::Status GlContextState::Impl::translate(ObjectType t, GLuint guest, NameUse use,
                                             GLuint* out) {
  if (guest == 0) {
    *out = 0;
    return {};
  }
  NameMap& map = names(t);
  GLuint found = map.find(guest);
  if (found != 0 && map.is_deleted_in_use(guest) && !gl_keeps(t, found)) {
    forget(t, guest);  // GL has freed it since
    found = 0;
  }
  if (found != 0 || use == NameUse::kLenient || use == NameUse::kDelete) {
    *out = found;
    return {};
  }
  if (use == NameUse::kExisting) {
    // Programs and shaders share GL's name space: a shader named where a
    // program is wanted is GL's GL_INVALID_OPERATION, not an unknown name.
    const GLuint other = t == ObjectType::kProgram  ? names(ObjectType::kShader).find(guest)
                         : t == ObjectType::kShader ? names(ObjectType::kProgram).find(guest)
                                                    : 0;
    // Otherwise a name no object has: GL answers with its own error, as
    // natively (programs check such errors), and no object is reached.
    *out = other != 0 ? other : kNoSuchObject;
    return {};
  }
  // Core profiles create nothing on bind, and OpenGL ES no query on
  // glBeginQuery: a name no glGen* made stays unknown there, and GL raises
  // its GL_INVALID_OPERATION for it, as natively.
  if ((!gles && !has_fixed_function_arrays()) || (gles && t == ObjectType::kQuery)) {
    *out = kNoSuchObject;
    return {};
  }
  // GL creates these on first bind; the host generates its own name for it.
  if (account.objects >= account.limits.max_objects) {
    return wire::make_error(wire::Errc::kLimit, "object count limit");
  }
  GLuint created = gen_one(t);
  avoid_retired_names(t, &created, 1, [t](GLuint* one) { *one = gen_one(t); });
  if (created == 0) return wire::make_error(wire::Errc::kBadName, "cannot create on use");
  map.insert(guest, created);
  ++account.objects;
  *out = created;
  return {};
}

wire::Status GlContextState::Impl::translate_named_by(GLenum kind, GLuint guest, GLuint* host) {
  if (kind == GL_DISPLAY_LIST) {  // display lists go by the guest's own names on the host
    *host = guest;
    return {};
  }
  const std::optional<ObjectType> t = object_type_named_by(kind);
  if (!t) {
    *host = kNoSuchObject;
    return {};
  }
  return translate(*t, guest, NameUse::kExisting, host);
}

void GlContextState::Impl::forget_deleted(ObjectType t, GLuint guest) {
  NameMap& map = names(t);
  const GLuint host = map.find(guest);
  if (host == 0 || (t != ObjectType::kProgram && t != ObjectType::kShader) || !gl_keeps(t, host)) {
    forget(t, guest);
    return;
  }
  // Those GL has freed since the last such delete go now, so that they do
  // not pile up against the guest's object limit.
  std::vector<GLuint> freed;
  for (GLuint g : map.deleted_in_use())
    if (!gl_keeps(t, map.find(g))) freed.push_back(g);
  for (GLuint g : freed) forget(t, g);
  map.mark_deleted_in_use(guest);
}

// GL freed a program or shader the guest had deleted and gave its name to a
// new one: the deleted guest name, still kept for the old object, goes.
void GlContextState::Impl::forget_reused(GLuint host) {
  for (ObjectType t : {ObjectType::kProgram, ObjectType::kShader}) {
    NameMap& map = names(t);
    for (GLuint g : map.deleted_in_use()) {
      if (map.find(g) != host) continue;
      forget(t, g);  // changes the set: one name at most maps to `host`
      break;
    }
  }
}

void GlContextState::Impl::forget(ObjectType t, GLuint guest) {
  NameMap& map = names(t);
  if (GLuint host = map.find(guest); host != 0) {
    (wire::is_shared(t) ? *share : local).ledger.retire(t, host);
    if (t == ObjectType::kVertexArray || t == ObjectType::kFramebuffer ||
        t == ObjectType::kTransformFeedback) {
      share->ledger.referrer_deleted();
    }
    map.erase(guest);
    if (t == ObjectType::kMemoryObject) share->imported_memory.erase(guest);
    if (account.objects > 0) --account.objects;
  }
}

wire::Status GlContextState::Impl::adopt(ObjectType t, const GLuint* guest, const GLuint* hosts,
                                         size_t count) {
  NameMap& map = names(t);
  if (account.objects + count > account.limits.max_objects) {
    delete_objects(t, std::vector<GLuint>(hosts, hosts + count));
    return wire::make_error(wire::Errc::kLimit, "object count limit");
  }
  for (size_t i = 0; i < count; ++i) {
    if (t == ObjectType::kProgram || t == ObjectType::kShader) forget_reused(hosts[i]);
    if (guest[i] == 0 || !map.insert(guest[i], hosts[i])) {
      delete_objects(t, std::vector<GLuint>(hosts + i, hosts + count));
      return wire::make_error(wire::Errc::kBadName,
                              "guest name " + std::to_string(guest[i]) + " reused");
    }
    ++account.objects;
  }
  return {};
}

void GlContextState::Impl::avoid_retired_names(ObjectType t, GLuint* hosts, size_t count,
                                               const std::function<void(GLuint*)>& make_one) {
  MemoryLedger& ledger = share->ledger;
  if (ledger.retired_count() == 0) return;
  for (size_t i = 0; i < count; ++i) {
    // Each held name stays taken, so GL gives a new one; bounded all the same.
    for (size_t tries = 0; tries <= ledger.retired_count() && ledger.is_retired(t, hosts[i]); ++tries) {
      ledger.hold_name(t, hosts[i]);
      make_one(&hosts[i]);
    }
  }
}

// What an allocation costs: its bytes, or what follows from what the
// object already holds.
uint64_t GlContextState::Impl::allocation_bytes(const Allocation& a, const MemoryLedger& ledger,
                                                GLuint object) const {
  // Levels 1 and up of a full mip chain hold a third of level 0 (base level
  // 0 assumed; immutable storage has no level 0 part and costs nothing more).
  if (a.mip_chain) return ledger.level_bytes(a.kind, object, 0) / 3;
  if (a.samples <= 0) return static_cast<uint64_t>(a.bytes);
  // Multisampled storage for one level: the level's bytes (immutable storage
  // has no level parts: all of it, an over-estimate) times the samples.
  uint64_t level = ledger.level_bytes(a.kind, object, static_cast<uint32_t>(a.level));
  if (level == 0) level = ledger.bytes_of(a.kind, object);
  uint64_t bytes = 0;
  return __builtin_mul_overflow(level, static_cast<uint64_t>(a.samples), &bytes) ? UINT64_MAX / 2
                                                                                   : bytes;
}

bool GlContextState::Impl::admit_allocation(const Allocation& a) {
  // AMD_pinned_memory would make the host's copy of the guest's data, reused
  // by later commands, the buffer's storage: refused as an unknown target.
  if (a.kind == ObjectType::kBuffer && a.target == GL_EXTERNAL_VIRTUAL_MEMORY_BUFFER_AMD) {
    refused_error = GL_INVALID_ENUM;
    return false;
  }
  if (a.bytes == kPastGlLimits) {
    refused_error = GL_INVALID_VALUE;
    return false;
  }
  if (a.bytes < 0) return true;  // GL refuses the arguments and allocates nothing
  auto place = find_storage(a);
  if (!place) return true;  // nothing to fill: GL reports its own error
  // Only a context's default texture (0) is not shared.
  MemoryLedger& ledger = place->object == 0 ? local.ledger : share->ledger;
  const uint64_t bytes = allocation_bytes(a, ledger, place->object);
  if (bytes <= account.limits.max_object_bytes) {
    bool fits = ledger.charge(a.kind, place->object, place->part, bytes);
    // Deleted objects GL has freed since may make room.
    if (!fits && account.reclaim) {
      account.reclaim();
      fits = ledger.charge(a.kind, place->object, place->part, bytes);
    }
    if (fits && a.uses.kind != ObjectType::kCount && place->object != 0) {
      ledger.link({a.kind, place->object}, a.uses);
    }
    if (fits) return true;
  }
  refused_error = GL_OUT_OF_MEMORY;
  return false;
}

bool GlContextState::Impl::charge_reply(uint64_t bytes) {
  if (bytes <= kUnchargedReplyBytes) return true;
  // Deleted objects GL has freed since may make room.
  if (!account.try_charge(bytes)) {
    refused_error = GL_OUT_OF_MEMORY;
    return false;
  }
  reply_bytes += bytes;
  return true;
}

void GlContextState::Impl::release_reply() {
  account.release(reply_bytes);
  reply_bytes = 0;
}

void GlContextState::Impl::probe_support() {
  probed_ = true;
  version_ = epoxy_gl_version();
  fixed_function_ = gles1();
  if (!gles) {
    GLint mask = 0;
    if (version_ >= 32) glGetIntegerv(GL_CONTEXT_PROFILE_MASK, &mask);
    fixed_function_ = version_ < 32 || (mask & GL_CONTEXT_COMPATIBILITY_PROFILE_BIT) != 0;
    const auto* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
    draw_module_ = draw_module_renderer(renderer ? renderer : "");
  }
  GLint max_texture_size = 0;
  glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max_texture_size);
  note_texture_size_limit(max_texture_size);
  int count = 0;
  const char* const* names = wire::gl_extension_names(&count);
  for (int i = 0; i < count; ++i) {
    if (epoxy_has_gl_extension(names[i])) extensions_[i / 64] |= uint64_t{1} << (i % 64);
  }
}

bool GlContextState::Impl::has_fixed_function_arrays() {
  if (!probed_) probe_support();
  return fixed_function_;
}

bool GlContextState::Impl::draw_module_driver() {
  if (!probed_) probe_support();
  return draw_module_;
}

int GlContextState::Impl::version() {
  if (!probed_) probe_support();
  return version_;
}

bool GlContextState::Impl::supports(const wire::GlCommandInfo& info) {
  if (!probed_) probe_support();
  if (gles1()) {
    if (info.gles1) return true;  // its own set of commands
  } else {
    const int needed = gles ? info.gles_version : info.gl_version;
    if (needed != 0 && needed <= version_) return true;
  }
  bool offered = false;
  for (int w = 0; w < wire::kGlExtensionWords; ++w) offered |= (info.extensions[w] & extensions_[w]) != 0;
  if (!offered) return false;
  // An extension may bring a command only with another one the driver lacks
  // (GL_NV_half_float's glVertexWeighthNV needs GL_EXT_vertex_weighting).
  auto [it, added] = resolvable_.try_emplace(&info, false);
  if (added) it->second = eglGetProcAddress(info.name) != nullptr;
  return it->second;
}

bool GlContextState::add_references(ObjectReferences& refs) {
  return collect_references(*impl_, refs);
}

bool has_retired(const ShareGroup& group, bool changed_only) {
  const MemoryLedger& ledger = group.ledger;
  return changed_only ? ledger.worth_a_look() : ledger.retired_count() > 0;
}

void reclaim_retired(ShareGroup& group, const ObjectReferences& refs) {
  auto in_use = [&](HostObject o) { return refs.has(o.kind, o.name); };
  for (HostObject held : group.ledger.reclaim(in_use)) delete_objects(held.kind, {held.name});
}

GlContextState::GlContextState(std::shared_ptr<ShareGroup> share, ResourceAccount& account,
                               bool gles)
    : share_(share), impl_(std::make_unique<Impl>(std::move(share), account, gles)) {}

GlContextState::~GlContextState() = default;

std::shared_ptr<ShareGroup> GlContextState::new_share_group() {
  return std::make_shared<ShareGroup>();
}

void GlContextState::release_objects() {
  Impl& s = *impl_;
  // Shared kinds go with the last context of the group (share_ + impl's copy).
  const bool last_in_group = share_.use_count() <= 2;
  for (size_t i = 0; i < static_cast<size_t>(ObjectType::kCount); ++i) {
    auto t = static_cast<ObjectType>(i);
    if (!wire::is_shared(t)) release_map(t, s.local.names(t), s.account);
    else if (last_in_group) release_map(t, s.share->names(t), s.account);
  }
  // Its vertex arrays, framebuffers and bindings no longer keep anything.
  if (!last_in_group) s.share->ledger.referrer_deleted();
  s.share->lists.abandon(std::exchange(s.compiled_bytes, 0));
  s.compiling_list = 0;
  if (last_in_group) {
    for (HostObject held : s.share->ledger.held_names()) delete_objects(held.kind, {held.name});
    s.share->ledger.clear();
    s.share->lists.clear();
  }
  s.local.ledger.clear();
  for (auto& [guest, sync] : s.syncs) glDeleteSync(sync);
  s.account.release(s.syncs.size() * kSyncBytes);
  s.syncs.clear();
  if (!s.scratch_arrays.empty()) {
    glDeleteBuffers(static_cast<GLsizei>(s.scratch_arrays.size()), s.scratch_arrays.data());
  }
  s.scratch_arrays.clear();
  if (s.scratch_elements) glDeleteBuffers(1, &s.scratch_elements);
  s.scratch_elements = 0;
}

}  // namespace host
