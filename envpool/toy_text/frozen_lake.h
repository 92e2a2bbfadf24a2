// FrozenLake: gymnasium 1.4's toy_text FrozenLake-v1 on its predefined 4x4
// and 8x8 maps, always slippery (gymnasium's default is_slippery=True with
// success_rate 1/3): the agent moves in the intended direction or in either
// perpendicular one, each with probability 1/3.  Reaching the goal gives 1
// and ends the episode, falling into a hole ends it with 0.
//
// Draws as gymnasium's: one categorical_sample (one np_random.random()) per
// reset, over the start tiles, and one per step, over the transitions
// [turned left, intended, turned right] with probabilities
// [(1 - 1/3) / 2, 1/3, (1 - 1/3) / 2].
#ifndef ENVPOOL_TOY_TEXT_FROZEN_LAKE_H_
#define ENVPOOL_TOY_TEXT_FROZEN_LAKE_H_

#include <algorithm>
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

class FrozenLakeEnv : public Env {
 public:
  struct Fields {
    Field<int32_t> obs;  // int32, as EnvPool's
    Field<float> prob;
    Field<int64_t> action;
  };

  // Actions as gymnasium numbers them.
  enum Action : int64_t { kLeft = 0, kDown = 1, kRight = 2, kUp = 3 };

