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

// pgx's AnimalShogi (pgx 2.6.0, animal_shogi.py), kept as pgx keeps it:
// the board (square = 4 * column + row, row 0 the far row) from the mover's
// side, pieces 0..4 the mover's pawn, bishop, rook, king, gold, 5..9 the
// opponent's, -1 empty; hands [mover, opponent] x [pawn, bishop, rook].
// Action a: a / 12 < 8 moves the piece on square a % 12 in direction a / 12,
// 8..10 drops a pawn, bishop or rook there.  A move must not leave the
// mover's king attacked.  The game ends when the mover's king reaches the
// far row (the mover wins), when the next player has no move (it loses), on
// a position seen twice before (a draw) or after 256 moves.  The
// observation (4 x 3 x 194) has, for the last eight positions, the pieces,
// the hands and the repetition count, then the player's color and the move
// count / 256.  pgx's quirks are kept, as its games depend on them: the
// history rolls by 8 entries rather than by a row, and the Zobrist hash of
// a move that captures nothing still toggles two hand keys.

#ifndef ENVPOOL_PGX_ANIMAL_SHOGI_H_
#define ENVPOOL_PGX_ANIMAL_SHOGI_H_

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "envpool/core/jax_random.h"
#include "envpool/pgx/pgx_env.h"

namespace envpool::pgx {

class AnimalShogiGame {
 public:
  static constexpr int kNumPlayers = 2;
  // pgx's planes, the last ones fractions (move counts): float32 0..1.
  using Observation = float;
  static constexpr int kNumActions = 132;
  static constexpr int kSquares = 12;
  static constexpr int kHistory = 8;
  static constexpr int kPlanes = kHistory * 24 + 2;
  static constexpr int kMaxSteps = 256;
  static constexpr int kEmpty = -1;
  static constexpr int kPawn = 0;
  static constexpr int kKing = 3;
  static constexpr int kGold = 4;

  static std::vector<int64_t> ObservationShape() { return {4, 3, kPlanes}; }

  static std::string ActionName(int64_t action) {
    const int64_t kind = action / kSquares;
    const std::string square = "square " + std::to_string(action % kSquares);
    if (kind >= 8) {
      constexpr const char* kDrops[3] = {"pawn", "bishop", "rook"};
      return "drop a " + std::string(kDrops[kind - 8]) + " on " + square;
    }
    return "move from " + square + " in direction " + std::to_string(kind);
  }

  void Init(jax_random::Key key) {
    current_player_ = jax_random::Bernoulli(key) ? 1 : 0;
    turn_ = 0;
    board_ = kInitBoard;
    hand_ = {};
    hash_ = {233882788U, 593924309U};  // the start position's, as pgx's
    hash_history_.assign(kMaxSteps + 1, {0U, 0U});
    hash_history_[0] = hash_;
    board_history_.fill(kEmpty);
    std::copy(kInitBoard.begin(), kInitBoard.end(), board_history_.begin());
    hand_history_.fill(0);
    rep_history_.fill(0);
    step_count_ = 0;
    terminated_ = false;
    rewards_ = {0.0F, 0.0F};
    UpdateLegal();
  }

  void Step(int action, jax_random::Key /*key*/) {
    ++step_count_;
    const int kind = action / kSquares;
    const int square = action % kSquares;
    if (kind >= 8) {
      Drop(kind - 8, square);
    } else {
      Move(square, Destination(square, kind));
    }
    const bool is_try =
        board_[0] == kKing || board_[4] == kKing || board_[8] == kKing;
    // pgx rolls the flattened histories by 8 entries, not by a row.
    std::rotate(board_history_.rbegin(), board_history_.rbegin() + 8,
                board_history_.rend());
    std::copy(board_.begin(), board_.end(), board_history_.begin());
    std::rotate(hand_history_.rbegin(), hand_history_.rbegin() + 8,
                hand_history_.rend());
    for (int i = 0; i < 6; ++i) {
      hand_history_[i] = hand_[i / 3][i % 3];
    }
    Flip();
    hash_history_[step_count_] = hash_;
    const int rep = static_cast<int>(std::count(hash_history_.begin(),
                                                hash_history_.end(), hash_)) -
                    1;
    const bool is_rep_draw = rep >= 2;
    UpdateLegal();
    const bool stuck = std::none_of(legal_.begin(), legal_.end(),
                                    [](bool legal) { return legal; });
    terminated_ = stuck || is_try || is_rep_draw;
    rewards_ = {0.0F, 0.0F};
    if (terminated_ && !is_rep_draw) {
      rewards_ = {1.0F, 1.0F};
      rewards_[current_player_] = -1.0F;
    }
    std::rotate(rep_history_.rbegin(), rep_history_.rbegin() + 1,
                rep_history_.rend());
    rep_history_[0] = rep;
    terminated_ = terminated_ || step_count_ >= kMaxSteps;
  }

