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

// pgx's Shogi (pgx 2.6.0, shogi.py and _src/games/shogi.py), kept as pgx
// keeps it: the board from the mover's side, square = 9 * x + y (y = 0 the
// far rank, where the mover's pawns go), pieces 0..13 the mover's (pawn,
// lance, knight, silver, bishop, rook, gold, king, then the promoted pawn,
// lance, knight, silver, the horse and the dragon), 14..27 the opponent's,
// -1 empty; hands [mover, opponent] x [pawn, lance, knight, silver, bishop,
// rook, gold].  Actions are dlshogi's: 81 * direction + destination, the
// directions 0..9 (up, up-left, up-right, left, right, down, down-left,
// down-right, the knight's two) the move of the mover's first piece found
// from the destination the other way, 10..19 the same promoting, 20..26 a
// drop of pawn ... gold.  A move must not leave the mover's king attacked;
// no two unpromoted pawns on a file, no pawn, lance or knight where it can
// never move, no pawn drop that mates (pgx tests the square in front of the
// opponent's king only).  The side without a legal move loses; 512 moves
// end the game drawn.  No repetition rule (pgx has none).

#ifndef ENVPOOL_PGX_SHOGI_H_
#define ENVPOOL_PGX_SHOGI_H_

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "envpool/core/jax_random.h"
#include "envpool/pgx/pgx_env.h"

namespace envpool::pgx {

class ShogiGame {
 public:
  static constexpr int kNumPlayers = 2;
  using Observation = int8_t;  // pgx's boolean planes, 0/1
  static constexpr int kSquares = 81;
  static constexpr int kNumActions = 27 * kSquares;
  static constexpr int kPlanes = 119;
  static constexpr int kMaxSteps = 512;
  static constexpr int kEmpty = -1;
  static constexpr int kPawn = 0;
  static constexpr int kLance = 1;
  static constexpr int kKnight = 2;
  static constexpr int kSilver = 3;
  static constexpr int kBishop = 4;
  static constexpr int kRook = 5;
  static constexpr int kGold = 6;
  static constexpr int kKing = 7;
  static constexpr int kHorse = 12;
  static constexpr int kDragon = 13;
  static constexpr int kOpp = 14;  // the opponent's pieces: 14 + piece
  using Board = std::array<int, kSquares>;
  using Hand = std::array<std::array<int, 7>, 2>;

  static std::vector<int64_t> ObservationShape() { return {9, 9, kPlanes}; }

  static std::string ActionName(int64_t action) {
    const int64_t direction = action / kSquares;
    const std::string square = "square " + std::to_string(action % kSquares);
    if (direction >= 20) {
      constexpr const char* kDrops[7] = {"pawn",   "lance", "knight", "silver",
                                         "bishop", "rook",  "gold"};
      return "drop a " + std::string(kDrops[direction - 20]) + " on " + square;
    }
    return std::string(direction >= 10 ? "promoting " : "") + "move to " +
           square + " in direction " + std::to_string(direction % 10);
  }

  void Init(jax_random::Key key) {
    const bool flip = jax_random::Bernoulli(key);
    player_order_ = flip ? std::array<int, 2>{1, 0} : std::array<int, 2>{0, 1};
    color_ = 0;
    step_count_ = 0;
    board_ = kInitBoard;
    hand_ = {};
    terminated_ = false;
    rewards_ = {0.0F, 0.0F};
    UpdateLegal();
  }

  void Step(int action, jax_random::Key /*key*/) {
    const int direction = action / kSquares;
    const int to = action % kSquares;
    if (direction >= 20) {
      const int piece = direction - 20;
      board_[to] = piece;
      hand_[0][piece] -= 1;
    } else {
      const int from = MoveSource(board_, direction % 10, to);
      const int piece = board_[from];
      board_[from] = kEmpty;
      const int captured = board_[to];
      if (captured != kEmpty) {
        hand_[0][((captured + 14) % 28) % 8] += 1;
      }
      board_[to] = direction >= 10 ? piece + 8 : piece;
    }
    Flip(&board_, &hand_);
    color_ = 1 - color_;
    ++step_count_;
    UpdateLegal();
    const bool stuck = std::none_of(legal_.begin(), legal_.end(),
                                    [](bool legal) { return legal; });
    terminated_ = stuck || step_count_ >= kMaxSteps;
    rewards_ = {0.0F, 0.0F};
    if (stuck) {  // the side to move (color_) loses
      std::array<float, 2> by_color = {1.0F, 1.0F};
      by_color[color_] = -1.0F;
      rewards_ = {by_color[player_order_[0]], by_color[player_order_[1]]};
    }
  }

