// NChain: the n-chain of Strens (2000) as gym 0.x's toy_text NChain-v0
// defines it: 5 states, action 0 moves forward along the chain (reward 0,
// or 10 for staying at its end), action 1 goes back to state 0 (reward 2).
// With probability 0.2 the agent slips and takes the other action.  The
// episode never terminates; the pool truncates it at max_episode_steps.
#ifndef ENVPOOL_TOY_TEXT_NCHAIN_H_
#define ENVPOOL_TOY_TEXT_NCHAIN_H_

#include <cmath>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

#include "envpool/core/env.h"

namespace envpool::toy_text {

class NChainEnv : public Env {
 public:
  struct Fields {
    Field<int32_t> obs;  // int32, as EnvPool's
    Field<int64_t> action;
  };

  static constexpr int kNumStates = 5;
  static constexpr double kSlip = 0.2;
  static constexpr double kSmallReward = 2.0;
  static constexpr double kLargeReward = 10.0;

  static Options DefaultOptions() {
    return Options{{"max_episode_steps", int64_t{1000}}};
  }

  static void Declare(const Options& /*options*/, EnvSpec* spec,
                      Fields* fields) {
    spec->snapshots = true;
    fields->obs = spec->state.AddDiscrete<int32_t>("obs", kNumStates);
    fields->action = spec->action.AddDiscrete<int64_t>("action", 2);
  }

  NChainEnv(const Options& /*options*/, const Fields& fields) {
    fields_ = fields;
  }

  void Reset() override {
    state_ = 0;
    reward_ = 0.0;
    terminated_ = false;
  }

  void Step(const ActionView& action) override {
    bool backward = action.Scalar(fields_.action) != 0;
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    if (uniform(rng_) < kSlip) {
      backward = !backward;
    }
    if (backward) {
      state_ = 0;
      reward_ = kSmallReward;
    } else if (state_ < kNumStates - 1) {
      ++state_;
      reward_ = 0.0;
    } else {
      reward_ = kLargeReward;
    }
    terminated_ = false;
  }

  void Write(const Output& out) override {
    *out.Get(fields_.obs) = static_cast<int32_t>(state_);
  }

  std::vector<double> GetState() const override {
    return {static_cast<double>(state_)};
  }
  void SetState(const std::vector<double>& state) override {
    if (state.size() != 1 || state[0] < 0 || state[0] >= kNumStates ||
        state[0] != std::floor(state[0])) {
      throw std::invalid_argument("NChain state is [chain position in 0..4]");
    }
    state_ = static_cast<int64_t>(state[0]);
  }

  void SaveState(StateWriter* writer) const override { writer->Put(state_); }
  void LoadState(StateReader* reader) override { reader->Get(&state_); }

 private:
  Fields fields_;
  int64_t state_ = 0;
};

}  // namespace envpool::toy_text

#endif  // ENVPOOL_TOY_TEXT_NCHAIN_H_
