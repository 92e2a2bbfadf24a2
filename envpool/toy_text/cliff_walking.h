// CliffWalking: gymnasium 1.4's toy_text CliffWalking (Sutton and Barto,
// example 6.6) on its 4x12 grid.  The agent starts at the bottom-left cell;
// every step costs 1, stepping onto the cliff (the bottom row between start
// and goal) costs 100 and sends the agent back to the start without ending
// the episode; reaching the bottom-right cell ends it.  With is_slippery the
// agent moves in the intended direction or either perpendicular one, each
// with probability 1/3.
//
// Draws as gymnasium's: one categorical_sample (one np_random.random()) per
// reset, over its initial_state_distrib (all mass on the start cell), and
// one per step, over the transitions: the single one of probability 1 when
// dry, [turned counter-clockwise, intended, turned clockwise] with 1/3 each
// when slippery.
#ifndef ENVPOOL_TOY_TEXT_CLIFF_WALKING_H_
#define ENVPOOL_TOY_TEXT_CLIFF_WALKING_H_

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envpool/core/env.h"
#include "envpool/toy_text/categorical.h"
#include "envpool/toy_text/grid.h"
#include "envpool/toy_text/sprites.h"

namespace envpool::toy_text {

class CliffWalkingEnv : public Env {
 public:
  struct Fields {
    Field<int32_t> obs;  // int32, as EnvPool's
    Field<float> prob;
    Field<int64_t> action;
  };

  // Actions as gymnasium numbers them.
  enum Action : int64_t { kUp = 0, kRight = 1, kDown = 2, kLeft = 3 };

  static constexpr int kRows = 4;
  static constexpr int kCols = 12;
  static constexpr int64_t kStart = (kRows - 1) * kCols;
  static constexpr int64_t kGoal = kRows * kCols - 1;
  static constexpr int kCell = 64;

  static Options DefaultOptions() { return Options{{"is_slippery", false}}; }

  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    spec->snapshots = true;
    fields->obs = spec->state.AddDiscrete<int32_t>("obs", kRows * kCols);
    // gymnasium's info["prob"]: the probability of the transition taken.
    fields->prob = spec->state.Add<float>("info:prob", {}, {0.0}, {1.0});
    fields->action = spec->action.AddDiscrete<int64_t>("action", 4);
    // gymnasium's window: 64 pixels a cell.
    DeclareRendering(options, spec, {"rgb_array", "ansi"}, kCell * kCols,
                     kCell * kRows, 4);
  }

  CliffWalkingEnv(const Options& options, const Fields& fields)
      : is_slippery_(options.Get<bool>("is_slippery")),
        transitions_(is_slippery_ ? std::vector<double>(3, 1.0 / 3)
                                  : std::vector<double>{1.0}) {
    fields_ = fields;
  }

  void Reset() override {
    state_ = start_.Sample(np_random_);
    prob_ = 1.0f;
    reward_ = 0.0;
    terminated_ = false;
  }

  void Step(const ActionView& action) override {
    int64_t direction = action.Scalar(fields_.action);
    const int64_t outcome = transitions_.Sample(np_random_);
    prob_ = static_cast<float>(transitions_.probability(outcome));
    if (is_slippery_) {
      // gymnasium's outcomes: turned counter-clockwise ((a - 1) % 4),
      // intended, clockwise ((a + 1) % 4).
      direction = (direction + outcome + 3) % 4;
    }
    int64_t next = Move(state_, direction);
    if (IsCliff(next)) {
      state_ = kStart;
      reward_ = -100.0;
      terminated_ = false;
    } else {
      state_ = next;
      reward_ = -1.0;
      terminated_ = next == kGoal;
    }
  }

  void Write(const Output& out) override {
    *out.Get(fields_.obs) = static_cast<int32_t>(state_);
    *out.Get(fields_.prob) = prob_;
  }

