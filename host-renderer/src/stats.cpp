#include "host/stats.h"

#include <algorithm>
#include <cstdio>

namespace host {

namespace {
constexpr auto kRelaxed = std::memory_order_relaxed;
}

void Counters::add(const Counters& o) {
  batches.fetch_add(o.batches.load(kRelaxed), kRelaxed);
  commands.fetch_add(o.commands.load(kRelaxed), kRelaxed);
  wire_bytes.fetch_add(o.wire_bytes.load(kRelaxed), kRelaxed);
  raw_bytes.fetch_add(o.raw_bytes.load(kRelaxed), kRelaxed);
  round_trips.fetch_add(o.round_trips.load(kRelaxed), kRelaxed);
  frames.fetch_add(o.frames.load(kRelaxed), kRelaxed);
  frame_bytes.fetch_add(o.frame_bytes.load(kRelaxed), kRelaxed);
  contexts_lost.fetch_add(o.contexts_lost.load(kRelaxed), kRelaxed);
}

void Counters::copy_from(const Counters& o) {
  batches.store(o.batches.load(kRelaxed), kRelaxed);
  commands.store(o.commands.load(kRelaxed), kRelaxed);
  wire_bytes.store(o.wire_bytes.load(kRelaxed), kRelaxed);
  raw_bytes.store(o.raw_bytes.load(kRelaxed), kRelaxed);
  round_trips.store(o.round_trips.load(kRelaxed), kRelaxed);
  frames.store(o.frames.load(kRelaxed), kRelaxed);
  frame_bytes.store(o.frame_bytes.load(kRelaxed), kRelaxed);
  contexts_lost.store(o.contexts_lost.load(kRelaxed), kRelaxed);
}

nlohmann::json Counters::to_json() const {
  return {{"batches", batches.load(kRelaxed)},
          {"commands", commands.load(kRelaxed)},
          {"bytes_wire", wire_bytes.load(kRelaxed)},
          {"bytes_raw", raw_bytes.load(kRelaxed)},
          {"round_trips", round_trips.load(kRelaxed)},
          {"frames", frames.load(kRelaxed)},
          {"frame_bytes", frame_bytes.load(kRelaxed)},
          {"contexts_lost", contexts_lost.load(kRelaxed)}};
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

std::string StatsRegistry::summary() const {
  nlohmann::json j = to_json();
  const auto& t = j["total"];
  char line[320];
  std::snprintf(line, sizeof line,
                "sessions %llu, batches %llu, commands %llu, bytes %llu on the wire / %llu raw, "
                "round trips %llu, frames %llu, contexts lost %llu",
                static_cast<unsigned long long>(j["sessions_total"].get<uint64_t>()),
                static_cast<unsigned long long>(t["batches"].get<uint64_t>()),
                static_cast<unsigned long long>(t["commands"].get<uint64_t>()),
                static_cast<unsigned long long>(t["bytes_wire"].get<uint64_t>()),
                static_cast<unsigned long long>(t["bytes_raw"].get<uint64_t>()),
                static_cast<unsigned long long>(t["round_trips"].get<uint64_t>()),
                static_cast<unsigned long long>(t["frames"].get<uint64_t>()),
                static_cast<unsigned long long>(t["contexts_lost"].get<uint64_t>()));
  return line;
}

}  // namespace host
