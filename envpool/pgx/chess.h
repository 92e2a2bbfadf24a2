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

// pgx's Chess (pgx 2.6.0, chess.py and _src/games/chess.py), kept as pgx
// keeps it: the board (square = 8 * file + rank) from the mover's side, its
// pieces 1..6 (pawn, knight, bishop, rook, queen, king), the opponent's
// negative, flipped after every move.  Action = 73 * from + plane
// (AlphaZero's: 9 underpromotions, 56 queen-direction and 8 knight moves;
// a pawn reaching the last rank by a queen-direction move becomes a queen).
// The game ends by checkmate (the mated player loses), stalemate, the
// 50-move rule (100 half moves), insufficient material, a position seen
// twice before (pgx's Zobrist hash) or 512 moves.  Observation (8 x 8 x
// 119): for the last eight positions the player's and the opponent's
// pieces and two repetition planes, then color, moves / 512, the four
// castling rights and the half-move count / 100.  White (color 0) moves
// first; which player that is comes from bernoulli(init's key).

#ifndef ENVPOOL_PGX_CHESS_H_
#define ENVPOOL_PGX_CHESS_H_

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

class ChessGame {
 public:
  static constexpr int kNumPlayers = 2;
  // pgx's planes, the last ones fractions (move counts): float32 0..1.
  using Observation = float;
  static constexpr int kNumActions = 64 * 73;
  static constexpr int kMaxSteps = 512;
  static constexpr int kHistory = 8;
  static constexpr int kPlanes = kHistory * 14 + 7;
  static constexpr int kEmpty = 0;
  static constexpr int kPawn = 1;
  static constexpr int kKnight = 2;
  static constexpr int kBishop = 3;
  static constexpr int kRook = 4;
  static constexpr int kQueen = 5;
  static constexpr int kKing = 6;

  static std::vector<int64_t> ObservationShape() { return {8, 8, kPlanes}; }

  static std::string ActionName(int64_t action) {
    const int64_t from = action / 73;
    const std::string square =
        std::string(1, static_cast<char>('a' + from / 8)) +
        std::to_string(from % 8 + 1);
    return "from " + square + " (the mover's side), plane " +
           std::to_string(action % 73);
  }

  void Init(jax_random::Key key) {
    const bool flip = jax_random::Bernoulli(key);
    player_order_ = flip ? std::array<int, 2>{1, 0} : std::array<int, 2>{0, 1};
    color_ = 0;
    board_ = kInitBoard;
    castling_ = {true, true, true, true};
    en_passant_ = -1;
    halfmove_ = 0;
    hash_history_.assign(kMaxSteps + 1, {0U, 0U});
    hash_history_[0] = {1455170221U, 1478960862U};  // pgx's, of the start
    board_history_.fill(kEmpty);
    std::copy(kInitBoard.begin(), kInitBoard.end(), board_history_.begin());
    step_count_ = 0;
    terminated_ = false;
    rewards_ = {0.0F, 0.0F};
    UpdateLegal();
  }

  void Step(int action, jax_random::Key /*key*/) {
    const int from = action / 73;
    const int plane = action % 73;
    const int to = Tables().from_plane[from][plane];
    const int underpromotion = plane >= 9 ? -1 : plane / 3;
    ApplyMove(from, to, underpromotion, /*full=*/true);
    Flip();
    chess_rules::PushHistory(board_, Hash(), &board_history_, &hash_history_);
    UpdateLegal();
    ++step_count_;
    const bool stuck = std::none_of(legal_.begin(), legal_.end(),
                                    [](bool legal) { return legal; });
    const auto rep = std::count(hash_history_.begin(), hash_history_.end(),
                                hash_history_[0]) -
                     1;
    terminated_ = stuck || halfmove_ >= 100 || InsufficientPieces() ||
                  rep >= 2 || step_count_ >= kMaxSteps;
    rewards_ = {0.0F, 0.0F};
    if (stuck && IsAttacked(board_, KingSquare(board_))) {
      // Checkmate: the color to move loses.
      std::array<float, 2> by_color = {1.0F, 1.0F};
      by_color[color_] = -1.0F;
      rewards_ = {by_color[player_order_[0]], by_color[player_order_[1]]};
    }
  }

