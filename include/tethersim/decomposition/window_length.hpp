#pragma once
// The length of the next window to try (docs/distribution.md, "Window
// lengths"): one controller, parameterised, for both window protocols. A
// window that stood at the proposed length makes the next one longer; one
// cut short makes it shorter, aimed just before where it went wrong. Pure
// bookkeeping on lengths: no MPI, no engine.

namespace tethersim::decomposition {

struct WindowLengthRules {
  // Growth after a window of the proposed length stood whole, once some
  // window was cut short; before that, windows grow by `first_growth`
  // (the first proposal is usually far shorter than what the protocol
  // allows).
  double growth = 1.0;
  double first_growth = 1.0;
  // After a window cut short: the next is `shrink` times it, and at most
  // `aim_before_violation` times the span that stood (violations come from
  // fronts that cross the halo at about the same pace from one window to
  // the next).
  double shrink = 1.0;
  double aim_before_violation = 1.0;
};

// Certified windows grow by a quarter after one certified at once and take
// the length that certified after halvings (set()).
inline constexpr WindowLengthRules kCertifiedWindowLengths{1.25, 1.25, 1.0, 1.0};
// Speculative windows: in equilibrium about one attempt in five is cut
// short (p ln shrink + (1 - p) ln growth = 0); they double until the first
// one is.
inline constexpr WindowLengthRules kSpeculativeWindowLengths{1.1, 2.0, 0.7, 0.9};

class WindowLength {
 public:
  explicit WindowLength(const WindowLengthRules& rules) : rules_(rules) {}

  // The next length to try (0: none proposed yet).
  double proposal() const { return proposal_; }
  // The usual window: a slowly moving geometric mean of the windows that
  // stood at their proposed length (0: none yet).
  double typical() const { return typical_; }
  // Whether some window was cut short.
  bool found_limit() const { return found_limit_; }

  // The next window is `length` (a first proposal, or the length that
  // certified after halvings).
  void set(double length) { proposal_ = length; }
  // The next window is at least `length` (after a fallback: back to the
  // usual window).
  void at_least(double length);
  // A window of `length` stood whole: the next grows when it was of the
  // proposed length (not one cut short by a scheduled stop). True when it
  // grew.
  bool stood(double length);
  // A window of `length` was cut short; `stood_span` of it (from its
  // start) stood (0: none).
  void cut(double length, double stood_span);

 private:
  WindowLengthRules rules_;
  double proposal_ = 0.0;
  double typical_ = 0.0;
  bool found_limit_ = false;
};

}  // namespace tethersim::decomposition
