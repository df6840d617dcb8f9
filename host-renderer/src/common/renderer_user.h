// Who renderers run as. A host started as root would otherwise leave each
// renderer uid 0: without capabilities, yet the owner of every file and
// process of root's that the rest of the sandbox does not already close off,
// one kernel bug away from all of them. Renderers of a root host take an
// unprivileged user's ids (--renderer-user) while they still have one
// thread, before the rest of their sandbox.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

#include "wire/result.h"

namespace host {

// The user a root host picks when none is named, if the system has it.
inline constexpr const char* kDedicatedRendererUser = "conduit-renderer";

struct RendererIdentity {
  uid_t uid = 0;
  gid_t gid = 0;
  std::vector<gid_t> groups;  // supplementary: the user's, and the GPU's device nodes'
};

// In the supervisor: the identity its renderers take. `user` is a name, a
// number, or "auto" (kDedicatedRendererUser where it exists, else "nobody").
// Empty when this process is not root (renderers keep its ids: only root may
// give them others) or `user` is root itself (renderers stay uid 0, without
// capabilities). Fails for a user the system does not know.
wire::Result<std::optional<RendererIdentity>> renderer_identity(const std::string& user);

// In the renderer, while it has one thread and still holds CAP_SETUID and
// CAP_SETGID: sets its real, effective and saved uid and gid and its
// supplementary groups to `id`, for good (fails when uid 0 could be
// regained).
wire::Status take_identity(const RendererIdentity& id);

}  // namespace host