  void Observe(int player, float* out) const {
    const bool mine = player == current_player();
    const int color = mine ? color_ : 1 - color_;
    ChessGame flipped;
    const ChessGame* view = this;
    if (!mine) {
      flipped = *this;
      flipped.Flip();
      view = &flipped;
    }
    for (int row = 0; row < 8; ++row) {
      for (int col = 0; col < 8; ++col) {
        // rot90 of the (file, rank) board: row 7 - rank, column file.
        const int square = col * 8 + (7 - row);
        float* cell = out + (row * 8 + col) * kPlanes;
        for (int h = 0; h < kHistory; ++h) {
          chess_rules::WriteHistoryPlanes(view->board_history_[h * 64 + square],
                                          view->repetitions_[h], cell + h * 14);
        }
        cell[112] = static_cast<float>(color);
        cell[113] =
            static_cast<float>(step_count_) / static_cast<float>(kMaxSteps);
        for (int i = 0; i < 4; ++i) {
          cell[114 + i] = view->castling_[i] ? 1.0F : 0.0F;
        }
        // XLA divides by a constant as a multiply by its reciprocal
        // (0.01F): 5 * 0.01F is 0.049999997F, not 0.05F.
        cell[118] = static_cast<float>(halfmove_) * (1.0F / 100.0F);
      }
    }
  }

