// Taxi: gymnasium 1.4's toy_text Taxi (Dietterich 2000) with its defaults,
// dry roads and a passenger who keeps the destination.  The state is
// ((taxi_row * 5 + taxi_col) * 5 + passenger) * 4 + destination, where the
// passenger is a pad index 0..3 or 4 (in the taxi).  Each step costs 1, an
// illegal pickup or dropoff 10, delivering the passenger pays 20 and ends
// the episode.
//
// Draws as gymnasium's: one categorical_sample (one np_random.random()) per
// reset, over its initial_state_distrib (1/300 on each of the 300 start
// states, in state order; the cumulative sum ends at 1 - 3.9e-15, and a draw
// above that gives state 0, as numpy's argmax does), and one per step, over
// the single transition of probability 1 the dry roads have.  No rain and no
// fickle passenger, so nothing else is drawn.
#ifndef ENVPOOL_TOY_TEXT_TAXI_H_
#define ENVPOOL_TOY_TEXT_TAXI_H_

#include <array>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envpool/core/env.h"
#include "envpool/toy_text/categorical.h"
#include "envpool/toy_text/sprites.h"

namespace envpool::toy_text {

class TaxiEnv : public Env {
 public:
  struct Fields {
    Field<int32_t> obs;  // int32, as EnvPool's
    Field<float> prob;
    Field<int64_t> action;
  };

  enum Action : int64_t {
    kSouth = 0,
    kNorth = 1,
    kEast = 2,
    kWest = 3,
    kPickup = 4,
    kDropoff = 5
  };

  static constexpr int kNumStates = 500;
  static constexpr int kInTaxi = 4;

  static Options DefaultOptions() {
    // reward_threshold is id metadata, registered in registration.py.
    return Options{{"max_episode_steps", int64_t{200}}};
  }

  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    spec->snapshots = true;
    fields->obs = spec->state.AddDiscrete<int32_t>("obs", kNumStates);
    // gymnasium's info["prob"]: the probability of the transition taken.
    fields->prob = spec->state.Add<float>("info:prob", {}, {0.0}, {1.0});
    fields->action = spec->action.AddDiscrete<int64_t>("action", 6);
    // gymnasium's WINDOW_SIZE
    DeclareRendering(options, spec, {"ansi", "rgb_array"}, 536, 456, 4);
  }

  TaxiEnv(const Options& /*options*/, const Fields& fields) {
    fields_ = fields;
  }

  static int64_t Encode(int row, int col, int passenger, int destination) {
    return ((row * 5 + col) * 5 + passenger) * 4 + destination;
  }

  void Reset() override {
    Decode(StartDistribution().Sample(np_random_));
    reward_ = 0.0;
    terminated_ = false;
    last_action_ = -1;
    orientation_ = 0;
  }

  void Step(const ActionView& action) override {
    // The dry transition table has one outcome, of probability 1: its draw
    // is taken and cannot change it.
    certain_.Sample(np_random_);
    reward_ = -1.0;
    terminated_ = false;
    last_action_ = action.Scalar(fields_.action);
    switch (last_action_) {
      case kSouth:
        row_ = row_ < 4 ? row_ + 1 : row_;
        break;
      case kNorth:
        row_ = row_ > 0 ? row_ - 1 : row_;
        break;
      case kEast:
        if (!WallEast(row_, col_)) {
          ++col_;
        }
        break;
      case kWest:
        if (col_ > 0 && !WallEast(row_, col_ - 1)) {
          --col_;
        }
        break;
      case kPickup:
        if (passenger_ < kInTaxi && AtPad(passenger_)) {
          passenger_ = kInTaxi;
        } else {
          reward_ = -10.0;
        }
        break;
      case kDropoff:
        if (passenger_ == kInTaxi && AtPad(destination_)) {
          passenger_ = destination_;
          reward_ = 20.0;
          terminated_ = true;
        } else if (passenger_ == kInTaxi && PadHere() >= 0) {
          // Dropped at another pad: the passenger waits there.
          passenger_ = PadHere();
        } else {
          reward_ = -10.0;
        }
        break;
      default:
        break;
    }
  }

