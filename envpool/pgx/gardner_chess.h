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

// pgx's GardnerChess (pgx 2.6.0, gardner_chess.py and
// _src/gardner_chess_utils.py): 5x5 chess without castling, en passant or
// double steps, kept as pgx keeps it (square = 5 * file + rank, the board
// from the mover's side, flipped after every move).  Action = 49 * from +
// plane (9 underpromotions, 32 queen-direction, 8 knight moves).  Ends as
// Chess-v1 does, at 256 moves; the mated player loses.  Observation
// (5 x 5 x 115): for the last eight positions the player's and the
// opponent's pieces and two repetition planes, then color, moves / 256 and
// half moves / 100.  pgx's quirks are kept: the Zobrist hash, kept up move
// by move, does not see a pawn become a queen.

#ifndef ENVPOOL_PGX_GARDNER_CHESS_H_
#define ENVPOOL_PGX_GARDNER_CHESS_H_

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "envpool/core/jax_random.h"
#include "envpool/pgx/chess_rules.h"
#include "envpool/pgx/pgx_env.h"

namespace envpool::pgx {

class GardnerChessGame {
 public:
  static constexpr int kNumPlayers = 2;
  // pgx's planes, the last ones fractions (move counts): float32 0..1.
  using Observation = float;
  static constexpr int kNumActions = 25 * 49;
  static constexpr int kMaxSteps = 256;
  static constexpr int kHistory = 8;
  static constexpr int kPlanes = kHistory * 14 + 3;
  static constexpr int kPawn = 1;
  static constexpr int kKnight = 2;
  static constexpr int kBishop = 3;
  static constexpr int kRook = 4;
  static constexpr int kQueen = 5;
  static constexpr int kKing = 6;

  static std::vector<int64_t> ObservationShape() { return {5, 5, kPlanes}; }

  static std::string ActionName(int64_t action) {
    return "from square " + std::to_string(action / 49) +
           " (the mover's side), plane " + std::to_string(action % 49);
  }

  void Init(jax_random::Key key) {
    current_player_ = jax_random::Bernoulli(key) ? 1 : 0;
    turn_ = 0;
    board_ = kInitBoard;
    halfmove_ = 0;
    hash_ = {2025569903U, 1172890342U};  // pgx's, of the start
    hash_history_.assign(kMaxSteps + 1, {0U, 0U});
    hash_history_[0] = hash_;
    board_history_.fill(0);
    std::copy(kInitBoard.begin(), kInitBoard.end(), board_history_.begin());
    step_count_ = 0;
    terminated_ = false;
    rewards_ = {0.0F, 0.0F};
    UpdateLegal();
    UpdateRepetitions();
  }

  void Step(int action, jax_random::Key /*key*/) {
    ++step_count_;
    const int from = action / 49;
    const int plane = action % 49;
    const int to = Tables().to_map[from][plane];
    const int underpromotion = plane >= 9 ? -1 : plane / 3;
    UpdateHash(from, to, underpromotion);
    halfmove_ = board_[to] < 0 || board_[from] == kPawn ? 0 : halfmove_ + 1;
    board_ = AfterMove(board_, from, to, underpromotion);
    Flip();
    chess_rules::PushHistory(board_, hash_, &board_history_, &hash_history_);
    UpdateLegal();
    UpdateRepetitions();
    const bool stuck = std::none_of(legal_.begin(), legal_.end(),
                                    [](bool legal) { return legal; });
    const auto rep =
        std::count(hash_history_.begin(), hash_history_.end(), hash_) - 1;
    terminated_ = stuck || halfmove_ >= 100 || InsufficientPieces() || rep >= 2;
    rewards_ = {0.0F, 0.0F};
    // Checkmate: the previous mover attacks the king of the one to move.
    if (stuck && InCheck(board_)) {
      rewards_ = {1.0F, 1.0F};
      rewards_[current_player_] = -1.0F;
    }
    terminated_ = terminated_ || step_count_ >= kMaxSteps;
  }

  void Observe(int player, float* out) const {
    const bool mine = player == current_player_;
    const int color = mine ? turn_ : 1 - turn_;
    for (int row = 0; row < 5; ++row) {
      for (int col = 0; col < 5; ++col) {
        // rot90 of the (file, rank) board: row 4 - rank, column file.
        const int square = col * 5 + (4 - row);
        float* cell = out + (row * 5 + col) * kPlanes;
        for (int h = 0; h < kHistory; ++h) {
          const int at = mine ? square : FlipSquare(square);
          const int raw = board_history_[h * 25 + at];
          chess_rules::WriteHistoryPlanes(mine ? raw : -raw, repetitions_[h],
                                          cell + h * 14);
        }
        cell[112] = static_cast<float>(color);
        cell[113] =
            static_cast<float>(step_count_) / static_cast<float>(kMaxSteps);
        // XLA divides by a constant as a multiply by its reciprocal.
        cell[114] = static_cast<float>(halfmove_) * (1.0F / 100.0F);
      }
    }
  }