  template <typename T>
  void Observe(int player, T* out) const {
    Board mine = board_;
    Hand hand = hand_;
    if (player != current_player()) {
      Flip(&mine, &hand);
    }
    Board theirs = mine;
    Hand unused = hand;
    Flip(&theirs, &unused);
    std::array<std::array<bool, kSquares>, kPlanes> planes{};
    int at = 0;
    auto side_planes = [&](const Board& board, bool mirrored) {
      std::array<std::array<bool, kSquares>, 14> pieces{};
      std::array<std::array<bool, kSquares>, 14> effects{};
      std::array<int, kSquares> effect_count{};
      for (int from = 0; from < kSquares; ++from) {
        const int piece = board[from];
        if (piece < 0 || piece >= kOpp) {
          continue;
        }
        pieces[piece][from] = true;
        for (int to = 0; to < kSquares; ++to) {
          if (Reaches(board, from, to)) {
            effects[piece][to] = true;
            ++effect_count[to];
          }
        }
      }
      auto put = [&](const std::array<bool, kSquares>& plane) {
        for (int sq = 0; sq < kSquares; ++sq) {
          planes[at][sq] = plane[mirrored ? kSquares - 1 - sq : sq];
        }
        ++at;
      };
      std::array<std::array<bool, kSquares>, 3> counts{};
      for (int n = 1; n <= 3; ++n) {
        for (int sq = 0; sq < kSquares; ++sq) {
          counts[n - 1][sq] = effect_count[sq] >= n;
        }
      }
      for (const auto& plane : pieces) {
        put(plane);
      }
      for (const auto& plane : effects) {
        put(plane);
      }
      for (const auto& plane : counts) {
        put(plane);
      }
    };
    side_planes(mine, false);
    side_planes(theirs, true);
    for (int side = 0; side < 2; ++side) {
      constexpr int kCounts[7] = {8, 4, 4, 4, 4, 2, 2};
      constexpr int kOrder[7] = {kPawn, kLance,  kKnight, kSilver,
                                 kGold, kBishop, kRook};
      for (int k = 0; k < 7; ++k) {
        for (int n = 1; n <= kCounts[k]; ++n) {
          planes[at++].fill(hand[side][kOrder[k]] >= n);
        }
      }
    }
    planes[at++].fill(IsChecked(mine));
    // pgx's rot90(k=3) of the (x, y, plane) array: cell (i, j) is square
    // 9 * (8 - j) + i.
    for (int i = 0; i < 9; ++i) {
      for (int j = 0; j < 9; ++j) {
        const int sq = 9 * (8 - j) + i;
        T* cell = out + (i * 9 + j) * kPlanes;
        for (int c = 0; c < kPlanes; ++c) {
          cell[c] = planes[c][sq] ? T{1} : T{0};
        }
      }
    }
  }