  void Write(const Output& out) override {
    *out.Get(fields_.prob) = 1.0f;
    *out.Get(fields_.obs) =
        static_cast<int32_t>(Encode(row_, col_, passenger_, destination_));
  }

  std::vector<double> GetState() const override {
    return {static_cast<double>(Encode(row_, col_, passenger_, destination_))};
  }

  // gymnasium's ansi text: the map with the taxi (yellow, green with the
  // passenger aboard), the passenger (blue) and the destination (magenta),
  // then the last action.
  std::string RenderText() override {
    static const char* const kMap[] = {
        "+---------+", "|R: | : :G|", "| : | : : |", "| : : : : |",
        "| | : | : |", "|Y| : |B: |", "+---------+"};
    static const char* const kNames[] = {"South", "North",  "East",
                                         "West",  "Pickup", "Dropoff"};
    static constexpr int kPads[4][2] = {{0, 0}, {0, 4}, {4, 0}, {4, 3}};
    std::vector<std::vector<std::string>> out;
    for (const char* line : kMap) {
      std::vector<std::string> cells;
      for (const char* c = line; *c != 0; ++c) {
        cells.emplace_back(1, *c);
      }
      out.push_back(std::move(cells));
    }
    auto colorize = [](const std::string& s, int code, bool bold,
                       bool highlight) {
      std::string attrs = std::to_string(highlight ? code + 10 : code);
      if (bold) {
        attrs += ";1";
      }
      return "\x1b[" + attrs + "m" + s + "\x1b[0m";
    };
    constexpr int kGreen = 32, kYellow = 33, kBlue = 34, kMagenta = 35;
    std::string& taxi = out[1 + row_][2 * col_ + 1];
    if (passenger_ < kInTaxi) {
      taxi = colorize(taxi, kYellow, false, true);
      std::string& waiting =
          out[1 + kPads[passenger_][0]][2 * kPads[passenger_][1] + 1];
      waiting = colorize(waiting, kBlue, true, false);
    } else {
      taxi = colorize(taxi == " " ? "_" : taxi, kGreen, false, true);
    }
    std::string& goal =
        out[1 + kPads[destination_][0]][2 * kPads[destination_][1] + 1];
    goal = colorize(goal, kMagenta, false, false);
    std::string text;
    for (const auto& cells : out) {
      for (const auto& cell : cells) {
        text += cell;
      }
      text += "\n";
    }
    text += last_action_ >= 0
                ? std::string("  (") + kNames[last_action_] + ")\n"
                : std::string("\n");
    return text;
  }
  // gymnasium's rgb_array frame (_render_gui): the canvas colour, the
  // background and house, the destination marker, the waiting passenger,
  // then the taxi (with the passenger aboard: the full one) facing its last
  // move. As gymnasium's, the facing is updated when a frame is drawn (to
  // the last action if it was a move) and reset to south by a reset.
  void Render(int width, int height, int /*camera_id*/, uint8_t* rgb) override {
    static constexpr int kPads[4][2] = {{0, 0}, {0, 4}, {4, 0}, {4, 3}};
    // gymnasium's GRID_ORIGIN and CELL_SIZE
    auto cell_x = [](int col) { return 48 + col * 88; };
    auto cell_y = [](int row) { return 128 + row * 56; };
    Surface surface(width, height);
    surface.Fill({250, 250, 246});
    surface.Blit(Sprite("taxi/background"), 0, 80);
    surface.Blit(Sprite("taxi/house"), 403, 36);
    surface.Blit(Sprite("taxi/marker_destination"),
                 cell_x(kPads[destination_][1]),
                 cell_y(kPads[destination_][0]));
    if (passenger_ < kInTaxi) {
      surface.Blit(Sprite("taxi/passenger"), cell_x(kPads[passenger_][1]) + 35,
                   cell_y(kPads[passenger_][0]) + 19);
    }
    if (last_action_ >= kSouth && last_action_ <= kWest) {
      orientation_ = static_cast<int>(last_action_);
    }
    const std::string full = passenger_ == kInTaxi ? "_full" : "";
    // South: the vertical taxi flipped upside down, north: as drawn, east:
    // the horizontal one, west: it mirrored.
    const bool vertical = orientation_ < 2;
    const RgbaImage& image =
        Sprite(std::string("taxi/taxi_") + (vertical ? "v" : "h") + full);
    const RgbaImage taxi =
        orientation_ == kSouth  ? render::Flip(image, false, true)
        : orientation_ == kWest ? render::Flip(image, true, false)
                                : image;
    // TAXI_V_OFFSET, TAXI_H_OFFSET
    surface.Blit(taxi, cell_x(col_) + (vertical ? 25 : 15),
                 cell_y(row_) + (vertical ? 0 : 9));
    surface.CopyTo(rgb);
  }

