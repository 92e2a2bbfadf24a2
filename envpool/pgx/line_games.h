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

// pgx's TicTacToe and ConnectFour (pgx 2.6.0, tic_tac_toe.py and
// connect_four.py): two players alternate placing stones of their color
// (the first mover, bernoulli(key) of init's key, has color 0); a line of
// three (four) of one color wins (+1 to its player, -1 to the other); a full
// board is a draw.  Observation of player p: plane 0 its stones, plane 1 the
// opponent's, board rows first.

#ifndef ENVPOOL_PGX_LINE_GAMES_H_
#define ENVPOOL_PGX_LINE_GAMES_H_

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "envpool/core/jax_random.h"
#include "envpool/pgx/pgx_env.h"

namespace envpool::pgx {

// Rows x Cols board; `kDrop`: a move names a column and the stone falls to
// its lowest empty cell (ConnectFour), else a move names a cell.
template <int kRows, int kCols, int kLine, bool kDrop>
class LineGame {
 public:
  static constexpr int kNumPlayers = 2;
  using Observation = int8_t;  // pgx's boolean planes, 0/1
  static constexpr int kCells = kRows * kCols;
  static constexpr int kNumActions = kDrop ? kCols : kCells;

  static std::vector<int64_t> ObservationShape() { return {kRows, kCols, 2}; }

  static std::string ActionName(int64_t action) {
    if (kDrop) {
      return "column " + std::to_string(action);
    }
    return "row " + std::to_string(action / kCols) + ", column " +
           std::to_string(action % kCols);
  }

  void Init(jax_random::Key key) {
    first_player_ = jax_random::Bernoulli(key) ? 1 : 0;
    current_player_ = first_player_;
    board_.fill(-1);
    legal_.fill(true);
  }

  void Step(int action, jax_random::Key /*key*/) {
    int cell = action;
    if (kDrop) {
      int row = kRows - 1;
      while (board_[row * kCols + action] >= 0) {
        --row;
      }
      cell = row * kCols + action;
    }
    board_[cell] = color_;
    if (Wins(cell)) {
      winner_ = color_;
    }
    color_ = 1 - color_;
    current_player_ = 1 - current_player_;
    bool full = true;
    for (int a = 0; a < kNumActions; ++a) {
      legal_[a] = board_[a] < 0;  // the top cell of a column, or the cell
      full = full && !legal_[a];
    }
    terminated_ = winner_ >= 0 || full;
  }

  template <typename T>
  void Observe(int player, T* out) const {
    const int mine = ColorOfPlayer(player, first_player_);
    for (int cell = 0; cell < kCells; ++cell) {
      out[2 * cell] = board_[cell] == mine ? T{1} : T{0};
      out[2 * cell + 1] = board_[cell] == 1 - mine ? T{1} : T{0};
    }
  }

  // Snapshots (PgxEnv loads the game's bytes): what a game can hold. Cells
  // are empty or a color's; ConnectFour's stones stand on the bottom or on
  // a stone (a move drops to the lowest empty cell of a column it reads as
  // not full); colors alternate from 0; the winner is the one color with a
  // line; the mask and the end follow from the board.
  void CheckLoadedState() const {
    CheckLoaded(AllIn(board_, -1, 1), "a cell");
    CheckLoaded(first_player_ == 0 || first_player_ == 1, "the first player");
    CheckLoaded(color_ == 0 || color_ == 1, "the color to move");
    CheckLoaded(winner_ >= -1 && winner_ <= 1, "the winner");
    CheckLoaded(AllFlags(legal_) && IsFlag(terminated_), "a flag");
    if (kDrop) {
      for (int cell = 0; cell + kCols < kCells; ++cell) {
        CheckPossible(board_[cell] < 0 || board_[cell + kCols] >= 0,
                      "a stone above an empty cell");
      }
    }
    const int zeros =
        static_cast<int>(std::count(board_.begin(), board_.end(), int8_t{0}));
    const int ones =
        static_cast<int>(std::count(board_.begin(), board_.end(), int8_t{1}));
    CheckPossible(zeros - ones == color_, "the count of stones of each color");
    CheckPossible(
        current_player_ == (color_ == 0 ? first_player_ : 1 - first_player_),
        "the current player");
    for (int color = 0; color < 2; ++color) {
      bool line = false;
      for (int cell = 0; cell < kCells && !line; ++cell) {
        line = board_[cell] == color && Wins(cell);
      }
      CheckPossible(line == (winner_ == color), "the winner");
    }
    bool full = true;
    for (int a = 0; a < kNumActions; ++a) {
      CheckPossible(legal_[a] == (board_[a] < 0), "the legal action mask");
      full = full && !legal_[a];
    }
    CheckPossible(terminated_ == (winner_ >= 0 || full), "the end of the game");
  }

  const bool* LegalActionMask() const { return legal_.data(); }
  int current_player() const { return current_player_; }
  bool terminated() const { return terminated_; }
  float reward(int player) const {
    if (!terminated_ || winner_ < 0) {
      return 0.0F;
    }
    return ColorOfPlayer(player, first_player_) == winner_ ? 1.0F : -1.0F;
  }

 private:
  // Whether the stone just put at `cell` completes a line of kLine.
  bool Wins(int cell) const {
    const int row = cell / kCols;
    const int col = cell % kCols;
    const int color = board_[cell];
    constexpr int kDirections[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
    for (const auto& d : kDirections) {
      int count = 1;
      for (int sign : {1, -1}) {
        int r = row + sign * d[0];
        int c = col + sign * d[1];
        while (r >= 0 && r < kRows && c >= 0 && c < kCols &&
               board_[r * kCols + c] == color) {
          ++count;
          r += sign * d[0];
          c += sign * d[1];
        }
      }
      if (count >= kLine) {
        return true;
      }
    }
    return false;
  }

  std::array<int8_t, kCells> board_{};
  std::array<bool, kNumActions> legal_{};
  int first_player_ = 0;
  int current_player_ = 0;
  int color_ = 0;
  int winner_ = -1;
  bool terminated_ = false;
};

using TicTacToeGame = LineGame<3, 3, 3, false>;
using ConnectFourGame = LineGame<6, 7, 4, true>;
using TicTacToeEnv = PgxEnv<TicTacToeGame>;
using ConnectFourEnv = PgxEnv<ConnectFourGame>;

}  // namespace envpool::pgx

#endif  // ENVPOOL_PGX_LINE_GAMES_H_
