// What the guest is told after each link of one of its programs
// (kProgramReflection, wire/program_reflection.h), so that it answers the
// queries programs make after linking without asking the host.
#pragma once

#include <epoxy/gl.h>

#include "gl/dispatch_support.h"
#include "shaders_cache/program_entry.h"
#include "wire/program_reflection.h"

namespace host {

// The program's link status, log, counts and (after a successful link,
// within the bounds of wire/program_reflection.h) interface, as the
// current context reports them. `known`: its interface as reflect_program()
// found it just now, which is not asked again.
wire::ProgramReflection reflect_for_guest(GLuint program, const shaders_cache::Reflection* known);

// Tells the guest, when it asked to be told, what the link just run left in
// its program `guest_program` (`program` on the host). GL's error state is
// the guest's before and after: an error the link raised waits for its
// glGetError, and none of the queries' reaches it.
void tell_linked(DispatchEnv& env, GLuint guest_program, GLuint program,
                 const shaders_cache::Reflection* known = nullptr);

}  // namespace host
