// Persistent mappings (GL_MAP_PERSISTENT_BIT): the program keeps its pointer
// into the guest's shadow while GL uses the buffer. What it writes there
// reaches the host before every command that may see it (annotations.toml
// fact `sees_mapped_writes`), as the blocks that changed since the host last
// had them; what GL wrote comes back once the program waited for GL
// (glFinish, a signalled fence). Both coherent and explicitly flushed
// mappings work this way: GL allows writes to show earlier than flushed.
#pragma once

#include "gl/gl_state.h"
#include "icd/stream.h"

namespace icd {

void send_changed_mapped_writes(Stream& s);

// Before a command that may read what the program wrote through a mapping.
inline void send_mapped_writes(Stream& s) {
  if (!s.gl_state().persistent_mappings().empty()) send_changed_mapped_writes(s);
}

// After the program waited for GL: brings back what GL wrote into buffers
// mapped persistently for reading.
void fetch_mapped_reads(Stream& s);

// Starts keeping m in step with its buffer; m's shadow holds what the host has.
void keep_persistent(Stream& s, Mapping m);

// Sends what is left to send and forgets the mapping of `buffer`; false if
// it had none.
bool end_persistent(Stream& s, GLuint buffer);

}  // namespace icd
