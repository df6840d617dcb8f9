// Memory that others can shrink under the host: a ring file (shm:file=) is
// a plain file any process of its owner may truncate, and the listener maps
// it for as long as it listens. Reading a mapped page past the file's new
// end raises SIGBUS, which would end the host and every guest with it.
// The handler installed here puts zero-filled private memory in place of
// such a mapping instead, so the read that faulted, and every later one,
// sees zeros (which the host, treating shared memory as hostile anyway,
// takes as a broken region), and says so once on stderr.
#pragma once

namespace host {

// Process-wide; idempotent. A SIGBUS anywhere else (not a shared,
// non-executable mapping of a file, or not past its end) still ends the
// process as before.
void survive_shrunk_shared_memory();

}  // namespace host