  const bool* LegalActionMask() const { return legal_.data(); }
  int current_player() const { return player_order_[color_]; }
  bool terminated() const { return terminated_; }
  // Snapshots (PgxEnv): every member.
  void SaveState(StateWriter* writer) const {
    writer->Put(board_, castling_, PackHashes(hash_history_), board_history_,
                repetitions_, legal_, player_order_, rewards_, color_,
                en_passant_, halfmove_, step_count_, terminated_);
  }
  void LoadState(StateReader* reader) {
    std::vector<uint64_t> hashes;
    reader->Get(&board_, &castling_, &hashes, &board_history_, &repetitions_,
                &legal_, &player_order_, &rewards_, &color_, &en_passant_,
                &halfmove_, &step_count_, &terminated_);
    hash_history_ = UnpackHashes(hashes, kMaxSteps + 1);
    // Pieces index the Zobrist table and the observation's planes, the
    // en-passant square its table, the colour the player order.
    CheckLoaded(AllIn(board_, -6, 6) && AllIn(board_history_, -6, 6),
                "a piece");
    CheckLoaded(color_ == 0 || color_ == 1, "the colour");
    CheckLoaded(en_passant_ >= -1 && en_passant_ < 64, "the en-passant square");
    CheckLoaded(IsPlayerOrder(player_order_), "the player order");
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
  using Board = std::array<int, 64>;

  struct Table {
    std::array<std::array<int, 73>, 64> from_plane;
    std::array<std::array<int, 64>, 64> to_plane;
    std::array<std::array<uint32_t, 2>, 64 * 13> zobrist_board;
    std::array<uint32_t, 2> zobrist_side;
    std::array<std::array<uint32_t, 2>, 4> zobrist_castling;
    std::array<std::array<uint32_t, 2>, 65> zobrist_en_passant;
  };

  // pgx's tables, built as pgx builds them.
  static const Table& Tables() {
    static const Table* table = [] {
      auto* t = new Table();
      for (auto& row : t->from_plane) {
        row.fill(-1);
      }
      for (auto& row : t->to_plane) {
        row.fill(-1);
      }
      std::vector<int> dr;
      std::vector<int> dc;
      auto append = [](std::vector<int>* v, std::initializer_list<int> xs) {
        v->insert(v->end(), xs.begin(), xs.end());
      };
      const std::initializer_list<int> kSeq = {1, 2, 3, 4, 5, 6, 7};
      const std::initializer_list<int> kRseq = {-7, -6, -5, -4, -3, -2, -1};
      const std::initializer_list<int> kZeros = {0, 0, 0, 0, 0, 0, 0};
      const std::initializer_list<int> kSeqRev = {7, 6, 5, 4, 3, 2, 1};
      const std::initializer_list<int> kRseqRev = {-1, -2, -3, -4, -5, -6, -7};
      for (auto xs :
           {kRseq, kSeq, kZeros, kZeros, kRseq, kSeq, kSeqRev, kRseqRev}) {
        append(&dr, xs);
      }
      for (auto xs : {kZeros, kZeros, kRseq, kSeq, kRseq, kSeq, kRseq, kSeq}) {
        append(&dc, xs);
      }
      append(&dr, {-1, +1, -2, +2, -1, +1, -2, +2});
      append(&dc, {-2, -2, -1, -1, +2, +2, +1, +1});
      for (int from = 0; from < 64; ++from) {
        for (int plane = 0; plane < 73; ++plane) {
          if (plane < 9) {
            constexpr int kStep[3] = {1, 9, -7};
            const int to = from % 8 == 6 ? from + kStep[plane % 3] : -1;
            if (to >= 0 && to < 64) {
              t->from_plane[from][plane] = to;
            }
          } else {
            const int r = from % 8 + dr[plane - 9];
            const int c = from / 8 + dc[plane - 9];
            if (r >= 0 && r < 8 && c >= 0 && c < 8) {
              const int to = c * 8 + r;
              t->from_plane[from][plane] = to;
              t->to_plane[from][to] = plane;
            }
          }
        }
      }
      // keys = split(PRNGKey(12345), 4); randint(keys[k], shape, 0,
      // 2**31 - 1, uint32).
      const jax_random::Key base = jax_random::PRNGKey(12345);
      auto draw = [&](int k, std::size_t n) {
        std::vector<int32_t> values(n);
        jax_random::RandInt(jax_random::SplitAt(base, k), 0,
                            (int64_t{1} << 31) - 1, values.data(), n);
        return values;
      };
      const std::vector<int32_t> board = draw(0, 64 * 13 * 2);
      for (int i = 0; i < 64 * 13; ++i) {
        t->zobrist_board[i] = {static_cast<uint32_t>(board[2 * i]),
                               static_cast<uint32_t>(board[2 * i + 1])};
      }
      const std::vector<int32_t> side = draw(1, 2);
      t->zobrist_side = {static_cast<uint32_t>(side[0]),
                         static_cast<uint32_t>(side[1])};
      const std::vector<int32_t> castling = draw(2, 4 * 2);
      for (int i = 0; i < 4; ++i) {
        t->zobrist_castling[i] = {static_cast<uint32_t>(castling[2 * i]),
                                  static_cast<uint32_t>(castling[2 * i + 1])};
      }
      const std::vector<int32_t> en_passant = draw(3, 65 * 2);
      for (int i = 0; i < 65; ++i) {
        t->zobrist_en_passant[i] = {
            static_cast<uint32_t>(en_passant[2 * i]),
            static_cast<uint32_t>(en_passant[2 * i + 1])};
      }
      return t;
    }();
    return *table;
  }

  std::pair<uint32_t, uint32_t> Hash() const {
    const Table& t = Tables();
    uint32_t h0 = color_ == 0 ? t.zobrist_side[0] : 0U;
    uint32_t h1 = color_ == 0 ? t.zobrist_side[1] : 0U;
    for (int sq = 0; sq < 64; ++sq) {
      const auto& z = t.zobrist_board[sq * 13 + board_[sq] + 6];
      h0 ^= z[0];
      h1 ^= z[1];
    }
    for (int i = 0; i < 4; ++i) {
      if (castling_[i]) {
        h0 ^= t.zobrist_castling[i][0];
        h1 ^= t.zobrist_castling[i][1];
      }
    }
    // -1 (none) indexes the last row, as JAX's negative indices do.
    const auto& z = t.zobrist_en_passant[en_passant_ < 0 ? 64 : en_passant_];
    return {h0 ^ z[0], h1 ^ z[1]};
  }

  // pgx's _apply_move; `full` also updates what only a real move changes
  // (legality checks apply it to a copy of the board only).
  void ApplyMove(int from, int to, int underpromotion, bool full) {
    int piece = board_[from];
    if (en_passant_ >= 0 && piece == kPawn && en_passant_ == to) {
      board_[to - 1] = kEmpty;
    }
    const bool double_step = piece == kPawn && std::abs(to - from) == 2;
    if (full) {
      const bool captured = board_[to] < 0 || double_step;
      halfmove_ = captured || piece == kPawn ? 0 : halfmove_ + 1;
    }
    en_passant_ = double_step ? (to + from) / 2 : -1;
    if (piece == kKing && from == 32 && to == 16) {
      board_[0] = kEmpty;
      board_[24] = kRook;
    }
    if (piece == kKing && from == 32 && to == 48) {
      board_[56] = kEmpty;
      board_[40] = kRook;
    }
    castling_[0] = castling_[0] && from != 32 && from != 0;
    castling_[1] = castling_[1] && from != 32 && from != 56;
    castling_[2] = castling_[2] && to != 7;
    castling_[3] = castling_[3] && to != 63;
    if (piece == kPawn && from % 8 == 6 && underpromotion < 0) {
      piece = kQueen;
    }
    if (underpromotion >= 0) {
      constexpr int kUnder[3] = {kRook, kBishop, kKnight};
      piece = kUnder[underpromotion];
    }
    board_[from] = kEmpty;
    board_[to] = piece;
  }

  void Flip() {
    board_ = chess_rules::Flipped<8>(board_);
    chess_rules::FlipHistory<8>(&board_history_);
    color_ = 1 - color_;
    en_passant_ = chess_rules::FlipSquare<8>(en_passant_);
    castling_ = {castling_[2], castling_[3], castling_[0], castling_[1]};
  }

  static int KingSquare(const Board& board) {
    return chess_rules::KingSquare(board);
  }
  static bool IsAttacked(const Board& board, int pos) {
    return chess_rules::IsAttacked<8>(board, pos);
  }

  // Whether the move leaves the mover's king unattacked.
  bool IsSafe(int from, int to) const {
    ChessGame after = *this;
    after.ApplyMove(from, to, -1, /*full=*/false);
    return !IsAttacked(after.board_, KingSquare(after.board_));
  }

  void UpdateLegal() {
    const Table& t = Tables();
    legal_.fill(false);
    for (int from = 0; from < 64; ++from) {
      const int piece = board_[from];
      if (piece <= 0) {
        continue;
      }
      for (int to : chess_rules::Geometry<8>::Get().dests[piece][from]) {
        if (chess_rules::PseudoLegal<8>(board_, from, to) && IsSafe(from, to)) {
          legal_[from * 73 + t.to_plane[from][to]] = true;
        }
      }
    }
    if (en_passant_ >= 0) {
      const int to = en_passant_;
      for (int from : {to - 9, to + 7}) {
        if (from >= 0 && from < 64 && board_[from] == kPawn &&
            board_[to - 1] == -kPawn && IsSafe(from, to)) {
          legal_[from * 73 + t.to_plane[from][to]] = true;
        }
      }
    }
    const Board& b = board_;
    const bool queen_side = castling_[0] && b[0] == kRook && b[8] == kEmpty &&
                            b[16] == kEmpty && b[24] == kEmpty &&
                            b[32] == kKing;
    const bool king_side = castling_[1] && b[32] == kKing && b[40] == kEmpty &&
                           b[48] == kEmpty && b[56] == kRook;
    if (queen_side && !IsAttacked(b, 16) && !IsAttacked(b, 24) &&
        !IsAttacked(b, 32)) {
      legal_[2364] = true;
    }
    if (king_side && !IsAttacked(b, 32) && !IsAttacked(b, 40) &&
        !IsAttacked(b, 48)) {
      legal_[2367] = true;
    }
    for (int plane = 0; plane < 9; ++plane) {
      for (int from = 6; from < 64; from += 8) {
        const int to = t.from_plane[from][plane];
        if (board_[from] == kPawn && to >= 0 &&
            legal_[from * 73 + t.to_plane[from][to]]) {
          legal_[from * 73 + plane] = true;
        }
      }
    }
    // The repetition count of each history entry, for the observation.
    chess_rules::CountRepetitions(hash_history_, &repetitions_);
  }

  bool InsufficientPieces() const {
    return chess_rules::InsufficientPieces(board_, 8);
  }

  static constexpr Board kInitBoard = {
      4, 1, 0, 0, 0, 0, -1, -4, 2, 1, 0, 0, 0, 0, -1, -2,
      3, 1, 0, 0, 0, 0, -1, -3, 5, 1, 0, 0, 0, 0, -1, -5,
      6, 1, 0, 0, 0, 0, -1, -6, 3, 1, 0, 0, 0, 0, -1, -3,
      2, 1, 0, 0, 0, 0, -1, -2, 4, 1, 0, 0, 0, 0, -1, -4};

  Board board_{};
  std::array<bool, 4> castling_{};  // mine queen, king; opponent's queen, king
  std::vector<std::pair<uint32_t, uint32_t>> hash_history_;
  std::array<int, kHistory * 64> board_history_{};
  std::array<int, kHistory> repetitions_{};
  std::array<bool, kNumActions> legal_{};
  std::array<int, 2> player_order_{0, 1};
  std::array<float, 2> rewards_{};
  int color_ = 0;
  int en_passant_ = -1;
  int halfmove_ = 0;
  int step_count_ = 0;
  bool terminated_ = false;
};

using ChessEnv = PgxEnv<ChessGame>;

}  // namespace envpool::pgx

#endif  // ENVPOOL_PGX_CHESS_H_
