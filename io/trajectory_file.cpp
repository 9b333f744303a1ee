// Writing a trajectory: frames and observable samples, appended
// collectively by every rank, and the XDMF sidecar at each flush. Making a
// new file is trajectory_create.cpp, continuing one trajectory_append.cpp;
// the per-frame datasets are the table of trajectory_layout.hpp.

#include "tethersim/io/trajectory_file.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <filesystem>
#include <limits>
#include <optional>
#include <utility>

#include "slot_exchange.hpp"
#include "tethersim/model/number_format.hpp"
#include "tethersim/model/pair_order.hpp"
#include "trajectory_state.hpp"

namespace tethersim {

using namespace io_detail;
using namespace io_detail::trajectory_layout;

namespace io_detail {

SlotMap frame_rows(const Model& model, SlotMap slots, const SlotSpecies& species,
                   std::vector<SpeciesIndex>* kept_species) {
  const std::vector<std::string>& kept = model.output().frame_species;
  if (kept.empty()) return slots;
  if (!species.covers(0, slots.size())) {
    throw std::logic_error("output.frame_species needs every slot's species on every rank");
  }
  std::vector<bool> keep(model.species().size(), false);
  for (const std::string& name : kept) {
    if (const auto index = model.find_species(name)) keep[*index] = true;
  }
  std::vector<ParticleId> ids;
  for (std::uint64_t slot = 0; slot < slots.size(); ++slot) {
    if (!keep[species.at(slot)]) continue;
    ids.push_back(slots.id(slot));
    if (kept_species != nullptr) kept_species->push_back(species.at(slot));
  }
  return SlotMap(std::move(ids));
}

std::vector<ObservableColumn> trajectory_observables(const Model& model) {
  std::vector<ObservableColumn> columns;
  for (ObservableColumn& column : observable_columns(model)) {
    if (column.field->in(kInTrajectory)) columns.push_back(std::move(column));
  }
  return columns;
}

std::string sample_clock() { return std::string(kObservables) + "/" + std::string(kObservableFields[0].name); }

std::vector<std::string> sample_datasets(const std::vector<ObservableColumn>& observables) {
  std::vector<std::string> sets = {sample_clock() + "/step", sample_clock() + "/time"};
  for (const ObservableColumn& column : observables) {
    sets.push_back(std::string(kObservables) + "/" + column.name + "/value");
  }
  return sets;
}

void extend_frames(hid_t dataset, hsize_t frames) {
  std::vector<hsize_t> shape = dataset_shape(dataset);
  shape[0] = frames;
  checked(H5Dset_extent(dataset, shape.data()), "extending a dataset");
}

}  // namespace io_detail

std::unique_ptr<TrajectoryFile::State> TrajectoryFile::State::make(const std::string& path, MPI_Comm comm,
                                                                   const Model& model, SlotMap rows) {
  silence_hdf5_errors();
  auto s = std::make_unique<State>();
  s->comm = comm;
  MPI_Comm_rank(comm, &s->rank);
  MPI_Comm_size(comm, &s->ranks);
  s->path = path;
  s->writeback = std::make_unique<io_detail::EarlyWriteback>(path);
  s->slots = std::move(rows);
  s->dimensions = model.dimensions();
  s->lo = model.domain().lo;
  const auto d = static_cast<std::size_t>(s->dimensions);
  s->edge_matrix.assign(d * d, 0.0);
  for (std::size_t k = 0; k < d; ++k) s->edge_matrix[k * d + k] = model.domain().length()[static_cast<int>(k)];
  return s;
}

std::int64_t TrajectoryFile::State::step_at(double time) {
  if (time != last_step_time) {
    ++last_step;
    last_step_time = time;
  }
  return last_step;
}

bool TrajectoryFile::State::holds(const FrameDataset& set) const {
  switch (set.presence) {
    case Presence::always: return true;
    case Presence::with_velocity: return write_velocity;
    case Presence::with_tethers: return write_tethers;
    case Presence::with_tether_rows: return write_tether_rows;
  }
  return false;
}

std::vector<const FrameDataset*> TrajectoryFile::State::frame_datasets() const {
  std::vector<const FrameDataset*> sets;
  for (const FrameDataset& set : kFrameDatasets) {
    if (holds(set)) sets.push_back(&set);
  }
  return sets;
}

void TrajectoryFile::State::make_room(const ChunkGrowth& growth, const std::string& what) const {
  if (growth.chunks > 0) ensure_room(path, growth.room(), comm, what);
}

io_detail::OutputError TrajectoryFile::State::failure(const std::string& what, const std::exception& e) const {
  return OutputError(path + ": cannot write " + what + ": " + e.what() + " (disk full?)");
}

void TrajectoryFile::State::write_scalar_row(hid_t dataset, hid_t type, hsize_t row, const void* value) const {
  write_rows(dataset, type, {}, row, root() ? 1 : 0, value, transfer);
}

TrajectoryFile::TrajectoryFile(std::unique_ptr<State> state) : state_(std::move(state)) {}
TrajectoryFile::TrajectoryFile(TrajectoryFile&&) noexcept = default;
TrajectoryFile& TrajectoryFile::operator=(TrajectoryFile&&) noexcept = default;
TrajectoryFile::~TrajectoryFile() {
  // Closing writes collectively: not while a failure unwinds on one rank.
  if (io_detail::unwinding_in_a_parallel_job()) return;
  try {
    close();
  } catch (...) {
    // Destructors must not throw; close() reported nothing we can act on.
  }
}

namespace {

// A FrameParticle on its way to the rank that writes its row, flat so that
// it travels as bytes (not engine::ParticleRecord, which carries a whole
// particle and its attachments between ranks).
struct FrameRow {
  std::uint64_t slot;
  std::int64_t id;
  double position[3];
  double velocity[3];
};


// Positions and velocities as the file stores them: the values of a frame
// are made in doubles and narrowed here when the file holds floats.
void write_values(hid_t set, bool single, const std::vector<hsize_t>& frame, std::uint64_t first_row,
                  std::uint64_t rows, const std::vector<double>& values, hid_t transfer) {
  if (!single) {
    write_rows(set, H5T_NATIVE_DOUBLE, frame, first_row, rows, values.data(), transfer);
    return;
  }
  const std::vector<float> narrowed(values.begin(), values.end());
  write_rows(set, H5T_NATIVE_FLOAT, frame, first_row, rows, narrowed.data(), transfer);
}

// A frame's rows go to the ranks that write them in rounds (SlotRounds) of
// at most this many rows per rank, so that the rows a rank sends and
// receives at once (64 bytes each) stay near 2 MB however many particles
// it holds.
constexpr std::uint64_t kFrameRowsPerRound = std::uint64_t{1} << 15;

// The particles of `source` whose slots lie in [range.begin, range.end):
// a run of them, as the source is in id order and slots follow ids.
std::pair<std::size_t, std::size_t> particles_in(const SlotMap& slots, const FrameSource& source,
                                                 const SlotRange& range) {
  auto first_at_or_after = [&](ParticleId id) {
    std::size_t lo = 0, hi = source.size();
    while (lo < hi) {
      const std::size_t mid = lo + (hi - lo) / 2;
      if (source.id(mid) < id) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  };
  if (range.size() == 0) return {0, 0};
  const std::size_t begin = first_at_or_after(slots.id(range.begin));
  const ParticleId last = slots.id(range.end - 1);
  // Up to the first particle past the range's last id (none past the largest id).
  const std::size_t end = last == std::numeric_limits<ParticleId>::max() ? source.size() : first_at_or_after(last + 1);
  return {begin, std::max(begin, end)};
}

// The rows of one round of a frame this rank writes, positions in the box
// frame. Slots with no particle (it left) keep the fill values: NaN, id -1.
struct FrameValues {
  SlotRange range;
  std::vector<double> positions;
  std::vector<double> velocities;
  std::vector<std::int64_t> ids;
};

// Round `round`: this rank reads, for every rank, its particles whose rows
// that rank writes in this round, and sends them there.
FrameValues gather_rows(const TrajectoryFile::State& s, const FrameSource& source, const SlotRounds& plan,
                        std::uint64_t round) {
  const hsize_t n = s.slots.size();
  const auto d = static_cast<std::size_t>(s.dimensions);
  std::vector<FrameRow> records;
  std::vector<FrameParticle> read;
  for (int writer = 0; writer < s.ranks; ++writer) {
    const auto [begin, end] = particles_in(s.slots, source, plan.part(slot_range(n, s.ranks, writer), round));
    source.read(begin, end, read);
    for (const FrameParticle& p : read) {
      const std::optional<std::uint64_t> slot = s.slots.find(p.id);
      if (!slot) continue;  // not of output.frame_species
      FrameRow& r = records.emplace_back();
      r.slot = *slot;
      r.id = static_cast<std::int64_t>(p.id);
      for (int c = 0; c < 3; ++c) {
        r.position[c] = p.position[c];
        r.velocity[c] = p.velocity[c];
      }
    }
  }
  const std::vector<FrameRow> mine = exchange_by_slot(std::move(records), n, s.comm);
  FrameValues values;
  values.range = plan.part(slot_range(n, s.ranks, s.rank), round);
  values.positions.assign(values.range.size() * d, std::nan(""));
  values.velocities.assign(values.range.size() * d, std::nan(""));
  values.ids.assign(values.range.size(), -1);
  for (const FrameRow& r : mine) {
    const std::uint64_t row = r.slot - values.range.begin;
    values.ids[row] = r.id;
    for (std::size_t c = 0; c < d; ++c) {
      values.positions[row * d + c] = r.position[c] - s.lo[static_cast<int>(c)];
      values.velocities[row * d + c] = r.velocity[c];
    }
  }
  return values;
}

// Turns a slab's ids into rows in place, dropping tethers without rows at
// both ends.
void rows_in_place(const TrajectoryFile::State& s, std::vector<FrameTether>& slab) {
  std::size_t kept = 0;
  for (const FrameTether& t : slab) {
    const std::optional<std::uint64_t> a = s.slots.find(t.a);
    const std::optional<std::uint64_t> b = s.slots.find(t.b);
    if (a && b) slab[kept++] = {*a, *b};
  }
  slab.resize(kept);
}

// The tethers of one frame this rank writes, in the order of their lower
// particle, as pairs of rows (`a` the lower-id particle's row, `b` the
// other's), and where they go among every rank's.
struct FrameTethers {
  std::vector<FrameTether> own;
  GlobalOffset where{};
};

// Several ranks: the ids of `tethers` become rows in place (a membrane's
// tethers are the largest part of a frame's memory) and go to the ranks
// that write them.
FrameTethers gather_tethers(const TrajectoryFile::State& s, std::vector<FrameTether> tethers) {
  rows_in_place(s, tethers);
  FrameTethers pairs;
  pairs.own = exchange_by_slot(std::move(tethers), s.slots.size(), s.comm, [](const FrameTether& t) { return t.a; });
  std::sort(pairs.own.begin(), pairs.own.end(), by_ends);
  pairs.where = global_offset(pairs.own.size(), s.comm);
  return pairs;
}

// Writes a frame's tethers as pairs of ids, or of rows.
void write_pairs(const TrajectoryFile::State& s, hid_t set, hsize_t frame, const FrameTethers& pairs, bool as_ids) {
  // Rows, and ids where they are the rows (ids 0..N-1), are the pairs' own
  // two 64-bit words: written from them, without a copy (ids and rows are
  // below 2^63, so the words read as int64 are the same values).
  static_assert(sizeof(FrameTether) == 2 * sizeof(std::int64_t));
  if (!as_ids || s.slots.dense()) {
    write_rows(set, H5T_NATIVE_INT64, {frame}, pairs.where.offset, pairs.own.size(),
               reinterpret_cast<const std::int64_t*>(pairs.own.data()), s.transfer);
    return;
  }
  std::vector<std::int64_t> values(2 * pairs.own.size());
  for (std::size_t k = 0; k < pairs.own.size(); ++k) {
    const FrameTether& t = pairs.own[k];
    values[2 * k] = static_cast<std::int64_t>(as_ids ? s.slots.id(t.a) : t.a);
    values[2 * k + 1] = static_cast<std::int64_t>(as_ids ? s.slots.id(t.b) : t.b);
  }
  write_rows(set, H5T_NATIVE_INT64, {frame}, pairs.where.offset, pairs.own.size(), values.data(), s.transfer);
}

// Groups of a tether source read at once by one process.
constexpr std::size_t kTetherGroupsPerSlab = std::size_t{1} << 15;

// The tethers one process writes (both ends with rows).
std::uint64_t count_tethers(const TrajectoryFile::State& s, const FrameTetherSource& tethers) {
  std::uint64_t count = 0;
  std::vector<FrameTether> slab;
  for (std::size_t begin = 0; begin < tethers.groups(); begin += kTetherGroupsPerSlab) {
    tethers.read(begin, std::min(tethers.groups(), begin + kTetherGroupsPerSlab), slab);
    rows_in_place(s, slab);
    count += slab.size();
  }
  return count;
}

// One process writes its tethers a slab at a time, as ids (`ids`) and,
// when asked (`rows` >= 0), as rows: the source's (a, b) order is the row
// order, as the rows of several ranks' are once sorted.
void write_tether_slabs(const TrajectoryFile::State& s, hid_t ids, hid_t rows, hsize_t frame,
                        const FrameTetherSource& tethers) {
  FrameTethers slab;
  for (std::size_t begin = 0; begin < tethers.groups(); begin += kTetherGroupsPerSlab) {
    tethers.read(begin, std::min(tethers.groups(), begin + kTetherGroupsPerSlab), slab.own);
    rows_in_place(s, slab.own);
    write_pairs(s, ids, frame, slab, true);
    if (rows >= 0) write_pairs(s, rows, frame, slab, false);
    slab.where.offset += slab.own.size();
  }
}

}  // namespace

void TrajectoryFile::write_frame(double time, const FrameSource& particles, FrameTetherSource& tethers) {
  State& s = *state_;
  const hsize_t frame = s.frame_times.size();
  const std::string what = "the frame at t = " + format_number(time);
  const SlotRounds rounds = slot_rounds(s.slots.size(), s.ranks, kFrameRowsPerRound);
  // Alone, the tethers are counted now and written a slab at a time below;
  // on several ranks they are gathered whole to the ranks that write them.
  const bool streamed = s.ranks == 1;
  const FrameTethers pairs = !s.write_tethers ? FrameTethers{}
                             : streamed       ? FrameTethers{{}, {0, count_tethers(s, tethers), 0}}
                                              : gather_tethers(s, tethers.take_all());
  const hsize_t tether_rows = std::max<hsize_t>(s.tether_rows, pairs.where.total);
  try {
    // Everything this frame allocates must fit before any of it is written.
    const std::vector<const FrameDataset*> present = s.frame_datasets();
    std::array<H5Id, kFrameSetCount> sets;
    std::array<std::vector<hsize_t>, kFrameSetCount> shapes;
    ChunkGrowth growth;
    for (const FrameDataset* entry : present) {
      const auto k = static_cast<std::size_t>(entry->set);
      sets[k] = open_dataset(s.file, entry->path());
      shapes[k] = frame_shape(entry->shape, frame + 1, s.slots.size(), static_cast<hsize_t>(s.dimensions),
                              tether_rows);
      growth += chunk_growth(sets[k], shapes[k]);
    }
    s.make_room(growth, what);
    for (const FrameDataset* entry : present) {
      const auto k = static_cast<std::size_t>(entry->set);
      checked(H5Dset_extent(sets[k], shapes[k].data()), "extending " + entry->path());
    }
    auto set = [&](FrameSet which) -> hid_t { return sets[static_cast<std::size_t>(which)]; };
    const std::int64_t step = s.step_at(time);
    s.write_scalar_row(set(FrameSet::step), H5T_NATIVE_INT64, frame, &step);
    for (std::uint64_t round = 0; round < rounds.count; ++round) {
      const FrameValues values = gather_rows(s, particles, rounds, round);
      const SlotRange& range = values.range;
      write_values(set(FrameSet::position), s.single_precision, {frame}, range.begin, range.size(),
                   values.positions, s.transfer);
      if (s.write_velocity) {
        write_values(set(FrameSet::velocity), s.single_precision, {frame}, range.begin, range.size(),
                     values.velocities, s.transfer);
      }
      write_rows(set(FrameSet::id), H5T_NATIVE_INT64, {frame}, range.begin, range.size(), values.ids.data(),
                 s.transfer);
      s.writeback->start();
    }
    s.write_scalar_row(set(FrameSet::edges), H5T_NATIVE_DOUBLE, frame, s.edge_matrix.data());
    if (streamed && s.write_tethers) {
      write_tether_slabs(s, set(FrameSet::tethers), s.write_tether_rows ? set(FrameSet::tether_rows) : -1, frame,
                         tethers);
    } else {
      if (s.write_tethers) write_pairs(s, set(FrameSet::tethers), frame, pairs, true);
      if (s.write_tether_rows) write_pairs(s, set(FrameSet::tether_rows), frame, pairs, false);
    }
    const auto count = static_cast<std::int64_t>(pairs.where.total);
    s.write_scalar_row(set(FrameSet::tether_counts), H5T_NATIVE_INT64, frame, &count);
    // The time last: until it is written the frame's time is NaN (the
    // dataset's fill), which marks a frame cut short by a kill.
    s.write_scalar_row(set(FrameSet::time), H5T_NATIVE_DOUBLE, frame, &time);
    // The frame is on disk before the run goes on (a killed run keeps it).
    checked(H5Fflush(s.file, H5F_SCOPE_GLOBAL), "flushing the trajectory");
  } catch (const Hdf5Error& e) {
    throw s.failure(what, e);
  }
  s.tether_rows = tether_rows;
  s.frame_times.push_back(time);
  s.tether_counts.push_back(pairs.where.total);
}

std::int64_t TrajectoryFile::write_observables(double time, const FrameObservables& o) {
  State& s = *state_;
  const hid_t file = s.file;
  const hsize_t row = s.observable_samples;
  const std::string what = "the observables at t = " + format_number(time);
  std::int64_t step = 0;
  try {
    // Open every dataset and secure the room for the chunks this sample
    // starts (one in 256 or 1024 samples) before writing anything.
    std::vector<H5Id> sets;
    for (const std::string& name : sample_datasets(s.observables)) sets.push_back(open_dataset(file, name));
    ChunkGrowth growth;
    for (const H5Id& set : sets) {
      std::vector<hsize_t> shape = dataset_shape(set);
      if (!shape.empty()) shape[0] = row + 1;
      growth += chunk_growth(set, shape);
    }
    s.make_room(growth, what);
    for (const H5Id& set : sets) extend_frames(set, row + 1);
    step = s.step_at(time);
    s.write_scalar_row(sets[0], H5T_NATIVE_INT64, row, &step);
    s.write_scalar_row(sets[1], H5T_NATIVE_DOUBLE, row, &time);
    for (std::size_t k = 0; k < s.observables.size(); ++k) {
      const ObservableColumn& column = s.observables[k];
      const hid_t set = sets[k + 2];
      if (column.field->type() == ObservableType::real) {
        s.write_scalar_row(set, H5T_NATIVE_DOUBLE, row, observable_reals(o, column).data());
      } else {
        s.write_scalar_row(set, H5T_NATIVE_INT64, row, observable_counts(o, column).data());
      }
    }
  } catch (const Hdf5Error& e) {
    throw s.failure(what, e);
  }
  ++s.observable_samples;
  return step;
}

std::uint64_t TrajectoryFile::frames() const { return state_->frame_times.size(); }

const std::string& TrajectoryFile::path() const { return state_->path; }

void TrajectoryFile::flush() {
  State& s = *state_;
  // Observable samples are not flushed as they are written: a checkpoint
  // must not reach the disk before the samples that precede it (a restart
  // keeps the samples up to the checkpoint and does not write them again).
  try {
    checked(H5Fflush(s.file, H5F_SCOPE_GLOBAL), "flushing the trajectory");
  } catch (const Hdf5Error& e) {
    throw s.failure("flushing the trajectory", e);
  }
  if (s.root()) {
    const std::filesystem::path h5(s.path);
    std::filesystem::path xdmf = h5;
    xdmf.replace_extension(".xdmf");
    write_xdmf(xdmf.string(), h5.filename().string(), s.slots.size(), s.dimensions, s.frame_times,
               s.tether_counts, s.tether_rows, s.write_velocity, s.single_precision ? 4 : 8,
               !s.write_tethers           ? ""
               : s.write_tether_rows ? frame_dataset(FrameSet::tether_rows).path()
                                     : frame_dataset(FrameSet::tethers).path());
  }
}

void TrajectoryFile::close() {
  if (!state_ || !state_->file.valid()) return;
  State& s = *state_;
  // The file is closed whatever happens to the sidecar.
  std::exception_ptr sidecar;
  try {
    flush();
  } catch (...) {
    sidecar = std::current_exception();
  }
  const herr_t closed = H5Fclose(s.file.release());
  if (closed >= 0 && s.root()) release_room(s.path);
  if (sidecar) std::rethrow_exception(sidecar);
  if (closed < 0) throw OutputError(s.path + ": cannot close the trajectory (disk full?)");
}

}  // namespace tethersim