  static Options DefaultOptions() {
    // reward_threshold is id metadata, registered in registration.py.
    return Options{{"max_episode_steps", int64_t{100}}, {"size", int64_t{4}}};
  }

  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    spec->snapshots = true;
    int size = CheckedSize(options);
    fields->obs = spec->state.AddDiscrete<int32_t>("obs", size * size);
    // gymnasium's info["prob"]: the probability of the transition taken.
    fields->prob = spec->state.Add<float>("info:prob", {}, {0.0}, {1.0});
    fields->action = spec->action.AddDiscrete<int64_t>("action", 4);
    // gymnasium's window: 64 pixels a cell, at most 512 a side.
    const int side = std::min(kCell * size, 512);
    DeclareRendering(options, spec, {"ansi", "rgb_array"}, side, side, 4);
  }

  FrozenLakeEnv(const Options& options, const Fields& fields)
      : size_(CheckedSize(options)),
        map_(Map(size_)),
        start_(StartDistribution(map_)) {
    fields_ = fields;
  }

  void Reset() override {
    // gymnasium's initial_state_distrib: uniform over the start tiles (the
    // predefined maps have one, the top-left corner).
    state_ = start_.Sample(np_random_);
    prob_ = 1.0f;
    reward_ = 0.0;
    terminated_ = false;
    last_action_ = -1;
  }

  void Step(const ActionView& action) override {
    int64_t intended = action.Scalar(fields_.action);
    last_action_ = intended;
    // gymnasium keeps an agent on a hole or the goal where it is, with one
    // transition (1.0, s, 0, True) that still takes a draw; the pool never
    // steps an ended episode, but SetState can put it there.
    if (IsTerminal(state_)) {
      certain_.Sample(np_random_);
      prob_ = 1.0f;
      reward_ = 0.0;
      terminated_ = true;
      return;
    }
    // Outcomes in gymnasium's order: turned left of the intended direction
    // ((a - 1) % 4), the intended one, turned right of it ((a + 1) % 4).
    const int64_t outcome = slip_.Sample(np_random_);
    prob_ = static_cast<float>(slip_.probability(outcome));
    int64_t moved = (intended + outcome + 3) % 4;
    state_ = Move(state_, moved);
    terminated_ = IsTerminal(state_);
    reward_ = Tile(state_) == 'G' ? 1.0 : 0.0;
  }

  void Write(const Output& out) override {
    *out.Get(fields_.obs) = static_cast<int32_t>(state_);
    *out.Get(fields_.prob) = prob_;
  }

  std::vector<double> GetState() const override {
    return {static_cast<double>(state_)};
  }
  void SetState(const std::vector<double>& state) override {
    if (state.size() != 1 || state[0] < 0 || state[0] >= size_ * size_ ||
        state[0] != std::floor(state[0])) {
      throw std::invalid_argument("FrozenLake state is [cell index in 0.." +
                                  std::to_string(size_ * size_ - 1) + "]");
    }
    state_ = static_cast<int64_t>(state[0]);
  }

  // gymnasium's ansi text: the last action, then the map with the agent's
  // tile highlighted red.
  std::string RenderText() override {
    static const char* const kNames[] = {"Left", "Down", "Right", "Up"};
    std::string text = last_action_ >= 0
                           ? std::string("  (") + kNames[last_action_] + ")\n"
                           : std::string("\n");
    for (int row = 0; row < size_; ++row) {
      for (int col = 0; col < size_; ++col) {
        std::string tile(1, map_[row][col]);
        text +=
            row * size_ + col == state_ ? "\x1b[41m" + tile + "\x1b[0m" : tile;
      }
      text += "\n";
    }
    return text;
  }

  // gymnasium's rgb_array frame (_render_gui): the tiles (ice, a crack on
  // some frozen ones, hole), the start letter, the goal's flag and letter,
  // each cell's outline, then the agent unless it is in a hole. Every
  // sprite is drawn at its own size (gymnasium scales them to it).
  void Render(int width, int height, int /*camera_id*/, uint8_t* rgb) override {
    const int cell = width / size_;
    Surface surface(width, height);
    const int margin = 4;  // round(64 * 0.06)
    for (int row = 0; row < size_; ++row) {
      for (int col = 0; col < size_; ++col) {
        const int x = col * cell, y = row * cell;
        const char tile = map_[row][col];
        if (tile == 'H') {
          surface.Blit(Sprite("tile_hole"), x, y);
        } else {
          surface.Blit(Sprite("tile_ice"), x, y);
          if (tile == 'F') {
            const int crack = (col * 3 + row * 5) % 7;
            if (crack < 2) {
              surface.Blit(
                  Sprite(crack == 0 ? "tile_ice_crack_a" : "tile_ice_crack_b"),
                  x, y);
            }
          } else if (tile == 'S') {
            surface.Blit(Sprite("letter_s"), x + margin, y + margin);
          } else if (tile == 'G') {
            // planted bottom-centred, round(64 * 0.12) above the edge
            const RgbaImage& flag = Sprite("goal_flag");
            surface.Blit(flag, x + (cell - flag.width) / 2,
                         y + cell - flag.height - 8);
            surface.Blit(Sprite("letter_g"), x + margin, y + margin);
          }
        }
        surface.Rect(x, y, cell, cell, {180, 200, 230});
      }
    }
    if (Tile(state_) != 'H') {
      const RgbaImage& agent = Sprite("agent");
      const int row = static_cast<int>(state_ / size_);
      const int col = static_cast<int>(state_ % size_);
      surface.Blit(agent, col * cell + (cell - agent.width) / 2,
                   row * cell + (cell - agent.height) / 2);
    }
    surface.CopyTo(rgb);
  }

  // The tile letter of a cell: S(tart), F(rozen), H(ole) or G(oal).
  char Tile(int64_t cell) const { return map_[cell / size_][cell % size_]; }

  void SaveState(StateWriter* writer) const override {
    writer->Put(state_, last_action_, prob_);
  }
  void LoadState(StateReader* reader) override {
    reader->Get(&state_, &last_action_, &prob_);
  }

 private:
  static constexpr int kCell = 64;

  static int CheckedSize(const Options& options) {
    int64_t size = options.Get<int64_t>("size");
    if (size != 4 && size != 8) {
      throw std::invalid_argument(
          "FrozenLake option 'size' must be 4 or 8, got " +
          std::to_string(size));
    }
    return static_cast<int>(size);
  }

  // gymnasium's predefined "4x4" and "8x8" maps.
  static std::vector<std::string> Map(int size) {
    if (size == 4) {
      return {"SFFF", "FHFH", "FFFH", "HFFG"};
    }
    return {"SFFFFFFF", "FFFFFFFF", "FFFHFFFF", "FFFFFHFF",
            "FFFHFFFF", "FHHFFFHF", "FHFFHFHF", "FFFHFFFG"};
  }

  // desc == b"S" as float64, divided by its sum.
  static Categorical StartDistribution(const std::vector<std::string>& map) {
    std::vector<double> starts;
    double count = 0.0;
    for (const std::string& row : map) {
      for (char tile : row) {
        starts.push_back(tile == 'S' ? 1.0 : 0.0);
        count += starts.back();
      }
    }
    for (double& p : starts) {
      p /= count;
    }
    return Categorical(std::move(starts));
  }

  bool IsTerminal(int64_t cell) const {
    char tile = Tile(cell);
    return tile == 'H' || tile == 'G';
  }

  // The action's direction: 0 left, 1 down, 2 right, 3 up.
  int64_t Move(int64_t cell, int64_t direction) const {
    static constexpr Heading kHeadings[] = {Heading::kLeft, Heading::kDown,
                                            Heading::kRight, Heading::kUp};
    return GridMove(cell, size_, size_, kHeadings[direction]);
  }

  // success_rate 1/3, fail_rate (1 - success_rate) / 2: the two differ in
  // the last bit, as gymnasium's do.
  static constexpr double kSuccessRate = 1.0 / 3.0;
  static constexpr double kFailRate = (1.0 - kSuccessRate) / 2.0;

  Fields fields_;
  float prob_ = 1.0f;
  int size_;
  std::vector<std::string> map_;
  Categorical start_;
  Categorical slip_{{kFailRate, kSuccessRate, kFailRate}};
  Categorical certain_{{1.0}};
  int64_t state_ = 0;
  int64_t last_action_ = -1;  // none since the reset
};

}  // namespace envpool::toy_text

#endif  // ENVPOOL_TOY_TEXT_FROZEN_LAKE_H_
