// Debug output (KHR_debug, ARB_debug_output). The program's callback lives
// in the guest, so the host's GL keeps its messages in its log and the guest
// drains the log into the callback: after every command while
// GL_DEBUG_OUTPUT_SYNCHRONOUS is on, otherwise when the program waits for GL
// or ends a frame (glGetError, glFinish, glFlush, a swap). Without a
// callback the messages stay in the log for glGetDebugMessageLog, as natively.
#pragma once

#include "icd/stream.h"
#include "wire/gl_types.h"

namespace icd {

// Calls the program's callback with the messages the host logged, if it set one.
void deliver_debug_messages(Stream& s);

void set_debug_callback(Stream& s, GLDEBUGPROC callback, const void* user_param);
// GL_DEBUG_OUTPUT_SYNCHRONOUS switched on or off.
void set_debug_synchronous(Stream& s, bool on);

}  // namespace icd
