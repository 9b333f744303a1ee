#include "tethersim/io/checkpoint_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <numeric>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "checkpoint_layout.hpp"
#include "checkpoint_particles.hpp"
#include "hdf5_support.hpp"
#include "record_columns.hpp"
#include "early_writeback.hpp"
#include "slot_exchange.hpp"
#include "tethersim/engine/free_storage.hpp"
#include "tethersim/engine/heap_pages.hpp"
#include "tethersim/io/input_error.hpp"
#include "tethersim/model/hash_text.hpp"
#include "tethersim/model/number_format.hpp"
#include "tethersim/model/pair_order.hpp"
#include "tethersim/mpi/collectives.hpp"
#include "tethersim/physics/counter_rng.hpp"
#include "tethersim/version.hpp"
#include "tethersim/mpi/reductions.hpp"

namespace tethersim {

using namespace io_detail;
using namespace io_detail::checkpoint_layout;
using engine::EngineSnapshot;

namespace {

constexpr const char* kFormat = "tethersim checkpoint";

std::uint64_t parse_hex(const std::string& s) { return std::stoull(s, nullptr, 16); }

std::uint64_t bits(double x) {
  std::uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

// Order-independent content hashes: sums of per-record mixes, so that any
// split of the data over ranks adds up to the same value (a particle's:
// particle_hash).
std::uint64_t hash_of(const PhiRecord& r) { return physics::mix_hash(3, r.slot, r.reaction, bits(r.value)); }
std::uint64_t hash_of(const TetherRecord& r) { return physics::mix_hash(4, r.a, r.b); }
std::uint64_t hash_of(const EdgeRecord& r) {
  return physics::mix_hash(physics::mix_hash(5, r.pair[0], r.pair[1], r.sequence, bits(r.time)),
                           bits(r.impulse[0]), bits(r.impulse[1]), bits(r.impulse[2]));
}

std::uint64_t hash_of(const EscapeRecord& r) {
  return physics::mix_hash(physics::mix_hash(6, r.id, static_cast<std::uint64_t>(r.species), bits(r.time)),
                           bits(r.position[0]), bits(r.position[1]), bits(r.position[2]),
                           bits(r.velocity[0]), physics::mix_hash(bits(r.velocity[1]), bits(r.velocity[2])));
}
std::uint64_t hash_of(const ReleaseRecord& r) { return physics::mix_hash(7, r.id, bits(r.time)); }

// What rank 0 alone writes: time, window, ticks, statistics, model text.
std::uint64_t global_part_hash(double time, int active_window, const std::vector<std::uint64_t>& ticks,
                               const std::vector<std::uint64_t>& statistics, const std::string& text,
                               const std::string& overrides) {
  std::uint64_t h = physics::mix_hash(8, bits(time), static_cast<std::uint64_t>(active_window));
  for (std::size_t k = 0; k < ticks.size(); ++k) h += physics::mix_hash(9, k, ticks[k]);
  for (std::size_t k = 0; k < statistics.size(); ++k) h += physics::mix_hash(10, k, statistics[k]);
  std::uint64_t text_hash = 0xcbf29ce484222325ULL;
  for (unsigned char c : text + '\0' + overrides) text_hash = (text_hash ^ c) * 0x100000001b3ULL;
  return h + physics::mix_hash(11, text_hash);
}

// The --set overrides as the file stores them: one a line.
std::string override_lines(const std::vector<std::string>& overrides) {
  std::string text;
  for (const std::string& o : overrides) text += o + "\n";
  return text;
}

template <typename Record>
std::uint64_t sum_hashes(const std::vector<Record>& records) {
  std::uint64_t h = 0;
  for (const Record& r : records) h += hash_of(r);
  return h;
}

void write_text(hid_t parent, const std::string& name, const std::string& text, bool root,
                hid_t transfer) {
  H5Id set = create_dataset(parent, name, H5T_NATIVE_UINT8, {text.size()});
  write_rows(set, H5T_NATIVE_UINT8, {}, 0, root ? text.size() : 0, text.data(), transfer);
}

std::string read_text(hid_t parent, const std::string& name) {
  H5Id set = open_dataset(parent, name);
  std::string text(dataset_shape(set)[0], '\0');
  read_rows(set, H5T_NATIVE_UINT8, {}, 0, text.size(), text.data());
  return text;
}

std::vector<std::uint64_t> statistics_counters(const engine::EngineStatistics& s) {
  std::vector<std::uint64_t> c(s.events.begin(), s.events.end());
  c.insert(c.end(), s.responses.begin(), s.responses.end());
  for (std::uint64_t x : {s.stale_events, s.predictions, s.pair_tests, s.loadings, s.instantaneous,
                          s.capped_loadings, s.attachments, s.detachments, s.releases, s.escapes}) {
    c.push_back(x);
  }
  return c;
}

void set_statistics_counters(engine::EngineStatistics& s, const std::vector<std::uint64_t>& c) {
  std::size_t k = 0;
  for (auto& x : s.events) x = c[k++];
  for (auto& x : s.responses) x = c[k++];
  for (std::uint64_t* x : {&s.stale_events, &s.predictions, &s.pair_tests, &s.loadings, &s.instantaneous,
                           &s.capped_loadings, &s.attachments, &s.detachments, &s.releases, &s.escapes}) {
    *x = c[k++];
  }
}

// 0 once the file is on disk, or the errno (a delayed write failing now).
int sync_to_disk(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) return errno;
  const int error = ::fsync(fd) == 0 ? 0 : errno;
  ::close(fd);
  return error == EINVAL || error == EROFS ? 0 : error;  // a filesystem without fsync
}

// Makes `temporary` the newest checkpoint and the newest until now the
// previous one, so that a process killed at any instant leaves checkpoint.h5
// in place and complete: the newest is linked as the previous one while it
// stays where it is, and the rename that replaces it is atomic. A file
// system without hard links gets two renames, between which only
// checkpoint.prev.h5 exists (a restart then reads that one). 0 or an errno.
int replace_newest(const std::string& newest, const std::string& previous, const std::string& temporary) {
  const auto error_of = [](const std::error_code& ec) { return !ec ? 0 : ec.value() != 0 ? ec.value() : EIO; };
  std::error_code ec;
  if (std::filesystem::exists(newest, ec)) {
    std::filesystem::remove(previous, ec);
    ec.clear();
    std::filesystem::create_hard_link(newest, previous, ec);
    if (ec) {
      ec.clear();
      std::filesystem::rename(newest, previous, ec);
      if (ec) return error_of(ec);
      std::filesystem::rename(temporary, newest, ec);
      std::error_code ignored;
      if (ec) std::filesystem::rename(previous, newest, ignored);
      return error_of(ec);
    }
  }
  std::filesystem::rename(temporary, newest, ec);
  return error_of(ec);
}

// Everything a checkpoint holds, each rank its share: particle rows, Phi
// values, tethers and loaded edges at the rank that writes their rows (by
// the slot of their first particle), escapes and releases on rank 0, and
// the engine's counters summed over ranks.
struct CheckpointContents {
  // The rank's particles, handed out in id order (so in slot order).
  const engine::ParticleSource* particles = nullptr;
  // Alone, the particles are every slot in order: they are written from
  // the source a slab at a time, without rows, and hashed on the way.
  // Otherwise each one's slot is known before the rows are made.
  bool in_slot_order = false;
  std::vector<std::uint64_t> particle_slots;
  std::vector<PhiRecord> phi;
  std::vector<TetherRecord> tethers;
  std::vector<EdgeRecord> edges;
  std::vector<EscapeRecord> escapes;
  std::vector<ReleaseRecord> releases;
  std::vector<std::uint64_t> counter_totals;  // the statistics, then largest_group
  std::uint64_t particles_hash = 0;           // of the particles this rank held
};

// Particles decoded at once on their way to rows or columns.
constexpr std::size_t kParticleSlab = 8192;
// Alone, the disk is asked to start on what is written every this many
// particles (about 6.6 MB); on several ranks, after every round.
constexpr std::size_t kWritebackParticles = 8 * kParticleSlab;

// A slab of particles read from the source: the slot of each one's id
// (into `slab_slots`), its term of the content hash (a sum over particles,
// the same whichever rank adds a term) and its Phi values at that slot.
void account_slab(CheckpointContents& c, const std::vector<engine::ParticleSnapshot>& slab,
                  const std::vector<std::vector<double>>& phi, const SlotMap& slots,
                  std::vector<std::uint64_t>& slab_slots) {
  slab_slots.clear();
  for (std::size_t k = 0; k < slab.size(); ++k) {
    const std::uint64_t slot = slab_slots.emplace_back(slots.slot(slab[k].id));
    for (std::size_t reaction = 0; reaction < phi.size(); ++reaction) {
      c.phi.push_back({slot, reaction, phi[reaction][k]});
    }
  }
  c.particles_hash += particle_hash_sum(slab, slab_slots);
}

// The particles' hash and slots, and their Phi values redistributed into
// id order; alone, nothing yet (write_particles hashes them while it
// writes them straight from the source).
void gather_particles(CheckpointContents& c, const engine::ParticleSource& source, const SlotMap& slots,
                      MPI_Comm comm, int ranks) {
  const hsize_t n = slots.size();
  c.particles = &source;
  if (ranks == 1 && source.size() == n) {
    c.in_slot_order = true;
    return;
  }
  c.particle_slots.reserve(source.size());
  std::vector<engine::ParticleSnapshot> slab;
  std::vector<std::vector<double>> phi;
  std::vector<std::uint64_t> slab_slots;
  for (std::size_t begin = 0; begin < source.size(); begin += kParticleSlab) {
    source.read(begin, std::min(source.size(), begin + kParticleSlab), slab, phi);
    account_slab(c, slab, phi, slots, slab_slots);
    c.particle_slots.insert(c.particle_slots.end(), slab_slots.begin(), slab_slots.end());
  }
  if (!std::is_sorted(c.particle_slots.begin(), c.particle_slots.end())) {
    throw std::logic_error("checkpoint: a rank's particles not in id order");
  }
  c.phi = exchange_by_slot(std::move(c.phi), n, comm);
}

// Tethers and loaded edges to the ranks of their rows, in pair order;
// escapes and releases to rank 0, in time order; the counters summed.
// The snapshot's tethers become the records (the same pairs: a membrane's
// tethers are the largest part of a checkpoint's memory); its edges are
// released once they are records.
void gather_records(CheckpointContents& c, EngineSnapshot& local, const SlotMap& slots, MPI_Comm comm) {
  const hsize_t n = slots.size();
  c.tethers = exchange_by_slot(std::move(local.tethers), n, comm,
                               [&](const TetherRecord& r) { return slots.slot(r.a); });
  std::sort(c.tethers.begin(), c.tethers.end(), by_ends);
  auto by_pair = [](const auto& x, const auto& y) {
    return x.pair[0] != y.pair[0] ? x.pair[0] < y.pair[0] : x.pair[1] < y.pair[1];
  };
  c.edges.reserve(local.loaded_edges.size());
  for (const auto& e : local.loaded_edges) {
    c.edges.push_back(
        {slots.slot(e.a), {e.a, e.b}, {e.impulse.x(), e.impulse.y(), e.impulse.z()}, e.time, e.sequence});
  }
  engine::free_storage(local.loaded_edges);
  c.edges = exchange_by_slot(std::move(c.edges), n, comm);
  std::sort(c.edges.begin(), c.edges.end(), by_pair);
  auto by_time = [](const auto& x, const auto& y) { return x.time != y.time ? x.time < y.time : x.id < y.id; };
  for (const auto& e : local.escapes) {
    c.escapes.push_back({e.id, e.species, e.time, {e.position.x(), e.position.y(), e.position.z()},
                         {e.velocity.x(), e.velocity.y(), e.velocity.z()}});
  }
  c.escapes = mpi::gather_to_root(c.escapes, comm);
  std::sort(c.escapes.begin(), c.escapes.end(), by_time);
  for (const auto& r : local.releases) c.releases.push_back({r.id, r.time});
  c.releases = mpi::gather_to_root(c.releases, comm);
  std::sort(c.releases.begin(), c.releases.end(), by_time);
  c.counter_totals = statistics_counters(local.statistics);
  mpi::sum_in_place(c.counter_totals, comm);
  c.counter_totals.push_back(mpi::max(local.statistics.largest_group, comm));
}

// The whole checkpoint's content hash, the same whatever the rank count.
std::uint64_t content_hash(const CheckpointContents& c, const EngineSnapshot& local, const Model& model,
                           const std::string& overrides, bool root, MPI_Comm comm) {
  const std::uint64_t rank0_part =
      root ? sum_hashes(c.escapes) + sum_hashes(c.releases) +
                 global_part_hash(local.time, local.active_window, local.periodic_ticks, c.counter_totals,
                                  model.source_text(), overrides)
           : 0;
  return mpi::sum(c.particles_hash + sum_hashes(c.phi) + sum_hashes(c.tethers) + sum_hashes(c.edges) + rank0_part,
                  comm);
}

// The sizes of everything, known to every rank before anything is written.
struct CheckpointSizes {
  SlotRange mine;  // the particle rows this rank writes
  GlobalOffset tethers;
  GlobalOffset edges;
  std::uint64_t escapes = 0;
  std::uint64_t releases = 0;
};

CheckpointSizes checkpoint_sizes(const CheckpointContents& c, hsize_t n, int ranks, int rank, MPI_Comm comm) {
  CheckpointSizes sizes;
  sizes.mine = slot_range(n, ranks, rank);
  sizes.tethers = global_offset(c.tethers.size(), comm);
  sizes.edges = global_offset(c.edges.size(), comm);
  sizes.escapes = mpi::sum<std::uint64_t>(c.escapes.size(), comm);
  sizes.releases = mpi::sum<std::uint64_t>(c.releases.size(), comm);
  return sizes;
}

// The header: what the checkpoint is of, and the model that ran.
void write_header(hid_t top, const Model& model, const EngineSnapshot& local, hsize_t n, std::uint64_t content,
                  const std::string& overrides, bool root, hid_t transfer) {
  write_attribute(top, "format", std::string(kFormat));
  write_attribute(top, "format_version", static_cast<std::int64_t>(kCheckpointFormatVersion));
  write_attribute(top, "tethersim_version", std::string(kVersion));
  write_attribute(top, "time", local.time);
  write_attribute(top, "particles", static_cast<std::int64_t>(n));
  write_attribute(top, "seed", static_cast<std::int64_t>(model.seed()));
  write_attribute(top, "model_name", model.name());
  write_attribute(top, "model_hash", hash_text(model.hash()));
  write_attribute(top, "physics_hash", hash_text(model.physics_hash()));
  write_attribute(top, "model_path", model.source_path());
  write_attribute(top, "active_window", static_cast<std::int64_t>(local.active_window));
  write_attribute(top, "content_hash", hash_text(content));
  write_text(top, kModelText, model.source_text(), root, transfer);
  write_text(top, kModelOverrides, overrides, root, transfer);
}

// Particle rows a rank writes per round, at most (3.7 MB of rows): a
// round's rows going out and coming in are what a checkpoint adds to a
// rank's peak memory, and buffers this small are reused round after round
// instead of faulted in afresh.
constexpr std::uint64_t kRowsPerRound = std::uint64_t{1} << 15;

// particles/<field> from rows made and exchanged in rounds (SlotRounds):
// in round k every rank writes part k of its slots, and sends every other
// rank the rows of that rank's part k (each a contiguous run of its
// particles, which come in slot order).
void write_particle_rounds(hid_t group, const CheckpointContents& c, hsize_t n, MPI_Comm comm, hid_t transfer,
                           EarlyWriteback& writeback) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  const std::vector<H5Id> columns = create_particle_columns(group, n);
  const SlotRounds rounds = slot_rounds(n, ranks, kRowsPerRound);
  const std::vector<std::uint64_t>& held = c.particle_slots;
  std::vector<engine::ParticleSnapshot> slab;
  std::vector<std::vector<double>> phi;
  const auto held_range = [&](int writer, std::uint64_t round) {
    const SlotRange part = rounds.part(slot_range(n, ranks, writer), round);
    return std::pair{static_cast<std::size_t>(std::lower_bound(held.begin(), held.end(), part.begin) - held.begin()),
                     static_cast<std::size_t>(std::lower_bound(held.begin(), held.end(), part.end) - held.begin())};
  };
  for (std::uint64_t round = 0; round < rounds.count; ++round) {
    // Sized exactly: grown by doubling, the rows sent took twice their size
    // beside the rows received (a rank's peak memory at its checkpoint).
    std::size_t sending = 0;
    for (int writer = 0; writer < ranks; ++writer) {
      const auto [first, last] = held_range(writer, round);
      sending += last - first;
    }
    std::vector<ParticleRow> outgoing;
    outgoing.reserve(sending);
    for (int writer = 0; writer < ranks; ++writer) {
      const auto [first, last] = held_range(writer, round);
      for (std::size_t begin = first; begin < last; begin += kParticleSlab) {
        c.particles->read(begin, std::min(last, begin + kParticleSlab), slab, phi);
        for (std::size_t k = 0; k < slab.size(); ++k) append_particle_row(outgoing, slab[k], held[begin + k]);
      }
    }
    const std::vector<ParticleRow> rows = exchange_by_slot(std::move(outgoing), n, comm);
    const SlotRange mine = rounds.part(slot_range(n, ranks, rank), round);
    if (rows.size() != mine.size() || (!rows.empty() && (rows.front().slot != mine.begin ||
                                                         rows.back().slot != mine.end - 1))) {
      throw std::logic_error("checkpoint: the particles of slots [" + std::to_string(mine.begin) + ", " +
                             std::to_string(mine.end) + ") are not each held by one rank");
    }
    // Every rank's part of this round is known here, so the largest is too.
    std::uint64_t most = 0;
    for (int writer = 0; writer < ranks; ++writer) {
      most = std::max<std::uint64_t>(most, rounds.part(slot_range(n, ranks, writer), round).size());
    }
    write_particle_rows(columns, rows, mine.begin, most, transfer);
    writeback.start();
  }
}

// particles/<field> in rounds of rows or, alone, straight from the source,
// and the Phi values as [reactions, N]: one row per reaction.
void write_particles(hid_t top, CheckpointContents& c, const SlotMap& slots, const SlotRange& mine, hsize_t n,
                     std::size_t reactions, MPI_Comm comm, hid_t transfer, EarlyWriteback& writeback) {
  H5Id group = create_group(top, kParticles);
  if (c.in_slot_order) {
    std::vector<std::uint64_t> slab_slots;
    write_particle_columns(group, *c.particles, kParticleSlab, transfer,
                           [&](const std::vector<engine::ParticleSnapshot>& slab,
                               const std::vector<std::vector<double>>& phi, std::uint64_t first) {
                             if (first % kWritebackParticles < slab.size()) writeback.start();
                             account_slab(c, slab, phi, slots, slab_slots);
                             for (std::size_t k = 0; k < slab.size(); ++k) {
                               if (slab_slots[k] != first + k) {
                                 throw std::logic_error("checkpoint: particles not in slot order");
                               }
                             }
                           });
  } else {
    write_particle_rounds(group, c, n, comm, transfer, writeback);
  }
  engine::free_storage(c.particle_slots);
  if (reactions == 0) return;
  H5Id set = create_dataset(group, kReactionTimes, H5T_NATIVE_DOUBLE, {reactions, n});
  for (std::size_t reaction = 0; reaction < reactions; ++reaction) {
    std::vector<double> values(mine.size(), kInfinity);
    for (const PhiRecord& p : c.phi) {
      if (p.reaction == reaction) values[p.slot - mine.begin] = p.value;
    }
    write_rows(set, H5T_NATIVE_DOUBLE, {reaction}, mine.begin, mine.size(), values.data(), transfer);
  }
}

// Tethers, loaded edges, escapes, releases, ticks and counters; rank 0
// writes the global and gathered ones.
void write_records(hid_t top, const CheckpointContents& c, const CheckpointSizes& sizes,
                   const EngineSnapshot& local, bool root, hid_t transfer) {
  write_record_columns(top, kTetherColumns, c.tethers, sizes.tethers.offset, sizes.tethers.total,
                       sizes.tethers.most, transfer);
  write_record_columns(create_group(top, kLoadedEdges), kEdgeColumns, c.edges, sizes.edges.offset,
                       sizes.edges.total, sizes.edges.most, transfer);
  auto root_rows = [&](const auto& all) { return root ? all : std::decay_t<decltype(all)>{}; };
  // Escapes and releases were gathered to rank 0, which writes them all.
  write_record_columns(create_group(top, kEscapes), kEscapeColumns, c.escapes, 0, sizes.escapes, sizes.escapes,
                       transfer);
  write_record_columns(create_group(top, kReleases), kReleaseColumns, c.releases, 0, sizes.releases,
                       sizes.releases, transfer);
  const std::vector<std::uint64_t> ticks = root_rows(local.periodic_ticks);
  H5Id tick_set = create_dataset(top, kPeriodicTicks, H5T_NATIVE_UINT64, {local.periodic_ticks.size()});
  write_rows(tick_set, H5T_NATIVE_UINT64, {}, 0, ticks.size(), ticks.data(), transfer);
  const std::vector<std::uint64_t> stats = root_rows(c.counter_totals);
  H5Id stats_set = create_dataset(top, kStatistics, H5T_NATIVE_UINT64, {c.counter_totals.size()});
  write_rows(stats_set, H5T_NATIVE_UINT64, {}, 0, stats.size(), stats.data(), transfer);
}

// The written temporary file, on disk, becomes the newest checkpoint and
// the newest until now the previous one (rank 0 moves; every rank learns
// how it went).
void publish(const std::string& temporary, const std::string& final_path, const std::string& previous,
             const std::string& what, bool root, MPI_Comm comm) {
  mpi::barrier(comm);
  int error = 0, moving = 0;
  if (root) {
    release_room(temporary);
    error = sync_to_disk(temporary);
    if (error == 0) {
      moving = 1;
      error = replace_newest(final_path, previous, temporary);
    }
    if (error != 0) std::remove(temporary.c_str());
  }
  int status[2] = {error, moving};
  mpi::broadcast(status, 2, 0, comm);
  if (status[0] != 0) {
    throw OutputError(status[1] != 0
                          ? "cannot move " + temporary + " to " + final_path + ": " + std::strerror(status[0])
                          : temporary + ": cannot write " + what + ": " + room_problem(status[0]));
  }
}

}  // namespace

