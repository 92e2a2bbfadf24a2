// Small envs that exercise the pool; not registered as ids.
//
// CounterEnv is also the annotated reference env a contributor copies to
// start a family (docs/adding_a_family.md): every part an env has, in the
// order the pool uses them.
#ifndef ENVPOOL_CORE_TESTING_TEST_ENVS_H_
#define ENVPOOL_CORE_TESTING_TEST_ENVS_H_

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "envpool/core/env.h"

namespace envpool::testing {

// Counts steps; the episode ends after `episode_length` steps.  The
// observation is (seed-derived value, step count); the reward is the action.
class CounterEnv : public Env {
 public:
  // Typed handles of the arrays the env writes and reads, filled by Declare.
  struct Fields {
    Field<int64_t> obs;
    Field<int32_t> info_steps;
    Field<int64_t> action;
  };
  // The options and their defaults; the default fixes each option's type
  // (Python sees them in make_spec(id).config; another type is a TypeError).
  static Options DefaultOptions() {
    // fail_at_step > 0: Step throws at that step of each episode (for the
    // fault tests: an env's exception reaches Python on the next recv).
    return Options{{"episode_length", int64_t{5}},
                   {"sleep_us", int64_t{0}},
                   {"fail_at_step", int64_t{0}},
                   {"fail_render_at_step", int64_t{-1}}};
  }
  // Called once per pool (and by make_spec): validates the options and
  // declares the arrays. "obs" (or "obs:<key>" for a dict observation) is the
  // observation, "info:<key>" lands in info[key]; an action with several
  // arrays declares several names. A bad value is std::invalid_argument,
  // which Python raises as a ValueError naming the option.
  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    if (options.Get<int64_t>("episode_length") < 1) {
      throw std::invalid_argument(
          "option 'episode_length' must be at least 1, got " +
          std::to_string(options.Get<int64_t>("episode_length")));
    }
    fields->obs = spec->state.Add<int64_t>("obs", {2});
    fields->info_steps = spec->state.Add<int32_t>("info:steps", {});
    fields->action = spec->action.AddDiscrete<int64_t>("action", 10);
    // Renders a frame that tells its env and step (any size), and text.
    DeclareRendering(options, spec, {"rgb_array", "ansi"}, 4, 3, 10,
                     /*any_size=*/true, /*num_cameras=*/2);
  }
  // Every env of a pool gets the handles declared once.
  CounterEnv(const Options& options, const Fields& fields)
      : episode_length_(options.Get<int>("episode_length")),
        sleep_us_(options.Get<int>("sleep_us")),
        fail_at_step_(options.Get<int>("fail_at_step")),
        fail_render_at_step_(options.Get<int>("fail_render_at_step")) {
    fields_ = fields;
  }
  // Pixel (y, x) is (first, step count, x + y + camera) modulo 256.
  void Render(int width, int height, int camera_id, uint8_t* rgb) override {
    if (steps_ == fail_render_at_step_) {
      throw std::runtime_error("render failed at step " +
                               std::to_string(steps_));
    }
    for (int y = 0; y < height; ++y) {
      for (int x = 0; x < width; ++x) {
        uint8_t* p = rgb + (static_cast<std::size_t>(y) * width + x) * 3;
        p[0] = static_cast<uint8_t>(first_ % 256);
        p[1] = static_cast<uint8_t>(steps_ % 256);
        p[2] = static_cast<uint8_t>((x + y + camera_id + 256) % 256);
      }
    }
  }
  std::string RenderText() override {
    return "first " + std::to_string(first_) + " step " +
           std::to_string(steps_) + "\n";
  }
  // Starts an episode; draws come from rng_, which the pool seeds. The pool
  // writes reward 0 for a reset and counts steps and truncation itself.
  void Reset() override {
    first_ = static_cast<int64_t>(rng_() % 1000);
    steps_ = 0;
    failed_ = false;
    reward_ = 0;
    terminated_ = false;
  }
  // Advances one step: reads the action through its handle, sets reward_ and
  // terminated_.
  void Step(const ActionView& action) override {
    if (sleep_us_ > 0) {
      std::this_thread::sleep_for(std::chrono::microseconds(sleep_us_));
    }
    ++steps_;
    failed_ = steps_ == fail_at_step_;
    if (failed_) {
      throw std::runtime_error("step " + std::to_string(steps_) +
                               " failed, as fail_at_step asks");
    }
    reward_ = static_cast<double>(action.Scalar(fields_.action));
    terminated_ = steps_ >= episode_length_;
  }
  // How many times an env was written right after its step threw: never, an
  // env whose step failed may be half-way through it.
  static std::atomic<int>& WritesAfterAFailedStep() {
    static std::atomic<int> count{0};
    return count;
  }
  // Writes the observation and info straight into the output batch (Python
  // receives that memory without a copy), after every reset and step.
  void Write(const Output& out) override {
    if (failed_) {
      WritesAfterAFailedStep().fetch_add(1);
    }
    int64_t* obs = out.Get(fields_.obs);
    obs[0] = first_;
    obs[1] = steps_;
    *out.Get(fields_.info_steps) = steps_;
  }

