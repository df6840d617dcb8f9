#include "host/stats.h"

#include <algorithm>
#include <utility>

namespace host {

namespace {
constexpr auto kRelaxed = std::memory_order_relaxed;

// JSON names of the counters, in the order they are printed.
constexpr std::pair<const char*, std::atomic<uint64_t> Counters::*> kFields[] = {
    {"batches", &Counters::batches},         {"commands", &Counters::commands},
    {"bytes_wire", &Counters::wire_bytes},   {"bytes_raw", &Counters::raw_bytes},
    {"round_trips", &Counters::round_trips}, {"frames", &Counters::frames},
    {"frame_bytes", &Counters::frame_bytes}, {"contexts_lost", &Counters::contexts_lost},
    {"shared_allocations", &Counters::shared_allocations},
    {"programs_linked", &Counters::programs_linked},
    {"program_cache_hits", &Counters::program_cache_hits},
    {"program_compiles", &Counters::program_compiles},
    {"shader_compiles", &Counters::shader_compiles},
    {"shader_cache_hits", &Counters::shader_cache_hits},
    {"vk_pipeline_cache_hits", &Counters::vk_pipeline_cache_hits},
    {"vk_pipeline_cache_misses", &Counters::vk_pipeline_cache_misses}};
}  // namespace

template <typename F>
void Counters::each_with(const Counters& other, F f) {
  for (const auto& field : kFields) f(this->*field.second, other.*field.second);
}

void Counters::add(const Counters& o) {
  each_with(o, [](auto& mine, const auto& theirs) { mine.fetch_add(theirs.load(kRelaxed), kRelaxed); });
}

void Counters::copy_from(const Counters& o) {
  each_with(o, [](auto& mine, const auto& theirs) { mine.store(theirs.load(kRelaxed), kRelaxed); });
}

nlohmann::json Counters::to_json() const {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [name, field] : kFields) j[name] = (this->*field).load(kRelaxed);
  return j;
}

std::shared_ptr<SessionStats> StatsRegistry::open_session(std::string peer, uint32_t id) {
  auto s = std::make_shared<SessionStats>();
  std::lock_guard lock(mutex_);
  s->id = id ? id : next_id_++;
  s->peer = std::move(peer);
  live_.push_back(s);
  ++sessions_total_;
  return s;
}

void StatsRegistry::close_session(const std::shared_ptr<SessionStats>& s) {
  std::lock_guard lock(mutex_);
  finished_.add(s->counters);
  live_.erase(std::remove(live_.begin(), live_.end(), s), live_.end());
}

nlohmann::json StatsRegistry::to_json() const {
  std::lock_guard lock(mutex_);
  Counters total;
  total.add(finished_);
  uint64_t memory = 0;
  auto sessions = nlohmann::json::array();
  for (const auto& s : live_) {
    total.add(s->counters);
    const uint64_t held = s->memory_bytes.load(kRelaxed);
    memory += held;
    sessions.push_back({{"id", s->id}, {"peer", s->peer}, {"pid", s->guest_pid},
                        {"memory_bytes", held}, {"counters", s->counters.to_json()}});
  }
  return {{"total", total.to_json()}, {"memory_bytes", memory}, {"sessions_total", sessions_total_},
          {"sessions_live", live_.size()}, {"sessions", sessions}};
}

void StatsRegistry::sum(Counters& total, uint64_t& memory_bytes, uint32_t& guest_pid) const {
  std::lock_guard lock(mutex_);
  Counters t;
  t.add(finished_);
  uint64_t memory = 0;
  for (const auto& s : live_) {
    t.add(s->counters);
    memory += s->memory_bytes.load(kRelaxed);
    guest_pid = s->guest_pid;
  }
  total.copy_from(t);
  memory_bytes = memory;
}

std::string StatsRegistry::summary() const { return summarize(to_json()); }

std::string summarize(const nlohmann::json& j) {
  const auto& t = j["total"];
  auto n = [](const nlohmann::json& v) { return std::to_string(v.get<uint64_t>()); };
  std::string line = "sessions " + n(j["sessions_total"]) + ", batches " + n(t["batches"]) + ", commands " +
                     n(t["commands"]) + ", bytes " + n(t["bytes_wire"]) + " on the wire / " +
                     n(t["bytes_raw"]) + " raw, round trips " + n(t["round_trips"]) + ", frames " +
                     n(t["frames"]) + ", contexts lost " + n(t["contexts_lost"]);
  if (j.contains("renderers")) {
    line += ", renderers crashed " + n(j["renderers"]["crashed"]) + ", guests refused " +
            n(j["renderers"]["refused"]);
  }
  return line;
}

}  // namespace host