  const bool* LegalActionMask() const { return legal_.data(); }
  int current_player() const { return current_player_; }
  bool terminated() const { return terminated_; }
  // Snapshots (PgxEnv): every member.
  void SaveState(StateWriter* writer) const {
    writer->Put(board_, PackHash(hash_), PackHashes(hash_history_),
                board_history_, repetitions_, legal_, rewards_, current_player_,
                turn_, halfmove_, step_count_, terminated_);
  }
  void LoadState(StateReader* reader) {
    uint64_t hash = 0;
    std::vector<uint64_t> hashes;
    reader->Get(&board_, &hash, &hashes, &board_history_, &repetitions_,
                &legal_, &rewards_, &current_player_, &turn_, &halfmove_,
                &step_count_, &terminated_);
    hash_ = UnpackHash(hash);
    hash_history_ = UnpackHashes(hashes, kMaxSteps + 1);
    // Pieces index the Zobrist table and the observation's planes.
    CheckLoaded(AllIn(board_, -6, 6) && AllIn(board_history_, -6, 6),
                "a piece");
    CheckLoaded(current_player_ == 0 || current_player_ == 1,
                "the current player");
    CheckLoaded(turn_ == 0 || turn_ == 1, "the turn");
    // Flags read back as raw bytes: 0 or 1 (another byte read as a bool is
    // undefined).
    CheckLoaded(AllFlags(legal_) && IsFlag(terminated_), "a flag");
    CheckLoaded(step_count_ >= 0 && step_count_ <= kMaxSteps &&
                    halfmove_ >= 0 && AllIn(repetitions_, 0, kMaxSteps),
                "a step count");
  }
  // A started game (PgxEnv checks an env's game once the env has been
  // reset; LoadState takes an empty history as a game never started, whose
  // steps would write past it).
  void CheckLoadedState() const {
    CheckLoaded(hash_history_.size() == kMaxSteps + 1, "the position history");
  }
  float reward(int player) const { return rewards_[player]; }

 private:
  using Board = std::array<int, 25>;

  struct Table {
    std::array<std::array<int, 49>, 25> to_map;
    std::array<std::array<int, 25>, 25> plane_map;
    std::array<std::array<uint32_t, 2>, 25 * 13> zobrist_board;
    std::array<uint32_t, 2> zobrist_side;
  };

  static const Table& Tables() {
    static const Table* table = [] {
      auto* t = new Table();
      for (auto& row : t->to_map) {
        row.fill(-1);
      }
      for (auto& row : t->plane_map) {
        row.fill(-1);
      }
      for (int from = 0; from < 25; ++from) {
        if (from % 5 != 3) {
          continue;
        }
        for (int plane = 0; plane < 9; ++plane) {
          constexpr int kStep[3] = {1, 6, -4};
          const int to = from + kStep[plane % 3];
          if (to >= 0 && to < 25) {
            t->to_map[from][plane] = to;
          }
        }
      }
      constexpr int kDr[40] = {-4, -3, -2, -1, 1,  2, 3,  4,  0,  0,
                               0,  0,  0,  0,  0,  0, -4, -3, -2, -1,
                               1,  2,  3,  4,  4,  3, 2,  1,  -1, -2,
                               -3, -4, -1, 1,  -2, 2, -1, 1,  -2, 2};
      constexpr int kDc[40] = {0,  0,  0,  0,  0,  0,  0,  0,  -4, -3,
                               -2, -1, 1,  2,  3,  4,  -4, -3, -2, -1,
                               1,  2,  3,  4,  -4, -3, -2, -1, 1,  2,
                               3,  4,  -2, -2, -1, -1, 2,  2,  1,  1};
      for (int from = 0; from < 25; ++from) {
        for (int plane = 9; plane < 49; ++plane) {
          const int r = from % 5 + kDr[plane - 9];
          const int c = from / 5 + kDc[plane - 9];
          if (r < 0 || r >= 5 || c < 0 || c >= 5) {
            continue;
          }
          t->to_map[from][plane] = c * 5 + r;
          t->plane_map[from][c * 5 + r] = plane;
        }
      }
      // key, subkey = split(PRNGKey(238942)) twice: the board's table, then
      // the side's.
      jax_random::Key key = jax_random::PRNGKey(238942);
      auto draw = [&](std::size_t n) {
        const jax_random::Key sub = jax_random::SplitAt(key, 1);
        key = jax_random::SplitAt(key, 0);
        std::vector<int32_t> values(n);
        jax_random::RandInt(sub, 0, (int64_t{1} << 31) - 1, values.data(), n);
        return values;
      };
      const std::vector<int32_t> board = draw(25 * 13 * 2);
      for (int i = 0; i < 25 * 13; ++i) {
        t->zobrist_board[i] = {static_cast<uint32_t>(board[2 * i]),
                               static_cast<uint32_t>(board[2 * i + 1])};
      }
      const std::vector<int32_t> side = draw(2);
      t->zobrist_side = {static_cast<uint32_t>(side[0]),
                         static_cast<uint32_t>(side[1])};
      return t;
    }();
    return *table;
  }