  void Observe(int player, float* out) const {
    AnimalShogiGame view = *this;
    const int color = player == current_player_ ? turn_ : 1 - turn_;
    if (player != current_player_) {
      view.Flip();
    }
    // planes[c][square] first, as pgx builds them, then laid out channel
    // last on a (row, flipped column) grid.
    std::array<std::array<float, kSquares>, kPlanes> planes{};
    for (int h = 0; h < kHistory; ++h) {
      for (int p = 0; p < 10; ++p) {
        for (int sq = 0; sq < kSquares; ++sq) {
          planes[h * 24 + p][sq] =
              view.board_history_[h * kSquares + sq] == p ? 1.0F : 0.0F;
        }
      }
      for (int p = 0; p < 6; ++p) {
        for (int n = 1; n <= 2; ++n) {
          const float value = view.hand_history_[h * 6 + p] >= n ? 1.0F : 0.0F;
          planes[h * 24 + 10 + p * 2 + (n - 1)].fill(value);
        }
      }
      planes[h * 24 + 22].fill(view.rep_history_[h] == 0 ? 1.0F : 0.0F);
      planes[h * 24 + 23].fill(view.rep_history_[h] == 1 ? 1.0F : 0.0F);
    }
    planes[kPlanes - 2].fill(static_cast<float>(color));
    planes[kPlanes - 1].fill(static_cast<float>(step_count_) /
                             static_cast<float>(kMaxSteps));
    for (int row = 0; row < 4; ++row) {
      for (int col = 0; col < 3; ++col) {
        const int sq = (2 - col) * 4 + row;
        float* cell = out + (row * 3 + col) * kPlanes;
        for (int c = 0; c < kPlanes; ++c) {
          cell[c] = planes[c][sq];
        }
      }
    }
  }