std::string write_checkpoint(const std::string& directory, MPI_Comm comm, const Model& model,
                             const SlotMap& slots, EngineSnapshot local) {
  const engine::SnapshotParticles particles(local);
  return write_checkpoint(directory, comm, model, slots, std::move(local), particles);
}

std::string write_checkpoint(const std::string& directory, MPI_Comm comm, const Model& model,
                             const SlotMap& slots, EngineSnapshot local, const engine::ParticleSource& particles) {
  silence_hdf5_errors();
  int rank = 0, ranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  const bool root = rank == 0;
  const std::filesystem::path dir(directory);
  const std::string final_path = (dir / "checkpoint.h5").string();
  const std::string temporary = (dir / "checkpoint.h5.tmp").string();
  const std::string previous = (dir / "checkpoint.prev.h5").string();
  const hsize_t n = slots.size();
  const std::size_t reactions = particles.reactions();

  CheckpointContents contents;
  gather_particles(contents, particles, slots, comm, ranks);
  gather_records(contents, local, slots, comm);
  const std::string overrides = override_lines(model.data().overrides);
  const CheckpointSizes sizes = checkpoint_sizes(contents, n, ranks, rank, comm);
  // The room the file needs (hdf5_support.hpp: HDF5 must never meet a full
  // disk half-way): the data, and generously the metadata.
  const std::uint64_t room = n * (kParticleColumnBytes + 8 * reactions) + 16 * sizes.tethers.total +
                             56 * sizes.edges.total + 68 * sizes.escapes + 16 * sizes.releases +
                             8 * (local.periodic_ticks.size() + contents.counter_totals.size()) +
                             model.source_text().size() + overrides.size() + (std::uint64_t{1} << 17);
  const std::string what = "the checkpoint at t = " + format_number(local.time);

  // Write the temporary file. On any failure it is removed, and the
  // checkpoints already there are not touched.
  ensure_room_for_new_file(temporary, room, comm, what);
  H5Id fapl = mpio_file_access(comm);
  H5Id file(H5Fcreate(temporary.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl));
  if (!file.valid()) {
    throw OutputError("cannot create " + temporary + " (is the directory writable?)");
  }
  auto discard = [&] {
    file.reset();
    if (root) std::remove(temporary.c_str());
  };
  try {
    // H5Fcreate truncated the file, releasing the room reserved above.
    ensure_room(temporary, room, comm, what);
    EarlyWriteback writeback(temporary);
    H5Id transfer = data_transfer(false);
    {
      H5Id top = create_group(file, kRoot);
      // The particles first: alone, their hash is taken while they are
      // written, and the header carries the content hash.
      write_particles(top, contents, slots, sizes.mine, n, reactions, comm, transfer, writeback);
      write_records(top, contents, sizes, local, root, transfer);
      write_header(top, model, local, n, content_hash(contents, local, model, overrides, root, comm), overrides,
                   root, transfer);
      // Complete: mark it, flush, close, and only then replace the old one.
      write_attribute(top, "complete", static_cast<std::int64_t>(1));
    }
    checked(H5Fflush(file, H5F_SCOPE_GLOBAL), "flushing");
    checked(H5Fclose(file.release()), "closing");
  } catch (const Hdf5Error& e) {
    discard();
    throw OutputError(temporary + ": cannot write " + what + ": " + e.what() + " (disk full?)");
  } catch (const OutputError&) {
    discard();
    throw;
  }
  // On disk before it replaces anything; then the newest becomes the
  // previous one, and the new one the newest.
  publish(temporary, final_path, previous, what, root, comm);
  return final_path;
}

