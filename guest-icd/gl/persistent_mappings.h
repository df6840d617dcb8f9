// Persistent mappings (GL_MAP_PERSISTENT_BIT): the program keeps its pointer
// into the guest's shadow while GL uses the buffer. What it wrote there
// goes to the host ahead of every batch of commands the context sends, as
// the blocks that changed since the host last had them. That is early
// enough for every command of the batch: a program must wait for GL (a
// fence, glFinish: the end of a batch) before it overwrites what a command
// it already issued reads, natively too, and GL allows writes to show before
// they are flushed. What GL wrote comes back once the program waited for GL
// (into mappings made for reading, and small ones made for writing only).
#pragma once

#include "gl/gl_state.h"
#include "icd/stream.h"

namespace icd {

// After the program waited for GL: brings back what GL wrote into
// persistently mapped buffers.
void fetch_mapped_reads(Stream& s);

// Starts keeping m in step with its buffer; m's shadow holds what the host has.
void keep_persistent(Stream& s, Mapping m);

// Sends what is left to send and forgets the mapping of `buffer`; false if
// it had none.
bool end_persistent(Stream& s, GLuint buffer);
// Forgets the mapping of a deleted buffer.
void forget_persistent(Stream& s, GLuint buffer);

}  // namespace icd