  const bool* LegalActionMask() const { return legal_.data(); }
  // pgx's state._board (from the mover's side), _hand and _turn.
  const std::array<int, kSquares>& board() const { return board_; }
  const std::array<std::array<int, 3>, 2>& hand() const { return hand_; }
  int turn() const { return turn_; }
  int current_player() const { return current_player_; }
  bool terminated() const { return terminated_; }
  // Snapshots (PgxEnv): every member.
  void SaveState(StateWriter* writer) const {
    writer->Put(board_, hand_, PackHash(hash_), PackHashes(hash_history_),
                board_history_, hand_history_, rep_history_, legal_, rewards_,
                current_player_, turn_, step_count_, terminated_);
  }
  void LoadState(StateReader* reader) {
    uint64_t hash = 0;
    std::vector<uint64_t> hashes;
    reader->Get(&board_, &hand_, &hash, &hashes, &board_history_,
                &hand_history_, &rep_history_, &legal_, &rewards_,
                &current_player_, &turn_, &step_count_, &terminated_);
    hash_ = UnpackHash(hash);
    hash_history_ = UnpackHashes(hashes, kMaxSteps + 1);
  }
  // What a started game can hold (PgxEnv checks a loaded game with it).
  // Pieces (-1 empty, 0..9) index the Zobrist table, the turn and the hands
  // its hand keys, the step count the history of positions, which holds
  // the position's hash at the step count; the eight pieces are on the
  // board or in a hand (a king never leaves the board); turns alternate
  // from 0; the mask follows from the board and the hands; the game ends by
  // 256 moves, and pays 1 to the winner (0 a draw).
  void CheckLoadedState() const {
    CheckLoaded(AllIn(board_, kEmpty, 9) && AllIn(board_history_, kEmpty, 9),
                "a piece");
    CheckLoaded(AllIn(hand_[0], 0, 2) && AllIn(hand_[1], 0, 2) &&
                    AllIn(hand_history_, 0, 2),
                "a hand");
    CheckLoaded(AllIn(rep_history_, 0, 2), "a repetition count");
    CheckLoaded(current_player_ == 0 || current_player_ == 1,
                "the current player");
    CheckLoaded(step_count_ >= 0 && step_count_ <= kMaxSteps, "step count");
    CheckLoaded(turn_ == step_count_ % 2, "the turn");
    CheckLoaded(hash_history_.size() == kMaxSteps + 1, "the position history");
    CheckLoaded(AllFlags(legal_) && IsFlag(terminated_), "a flag");
    CheckPossible(terminated_ || step_count_ < kMaxSteps,
                  "the end of the game");
    CheckPossible(hash_history_[step_count_] == hash_, "the position history");
    // Pawns (and the golds they promote to), bishops, rooks: two each.
    std::array<int, 3> pieces = {hand_[0][0] + hand_[1][0],
                                 hand_[0][1] + hand_[1][1],
                                 hand_[0][2] + hand_[1][2]};
    std::array<int, 2> kings{};
    for (int piece : board_) {
      if (piece == kEmpty) {
        continue;
      }
      const int own = piece % 5;
      if (own == kKing) {
        ++kings[piece / 5];
      } else {
        ++pieces[own == kGold ? kPawn : own];
      }
    }
    CheckPossible(
        pieces == std::array<int, 3>{2, 2, 2} && kings[0] == 1 && kings[1] == 1,
        "the count of pieces");
    AnimalShogiGame derived = *this;
    derived.UpdateLegal();
    CheckPossible(derived.legal_ == legal_, "the legal action mask");
    CheckPossible(
        IsRewardPair(rewards_, terminated_, std::array<float, 1>{1.0F}),
        "the rewards");
  }
  float reward(int player) const { return rewards_[player]; }

 private:
  struct Zobrist {
    std::array<uint32_t, 2> side;
    std::array<uint32_t, 12 * 10 * 2> board;
    std::array<uint32_t, 2 * 3 * 3 * 2> hand;
  };

  // pgx's tables: randint(k, shape, 0, 2**31 - 1, uint32) from
  // PRNGKey(23279) for the side, then from the second half of successive
  // splits for the board and the hands.
  static const Zobrist& Tables() {
    static const Zobrist tables = [] {
      Zobrist z{};
      auto fill = [](jax_random::Key key, uint32_t* out, std::size_t n) {
        std::vector<int32_t> values(n);
        jax_random::RandInt(key, 0, (int64_t{1} << 31) - 1, values.data(), n);
        std::copy(values.begin(), values.end(), out);
      };
      jax_random::Key key = jax_random::PRNGKey(23279);
      fill(key, z.side.data(), z.side.size());
      jax_random::Key sub = jax_random::SplitAt(key, 1);
      key = jax_random::SplitAt(key, 0);
      fill(sub, z.board.data(), z.board.size());
      sub = jax_random::SplitAt(key, 1);
      fill(sub, z.hand.data(), z.hand.size());
      return z;
    }();
    return tables;
  }

  void XorBoard(int square, int piece) {
    const std::size_t at = (square * 10 + piece) * 2;
    hash_.first ^= Tables().board[at];
    hash_.second ^= Tables().board[at + 1];
  }

  // ZOBRIST_HAND[turn, piece, count] with JAX's indexing: a negative count
  // counts from the end, one past the end is clamped.
  void XorHand(int piece, int count) {
    if (count < 0) {
      count += 3;
    }
    count = std::clamp(count, 0, 2);
    const std::size_t at = (((turn_ * 3) + piece) * 3 + count) * 2;
    hash_.first ^= Tables().hand[at];
    hash_.second ^= Tables().hand[at + 1];
  }