CheckpointHeader read_checkpoint_header(const std::string& path) {
  silence_hdf5_errors();
  auto bad = [&](const std::string& why) { return InputError({path, 0}, "", why); };
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw bad("no such checkpoint");
  if (H5Fis_hdf5(path.c_str()) <= 0) throw bad("not an HDF5 file (or truncated)");
  H5Id file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  if (!file.valid()) throw bad("cannot be opened: damaged or truncated");
  if (!exists(file, kRoot)) throw bad("not a tethersim checkpoint");
  H5Id top(H5Gopen2(file, kRoot, H5P_DEFAULT));
  CheckpointHeader h;
  try {
    if (read_string_attribute(top, "format") != kFormat) throw bad("not a tethersim checkpoint");
    h.format_version = static_cast<int>(read_integer_attribute(top, "format_version"));
    h.tethersim_version = read_string_attribute(top, "tethersim_version");
    if (h.format_version != kCheckpointFormatVersion) {
      throw bad("checkpoint format " + std::to_string(h.format_version) + " (written by tethersim " +
                h.tethersim_version + "); this tethersim reads format " +
                std::to_string(kCheckpointFormatVersion));
    }
    if (!has_attribute(top, "complete")) throw bad("incomplete checkpoint (the writer was interrupted)");
    h.time = read_double_attribute(top, "time");
    h.particles = static_cast<std::uint64_t>(read_integer_attribute(top, "particles"));
    h.seed = static_cast<std::uint64_t>(read_integer_attribute(top, "seed"));
    h.model_name = read_string_attribute(top, "model_name");
    h.model_hash = parse_hex(read_string_attribute(top, "model_hash"));
    h.physics_hash = parse_hex(read_string_attribute(top, "physics_hash"));
    h.model_path = read_string_attribute(top, "model_path");
    h.model_text = read_text(top, kModelText);
    const std::string overrides = read_text(top, kModelOverrides);
    std::size_t start = 0;
    while (start < overrides.size()) {
      const std::size_t end = overrides.find('\n', start);
      h.overrides.push_back(overrides.substr(start, end - start));
      start = end == std::string::npos ? overrides.size() : end + 1;
    }
  } catch (const Hdf5Error& e) {
    throw bad(std::string("damaged checkpoint: ") + e.what());
  }
  return h;
}