  void SetState(const std::vector<double>& state) override {
    if (state.size() != 1 || state[0] < 0 || state[0] >= kNumStates ||
        state[0] != std::floor(state[0])) {
      throw std::invalid_argument("Taxi state is [encoded state in 0..499]");
    }
    Decode(static_cast<int64_t>(state[0]));
  }

  // gymnasium's initial_state_distrib: 1 for every state whose passenger
  // waits at a pad other than the destination, divided by their number.
  static const Categorical& StartDistribution() {
    static const Categorical start = [] {
      std::vector<double> p(kNumStates, 0.0);
      for (int row = 0; row < 5; ++row) {
        for (int col = 0; col < 5; ++col) {
          for (int passenger = 0; passenger < 4; ++passenger) {
            for (int destination = 0; destination < 4; ++destination) {
              if (passenger != destination) {
                p[Encode(row, col, passenger, destination)] += 1.0;
              }
            }
          }
        }
      }
      for (double& x : p) {
        x /= 300.0;
      }
      return Categorical(std::move(p));
    }();
    return start;
  }

  void SaveState(StateWriter* writer) const override {
    writer->Put(row_, col_, passenger_, destination_, last_action_,
                orientation_);
  }
  void LoadState(StateReader* reader) override {
    reader->Get(&row_, &col_, &passenger_, &destination_, &last_action_,
                &orientation_);
  }

 private:
  void Decode(int64_t s) {
    destination_ = static_cast<int>(s % 4);
    s /= 4;
    passenger_ = static_cast<int>(s % 5);
    s /= 5;
    col_ = static_cast<int>(s % 5);
    row_ = static_cast<int>(s / 5);
  }

  // The four pads R, G, Y, B as (row, col).
  static constexpr std::array<std::array<int, 2>, 4> kPads = {
      {{0, 0}, {0, 4}, {4, 0}, {4, 3}}};

  // Whether a wall (or the border) lies east of (row, col).  The map:
  //   +---------+
  //   |R: | : :G|
  //   | : | : : |
  //   | : : : : |
  //   | | : | : |
  //   |Y| : |B: |
  //   +---------+
  static bool WallEast(int row, int col) {
    if (col >= 4) {
      return true;
    }
    switch (row) {
      case 0:
      case 1:
        return col == 1;
      case 3:
      case 4:
        return col == 0 || col == 2;
      default:
        return false;
    }
  }

  bool AtPad(int pad) const {
    return kPads[pad][0] == row_ && kPads[pad][1] == col_;
  }
  int PadHere() const {
    for (int pad = 0; pad < 4; ++pad) {
      if (AtPad(pad)) {
        return pad;
      }
    }
    return -1;
  }

  Fields fields_;
  Categorical certain_{{1.0}};
  int row_ = 0;
  int col_ = 0;
  int passenger_ = 0;
  int destination_ = 1;
  int64_t last_action_ = -1;  // none since the reset
  int orientation_ = 0;       // the taxi's facing in the last frame
};

}  // namespace envpool::toy_text

#endif  // ENVPOOL_TOY_TEXT_TAXI_H_
