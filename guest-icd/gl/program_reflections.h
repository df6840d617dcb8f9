// What the guest knows of its share group's linked programs: after each
// glLinkProgram, glProgramBinary and glCreateShaderProgramv the host sends
// what the link left (kProgramReflection, wire/program_reflection.h), and
// the guest answers the queries programs make after linking from it
// (program_query_entry.cpp) until the program is linked again or deleted.
//
// Every link the guest sends is counted; the host tells of every link it
// runs, in order, so a program's reflection is used only once the host
// has told of its last link. Until then, or for anything it does not
// hold, the guest asks the host. CONDUIT_NO_PROGRAM_REFLECTION turns it off.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <unordered_map>

#include "wire/gl_types.h"
#include "wire/program_reflection.h"
#include "wire/reader.h"

namespace icd {

class ProgramReflections {
 public:
  ProgramReflections();
  // Contexts of one share group see one set of programs.
  void share_with(const ProgramReflections& other) { table_ = other.table_; }

  // A link of `program` goes out now: what was known of it is gone.
  void linking(GLuint program);
  void deleted(GLuint program);
  // glValidateProgram rewrites the program's info log.
  void validated(GLuint program);
  // The host ran a link of `program` (on the connection's receiving thread).
  void told(GLuint program, std::span<const std::byte> reflection);

  // What the host told of the program's last link, or null when the guest
  // must ask (a link not told of yet, or a program it knows nothing of).
  std::shared_ptr<const wire::ProgramReflection> find(GLuint program) const;

 private:
  struct Program {
    uint32_t untold = 0;  // links sent that the host has not told of yet
    std::shared_ptr<const wire::ProgramReflection> known;
  };
  struct Table {
    mutable std::mutex mu;  // the receiving thread and the share group's threads
    std::unordered_map<GLuint, Program> programs;
  };
  std::shared_ptr<Table> table_;
};

// Whether links are told to this process (CONDUIT_NO_PROGRAM_REFLECTION unset).
bool program_reflection_wanted();

// kProgramReflection messages of `connection` for context `context_id` go
// to `programs` until unrouted. `connection` only tells connections apart.
void route_program_reflections(const void* connection, uint32_t context_id, ProgramReflections* programs);
void unroute_program_reflections(const void* connection, uint32_t context_id);
// A kProgramReflection message of `connection`, routed as above.
void receive_program_reflection(const void* connection, wire::Reader& message);

}  // namespace icd