namespace {

// Each part of the reading below adds its records' hashes: the sum over
// ranks is the content hash the file states.

// This rank's particle rows and their Phi values.
std::uint64_t read_particles(hid_t top, const SlotRange& mine, EngineSnapshot& s) {
  std::uint64_t content = 0;
  H5Id group = open_group(top, kParticles);
  std::vector<engine::ParticleSnapshot> particles(mine.size());
  read_particle_columns(group, particles, mine.begin);
  std::vector<std::uint64_t> row_slots(particles.size());
  std::iota(row_slots.begin(), row_slots.end(), mine.begin);
  content += particle_hash_sum(particles, row_slots);
  s.particles = std::move(particles);
  if (!exists(group, kReactionTimes)) return content;
  H5Id set = open_dataset(group, kReactionTimes);
  const hsize_t reactions = dataset_shape(set)[0];
  for (hsize_t reaction = 0; reaction < reactions; ++reaction) {
    std::vector<double> values(mine.size());
    read_rows(set, H5T_NATIVE_DOUBLE, {reaction}, mine.begin, mine.size(), values.data());
    std::vector<PhiRecord> records;
    for (std::size_t k = 0; k < values.size(); ++k) records.push_back({mine.begin + k, reaction, values[k]});
    content += sum_hashes(records);
    s.reaction_times.push_back(std::move(values));
  }
  return content;
}

// This rank's share of the tethers and loaded edges (`slice` of a count).
template <typename Slice>
std::uint64_t read_links(hid_t top, const Slice& slice, EngineSnapshot& s) {
  const SlotRange tether_rows = slice(record_rows(top, kTetherColumns));
  s.tethers.resize(tether_rows.size());
  read_record_columns(top, kTetherColumns, s.tethers, tether_rows.begin);
  H5Id edge_group = open_group(top, kLoadedEdges);
  const SlotRange edge_rows = slice(record_rows(edge_group, kEdgeColumns));
  std::vector<EdgeRecord> edges(edge_rows.size());
  read_record_columns(edge_group, kEdgeColumns, edges, edge_rows.begin);
  for (const EdgeRecord& r : edges) {
    s.loaded_edges.push_back(
        {r.pair[0], r.pair[1], Vec3(r.impulse[0], r.impulse[1], r.impulse[2]), r.time, r.sequence});
  }
  return sum_hashes(s.tethers) + sum_hashes(edges);
}

// What rank 0 alone holds: escapes, releases and the engine's counters,
// with the hash of the header's part (time, window, ticks, model text).
std::uint64_t read_gathered(hid_t top, const CheckpointHeader& header, EngineSnapshot& s) {
  H5Id escape_group = open_group(top, kEscapes);
  std::vector<EscapeRecord> escapes(record_rows(escape_group, kEscapeColumns));
  read_record_columns(escape_group, kEscapeColumns, escapes, 0);
  for (const EscapeRecord& r : escapes) {
    s.escapes.push_back({r.id, static_cast<SpeciesIndex>(r.species), r.time,
                         Vec3(r.position[0], r.position[1], r.position[2]),
                         Vec3(r.velocity[0], r.velocity[1], r.velocity[2])});
  }
  H5Id release_group = open_group(top, kReleases);
  std::vector<ReleaseRecord> releases(record_rows(release_group, kReleaseColumns));
  read_record_columns(release_group, kReleaseColumns, releases, 0);
  for (const ReleaseRecord& r : releases) s.releases.push_back({r.id, r.time});
  H5Id stats_set = open_dataset(top, kStatistics);
  std::vector<std::uint64_t> counters(dataset_shape(stats_set)[0]);
  read_rows(stats_set, H5T_NATIVE_UINT64, {}, 0, counters.size(), counters.data());
  if (counters.size() != statistics_counters(s.statistics).size() + 1) {
    throw Hdf5Error("unexpected statistics layout");
  }
  const std::string overrides = override_lines(header.overrides);
  const std::uint64_t content =
      sum_hashes(escapes) + sum_hashes(releases) +
      global_part_hash(header.time, s.active_window, s.periodic_ticks, counters, header.model_text, overrides);
  s.statistics.largest_group = counters.back();
  counters.pop_back();
  set_statistics_counters(s.statistics, counters);
  return content;
}

}  // namespace

