#include "gl/program_reflections.h"

#include <cstdlib>
#include <map>
#include <utility>

#include "wire/control.h"

namespace icd {
namespace {

constexpr GLenum kInfoLogLength = 0x8B84;

struct Routes {
  std::mutex mu;
  std::map<std::pair<const void*, uint32_t>, ProgramReflections*> to;
};

Routes& routes() {
  static Routes* r = new Routes;  // used by receiving threads until the process ends
  return *r;
}

}  // namespace

bool program_reflection_wanted() {
  static const bool wanted = std::getenv("CONDUIT_NO_PROGRAM_REFLECTION") == nullptr;
  return wanted;
}

ProgramReflections::ProgramReflections() : table_(std::make_shared<Table>()) {}

void ProgramReflections::linking(GLuint program) {
  std::lock_guard lock(table_->mu);
  Program& p = table_->programs[program];
  ++p.untold;
  p.known.reset();
}

void ProgramReflections::deleted(GLuint program) {
  std::lock_guard lock(table_->mu);
  auto it = table_->programs.find(program);
  if (it == table_->programs.end()) return;
  // Kept while links are untold, so that their messages count against them.
  if (it->second.untold) {
    it->second.known.reset();
  } else {
    table_->programs.erase(it);
  }
}

void ProgramReflections::validated(GLuint program) {
  std::lock_guard lock(table_->mu);
  auto it = table_->programs.find(program);
  if (it == table_->programs.end() || !it->second.known) return;
  auto without_log = std::make_shared<wire::ProgramReflection>(*it->second.known);
  without_log->info_log.reset();
  std::erase_if(without_log->values, [](const auto& v) { return v.first == kInfoLogLength; });
  it->second.known = std::move(without_log);
}

void ProgramReflections::told(GLuint program, std::span<const std::byte> reflection) {
  std::lock_guard lock(table_->mu);
  auto it = table_->programs.find(program);
  if (it == table_->programs.end() || it->second.untold == 0) return;  // a link this guest did not count
  if (--it->second.untold != 0) return;  // a later link is on its way
  auto decoded = wire::decode_reflection(reflection);
  if (decoded) it->second.known = std::make_shared<const wire::ProgramReflection>(std::move(*decoded));
}

std::shared_ptr<const wire::ProgramReflection> ProgramReflections::find(GLuint program) const {
  std::lock_guard lock(table_->mu);
  auto it = table_->programs.find(program);
  if (it == table_->programs.end() || it->second.untold) return nullptr;
  return it->second.known;
}

void route_program_reflections(const void* connection, uint32_t context_id, ProgramReflections* programs) {
  Routes& r = routes();
  std::lock_guard lock(r.mu);
  r.to[{connection, context_id}] = programs;
}

void unroute_program_reflections(const void* connection, uint32_t context_id) {
  Routes& r = routes();
  std::lock_guard lock(r.mu);
  r.to.erase({connection, context_id});
}

void receive_program_reflection(const void* connection, wire::Reader& message) {
  auto linked = message.get<wire::ProgramLinked>();
  auto reflection = linked ? message.get_data() : wire::Result<wire::Data>(linked.error());
  if (!reflection) return;
  Routes& r = routes();
  std::lock_guard lock(r.mu);
  auto it = r.to.find({connection, linked->context_id});
  if (it != r.to.end()) it->second->told(linked->program, reflection->bytes);
}

}  // namespace icd