  // Snapshots (PgxEnv loads the game's bytes): what a game can hold. Pieces
  // (-1 empty, 0..27) index the move tables and, captured, the hands; the
  // 40 pieces are all on the board or in a hand (a king never leaves the
  // board); colors alternate from 0; the mask follows from the board and
  // the hands; the game ends at 512 moves or when the mover has no move,
  // which loses.
  void CheckLoadedState() const {
    CheckLoaded(AllIn(board_, kEmpty, 2 * kOpp - 1), "a piece");
    for (const auto& hand : hand_) {
      CheckLoaded(AllIn(hand, 0, 18), "a hand");
    }
    CheckLoaded(IsPlayerOrder(player_order_), "the player order");
    CheckLoaded(step_count_ >= 0 && step_count_ <= kMaxSteps, "step count");
    CheckLoaded(color_ == step_count_ % 2, "the color");
    CheckLoaded(AllFlags(legal_) && IsFlag(terminated_), "a flag");
    // Pawn, lance, knight, silver, bishop, rook, gold: how many a game has.
    constexpr std::array<int, 7> kPieces = {18, 4, 4, 4, 2, 2, 4};
    std::array<int, 7> pieces{};
    std::array<int, 2> kings{};
    for (int piece : board_) {
      if (piece == kEmpty) {
        continue;
      }
      const int own = piece % kOpp;
      if (own == kKing) {
        ++kings[piece / kOpp];
      } else {
        ++pieces[own < kKing ? own : own - 8];
      }
    }
    for (int kind = 0; kind < 7; ++kind) {
      pieces[kind] += hand_[0][kind] + hand_[1][kind];
    }
    CheckPossible(pieces == kPieces && kings[0] == 1 && kings[1] == 1,
                  "the count of pieces");
    ShogiGame derived = *this;
    derived.UpdateLegal();
    CheckPossible(derived.legal_ == legal_, "the legal action mask");
    const bool stuck = std::none_of(legal_.begin(), legal_.end(),
                                    [](bool legal) { return legal; });
    CheckPossible(terminated_ == (stuck || step_count_ >= kMaxSteps),
                  "the end of the game");
    std::array<float, 2> expected = {0.0F, 0.0F};
    if (stuck) {
      std::array<float, 2> by_color = {1.0F, 1.0F};
      by_color[color_] = -1.0F;
      expected = {by_color[player_order_[0]], by_color[player_order_[1]]};
    }
    CheckPossible(rewards_ == expected, "the rewards");
  }

  const bool* LegalActionMask() const { return legal_.data(); }
  int current_player() const { return player_order_[color_]; }
  bool terminated() const { return terminated_; }
  float reward(int player) const { return rewards_[player]; }

 private:
  struct Tables {
    // can_move[piece][from][to] on an empty board (pieces 0..13).
    std::array<std::array<std::array<bool, kSquares>, kSquares>, 14> can_move;
    // The squares strictly between, for the lance, bishop and rook (the
    // horse reads the bishop's, the dragon the rook's, as pgx).
    std::array<std::array<std::array<std::vector<int>, kSquares>, kSquares>, 3>
        between;
    // The squares a move in direction 0..9 to a square may come from,
    // nearest first (the knight's: one).
    std::array<std::array<std::vector<int>, kSquares>, 10> sources;
  };

  static bool CanMoveTo(int piece, int from, int to) {
    if (from == to) {
      return false;
    }
    const int dx = to / 9 - from / 9;
    const int dy = to % 9 - from % 9;
    const int adx = std::abs(dx);
    const int ady = std::abs(dy);
    switch (piece) {
      case kPawn:
        return dx == 0 && dy == -1;
      case kLance:
        return dx == 0 && dy < 0;
      case kKnight:
        return adx == 1 && dy == -2;
      case kSilver:
        return (adx <= 1 && dy == -1) || (adx == 1 && dy == 1);
      case kBishop:
        return dx == dy || dx == -dy;
      case kRook:
        return dx == 0 || dy == 0;
      case kKing:
        return adx <= 1 && ady <= 1;
      case kHorse:
        return (adx <= 1 && ady <= 1) || dx == dy || dx == -dy;
      case kDragon:
        return (adx <= 1 && ady <= 1) || dx == 0 || dy == 0;
      default:  // gold and the promoted pawn, lance, knight, silver
        return (adx <= 1 && (dy == 0 || dy == -1)) || (dx == 0 && dy == 1);
    }
  }