  int HashSquare(int square) const { return turn_ == 0 ? square : 11 - square; }
  int HashPiece(int piece) const {
    return turn_ == 0 ? piece : (piece + 5) % 10;
  }

  // pgx's remainders of a negative piece (-1, empty) are Python's.
  static int HandIndex(int captured) {
    const int mod5 = ((captured % 5) + 5) % 5;
    return mod5 % 4;
  }

  void Move(int from, int to) {
    int piece = board_[from];
    board_[from] = kEmpty;
    XorBoard(HashSquare(from), HashPiece(piece));
    const int captured = board_[to];
    const int index = HandIndex(captured);
    if (captured != kEmpty && index < 3) {
      hand_[0][index] += 1;
    }
    if (captured != kEmpty) {
      XorBoard(HashSquare(from), HashPiece(captured));
    }
    // pgx reads hand[0, index] clamped (index 3, a king, reads the rook's).
    const int count = hand_[0][std::min(index, 2)];
    XorHand(std::min(index, 2), count - 1);
    XorHand(std::min(index, 2), count);
    if (from % 4 == 1 && piece == kPawn) {
      piece = kGold;
    }
    board_[to] = piece;
    XorBoard(HashSquare(to), HashPiece(piece));
  }

  void Drop(int piece, int to) {
    board_[to] = piece;
    XorBoard(HashSquare(to), HashPiece(piece));
    const int count = hand_[0][piece];
    hand_[0][piece] -= 1;
    XorHand(piece, count + 1);
    XorHand(piece, count);
  }

  void Flip() {
    std::array<int, kSquares> board{};
    for (int sq = 0; sq < kSquares; ++sq) {
      const int piece = board_[kSquares - 1 - sq];
      board[sq] = piece == kEmpty ? kEmpty : (piece + 5) % 10;
    }
    board_ = board;
    for (int h = 0; h < kHistory; ++h) {
      std::array<int, kSquares> row{};
      for (int sq = 0; sq < kSquares; ++sq) {
        const int piece = board_history_[h * kSquares + kSquares - 1 - sq];
        row[sq] = piece == kEmpty ? kEmpty : (piece + 5) % 10;
      }
      std::copy(row.begin(), row.end(), board_history_.begin() + h * kSquares);
      std::rotate(hand_history_.begin() + h * 6,
                  hand_history_.begin() + h * 6 + 3,
                  hand_history_.begin() + h * 6 + 6);
    }
    std::swap(hand_[0], hand_[1]);
    hash_.first ^= Tables().side[0];
    hash_.second ^= Tables().side[1];
    current_player_ = 1 - current_player_;
    turn_ = 1 - turn_;
  }

  // The square one step from `from` in direction `dir`, or -1 off the board.
  static int Destination(int from, int dir) {
    constexpr int kDx[8] = {-1, -1, -1, 0, 0, 1, 1, 1};
    constexpr int kDy[8] = {-1, 0, 1, -1, 1, -1, 0, 1};
    const int x = from / 4 + kDx[dir];
    const int y = from % 4 + kDy[dir];
    return x < 0 || x >= 3 || y < 0 || y >= 4 ? -1 : x * 4 + y;
  }

  // Whether a piece of type `piece` (0..4, the mover's) may step from
  // `from` to `to`.
  static bool CanMove(int piece, int from, int to) {
    const int dx = to / 4 - from / 4;
    const int dy = to % 4 - from % 4;
    const bool neighbour =
        (dx != 0 || dy != 0) && std::abs(dx) <= 1 && std::abs(dy) <= 1;
    switch (piece) {
      case 0:
        return dx == 0 && dy == -1;
      case 1:
        return neighbour && (dx == dy || dx == -dy);
      case 2:
        return neighbour && (dx == 0 || dy == 0);
      case 3:
        return neighbour;
      default:
        return neighbour && (dx == 0 || dy != 1);
    }
  }

