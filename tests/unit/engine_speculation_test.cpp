// Speculative windows: an engine that runs a window and undoes it is back
// at the window's start bit for bit, and continues exactly as an engine
// that never ran the window (or one rebuilt from the start's snapshot).
#include <gtest/gtest.h>

#include <cstring>

#include "engine_test_support.hpp"
#include "same_snapshot.hpp"

namespace tethersim::testing {
namespace {

// Runs [t, t + delta) speculatively and undoes it: the state must be the
// start's, bit for bit, and the engine must then run [t, end) as one that
// never speculated.
void expect_undo_exact(const std::string& model, const std::vector<std::string>& overrides, double t,
                       double delta, double end) {
  Simulation sim(model, overrides);
  sim->run_until(t);
  const engine::EngineSnapshot start = sim->snapshot(t);
  sim.view().track_changes(true);
  const engine::SectorMask every_sector = engine::SectorMask::all(sim->grid().shape());
  sim.view().begin_speculation(every_sector);
  sim->run_until(t + delta);
  EXPECT_GT(sim->statistics().total_events(), start.statistics.total_events()) << "the window ran no event";
  EXPECT_FALSE(sim.view().speculation_log().entries.empty());
  // The change list says, from the moment of the change, which particles
  // can move (a distributed commit reads no state for it; the presynaptic
  // terminal's window changes its membrane, a hub, which cannot).
  for (const engine::PartialView::Change& c : sim.view().changes()) {
    EXPECT_EQ(c.mobile, sim->particles().state[c.particle].mobile) << "particle " << sim->particles().id[c.particle];
    if (sim->is_hub(c.particle)) {
      EXPECT_FALSE(c.mobile) << "hub " << sim->particles().id[c.particle];
    }
  }
  sim.view().undo_speculation();
  EXPECT_FALSE(sim.view().speculating());
  EXPECT_TRUE(sim.view().changes().empty());
  expect_same_snapshot(start, sim->snapshot(t));
  sim->check_invariants();
  Simulation straight(model, overrides);
  straight->run_until(end);
  engine::Engine rebuilt(sim.model, start);
  rebuilt.run_until(end);
  sim->run_until(end);
  EXPECT_EQ(sim->state_hash(), straight->state_hash());
  EXPECT_EQ(sim->statistics().total_events(), straight->statistics().total_events());
  EXPECT_EQ(rebuilt.state_hash(), straight->state_hash());
  sim->check_invariants();
}

TEST(SpeculativeWindow, UndoRestoresAPresynapticTerminalAcrossAnActionPotential) {
  // The window [19.5, 21) holds the action potential's start (reaction
  // times of every vesicle change) and restitutions of loaded groups.
  expect_undo_exact(example("presynaptic.toml"),
                    {"initial.parameters.vesicles=20", "initial.parameters.synapsin_dimers=60",
                     "initial.parameters.docking_sites=10",
                     "action_potential.windows=[{ start = 20.0, end = 35.0 }]"},
                    19.5, 1.5, 30.0);
}

TEST(SpeculativeWindow, UndoRestoresASheetWithGravityTicksAndLoadedGroups) {
  expect_undo_exact(example("membrane-sheet.toml"), {"initial.parameters.size=8"}, 2.5, 1.0, 6.0);
}

TEST(SpeculativeWindow, UndoRestoresRandomImpulsesTethersAndEscapes) {
  expect_undo_exact(kBusyGas, {}, 1.0, 1.5, 4.0);
}

// Windows undone and run again, over and over, give the straight run.
TEST(SpeculativeWindow, EveryWindowUndoneOnceAndRunAgainGivesTheStraightRun) {
  Simulation sim(kBusyGas), straight(kBusyGas);
  sim.view().track_changes(true);
  const engine::SectorMask every_sector = engine::SectorMask::all(sim->grid().shape());
  for (double t = 0.0; t < 5.0; t += 0.25) {
    for (int attempt = 0; attempt < 2; ++attempt) {
      sim.view().begin_speculation(every_sector);
      sim->run_until(t + 0.25);
      if (attempt == 0) {
        sim.view().undo_speculation();
      } else {
        sim.view().keep_speculation();
        sim.view().clear_changes();
      }
    }
  }
  straight->run_until(5.0);
  EXPECT_EQ(sim->state_hash(), straight->state_hash());
  EXPECT_EQ(sim->statistics().total_events(), straight->statistics().total_events());
}

// After an undo, a particle's state may be overwritten with a record whose
// counter equals one the window reached but whose trajectory differs (a
// process that ran it differently sends its record). Calendar entries made
// in the window name that counter: none may survive as valid.
TEST(SpeculativeWindow, EntriesMadeInAnUndoneWindowDoNotSurviveAnOverwrite) {
  Simulation sim(kBusyGas);
  sim->run_until(1.0);
  sim.view().track_changes(true);
  const engine::SectorMask every_sector = engine::SectorMask::all(sim->grid().shape());
  sim.view().begin_speculation(every_sector);
  sim->run_until(1.6);
  // The window's end records, nudged: same counters, other velocities.
  std::vector<engine::ParticleRecord> nudged;
  for (const engine::PartialView::Change& c : sim.view().changes()) {
    engine::ParticleRecord r = sim->record(c.particle);
    if (!r.particle.alive || r.particle.v.isZero() || !r.loaded_edges.empty()) continue;
    r.particle.v *= 1.0 + 1e-3;
    nudged.push_back(r);
  }
  ASSERT_GT(nudged.size(), 50u);
  sim.view().undo_speculation();
  for (const engine::ParticleRecord& r : nudged) sim.view().upsert(r);
  // No entry may still look valid with its partner's old trajectory.
  sim->check_invariants();
  // An engine built from this state predicts everything afresh.
  const engine::EngineSnapshot now = sim->snapshot(1.6);
  engine::Engine fresh(sim.model, now);
  sim->run_until(3.0);
  fresh.run_until(3.0);
  EXPECT_EQ(sim->state_hash(), fresh.state_hash());
  EXPECT_EQ(sim->statistics().total_events(), fresh.statistics().total_events());
}

// The same without a window: a record that keeps a particle's counter but
// not its trajectory (what another process sends when it ran the particle
// differently) must make every entry naming the particle stale, entries
// made before the overwrite included. Counters alone cannot tell.
TEST(SpeculativeWindow, AnOverwriteWithTheSameCounterMakesEntriesNamingTheParticleStale) {
  Simulation sim(kBusyGas);
  sim->run_until(1.0);
  std::vector<engine::ParticleRecord> nudged;
  for (engine::Index i = 0; i < sim->particles().size(); i += 3) {
    engine::ParticleRecord r = sim->record(i);
    // (Members of a loaded group share one velocity: leave groups alone.)
    if (!r.particle.alive || r.particle.v.isZero() || !r.loaded_edges.empty()) continue;
    r.particle.v *= 1.0 + 1e-3;
    nudged.push_back(r);
  }
  ASSERT_GT(nudged.size(), 50u);
  for (const engine::ParticleRecord& r : nudged) sim.view().upsert(r);
  sim->check_invariants();
  engine::Engine fresh(sim.model, sim->snapshot(1.0));
  sim->run_until(3.0);
  fresh.run_until(3.0);
  EXPECT_EQ(sim->state_hash(), fresh.state_hash());
  EXPECT_EQ(sim->statistics().total_events(), fresh.statistics().total_events());
}

// Undoing a window from a time v on keeps the events before v: the engine
// must be, bit for bit, one that ran [t, v) as its window (particles,
// statistics, changes, history), and must go on as the straight run.
void expect_partial_undo_exact(const std::string& model, const std::vector<std::string>& overrides, double t,
                               double delta, const std::vector<double>& cuts, double end) {
  Simulation sim(model, overrides);
  sim->run_until(t);
  sim.view().track_changes(true);
  const engine::SectorMask every_sector = engine::SectorMask::all(sim->grid().shape());
  sim.view().begin_speculation(every_sector);
  sim->run_until(t + delta);
  // Cut at each time in turn (later first), as windows cut short twice
  // would be if violations kept arriving.
  for (double v : cuts) {
    const std::uint64_t ran = sim->statistics().total_events();
    ASSERT_TRUE(sim.view().undo_speculation_from(v)) << "cut at " << v;
    EXPECT_LT(sim->statistics().total_events(), ran) << "nothing ran after " << v;
    EXPECT_TRUE(sim.view().speculating());
    Simulation reference(model, overrides);
    reference->run_until(t);
    reference.view().track_changes(true);
    reference.view().begin_speculation(every_sector);
    reference->run_until(v);
    expect_same_snapshot(reference->snapshot(v), sim->snapshot(v));
    EXPECT_EQ(sim->time(), reference->time());
    EXPECT_EQ(sim.view().uncounted_events(), reference.view().uncounted_events());
    // The changes since the window's start, with the sectors they started in.
    const auto &a = sim.view().changes(), &b = reference.view().changes();
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t k = 0; k < a.size(); ++k) {
      EXPECT_EQ(sim->particles().id[a[k].particle], reference->particles().id[b[k].particle]);
      EXPECT_EQ(a[k].sector_before, b[k].sector_before);
    }
    const auto &x = sim.view().speculation_log().entries, &y = reference.view().speculation_log().entries;
    ASSERT_EQ(x.size(), y.size());
    for (std::size_t k = 0; k < x.size(); ++k) EXPECT_EQ(x[k].hash, y[k].hash);
    for (engine::Index i = 0; i < sim->particles().size(); ++i) {
      EXPECT_EQ(sim.view().record_at_start(i).particle.counter, reference.view().record_at_start(i).particle.counter);
    }
    sim->check_invariants();
  }
  sim.view().keep_speculation();
  sim.view().clear_changes();
  Simulation straight(model, overrides);
  straight->run_until(end);
  sim->run_until(end);
  EXPECT_EQ(sim->state_hash(), straight->state_hash());
  EXPECT_EQ(sim->statistics().total_events(), straight->statistics().total_events());
  EXPECT_EQ(sim->statistics().loadings, straight->statistics().loadings);
  sim->check_invariants();
}

TEST(SpeculativeWindow, UndoFromATimeKeepsRandomImpulsesTethersAndEscapesBefore) {
  expect_partial_undo_exact(kBusyGas, {}, 1.0, 1.5, {2.2, 1.7, 1.0000001}, 4.0);
}

TEST(SpeculativeWindow, UndoFromATimeKeepsLoadedGroupsRestitutingBefore) {
  // Restitutions are global events whose effects are all in records.
  expect_partial_undo_exact(example("presynaptic.toml"),
                            {"initial.parameters.vesicles=20", "initial.parameters.synapsin_dimers=60",
                             "initial.parameters.docking_sites=10"},
                            19.5, 1.5, {20.7, 20.1}, 30.0);
}

// A periodic impulse after the cut changes more than records: the engine
// refuses and the window can still be undone whole.
TEST(SpeculativeWindow, UndoFromATimeRefusesAfterAPeriodicImpulse) {
  Simulation sim(example("membrane-sheet.toml"), {"initial.parameters.size=8"});
  sim->run_until(2.5);
  const engine::EngineSnapshot start = sim->snapshot(2.5);
  sim.view().track_changes(true);
  const engine::SectorMask every_sector = engine::SectorMask::all(sim->grid().shape());
  sim.view().begin_speculation(every_sector);
  sim->run_until(3.5);
  const engine::EngineSnapshot end = sim->snapshot(3.5);
  EXPECT_FALSE(sim.view().undo_speculation_from(2.6));
  expect_same_snapshot(end, sim->snapshot(3.5));
  // From a time after the last event, nothing is undone.
  EXPECT_TRUE(sim.view().undo_speculation_from(3.5));
  expect_same_snapshot(end, sim->snapshot(3.5));
  sim.view().undo_speculation();
  expect_same_snapshot(start, sim->snapshot(2.5));
}

// Gravity kicks every particle of the sheet at each tick: a journal would
// grow by a record per particle per tick. Once it outgrows the undo log
// and the floor it is dropped: less memory, and the window can then only
// be undone whole (exactly), or kept (going on as the straight run).
TEST(SpeculativeWindow, AWindowThatDropsItsJournalIsUndoneOnlyWhole) {
  const std::vector<std::string> sheet{"initial.parameters.size=8"};
  Simulation start(example("membrane-sheet.toml"), sheet);
  // The engine keeps a pointer to the mask for the window's life.
  const engine::SectorMask every_sector = engine::SectorMask::all(start->grid().shape());
  auto window = [&](std::size_t floor, std::size_t* bytes) {
    auto sim = std::make_unique<Simulation>(example("membrane-sheet.toml"), sheet);
    (*sim)->run_until(2.5);
    sim->view().track_changes(true);
    sim->view().set_journal_floor(floor);
    sim->view().begin_speculation(every_sector);
    (*sim)->run_until(3.5);
    *bytes = sim->view().speculation_bytes();
    return sim;
  };
  std::size_t kept_bytes = 0, dropped_bytes = 0;
  auto kept = window(engine::PartialView::kDefaultJournalFloor, &kept_bytes);
  EXPECT_FALSE(kept->view().speculation_journal_dropped());
  auto sim = window(0, &dropped_bytes);
  EXPECT_TRUE(sim->view().speculation_journal_dropped());
  EXPECT_LT(dropped_bytes, kept_bytes / 2);
  // The same events either way.
  EXPECT_EQ((*sim)->state_hash(), (*kept)->state_hash());
  const engine::EngineSnapshot end = (*sim)->snapshot(3.5);
  EXPECT_FALSE(sim->view().undo_speculation_from(3.4));
  expect_same_snapshot(end, (*sim)->snapshot(3.5));
  sim->view().undo_speculation();
  start->run_until(2.5);
  expect_same_snapshot(start->snapshot(2.5), (*sim)->snapshot(2.5));
  (*sim)->check_invariants();
  // Run again without a window, and on to the straight run's end.
  sim->view().clear_changes();
  (*sim)->run_until(6.0);
  start->run_until(6.0);
  EXPECT_EQ((*sim)->state_hash(), start->state_hash());
  EXPECT_EQ((*sim)->statistics().total_events(), start->statistics().total_events());
}

// The history: what a participant's entries say, and where logging starts.
TEST(SpeculativeWindow, TheHistoryLogsEveryParticipantOfEveryEventInLoggedSectors) {
  Simulation sim(kBusyGas);
  sim->run_until(1.0);
  sim.view().track_changes(true);
  engine::SectorMask none = engine::SectorMask::none(sim->grid().shape());
  sim.view().begin_speculation(none);
  sim->run_until(1.5);
  // Every particle is owned in a serial engine: nothing is logged.
  EXPECT_TRUE(sim.view().speculation_log().entries.empty());
  sim.view().keep_speculation();
  sim.view().clear_changes();
  const engine::SectorMask every_sector = engine::SectorMask::all(sim->grid().shape());
  sim.view().begin_speculation(every_sector);
  const std::uint64_t before = sim->statistics().total_events();
  sim->run_until(2.0);
  const auto& entries = sim.view().speculation_log().entries;
  // At least one entry per event (pairs give two); in time order.
  EXPECT_GE(entries.size(), sim->statistics().total_events() - before);
  for (std::size_t k = 1; k < entries.size(); ++k) EXPECT_LE(entries[k - 1].time, entries[k].time);
  for (const engine::HistoryEntry& e : entries) {
    EXPECT_GE(e.time, 1.5);
    EXPECT_LT(e.time, 2.0);
  }
  // The last entry of a particle hashes its current record.
  const engine::HistoryEntry& last = entries.back();
  EXPECT_EQ(last.sector, sim->sector(last.particle));
  sim.view().keep_speculation();
}

// A distributed run applies a tick between windows, outside any undo log:
// asked only when every event before it has run, and then the same bits
// as the straight run. Asked too early (the sheet, sagging onto its
// tethers, has events between ticks), it says no and changes nothing.
TEST(PeriodicTicks, RunBetweenWindowsTheyGiveTheStraightRun) {
  const std::vector<std::string> sheet{"initial.parameters.size=8"};
  Simulation straight(example("membrane-sheet.toml"), sheet);
  Simulation split(example("membrane-sheet.toml"), sheet);
  straight->run_until(13.0);
  split->run_until(12.01);
  const double tick = split->next_tick_time();
  ASSERT_GT(tick, 12.01);
  ASSERT_LT(tick, 13.0);
  const engine::EngineSnapshot early = split->snapshot(12.01);
  EXPECT_FALSE(split.view().ticks_come_first(tick));
  expect_same_snapshot(early, split->snapshot(12.01));
  int ticks = 0;
  while (split->next_tick_time() < 13.0) {
    const double t = split->next_tick_time();
    split->run_until(t);
    ASSERT_TRUE(split.view().ticks_come_first(t));
    EXPECT_EQ(split.view().run_ticks_at(t), 1u);
    EXPECT_GT(split->next_tick_time(), t);
    EXPECT_FALSE(split.view().ticks_come_first(t));
    ++ticks;
  }
  EXPECT_GE(ticks, 10);
  split->run_until(13.0);
  expect_same_snapshot(straight->snapshot(13.0), split->snapshot(13.0));
  EXPECT_EQ(straight->state_hash(), split->state_hash());
}

}  // namespace
}  // namespace tethersim::testing
