// Kinds of GL object names. The guest allocates names per kind; the host maps
// them to its own names per kind, so a name never reaches the wrong object.
#pragma once

#include <cstdint>

namespace wire {

enum class ObjectType : uint8_t {
  kBuffer,
  kTexture,
  kFramebuffer,
  kRenderbuffer,
  kProgram,  // programs and shaders share one GL namespace
  kShader,
  kSampler,
  kQuery,
  kTransformFeedback,
  kVertexArray,
  kProgramPipeline,
  kDisplayList,
  kSync,
  kAssemblyProgram,  // ARB_vertex_program/ARB_fragment_program: a namespace of its own
  kMemoryObject,     // GL_EXT_memory_object: memory imported from the program's Vulkan
  kCount,
};

// Container objects and queries are per context; the rest is shared by a
// share group (OpenGL 4.6 compatibility profile, chapter 5).
constexpr bool is_shared(ObjectType t) {
  return t != ObjectType::kFramebuffer && t != ObjectType::kVertexArray &&
         t != ObjectType::kTransformFeedback && t != ObjectType::kProgramPipeline &&
         t != ObjectType::kQuery;
}

}  // namespace wire