  static int FlipSquare(int square) {
    return chess_rules::FlipSquare<5>(square);
  }

  static Board Flipped(const Board& board) {
    return chess_rules::Flipped<5>(board);
  }

  void Flip() {
    board_ = Flipped(board_);
    chess_rules::FlipHistory<5>(&board_history_);
    current_player_ = 1 - current_player_;
    turn_ = 1 - turn_;
  }

  static Board AfterMove(Board board, int from, int to, int underpromotion) {
    int piece = board[from];
    if (piece == kPawn && from % 5 == 3 && underpromotion < 0) {
      piece = kQueen;
    }
    if (underpromotion >= 0) {
      constexpr int kUnder[3] = {kRook, kBishop, kKnight};
      piece = kUnder[underpromotion];
    }
    board[from] = 0;
    board[to] = piece;
    return board;
  }

  void UpdateHash(int from, int to, int underpromotion) {
    const Table& t = Tables();
    auto code = [&](int piece) { return (turn_ == 0 ? piece : -piece) + 6; };
    const int src = code(board_[from]);
    const int dst = code(board_[to]);
    const int hash_from = turn_ == 0 ? from : FlipSquare(from);
    const int hash_to = turn_ == 0 ? to : FlipSquare(to);
    auto toggle = [&](int square, int piece) {
      hash_.first ^= t.zobrist_board[square * 13 + piece][0];
      hash_.second ^= t.zobrist_board[square * 13 + piece][1];
    };
    toggle(hash_from, src);
    toggle(hash_from, 6);
    toggle(hash_to, dst);
    int placed = src;
    if (underpromotion >= 0) {
      placed =
          turn_ == 0 ? src + 3 - underpromotion : src - (3 - underpromotion);
    }
    toggle(hash_to, placed);
    hash_.first ^= t.zobrist_side[0];
    hash_.second ^= t.zobrist_side[1];
  }

  // Whether the king of the side to move (positive) is attacked.
  static bool InCheck(const Board& board) {
    return chess_rules::IsAttacked<5>(board, chess_rules::KingSquare(board));
  }

  void UpdateLegal() {
    const Table& t = Tables();
    legal_.fill(false);
    for (int from = 0; from < 25; ++from) {
      const int piece = board_[from];
      if (piece <= 0) {
        continue;
      }
      for (int to : chess_rules::Geometry<5>::Get().dests[piece][from]) {
        if (chess_rules::PseudoLegal<5>(board_, from, to) &&
            !InCheck(AfterMove(board_, from, to, -1))) {
          legal_[from * 49 + t.plane_map[from][to]] = true;
        }
      }
    }
    for (int from = 3; from < 25; from += 5) {
      for (int plane = 0; plane < 9; ++plane) {
        const int to = t.to_map[from][plane];
        if (board_[from] == kPawn && to >= 0 &&
            legal_[from * 49 + t.plane_map[from][to]]) {
          legal_[from * 49 + plane] = true;
        }
      }
    }
  }

  void UpdateRepetitions() {
    chess_rules::CountRepetitions(hash_history_, &repetitions_);
  }

  // A square's color by (file + rank) parity: on 5 x 5 its index's parity,
  // which pgx tests.
  bool InsufficientPieces() const {
    return chess_rules::InsufficientPieces(board_, 5);
  }

  static constexpr Board kInitBoard = {4,  1,  0, -1, -4, 2,  1, 0, -1,
                                       -2, 3,  1, 0,  -1, -3, 5, 1, 0,
                                       -1, -5, 6, 1,  0,  -1, -6};

  Board board_{};
  std::pair<uint32_t, uint32_t> hash_{};
  std::vector<std::pair<uint32_t, uint32_t>> hash_history_;
  std::array<int, kHistory * 25> board_history_{};
  std::array<int, kHistory> repetitions_{};
  std::array<bool, kNumActions> legal_{};
  std::array<float, 2> rewards_{};
  int current_player_ = 0;
  int turn_ = 0;
  int halfmove_ = 0;
  int step_count_ = 0;
  bool terminated_ = false;
};

using GardnerChessEnv = PgxEnv<GardnerChessGame>;

}  // namespace envpool::pgx

#endif  // ENVPOOL_PGX_GARDNER_CHESS_H_
