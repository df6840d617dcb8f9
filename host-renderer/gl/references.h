// What keeps a deleted buffer, texture or renderbuffer's storage alive in
// GL, besides the views and buffer textures the ledger links itself: the
// vertex arrays, framebuffers and transform feedbacks of a context, and its
// bindings. GL names a deleted object it still keeps by its old name, which
// the host holds unused meanwhile (memory_ledger.h): a name found here means
// that object.
#pragma once

#include "gl/context_impl.h"

namespace host {

// Adds what the current host context (the one `st` belongs to) refers to;
// false when part of it could not be read, so nothing may be freed.
bool collect_references(GlContextState::Impl& st, ObjectReferences& refs);

}  // namespace host