  // Whether the mover's king is attacked on `board` (pgx: the first square
  // nearest in value to a king, i.e. the mover's king).
  static bool IsChecked(const std::array<int, kSquares>& board) {
    int king = 0;
    for (int sq = 1; sq < kSquares; ++sq) {
      if (std::abs(board[sq] - kKing) < std::abs(board[king] - kKing)) {
        king = sq;
      }
    }
    for (int from = 0; from < kSquares; ++from) {
      if (board[from] >= 5 && CanMove(board[from] % 5, king, from)) {
        return true;
      }
    }
    return false;
  }

  void UpdateLegal() {
    for (int action = 0; action < kNumActions; ++action) {
      const int kind = action / kSquares;
      const int square = action % kSquares;
      bool ok = false;
      if (kind >= 8) {
        const int piece = kind - 8;
        if (board_[square] == kEmpty && hand_[0][piece] > 0) {
          std::array<int, kSquares> after = board_;
          after[square] = piece;
          ok = !IsChecked(after);
        }
      } else {
        const int piece = board_[square];
        const int to = Destination(square, kind);
        if (piece >= kPawn && piece <= kGold && to != -1 &&
            (board_[to] == kEmpty || board_[to] > kGold) &&
            CanMove(piece, square, to)) {
          std::array<int, kSquares> after = board_;
          after[square] = kEmpty;
          after[to] = square % 4 == 1 && piece == kPawn ? kGold : piece;
          ok = !IsChecked(after);
        }
      }
      legal_[action] = ok;
    }
  }

  static constexpr std::array<int, kSquares> kInitBoard = {
      6, -1, -1, 2, 8, 5, 0, 3, 7, -1, -1, 1};

  std::array<int, kSquares> board_{};
  std::array<std::array<int, 3>, 2> hand_{};
  std::pair<uint32_t, uint32_t> hash_{};
  std::vector<std::pair<uint32_t, uint32_t>> hash_history_;
  std::array<int, kHistory * kSquares> board_history_{};
  std::array<int, kHistory * 6> hand_history_{};
  std::array<int, kHistory> rep_history_{};
  std::array<bool, kNumActions> legal_{};
  std::array<float, 2> rewards_{};
  int current_player_ = 0;
  int turn_ = 0;
  int step_count_ = 0;
  bool terminated_ = false;
};

// EnvPool 1.2.7's info keys of AnimalShogi: "board" (4 x 3: pgx's
// state._board on the observation's grid, row r and column c holding square
// (2 - c) * 4 + r; -1 empty, 0..4 the mover's pawn, bishop, rook, king,
// gold, 5..9 the opponent's), "hand" (2 x 3: pgx's state._hand, the mover's
// then the opponent's pawns, bishops, rooks) and "turn" (pgx's state._turn:
// 0 while the first mover moves).
template <>
struct GameInfo<AnimalShogiGame> {
  struct Fields {
    Field<int32_t> board;
    Field<int32_t> hand;
    Field<int32_t> turn;
  };
  static void Declare(Schema* state, Fields* fields) {
    fields->board = state->Add<int32_t>("info:board", {4, 3}, {-1.0}, {9.0});
    fields->hand = state->Add<int32_t>("info:hand", {2, 3}, {0.0}, {2.0});
    fields->turn = state->Add<int32_t>("info:turn", {}, {0.0}, {1.0});
  }
  static void Write(const AnimalShogiGame& game, const Fields& fields,
                    const Output& out) {
    int32_t* board = out.Get(fields.board);
    for (int row = 0; row < 4; ++row) {
      for (int col = 0; col < 3; ++col) {
        board[row * 3 + col] = game.board()[(2 - col) * 4 + row];
      }
    }
    int32_t* hand = out.Get(fields.hand);
    for (int side = 0; side < 2; ++side) {
      std::copy(game.hand()[side].begin(), game.hand()[side].end(),
                hand + side * 3);
    }
    *out.Get(fields.turn) = game.turn();
  }
};

using AnimalShogiEnv = PgxEnv<AnimalShogiGame>;

}  // namespace envpool::pgx

#endif  // ENVPOOL_PGX_ANIMAL_SHOGI_H_