  static const Tables& GetTables() {
    static const Tables* tables = [] {
      auto* t = new Tables();
      for (int piece = 0; piece < 14; ++piece) {
        for (int from = 0; from < kSquares; ++from) {
          for (int to = 0; to < kSquares; ++to) {
            t->can_move[piece][from][to] = CanMoveTo(piece, from, to);
          }
        }
      }
      constexpr int kMajors[3] = {kLance, kBishop, kRook};
      for (int i = 0; i < 3; ++i) {
        for (int from = 0; from < kSquares; ++from) {
          for (int to = 0; to < kSquares; ++to) {
            if (!t->can_move[kMajors[i]][from][to]) {
              continue;
            }
            const int dx = std::clamp(to / 9 - from / 9, -1, 1);
            const int dy = std::clamp(to % 9 - from % 9, -1, 1);
            for (int sq = from + 9 * dx + dy; sq != to; sq += 9 * dx + dy) {
              t->between[i][from][to].push_back(sq);
            }
          }
        }
      }
      constexpr int kDx[10] = {0, -1, 1, -1, 1, 0, -1, 1, -1, 1};
      constexpr int kDy[10] = {1, 1, 1, 0, 0, -1, -1, -1, 2, 2};
      for (int direction = 0; direction < 10; ++direction) {
        for (int to = 0; to < kSquares; ++to) {
          int x = to / 9;
          int y = to % 9;
          for (int i = 0; i < 8; ++i) {
            x += kDx[direction];
            y += kDy[direction];
            if (x < 0 || x > 8 || y < 0 || y > 8) {
              break;
            }
            t->sources[direction][to].push_back(x * 9 + y);
            if (direction >= 8) {
              break;
            }
          }
        }
      }
      return t;
    }();
    return *tables;
  }

  static bool IsMine(int piece) { return piece >= 0 && piece < kOpp; }

  // The index of a piece's table of squares between (-1: it jumps or
  // steps).
  static int MajorIndex(int piece) {
    switch (piece) {
      case kLance:
        return 0;
      case kBishop:
      case kHorse:
        return 1;
      case kRook:
      case kDragon:
        return 2;
      default:
        return -1;
    }
  }

  // Whether the mover's piece on `from` reaches `to` (an attack: whatever
  // stands there), through empty squares.
  static bool Reaches(const Board& board, int from, int to) {
    const Tables& t = GetTables();
    const int piece = board[from];
    if (!t.can_move[piece][from][to]) {
      return false;
    }
    const int major = MajorIndex(piece);
    if (major >= 0) {
      for (int sq : t.between[major][from][to]) {
        if (board[sq] != kEmpty) {
          return false;
        }
      }
    }
    return true;
  }

  // pgx's _is_pseudo_legal_move: the mover's piece reaches a square not
  // holding one of its own.
  static bool PseudoLegal(const Board& board, int from, int to) {
    return from >= 0 && IsMine(board[from]) && !IsMine(board[to]) &&
           Reaches(board, from, to);
  }

  static void Flip(Board* board, Hand* hand) {
    Board flipped{};
    for (int sq = 0; sq < kSquares; ++sq) {
      const int piece = (*board)[kSquares - 1 - sq];
      flipped[sq] = piece == kEmpty ? kEmpty : (piece + 14) % 28;
    }
    *board = flipped;
    std::swap((*hand)[0], (*hand)[1]);
  }

  // pgx's argmin(|board - value|): the first square nearest in value.
  static int Nearest(const Board& board, int value) {
    int best = 0;
    for (int sq = 1; sq < kSquares; ++sq) {
      if (std::abs(board[sq] - value) < std::abs(board[best] - value)) {
        best = sq;
      }
    }
    return best;
  }

  // Whether an opponent's piece attacks the mover's king.
  static bool IsChecked(const Board& board) {
    const int king = kSquares - 1 - Nearest(board, kKing);
    Board flipped = board;
    Hand unused{};
    Flip(&flipped, &unused);
    for (int from = 0; from < kSquares; ++from) {
      if (IsMine(flipped[from]) && Reaches(flipped, from, king)) {
        return true;
      }
    }
    return false;
  }

  // pgx's _is_legal_move_wo_pro: pseudo-legal and the king safe after it.
  static bool LegalMove(const Board& board, int from, int to) {
    if (!PseudoLegal(board, from, to)) {
      return false;
    }
    Board after = board;
    after[to] = after[from];
    after[from] = kEmpty;
    return !IsChecked(after);
  }

  // The square a move in `direction` (0..9) to `to` comes from: the first
  // of the mover's pieces the other way, -1 if none.
  static int MoveSource(const Board& board, int direction, int to) {
    for (int sq : GetTables().sources[direction][to]) {
      if (IsMine(board[sq])) {
        return sq;
      }
    }
    return -1;
  }

