/*
 * Copyright 2026 The EnvPool Authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

// pgx's Othello (pgx 2.6.0, othello.py): 8x8, actions 0..63 place a stone
// (row-major), 64 passes (legal only when no placement is).  The board is
// kept as pgx keeps it, from the mover's side: +1 the mover's stones, -1
// the opponent's.  The game ends when the board is full, the opponent has
// no stone left, or two passes follow each other; more stones wins (+1/-1),
// equal is a draw.  Observation of player p: plane 0 its stones, plane 1
// the opponent's.

#ifndef ENVPOOL_PGX_OTHELLO_H_
#define ENVPOOL_PGX_OTHELLO_H_

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "envpool/core/jax_random.h"
#include "envpool/pgx/pgx_env.h"

namespace envpool::pgx {

class OthelloGame {
 public:
  static constexpr int kNumPlayers = 2;
  using Observation = int8_t;  // pgx's boolean planes, 0/1
  static constexpr int kSize = 8;
  static constexpr int kCells = kSize * kSize;
  static constexpr int kPass = kCells;
  static constexpr int kNumActions = kCells + 1;

  static std::vector<int64_t> ObservationShape() { return {kSize, kSize, 2}; }

  static std::string ActionName(int64_t action) {
    if (action == kPass) {
      return "pass";
    }
    return "row " + std::to_string(action / kSize) + ", column " +
           std::to_string(action % kSize);
  }

  void Init(jax_random::Key key) {
    current_player_ = jax_random::Bernoulli(key) ? 1 : 0;
    board_.fill(0);
    board_[28] = board_[35] = 1;
    board_[27] = board_[36] = -1;
    legal_.fill(false);
    legal_[19] = legal_[26] = legal_[37] = legal_[44] = true;
  }

  void Step(int action, jax_random::Key /*key*/) {
    if (action != kPass) {
      const int row = action / kSize;
      const int col = action % kSize;
      board_[action] = 1;
      for (const auto& d : kDirections) {
        // The opponent's stones from the move on, flipped if the mover's
        // stone closes them.
        const int run = ClosedRun(row, col, d);
        if (run > 0) {
          for (int k = 1; k <= run; ++k) {
            board_[(row + k * d[0]) * kSize + col + k * d[1]] = 1;
          }
        }
      }
    }
    int mine = 0;
    int theirs = 0;
    for (int8_t cell : board_) {
      mine += cell > 0 ? 1 : 0;
      theirs += cell < 0 ? 1 : 0;
    }
    const bool ends =
        mine + theirs == kCells || theirs == 0 || (passed_ && action == kPass);
    rewards_ = {0.0F, 0.0F};
    if (ends && mine != theirs) {
      const int winner = mine > theirs ? current_player_ : 1 - current_player_;
      rewards_[winner] = 1.0F;
      rewards_[1 - winner] = -1.0F;
    }
    terminated_ = ends;
    // The next mover's side.
    for (int8_t& cell : board_) {
      cell = static_cast<int8_t>(-cell);
    }
    current_player_ = 1 - current_player_;
    passed_ = action == kPass;
    UpdateLegal();
  }

  template <typename T>
  void Observe(int player, T* out) const {
    const int sign = player == current_player_ ? 1 : -1;
    for (int cell = 0; cell < kCells; ++cell) {
      const int value = sign * board_[cell];
      out[2 * cell] = value > 0 ? T{1} : T{0};
      out[2 * cell + 1] = value < 0 ? T{1} : T{0};
    }
  }

  // Snapshots (PgxEnv loads the game's bytes): what a game can hold. Cells
  // are the mover's (+1), the opponent's (-1) or empty; the centre's four
  // stones are never taken off; the mask follows from the board; a game
  // goes on while the mover has a stone and a cell is empty, and ends with
  // the rewards its stones give (the side that moved last is -1 now).
  void CheckLoadedState() const {
    CheckLoaded(AllIn(board_, -1, 1), "a cell");
    CheckLoaded(current_player_ == 0 || current_player_ == 1,
                "the current player");
    CheckLoaded(AllFlags(legal_) && IsFlag(passed_) && IsFlag(terminated_),
                "a flag");
    CheckPossible(board_[27] != 0 && board_[28] != 0 && board_[35] != 0 &&
                      board_[36] != 0,
                  "the centre");
    const int mover =
        static_cast<int>(std::count(board_.begin(), board_.end(), int8_t{1}));
    const int last =
        static_cast<int>(std::count(board_.begin(), board_.end(), int8_t{-1}));
    CheckPossible(terminated_ || (mover > 0 && mover + last < kCells),
                  "the end of the game");
    OthelloGame derived = *this;
    derived.UpdateLegal();
    CheckPossible(derived.legal_ == legal_, "the legal action mask");
    std::array<float, 2> expected{0.0F, 0.0F};
    if (terminated_ && mover != last) {
      const int winner = last > mover ? 1 - current_player_ : current_player_;
      expected[winner] = 1.0F;
      expected[1 - winner] = -1.0F;
    }
    CheckPossible(rewards_ == expected, "the rewards");
  }

  const bool* LegalActionMask() const { return legal_.data(); }
  int current_player() const { return current_player_; }
  bool terminated() const { return terminated_; }
  float reward(int player) const { return rewards_[player]; }

 private:
  static constexpr int kDirections[8][2] = {{0, 1},  {0, -1}, {1, 0}, {-1, 0},
                                            {1, -1}, {-1, 1}, {1, 1}, {-1, -1}};

  void UpdateLegal() {
    bool any = false;
    for (int cell = 0; cell < kCells; ++cell) {
      legal_[cell] = IsLegalPlacement(cell);
      any = any || legal_[cell];
    }
    legal_[kPass] = !any;
  }

  static bool OnBoard(int r, int c) {
    return r >= 0 && r < kSize && c >= 0 && c < kSize;
  }

  // For the mover (+1): an empty cell from which some direction runs over
  // the opponent's stones to one of the mover's.
  bool IsLegalPlacement(int cell) const {
    if (board_[cell] != 0) {
      return false;
    }
    const int row = cell / kSize;
    const int col = cell % kSize;
    for (const auto& d : kDirections) {
      if (ClosedRun(row, col, d) > 0) {
        return true;
      }
    }
    return false;
  }

  // The opponent's stones in a row from (row, col) along `d` (not counting
  // the cell itself) when one of the mover's stones closes them, else 0.
  int ClosedRun(int row, int col, const int (&d)[2]) const {
    int r = row + d[0];
    int c = col + d[1];
    int run = 0;
    while (OnBoard(r, c) && board_[r * kSize + c] == -1) {
      r += d[0];
      c += d[1];
      ++run;
    }
    return run > 0 && OnBoard(r, c) && board_[r * kSize + c] == 1 ? run : 0;
  }

  std::array<int8_t, kCells> board_{};
  std::array<bool, kNumActions> legal_{};
  std::array<float, 2> rewards_{};
  int current_player_ = 0;
  bool passed_ = false;
  bool terminated_ = false;
};

using OthelloEnv = PgxEnv<OthelloGame>;

}  // namespace envpool::pgx

#endif  // ENVPOOL_PGX_OTHELLO_H_