  std::vector<double> GetState() const override {
    return {static_cast<double>(state_)};
  }
  void SetState(const std::vector<double>& state) override {
    if (state.size() != 1 || state[0] < 0 || state[0] >= kRows * kCols ||
        state[0] != std::floor(state[0])) {
      throw std::invalid_argument(
          "CliffWalking state is [cell index in 0..47]");
    }
    state_ = static_cast<int64_t>(state[0]);
  }

  static bool IsCliff(int64_t cell) { return cell > kStart && cell < kGoal; }

  // gymnasium's rgb_array frame (_render_gui), cell by cell in state
  // order: the ground, the cliff (its left and right ends, mid tiles
  // alternating by column), the start and goal letters, the goal's flag and
  // the agent. The sprites are drawn at their own size (gymnasium's scale is
  // 1 at its 64-pixel cells).
  void Render(int width, int height, int /*camera_id*/, uint8_t* rgb) override {
    Surface surface(width, height);
    for (int64_t cell = 0; cell < kRows * kCols; ++cell) {
      const int row = static_cast<int>(cell / kCols);
      const int col = static_cast<int>(cell % kCols);
      const int x = col * kCell, y = row * kCell;
      surface.Blit(Sprite("cliff_walking/tile_ground"), x, y);
      if (IsCliff(cell)) {
        const char* tile = col == 1           ? "cliff_walking/tile_cliff_left"
                           : col == kCols - 2 ? "cliff_walking/tile_cliff_right"
                           : col % 2 == 0     ? "cliff_walking/tile_cliff_mid_a"
                                          : "cliff_walking/tile_cliff_mid_b";
        surface.Blit(Sprite(tile), x, y);
      }
      // gymnasium's LETTER_OFFSET, FLAG_OFFSET and AGENT_OFFSET
      if (cell == kStart) {
        surface.Blit(Sprite("cliff_walking/letter_s"), x + 8, y + 8);
      }
      if (cell == kGoal) {
        surface.Blit(Sprite("cliff_walking/letter_g"), x + 8, y + 8);
        surface.Blit(Sprite("cliff_walking/goal_flag"), x + 28, y + 16);
      }
      if (cell == state_) {
        surface.Blit(Sprite("cliff_walking/agent"), x + 20, y + 20);
      }
    }
    surface.CopyTo(rgb);
  }

  // gymnasium's ansi text: x the agent, T the goal, C the cliff, o the rest.
  std::string RenderText() override {
    std::string text;
    for (int64_t cell = 0; cell < kRows * kCols; ++cell) {
      char mark = cell == state_  ? 'x'
                  : cell == kGoal ? 'T'
                  : IsCliff(cell) ? 'C'
                                  : 'o';
      int64_t col = cell % kCols;
      text += col == 0 ? "" : " ";
      text += mark;
      text += col == kCols - 1 ? "\n" : " ";
    }
    return text + "\n";
  }

  void SaveState(StateWriter* writer) const override {
    writer->Put(state_, prob_);
  }
  void LoadState(StateReader* reader) override { reader->Get(&state_, &prob_); }

 private:
  // The action's direction: 0 up, 1 right, 2 down, 3 left.
  static int64_t Move(int64_t cell, int64_t direction) {
    static constexpr Heading kHeadings[] = {Heading::kUp, Heading::kRight,
                                            Heading::kDown, Heading::kLeft};
    return GridMove(cell, kRows, kCols, kHeadings[direction]);
  }

  // gymnasium's initial_state_distrib: 1.0 on the start cell, 0 elsewhere.
  static Categorical StartDistribution() {
    std::vector<double> start(kRows * kCols, 0.0);
    start[kStart] = 1.0;
    return Categorical(std::move(start));
  }

  Fields fields_;
  float prob_ = 1.0f;
  bool is_slippery_;
  // 1 / len(deltas) for each of the step's outcomes.
  Categorical transitions_;
  Categorical start_ = StartDistribution();
  int64_t state_ = kStart;
};

}  // namespace envpool::toy_text

#endif  // ENVPOOL_TOY_TEXT_CLIFF_WALKING_H_