EngineSnapshot read_checkpoint(const std::string& path, MPI_Comm comm, bool everything_on_root) {
  const CheckpointHeader header = read_checkpoint_header(path);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  const bool root = rank == 0;
  auto slice = [&](std::uint64_t total) -> SlotRange {
    if (everything_on_root) return root ? SlotRange{0, total} : SlotRange{total, total};
    return slot_range(total, ranks, rank);
  };
  EngineSnapshot s;
  s.time = header.time;
  try {
    H5Id fapl = mpio_file_access(comm);
    H5Id file(checked(H5Fopen(path.c_str(), H5F_ACC_RDONLY, fapl), "cannot be opened"));
    H5Id top = open_group(file, kRoot);
    const std::uint64_t expected = parse_hex(read_string_attribute(top, "content_hash"));
    s.active_window = static_cast<int>(read_integer_attribute(top, "active_window"));
    std::uint64_t content = read_particles(top, slice(header.particles), s);
    content += read_links(top, slice, s);
    H5Id tick_set = open_dataset(top, kPeriodicTicks);
    s.periodic_ticks.resize(dataset_shape(tick_set)[0]);
    read_rows(tick_set, H5T_NATIVE_UINT64, {}, 0, s.periodic_ticks.size(), s.periodic_ticks.data());
    if (root) content += read_gathered(top, header, s);
    if (mpi::sum(content, comm) != expected) {
      throw Hdf5Error("content hash mismatch: the data were changed or damaged");
    }
  } catch (const Hdf5Error& e) {
    throw InputError({path, 0}, "", std::string("damaged checkpoint: ") + e.what());
  }
  return s;
}

}  // namespace tethersim