 private:
  Fields fields_;
  int episode_length_;
  int sleep_us_;
  int fail_at_step_;
  int fail_render_at_step_;
  int64_t first_ = 0;
  int32_t steps_ = 0;
  bool failed_ = false;
};

// A multi-player env: each episode has 1..players players (NumPlayers); an
// array declared per_player has one row per player, each player's
// observation is its player index and its reward (WriteReward) the action
// times the player index. info["players"]["env_id"] names each row's env.
class TeamEnv : public Env {
 public:
  struct Fields {
    Field<int32_t> obs;
    Field<int64_t> action;
  };
  static Options DefaultOptions() { return Options{{"players", int64_t{3}}}; }
  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    spec->max_num_players = options.Get<int>("players");
    ArraySpec obs;
    obs.name = "obs";
    obs.dtype = DType::kInt32;
    obs.per_player = true;
    fields->obs = spec->state.Add<int32_t>(obs);
    fields->action = spec->action.AddDiscrete<int64_t>("action", 4);
  }
  TeamEnv(const Options& options, const Fields& fields)
      : max_players_(options.Get<int>("players")) {
    fields_ = fields;
  }
  void Reset() override {
    players_ = 1 + static_cast<int>(rng_() % max_players_);
    terminated_ = false;
    last_action_ = 0;
  }
  void Step(const ActionView& action) override {
    last_action_ = action.Scalar(fields_.action);
    terminated_ = last_action_ == 3;
  }
  int NumPlayers() const override { return players_; }
  void Write(const Output& out) override {
    for (int p = 0; p < players_; ++p) {
      *out.Get(fields_.obs, p) = p;
    }
  }
  void WriteReward(const Output& out) const override {
    for (int p = 0; p < players_; ++p) {
      out.SetReward(static_cast<double>(last_action_ * p), p);
    }
  }

 private:
  Fields fields_;
  int max_players_;
  int players_ = 1;
  int64_t last_action_ = 0;
};

// A game of `players` (2 by default) players who act at once: the action is
// declared per player (one row per player of every env, Discrete(3), or
// with `continuous` a Box(-1, 1, (2,)) of float64), so the player count is
// fixed. Player p's observation is (p, steps, its last action's sum), its
// reward its last action's sum + 10 p; the episode ends after
// `episode_length` steps.
class DuelEnv : public Env {
 public:
  struct Fields {
    Field<float> obs;
    Field<int32_t> info_steps;
    Field<int64_t> action;
    Field<double> push;  // `continuous` only
  };
  static Options DefaultOptions() {
    // drop_player_at_step > 0: from that step of an episode on, one player
    // fewer (what an env with per-player actions must not do).
    return Options{{"players", int64_t{2}},
                   {"episode_length", int64_t{4}},
                   {"continuous", false},
                   {"drop_player_at_step", int64_t{0}}};
  }
  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    if (options.Get<int64_t>("players") < 1) {
      throw std::invalid_argument("option 'players' must be at least 1");
    }
    spec->max_num_players = options.Get<int>("players");
    ArraySpec obs;
    obs.name = "obs";
    obs.dtype = DType::kFloat32;
    obs.shape = {3};
    obs.low = {-1000.0};
    obs.high = {1000.0};
    obs.per_player = true;
    fields->obs = spec->state.Add<float>(obs);
    fields->info_steps = spec->state.Add<int32_t>("info:steps", {});
    if (options.Get<bool>("continuous")) {
      ArraySpec push;
      push.name = "action";
      push.dtype = DType::kFloat64;
      push.shape = {2};
      push.low = {-1.0};
      push.high = {1.0};
      push.per_player = true;
      fields->push = spec->action.Add<double>(push);
    } else {
      fields->action =
          spec->action.AddDiscrete<int64_t>("action", 3, /*per_player=*/true);
    }
  }
  DuelEnv(const Options& options, const Fields& fields)
      : players_(options.Get<int>("players")),
        episode_length_(options.Get<int>("episode_length")),
        continuous_(options.Get<bool>("continuous")),
        drop_player_at_step_(options.Get<int>("drop_player_at_step")),
        last_(players_, 0.0) {
    fields_ = fields;
  }
  void Reset() override {
    steps_ = 0;
    terminated_ = false;
    std::fill(last_.begin(), last_.end(), 0.0);
  }
  void Step(const ActionView& action) override {
    ++steps_;
    for (int p = 0; p < players_; ++p) {
      if (continuous_) {
        const double* push = action.Get(fields_.push, p);
        last_[p] = push[0] + push[1];
      } else {
        last_[p] = static_cast<double>(action.Scalar(fields_.action, p));
      }
    }
    terminated_ = steps_ >= episode_length_;
  }
  int NumPlayers() const override {
    const bool dropped =
        drop_player_at_step_ > 0 && steps_ >= drop_player_at_step_;
    return dropped ? players_ - 1 : players_;
  }
  void Write(const Output& out) override {
    for (int p = 0; p < NumPlayers(); ++p) {
      float* obs = out.Get(fields_.obs, p);
      obs[0] = static_cast<float>(p);
      obs[1] = static_cast<float>(steps_);
      obs[2] = static_cast<float>(last_[p]);
    }
    *out.Get(fields_.info_steps) = steps_;
  }
  void WriteReward(const Output& out) const override {
    for (int p = 0; p < NumPlayers(); ++p) {
      out.SetReward(last_[p] + 10.0 * p, p);
    }
  }

 private:
  Fields fields_;
  int players_;
  int episode_length_;
  bool continuous_;
  int drop_player_at_step_;
  std::vector<double> last_;
  int32_t steps_ = 0;
};

