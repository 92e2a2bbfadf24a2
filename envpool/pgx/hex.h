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

// pgx's Hex (pgx 2.6.0, hex.py and _src/games/hex.py), 11x11: actions
// 0..120 place a stone (row-major), 121 swaps (the pie rule: legal on the
// second move only; the first stone, mirrored, becomes the swapper's).  The
// board is kept as pgx keeps it, from the mover's side, a stone holding its
// group's id (> 0 the mover's, < 0 the opponent's), so a win is a group
// touching both of its sides.  Color 0 moves first; which player that is
// comes from bernoulli(init's key).  Observation of player p: its stones,
// the opponent's, a plane of its color, a plane of "the swap is legal".

#ifndef ENVPOOL_PGX_HEX_H_
#define ENVPOOL_PGX_HEX_H_

#include <array>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "envpool/core/jax_random.h"
#include "envpool/pgx/pgx_env.h"

namespace envpool::pgx {

class HexGame {
 public:
  static constexpr int kNumPlayers = 2;
  using Observation = int8_t;  // pgx's boolean planes, 0/1
  static constexpr int kSize = 11;
  static constexpr int kCells = kSize * kSize;
  static constexpr int kSwap = kCells;
  static constexpr int kNumActions = kCells + 1;

  static std::vector<int64_t> ObservationShape() { return {kSize, kSize, 4}; }

  static std::string ActionName(int64_t action) {
    if (action == kSwap) {
      return "swap";
    }
    return "row " + std::to_string(action / kSize) + ", column " +
           std::to_string(action % kSize);
  }

  void Init(jax_random::Key key) {
    const bool flip = jax_random::Bernoulli(key);
    player_order_ = flip ? std::array<int, 2>{1, 0} : std::array<int, 2>{0, 1};
    board_.fill(0);
    step_count_ = 0;
    UpdateLegal();
  }

  void Step(int action, jax_random::Key /*key*/) {
    if (action == kSwap) {
      int stone = 0;
      while (board_[stone] == 0) {
        ++stone;
      }
      const int mirrored = (stone % kSize) * kSize + stone / kSize;
      board_[stone] = 0;
      board_[mirrored] = mirrored + 1;
      ++step_count_;
      Negate();
    } else {
      const int id = action + 1;
      board_[action] = id;
      const int x = action / kSize;
      const int y = action % kSize;
      const int xs[6] = {x, x + 1, x - 1, x + 1, x - 1, x};
      const int ys[6] = {y - 1, y - 1, y, y, y + 1, y + 1};
      for (int i = 0; i < 6; ++i) {
        if (xs[i] < 0 || xs[i] >= kSize || ys[i] < 0 || ys[i] >= kSize) {
          continue;
        }
        const int group = board_[xs[i] * kSize + ys[i]];
        if (group > 0) {
          for (int16_t& cell : board_) {
            if (cell == group) {
              cell = static_cast<int16_t>(id);
            }
          }
        }
      }
      ++step_count_;
      Negate();
      // The new mover's color decides which sides the mover just past
      // joins: color 0 checks the first and last columns, 1 the first and
      // last rows, for the group of the stone just put.
      terminated_ = TouchesBothSides(board_[action]);
    }
    UpdateLegal();
  }

  template <typename T>
  void Observe(int player, T* out) const {
    const int my_color = player == current_player() ? color() : 1 - color();
    const int sign = my_color == color() ? 1 : -1;
    const T can_swap = step_count_ == 1 ? T{1} : T{0};
    for (int cell = 0; cell < kCells; ++cell) {
      const int value = sign * board_[cell];
      out[4 * cell] = value > 0 ? T{1} : T{0};
      out[4 * cell + 1] = value < 0 ? T{1} : T{0};
      out[4 * cell + 2] = static_cast<T>(my_color);
      out[4 * cell + 3] = can_swap;
    }
  }

  // Snapshots (PgxEnv loads the game's bytes): what a game can hold. A
  // stone holds its group's id, the cell that joined it last plus one,
  // signed by its side, and that cell holds the same; a stone is put each
  // move but the swap; the mask and the end follow from the board.
  void CheckLoadedState() const {
    CheckLoaded(AllIn(board_, -kCells, kCells), "a cell");
    CheckLoaded(IsPlayerOrder(player_order_), "the player order");
    CheckLoaded(step_count_ >= 0 && step_count_ <= kCells + 1, "step count");
    CheckLoaded(AllFlags(legal_) && IsFlag(terminated_), "a flag");
    int stones = 0;
    for (int16_t cell : board_) {
      if (cell != 0) {
        ++stones;
        CheckPossible(board_[std::abs(cell) - 1] == cell, "a stone's group");
      }
    }
    CheckPossible(stones == step_count_ ||
                      (stones == step_count_ - 1 && step_count_ >= 2),
                  "the count of stones");
    HexGame derived = *this;
    derived.UpdateLegal();
    CheckPossible(derived.legal_ == legal_, "the legal action mask");
    // The side that moved last (its stones negative now) has won iff the
    // game is over.
    bool connected = false;
    for (int cell = 0; cell < kCells && !connected; ++cell) {
      connected = board_[cell] < 0 && TouchesBothSides(board_[cell]);
    }
    CheckPossible(terminated_ == connected, "the end of the game");
  }

  const bool* LegalActionMask() const { return legal_.data(); }
  int current_player() const { return player_order_[color()]; }
  bool terminated() const { return terminated_; }
  // pgx: [1, 1] with -1 at the color to move (the loser), read through the
  // player order.
  float reward(int player) const {
    if (!terminated_) {
      return 0.0F;
    }
    return player_order_[player] == color() ? -1.0F : 1.0F;
  }

 private:
  int color() const { return step_count_ % 2; }

  // Whether group `target` touches both sides that the side which moved
  // last joins, as Step reads them: the first and last columns when color
  // 0 is to move, else the first and last rows.
  bool TouchesBothSides(int target) const {
    bool first = false;
    bool last = false;
    for (int k = 0; k < kSize; ++k) {
      const int a = color() == 0 ? k * kSize : k;
      const int b = color() == 0 ? k * kSize + kSize - 1 : kCells - kSize + k;
      first = first || board_[a] == target;
      last = last || board_[b] == target;
    }
    return first && last;
  }

  void Negate() {
    for (int16_t& cell : board_) {
      cell = static_cast<int16_t>(-cell);
    }
  }

  void UpdateLegal() {
    for (int cell = 0; cell < kCells; ++cell) {
      legal_[cell] = board_[cell] == 0;
    }
    legal_[kSwap] = step_count_ == 1;
  }

  std::array<int16_t, kCells> board_{};
  std::array<bool, kNumActions> legal_{};
  std::array<int, 2> player_order_{0, 1};
  int step_count_ = 0;
  bool terminated_ = false;
};

using HexEnv = PgxEnv<HexGame>;

}  // namespace envpool::pgx

#endif  // ENVPOOL_PGX_HEX_H_
