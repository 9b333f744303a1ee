#include "shadow_check.hpp"

#include <sstream>
#include <string>

#include "tethersim/decomposition/distributed_engine.hpp"
#include "tethersim/decomposition/rank_exchange.hpp"
#include "tethersim/decomposition/record_codec.hpp"
#include "tethersim/decomposition/record_snapshot.hpp"
#include "tethersim/engine/partial_view.hpp"
#include "tethersim/engine/same_state.hpp"
#include "tethersim/mpi/reductions.hpp"

namespace tethersim::decomposition {

namespace {

// Every rank's accounted particles as one snapshot on rank 0.
engine::EngineSnapshot gathered_snapshot(const Model& model, MPI_Comm comm, const engine::Engine& local,
                                         double time) {
  Bytes mine;
  for_each_accounted_record(local, [&](engine::ParticleRecord&& r) { append_record(mine, r); });
  const Bytes all = gather_to_root(comm, mine);
  const std::size_t reactions =
      model.action_potentials().enabled() ? model.action_potentials().reactions.size() : 0;
  engine::EngineSnapshot s = snapshot_of_records(read_records(all.data(), all.size()), time, reactions);
  s.periodic_ticks = local.periodic_ticks();
  s.active_window = local.active_window();
  return s;
}

// Every field of the list (engine/particle_fields.hpp), by its name.
std::string describe(const engine::ParticleSnapshot& p) {
  std::ostringstream out;
  out.precision(17);
  bool first = true;
  engine::for_each_particle_field([&](const auto& field) {
    using Field = std::remove_cvref_t<decltype(field)>;
    out << (first ? "" : " ") << field.name << " ";
    first = false;
    for (std::size_t k = 0; k < Field::width; ++k) out << (k == 0 ? "" : ",") << +Field::get(p, k);
  });
  return out.str();
}

// The first difference between the serial state and the ranks' (empty when
// they agree).
std::string first_difference(const engine::EngineSnapshot& serial, const engine::EngineSnapshot& ranks) {
  if (serial.particles.size() != ranks.particles.size()) {
    return "the ranks hold " + std::to_string(ranks.particles.size()) + " particles, the serial engine " +
           std::to_string(serial.particles.size());
  }
  for (std::size_t k = 0; k < serial.particles.size(); ++k) {
    if (!engine::same_particle_state(serial.particles[k], ranks.particles[k])) {
      return "particle differs: serial " + describe(serial.particles[k]) + "; ranks " + describe(ranks.particles[k]);
    }
    for (std::size_t r = 0; r < serial.reaction_times.size(); ++r) {
      if (!engine::same_bits(serial.reaction_times[r][k], ranks.reaction_times[r][k])) {
        return "reaction time " + std::to_string(r) + " of particle " + std::to_string(serial.particles[k].id) +
               " differs";
      }
    }
  }
  for (std::size_t k = 0; k < std::max(serial.tethers.size(), ranks.tethers.size()); ++k) {
    if (k >= serial.tethers.size() || k >= ranks.tethers.size() || serial.tethers[k].a != ranks.tethers[k].a ||
        serial.tethers[k].b != ranks.tethers[k].b) {
      const auto& t = k < serial.tethers.size() ? serial.tethers[k] : ranks.tethers[k];
      return "tethers differ near " + std::to_string(t.a) + "-" + std::to_string(t.b) + " (serial " +
             std::to_string(serial.tethers.size()) + ", ranks " + std::to_string(ranks.tethers.size()) + ")";
    }
  }
  for (std::size_t k = 0; k < std::max(serial.loaded_edges.size(), ranks.loaded_edges.size()); ++k) {
    if (k >= serial.loaded_edges.size() || k >= ranks.loaded_edges.size() ||
        !engine::same_loaded_edge(serial.loaded_edges[k], ranks.loaded_edges[k])) {
      const auto& e = k < serial.loaded_edges.size() ? serial.loaded_edges[k] : ranks.loaded_edges[k];
      return "loaded edges differ near " + std::to_string(e.a) + "-" + std::to_string(e.b) + " (serial " +
             std::to_string(serial.loaded_edges.size()) + ", ranks " + std::to_string(ranks.loaded_edges.size()) +
             ")";
    }
  }
  if (serial.periodic_ticks != ranks.periodic_ticks) return "periodic impulse ticks differ";
  if (serial.active_window != ranks.active_window) return "the action-potential window differs";
  return "";
}

// The state of every ghost a rank holds (mobile particles of the grid it
// does not own), its particle fields only: a partial view holds the links
// it needs, not all of them.
Bytes ghost_states(const engine::Engine& local) {
  Bytes out;
  for (engine::Index i = 0; i < local.particles().size(); ++i) {
    if (local.is_removed(i) || local.is_owned(i) || local.is_hub(i)) continue;
    const engine::ParticleState& s = local.particles().state[i];
    if (!s.mobile || !s.alive) continue;
    engine::ParticleRecord r;
    r.particle = local.record(i).particle;
    append_record(out, r);
  }
  return out;
}

// The first ghost whose state differs from the serial engine's particle.
std::string first_stale_ghost(const engine::Engine& serial, const Bytes& ghosts) {
  for (const engine::ParticleRecord& r : read_records(ghosts.data(), ghosts.size())) {
    const engine::Index i = serial.particles().index_of(r.particle.id);
    if (i == engine::kNoIndex) return "a rank holds particle " + std::to_string(r.particle.id) + ", unknown to the serial run";
    const engine::ParticleSnapshot truth = serial.record(i).particle;
    if (!engine::same_particle_state(truth, r.particle)) {
      return "a ghost differs from its particle: serial " + describe(truth) + "; ghost " + describe(r.particle);
    }
  }
  return "";
}

}  // namespace

ShadowCheck::ShadowCheck(const Model& model, MPI_Comm comm, const engine::Engine& local, double time)
    : model_(model), comm_(comm) {
  MPI_Comm_rank(comm, &rank_);
  engine::EngineSnapshot s = gathered_snapshot(model, comm, local, time);
  if (rank_ == 0) serial_ = std::make_unique<engine::Engine>(model, s);
}

ShadowCheck::~ShadowCheck() = default;

void ShadowCheck::check(const engine::Engine& local, double time) {
  const engine::EngineSnapshot ranks = gathered_snapshot(model_, comm_, local, time);
  const Bytes ghosts = gather_to_root(comm_, ghost_states(local));
  std::string problem;
  if (rank_ == 0) {
    serial_->run_until(time);
    // Owner-computes rounds that end at a committed floor on a tick's time
    // hand back the state after that tick (every rank ran it:
    // Engine::finish_ticks_at); the serial engine stops before the events
    // at `time`, so it runs the tick too.
    if (ranks.periodic_ticks != serial_->periodic_ticks()) engine::PartialView(*serial_).run_ticks_at(time);
    problem = first_difference(serial_->snapshot(time), ranks);
    if (problem.empty()) problem = first_stale_ghost(*serial_, ghosts);
  }
  mpi::broadcast(problem, 0, comm_);
  if (!problem.empty()) {
    std::ostringstream where;
    where.precision(17);
    where << "shadow check at t = " << time << ": " << problem;
    throw SynchronizationError(where.str());
  }
}

}  // namespace tethersim::decomposition