  void UpdateLegal() {
    legal_.fill(false);
    std::array<bool, 10 * kSquares> moves{};
    for (int direction = 0; direction < 10; ++direction) {
      for (int to = 0; to < kSquares; ++to) {
        const int from = MoveSource(board_, direction, to);
        if (from < 0 || !LegalMove(board_, from, to)) {
          continue;
        }
        moves[direction * kSquares + to] = true;
        const int piece = board_[from];
        const int y_to = to % 9;
        // Without promotion: a pawn or lance must promote on the far rank,
        // a knight on the last two.
        legal_[direction * kSquares + to] =
            !((piece == kPawn || piece == kLance) && y_to == 0) &&
            !(piece == kKnight && y_to < 2);
        // Promoting: an unpromoted piece but the gold and king, into or out
        // of the far three ranks.
        legal_[(10 + direction) * kSquares + to] =
            piece < kGold && (from % 9 < 3 || y_to < 3);
      }
    }
    std::array<bool, 9> pawn_files{};
    for (int sq = 0; sq < kSquares; ++sq) {
      pawn_files[sq / 9] = pawn_files[sq / 9] || board_[sq] == kPawn;
    }
    for (int to = 0; to < kSquares; ++to) {
      if (board_[to] != kEmpty) {
        continue;
      }
      Board after = board_;
      after[to] = kPawn;  // any piece blocks alike
      if (IsChecked(after)) {
        continue;
      }
      const int y = to % 9;
      for (int piece = 0; piece < 7; ++piece) {
        bool ok = hand_[0][piece] > 0;
        ok = ok && !(piece == kPawn && pawn_files[to / 9]);
        ok = ok && !((piece == kPawn || piece == kLance) && y == 0);
        ok = ok && !(piece == kKnight && y < 2);
        legal_[(20 + piece) * kSquares + to] = ok;
      }
    }
    ForbidPawnDropMate();
  }

  // pgx's _is_drop_pawn_mate: a pawn dropped on the square after the
  // opponent's king (king + 1; past the last square JAX's indexing reads
  // square 80 of the flipped board, and the mask entry is 20 * 81 + 81) that
  // neither can be captured nor let the king step away.
  void ForbidPawnDropMate() {
    const int king = Nearest(board_, kOpp + kKing);
    const int to = king + 1;
    Board after = board_;
    if (to < kSquares) {
      after[to] = kPawn;
    }
    Hand unused{};
    Flip(&after, &unused);
    const int flipped_to = to < kSquares ? kSquares - 1 - to : kSquares - 1;
    bool escape = false;
    for (int from = 0; from < kSquares && !escape; ++from) {
      escape = LegalMove(after, from, flipped_to);
    }
    const int king_from = kSquares - 1 - king;
    const int kx = king_from / 9;
    const int ky = king_from % 9;
    for (int dx = -1; dx <= 1 && !escape; ++dx) {
      for (int dy = -1; dy <= 1 && !escape; ++dy) {
        const int x = kx + dx;
        const int y = ky + dy;
        if ((dx != 0 || dy != 0) && x >= 0 && x < 9 && y >= 0 && y < 9) {
          escape = LegalMove(after, king_from, x * 9 + y);
        }
      }
    }
    if (!escape) {
      legal_[20 * kSquares + to] = false;
    }
  }

  static constexpr Board kInitBoard = {
      15, -1, 14, -1, -1, -1, 0,  -1, 1,  16, 18, 14, -1, -1, -1, 0,  5,
      2,  17, -1, 14, -1, -1, -1, 0,  -1, 3,  20, -1, 14, -1, -1, -1, 0,
      -1, 6,  21, -1, 14, -1, -1, -1, 0,  -1, 7,  20, -1, 14, -1, -1, -1,
      0,  -1, 6,  17, -1, 14, -1, -1, -1, 0,  -1, 3,  16, 19, 14, -1, -1,
      -1, 0,  4,  2,  15, -1, 14, -1, -1, -1, 0,  -1, 1};

  Board board_{};
  Hand hand_{};
  std::array<bool, kNumActions> legal_{};
  std::array<int, 2> player_order_{0, 1};
  std::array<float, 2> rewards_{};
  int color_ = 0;
  int step_count_ = 0;
  bool terminated_ = false;
};

using ShogiEnv = PgxEnv<ShogiGame>;

}  // namespace envpool::pgx

#endif  // ENVPOOL_PGX_SHOGI_H_
