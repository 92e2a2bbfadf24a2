// Catch: bsuite's Catch (Osband et al. 2020).  A ball starts in a random
// column of the top row of a height x width board and falls one row per
// step; the paddle starts in the middle of the bottom row and moves left
// (action 0), stays (1) or moves right (2).  When the ball reaches the
// bottom row the episode ends with reward 1 if the paddle is under it, -1
// otherwise.  The observation is the board with 1 at the ball and paddle.
#ifndef ENVPOOL_TOY_TEXT_CATCH_H_
#define ENVPOOL_TOY_TEXT_CATCH_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envpool/core/env.h"

namespace envpool::toy_text {

class CatchEnv : public Env {
 public:
  struct Fields {
    Field<float> obs;
    Field<int64_t> action;
  };

  static Options DefaultOptions() {
    return Options{{"height", int64_t{10}}, {"width", int64_t{5}}};
  }

  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    spec->snapshots = true;
    auto [height, width] = CheckedSize(options);
    fields->obs = spec->state.Add<float>("obs", {height, width}, {0.0}, {1.0});
    fields->action = spec->action.AddDiscrete<int64_t>("action", 3);
  }

  CatchEnv(const Options& options, const Fields& fields) {
    auto [height, width] = CheckedSize(options);
    height_ = static_cast<int>(height);
    width_ = static_cast<int>(width);
    fields_ = fields;
  }

  void Reset() override {
    std::uniform_int_distribution<int> column(0, width_ - 1);
    ball_x_ = column(rng_);
    ball_y_ = 0;
    paddle_x_ = width_ / 2;
    reward_ = 0.0;
    terminated_ = false;
  }

  void Step(const ActionView& action) override {
    int64_t a = action.Scalar(fields_.action);
    int dx = a == 0 ? -1 : (a == 2 ? 1 : 0);
    paddle_x_ = std::clamp(paddle_x_ + dx, 0, width_ - 1);
    ++ball_y_;
    terminated_ = ball_y_ >= height_ - 1;
    reward_ = terminated_ ? (paddle_x_ == ball_x_ ? 1.0 : -1.0) : 0.0;
  }

  void Write(const Output& out) override {
    float* board = out.Get(fields_.obs);
    std::fill(board, board + height_ * width_, 0.0F);
    board[std::min(ball_y_, height_ - 1) * width_ + ball_x_] = 1.0F;
    board[(height_ - 1) * width_ + paddle_x_] = 1.0F;
  }

  // (ball column, ball row, paddle column).
  std::vector<double> GetState() const override {
    return {static_cast<double>(ball_x_), static_cast<double>(ball_y_),
            static_cast<double>(paddle_x_)};
  }
  void SetState(const std::vector<double>& state) override {
    bool valid = state.size() == 3;
    for (std::size_t i = 0; valid && i < 3; ++i) {
      valid = state[i] >= 0 && state[i] == std::floor(state[i]);
    }
    if (!valid || state[0] >= width_ || state[1] >= height_ ||
        state[2] >= width_) {
      throw std::invalid_argument(
          "Catch state is [ball column in 0..width-1, ball row in "
          "0..height-1, paddle column in 0..width-1]");
    }
    ball_x_ = static_cast<int>(state[0]);
    ball_y_ = static_cast<int>(state[1]);
    paddle_x_ = static_cast<int>(state[2]);
  }

  void SaveState(StateWriter* writer) const override {
    writer->Put(ball_x_, ball_y_, paddle_x_);
  }
  void LoadState(StateReader* reader) override {
    reader->Get(&ball_x_, &ball_y_, &paddle_x_);
  }

 private:
  static std::pair<int64_t, int64_t> CheckedSize(const Options& options) {
    int64_t height = options.Get<int64_t>("height");
    int64_t width = options.Get<int64_t>("width");
    if (height < 2 || width < 1 || height > 4096 || width > 4096) {
      throw std::invalid_argument(
          "Catch needs height in 2..4096 and width in 1..4096, got height " +
          std::to_string(height) + ", width " + std::to_string(width));
    }
    return {height, width};
  }

  Fields fields_;
  int height_ = 10;
  int width_ = 5;
  int ball_x_ = 0;
  int ball_y_ = 0;
  int paddle_x_ = 2;
};

}  // namespace envpool::toy_text

#endif  // ENVPOOL_TOY_TEXT_CATCH_H_
