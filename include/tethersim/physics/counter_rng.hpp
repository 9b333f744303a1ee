#pragma once
// Counter-based random numbers (Random123 Philox4x64-10).
//
// Every random number of a run is a pure function of
// (run seed, particle id, stream, index): no generator state is shared
// between particles or processes, so the same impulses happen whichever rank
// owns a particle, and a restart needs only the per-particle indices.

#include <cstdint>

#include <Random123/philox.h>

namespace tethersim::physics {

// Independent families of draws. Values are part of the file format of
// checkpoints (they decide the bits of every trajectory): never renumber.
enum class RandomStream : std::uint64_t {
  random_impulse = 1,    // index = impulse number of the particle
  action_potential = 2,  // index = action-potential number; draw = reaction
  initial_state = 3,     // generators: positions and velocities
  event_order = 4,       // tie keys of simultaneous events
};

class CounterRng {
 public:
  CounterRng(std::uint64_t seed, std::uint64_t particle_id, RandomStream stream,
             std::uint64_t index);

  std::uint64_t next_u64();
  // Uniform on [0, 1), 53 random bits.
  double uniform();
  // Uniform on (0, 1]: safe for log().
  double uniform_positive() { return 1.0 - uniform(); }
  // Standard normal (Box-Muller; the second value of each pair is kept).
  double normal();

 private:
  using Philox = r123::Philox4x64;
  Philox::key_type key_;
  Philox::ctr_type counter_;
  Philox::ctr_type block_{};
  int used_ = 4;  // outputs of block_ already consumed
  bool has_spare_normal_ = false;
  double spare_normal_ = 0.0;
};

// Exponential with the given mean (kInfinity mean -> kInfinity).
double draw_exponential(CounterRng& rng, double mean);

// Gamma(shape k, scale theta), mean k theta (Marsaglia-Tsang; k < 1 by the
// boost U^(1/k) identity).
double draw_gamma(CounterRng& rng, double shape, double scale);

// A 64-bit mix of up to six words: unbiased, well-spread tie keys for
// simultaneous events (splitmix64 finaliser chained over the words).
// Inline: the checkpoint's content hash and the tie keys call it per
// particle, and a call per group serialises chains that could overlap.
// mix_hash's start and its step per word (a SplitMix64 finalisation), for
// code that hashes many values side by side (their chains interleave).
inline constexpr std::uint64_t kMixHashStart = 0x9e3779b97f4a7c15ULL;
inline std::uint64_t mix_hash_step(std::uint64_t h, std::uint64_t word) {
  std::uint64_t z = h + 0x9e3779b97f4a7c15ULL + word;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

inline std::uint64_t mix_hash(std::uint64_t a, std::uint64_t b, std::uint64_t c = 0, std::uint64_t d = 0,
                              std::uint64_t e = 0, std::uint64_t f = 0) {
  std::uint64_t h = kMixHashStart;
  for (std::uint64_t word : {a, b, c, d, e, f}) h = mix_hash_step(h, word);
  return h;
}

}  // namespace tethersim::physics