// A turn-based game of two players, as a board game is: one action per env
// (Discrete(3)), played by info["current_player"]. The mover adds action + 1
// to a counter that starts at a seed-drawn 0..2; who brings it to 10 or more
// wins (+1, the other -1). Player p's observation is (counter, 1 when it is
// p's turn). With `legal_mask`, action counter % 3 is illegal:
// info["legal_action_mask"] says so and Step refuses it (an env error), as a
// board game refuses an occupied square.
class TurnEnv : public Env {
 public:
  struct Fields {
    Field<int32_t> obs;
    Field<int32_t> current_player;
    Field<int64_t> action;
    Field<bool> legal_action_mask;  // `legal_mask` only
  };
  static Options DefaultOptions() { return Options{{"legal_mask", false}}; }
  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    spec->max_num_players = 2;
    ArraySpec obs;
    obs.name = "obs";
    obs.dtype = DType::kInt32;
    obs.shape = {2};
    obs.low = {0.0};
    obs.high = {20.0};
    obs.per_player = true;
    fields->obs = spec->state.Add<int32_t>(obs);
    fields->current_player =
        spec->state.Add<int32_t>("info:current_player", {});
    fields->action = spec->action.AddDiscrete<int64_t>("action", 3);
    if (options.Get<bool>("legal_mask")) {
      fields->legal_action_mask =
          spec->state.Add<bool>("info:legal_action_mask", {3});
    }
  }
  TurnEnv(const Options& options, const Fields& fields)
      : legal_mask_(options.Get<bool>("legal_mask")) {
    fields_ = fields;
  }
  void Reset() override {
    counter_ = static_cast<int32_t>(rng_() % 3);
    current_ = 0;
    winner_ = -1;
    terminated_ = false;
  }
  void Step(const ActionView& action) override {
    const int64_t move = action.Scalar(fields_.action);
    if (legal_mask_ && move == counter_ % 3) {
      throw std::invalid_argument("illegal move " + std::to_string(move) +
                                  " at counter " + std::to_string(counter_));
    }
    counter_ += static_cast<int32_t>(move) + 1;
    if (counter_ >= 10) {
      winner_ = current_;
      terminated_ = true;
    } else {
      current_ = 1 - current_;
    }
  }
  int NumPlayers() const override { return 2; }
  void Write(const Output& out) override {
    for (int p = 0; p < 2; ++p) {
      int32_t* obs = out.Get(fields_.obs, p);
      obs[0] = counter_;
      obs[1] = p == current_ && winner_ < 0 ? 1 : 0;
    }
    *out.Get(fields_.current_player) = current_;
    if (legal_mask_) {
      bool* legal = out.Get(fields_.legal_action_mask);
      for (int a = 0; a < 3; ++a) {
        legal[a] = a != counter_ % 3;
      }
    }
  }
  void WriteReward(const Output& out) const override {
    for (int p = 0; p < 2; ++p) {
      out.SetReward(winner_ < 0 ? 0.0 : (p == winner_ ? 1.0 : -1.0), p);
    }
  }

 private:
  Fields fields_;
  bool legal_mask_;
  int32_t counter_ = 0;
  int32_t current_ = 0;
  int winner_ = -1;
};

}  // namespace envpool::testing

#endif  // ENVPOOL_CORE_TESTING_TEST_ENVS_H_
