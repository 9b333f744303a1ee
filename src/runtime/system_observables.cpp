#include "system_observables.hpp"

#include <algorithm>
#include <array>
#include <string_view>
#include <type_traits>
#include <variant>
#include <numeric>
#include <unordered_map>

#include "tethersim/mpi/collectives.hpp"
#include "tethersim/mpi/reductions.hpp"

namespace tethersim::runtime {

namespace {

physics::ExactSum reduced(const physics::ExactSum& local, MPI_Comm comm) {
  physics::ExactSum::Digits digits = local.canonical_digits();
  mpi::reduce_in_place(digits.data(), digits.size(), MPI_SUM, comm);
  return physics::ExactSum::from_digits(digits);
}

std::uint64_t reduced(std::uint64_t local, MPI_Comm comm) { return mpi::sum(local, comm); }

using mpi::size_of;

// Connected components of the tether graph between particles in the
// sector grid that hold a particle of `species`, from every process's
// tethers (gathered on rank 0).
std::uint64_t cluster_count(const engine::Engine& e, SpeciesIndex species, MPI_Comm comm) {
  if (size_of(comm) == 1) return e.cluster_count(species);
  const engine::ParticleStore& store = e.particles();
  // Pairs (a, b), and (id, id) for each particle of the species.
  std::vector<std::uint64_t> pairs;
  for (engine::Index i = 0; i < store.size(); ++i) {
    if (!e.accounted_here(i) || e.is_hub(i) || !store.state[i].alive) continue;
    if (store.state[i].species == species) pairs.insert(pairs.end(), {store.id[i], store.id[i]});
    e.tethers().for_each(i, [&](engine::Index j, std::uint32_t) {
      if (!e.is_hub(j) && store.id[i] < store.id[j]) pairs.insert(pairs.end(), {store.id[i], store.id[j]});
    });
  }
  const int rank = mpi::rank_of(comm);
  const std::vector<std::uint64_t> all = mpi::gather_to_root(pairs, comm);
  std::uint64_t clusters = 0;
  if (rank == 0) {
    std::unordered_map<std::uint64_t, std::uint64_t> parent;
    auto find = [&](std::uint64_t x) {
      auto it = parent.try_emplace(x, x).first;
      while (it->second != x) {
        x = it->second;
        it = parent.find(x);
      }
      return x;
    };
    std::vector<std::uint64_t> members;
    for (std::size_t k = 0; k < all.size(); k += 2) {
      if (all[k] == all[k + 1]) {
        members.push_back(all[k]);
        find(all[k]);
      } else {
        parent[find(all[k])] = find(all[k + 1]);
      }
    }
    std::vector<std::uint64_t> roots;
    for (std::uint64_t m : members) roots.push_back(find(m));
    std::sort(roots.begin(), roots.end());
    clusters = static_cast<std::uint64_t>(std::unique(roots.begin(), roots.end()) - roots.begin());
  }
  return mpi::broadcast(clusters, 0, comm);
}

// Particles of `species` tethered to at least one of `partner`.
std::uint64_t tethered_count(const engine::Engine& e, const Model& model, SpeciesIndex species,
                             SpeciesIndex partner, MPI_Comm comm) {
  if (!model.is_hub_species(species) || size_of(comm) == 1) {
    return reduced(static_cast<std::uint64_t>(e.tethered_count(species, partner)), comm);
  }
  // A hub's tethers are spread over the ranks: each looks at the partners
  // it owns, and any one suffices.
  const engine::ParticleStore& store = e.particles();
  std::vector<std::uint64_t> ids;
  std::vector<int> has;
  for (engine::Index h : store.indices_in_id_order()) {
    if (!e.is_hub(h) || !store.state[h].alive || store.state[h].species != species) continue;
    int found = 0;
    e.tethers().for_each(h, [&](engine::Index j, std::uint32_t) {
      found |= store.state[j].species == partner && e.accounted_here(j);
    });
    has.push_back(found);
  }
  mpi::max_in_place(has, comm);
  return static_cast<std::uint64_t>(std::accumulate(has.begin(), has.end(), 0));
}

// This rank's part of an observable, before the ranks combine theirs
// (ObservableReduction::measured: already the system's value).
struct LocalObservable {
  std::vector<physics::ExactSum> sums;  // ObservableType::real, one per component
  std::vector<std::uint64_t> counts;    // ObservableType::count
};

// `so_far`: the system's values of the observables measured before this
// one (kObservableFields' order), which a measure may reuse.
using Measure = LocalObservable (*)(const engine::Engine&, const Model&, MPI_Comm, const FrameObservables& so_far);

// How each observable of kObservableFields is measured, in the same order.
struct ObservableMeasure {
  std::string_view name;
  Measure measure;
};

LocalObservable measure_kinetic_energy(const engine::Engine& e, const Model&, MPI_Comm, const FrameObservables&) {
  return {{e.kinetic_energy_sum()}, {}};
}

LocalObservable measure_momentum(const engine::Engine& e, const Model&, MPI_Comm, const FrameObservables&) {
  const std::array<physics::ExactSum, 3> p = e.momentum_sum();
  return {{p.begin(), p.end()}, {}};
}

LocalObservable measure_particles(const engine::Engine& e, const Model&, MPI_Comm, const FrameObservables&) {
  return {{}, {static_cast<std::uint64_t>(e.alive_count())}};
}

LocalObservable measure_escapes(const engine::Engine& e, const Model&, MPI_Comm, const FrameObservables&) {
  return {{}, {static_cast<std::uint64_t>(e.escapes().size())}};
}

LocalObservable measure_tethers(const engine::Engine& e, const Model&, MPI_Comm, const FrameObservables&) {
  std::uint64_t tethers = 0;
  const engine::ParticleStore& store = e.particles();
  for (engine::Index i = 0; i < store.size(); ++i) {
    if (e.is_removed(i)) continue;
    e.tethers().for_each(i, [&](engine::Index j, std::uint32_t) {
      tethers += store.id[i] < store.id[j] && e.counted_here(i, j);
    });
  }
  return {{}, {tethers}};
}

LocalObservable measure_event_counts(const engine::Engine& e, const Model&, MPI_Comm, const FrameObservables&) {
  const auto& events = e.statistics().events;
  return {{}, {events.begin(), events.end()}};
}

LocalObservable measure_clusters(const engine::Engine& e, const Model& model, MPI_Comm comm, const FrameObservables&) {
  LocalObservable v;
  for (const std::string& name : model.output().cluster_species) {
    v.counts.push_back(cluster_count(e, *model.find_species(name), comm));
  }
  return v;
}

LocalObservable measure_tethered(const engine::Engine& e, const Model& model, MPI_Comm comm, const FrameObservables&) {
  LocalObservable v;
  for (const auto& pair : model.output().tethered_pairs) {
    v.counts.push_back(
        tethered_count(e, model, *model.find_species(pair[0]), *model.find_species(pair[1]), comm));
  }
  return v;
}

// kT = 2 KE / (d N) over the N alive particles of finite mass that are
// free to move (docs/output-format.md, "temperature"): the ranks' exact
// energy sums and counts are combined first, so every rank divides the
// same two numbers. The energy is the system's, measured just before (a
// second pass over every particle cost a quarter of a sample).
LocalObservable measure_temperature(const engine::Engine& e, const Model& model, MPI_Comm comm,
                                    const FrameObservables& so_far) {
  std::uint64_t mobile = 0;
  const engine::ParticleStore& store = e.particles();
  for (engine::Index i = 0; i < store.size(); ++i) {
    mobile += store.state[i].alive && store.state[i].mobile && e.accounted_here(i);
  }
  mobile = reduced(mobile, comm);
  const double energy = so_far.kinetic_energy;
  physics::ExactSum kT;
  if (mobile > 0) kT.add(2.0 * energy / (static_cast<double>(model.dimensions()) * static_cast<double>(mobile)));
  return {{kT}, {}};
}

constexpr std::array<ObservableMeasure, kObservableFieldCount> kMeasures = {{
    {"kinetic_energy", measure_kinetic_energy},
    {"momentum", measure_momentum},
    {"particles", measure_particles},
    {"escapes", measure_escapes},
    {"tethers", measure_tethers},
    {"event_counts", measure_event_counts},
    {"clusters", measure_clusters},
    {"tethered", measure_tethered},
    {"temperature", measure_temperature},
}};

constexpr bool measures_follow_fields() {
  for (std::size_t k = 0; k < kObservableFieldCount; ++k) {
    if (kMeasures[k].name != kObservableFields[k].name || kMeasures[k].measure == nullptr) return false;
  }
  return true;
}
static_assert(measures_follow_fields(), "every observable of kObservableFields has its measure, in order");

constexpr std::size_t measure_index(std::string_view name) {
  for (std::size_t k = 0; k < kMeasures.size(); ++k) {
    if (kMeasures[k].name == name) return k;
  }
  return kMeasures.size();
}
static_assert(measure_index("kinetic_energy") < measure_index("temperature"),
              "the temperature reuses the kinetic energy measured before it");

// The system's value from every rank's part, as the field says.
void reduce(LocalObservable& v, ObservableReduction reduction, MPI_Comm comm) {
  switch (reduction) {
    case ObservableReduction::exact_sum:
      for (physics::ExactSum& sum : v.sums) sum = reduced(sum, comm);
      break;
    case ObservableReduction::sum:
      if (size_of(comm) > 1) mpi::sum_in_place(v.counts, comm);
      break;
    case ObservableReduction::measured:
      break;
  }
}

// Stores the system's value in the member the field names.
void store(FrameObservables& o, const ObservableField& field, const LocalObservable& v) {
  std::visit(
      [&](auto member) {
        auto& value = o.*member;
        using Value = std::remove_cvref_t<decltype(value)>;
        if constexpr (std::is_same_v<Value, double>) {
          value = v.sums.at(0).value();
        } else if constexpr (std::is_same_v<Value, Vec3>) {
          for (int k = 0; k < 3; ++k) value[k] = v.sums.at(static_cast<std::size_t>(k)).value();
        } else if constexpr (std::is_same_v<Value, std::uint64_t>) {
          value = v.counts.at(0);
        } else {
          value = v.counts;
        }
      },
      field.member);
}

}  // namespace

FrameObservables system_observables(const engine::Engine& e, const Model& model, MPI_Comm comm) {
  FrameObservables o;
  for (std::size_t k = 0; k < kObservableFieldCount; ++k) {
    LocalObservable v = kMeasures[k].measure(e, model, comm, o);
    reduce(v, kObservableFields[k].reduction, comm);
    store(o, kObservableFields[k], v);
  }
  return o;
}

engine::EngineStatistics system_statistics(const engine::EngineStatistics& local, MPI_Comm comm) {
  if (size_of(comm) == 1) return local;
  engine::EngineStatistics s = local;
  std::vector<std::uint64_t> v(s.events.begin(), s.events.end());
  v.insert(v.end(), s.responses.begin(), s.responses.end());
  for (std::uint64_t x : {s.stale_events, s.predictions, s.pair_tests, s.walks_skipped, s.loadings, s.instantaneous,
                          s.capped_loadings, s.attachments, s.detachments, s.releases, s.escapes}) {
    v.push_back(x);
  }
  mpi::sum_in_place(v, comm);
  s.largest_group = mpi::max(s.largest_group, comm);
  std::size_t k = 0;
  for (auto& x : s.events) x = v[k++];
  for (auto& x : s.responses) x = v[k++];
  for (std::uint64_t* x : {&s.stale_events, &s.predictions, &s.pair_tests, &s.walks_skipped, &s.loadings,
                           &s.instantaneous, &s.capped_loadings, &s.attachments, &s.detachments, &s.releases,
                           &s.escapes}) {
    *x = v[k++];
  }
  return s;
}

std::uint64_t system_state_hash(const engine::Engine& e, MPI_Comm comm) {
  return reduced(e.state_hash(), comm);
}

}  // namespace tethersim::runtime
