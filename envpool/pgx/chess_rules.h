// The rules and observation pieces pgx 2.6.0's Chess and GardnerChess
// share (_src/games/chess.py, _src/gardner_chess_utils.py): pieces 1..6
// (pawn, knight, bishop, rook, queen, king) from the mover's side, the
// opponent's negative; square = side * file + rank.
#ifndef ENVPOOL_PGX_CHESS_RULES_H_
#define ENVPOOL_PGX_CHESS_RULES_H_

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <utility>
#include <vector>

namespace envpool::pgx::chess_rules {

inline constexpr int kPawn = 1;
inline constexpr int kBishop = 3;
inline constexpr int kRook = 4;

// pgx's Zobrist hash of a position: two 32-bit words; {0, 0} marks an
// unused history entry.
using Hash = std::pair<uint32_t, uint32_t>;

// A square seen from the other side (ranks mirrored) on a `kSide` x `kSide`
// board; -1 (none) stays -1.
template <int kSide>
int FlipSquare(int square) {
  return square == -1 ? -1
                      : (square / kSide) * kSide + (kSide - 1 - square % kSide);
}

// A board seen from the other side: ranks mirrored, colors swapped.
template <int kSide>
std::array<int, kSide * kSide> Flipped(
    const std::array<int, kSide * kSide>& board) {
  std::array<int, kSide * kSide> flipped{};
  for (int sq = 0; sq < kSide * kSide; ++sq) {
    flipped[sq] = -board[FlipSquare<kSide>(sq)];
  }
  return flipped;
}

// Every board of a history (boards one after the other) flipped.
template <int kSide, std::size_t N>
void FlipHistory(std::array<int, N>* history) {
  constexpr int kSquares = kSide * kSide;
  std::array<int, kSquares> board{};
  for (std::size_t at = 0; at < N; at += kSquares) {
    std::copy(history->begin() + at, history->begin() + at + kSquares,
              board.begin());
    board = Flipped<kSide>(board);
    std::copy(board.begin(), board.end(), history->begin() + at);
  }
}

// The position just played becomes the newest (first) entry of both
// histories; the oldest drops out.
template <std::size_t kSquares, std::size_t N>
void PushHistory(const std::array<int, kSquares>& board, const Hash& hash,
                 std::array<int, N>* board_history,
                 std::vector<Hash>* hash_history) {
  std::copy_backward(board_history->begin(), board_history->end() - kSquares,
                     board_history->end());
  std::copy(board.begin(), board.end(), board_history->begin());
  std::copy_backward(hash_history->begin(), hash_history->end() - 1,
                     hash_history->end());
  (*hash_history)[0] = hash;
}

// How often each of the last `N` positions appeared before, from the hash
// history (newest first); 0 for an unused entry.
template <std::size_t N>
void CountRepetitions(const std::vector<Hash>& hash_history,
                      std::array<int, N>* repetitions) {
  for (std::size_t h = 0; h < N; ++h) {
    const Hash& hash = hash_history[h];
    const bool none = hash.first == 0 && hash.second == 0;
    (*repetitions)[h] =
        none ? 0
             : static_cast<int>(
                   std::count(hash_history.begin(), hash_history.end(), hash)) -
                   1;
  }
}

// pgx's _insufficient_pieces on a `side` x `side` board: kings alone, a
// king and one minor piece more, or only bishops all on squares of one
// color.
template <std::size_t N>
bool InsufficientPieces(const std::array<int, N>& board, int side) {
  int pieces = 0;
  int pawn_rook_queen = -2;  // the kings count as >= ROOK
  int bishops = 0;
  int bishops_on_black = 0;
  for (int sq = 0; sq < static_cast<int>(N); ++sq) {
    const int piece = std::abs(board[sq]);
    pieces += piece != 0 ? 1 : 0;
    pawn_rook_queen += piece >= kRook || piece == kPawn ? 1 : 0;
    if (piece == kBishop) {
      ++bishops;
      bishops_on_black += (sq / side + sq % side) % 2 == 0 ? 1 : 0;
    }
  }
  return pieces <= 2 || (pieces == 3 && pawn_rook_queen == 0) ||
         (pieces == bishops + 2 &&
          (bishops_on_black == bishops || bishops_on_black == 0));
}

// The 14 planes of one history position at one square: the observer's six
// pieces, the opponent's six (`piece` from the observer's side), then
// "not repeated" and "repeated at least once".
inline void WriteHistoryPlanes(int piece, int repetitions, float* planes) {
  for (int p = 1; p <= 6; ++p) {
    planes[p - 1] = piece == p ? 1.0F : 0.0F;
    planes[6 + p - 1] = piece == -p ? 1.0F : 0.0F;
  }
  planes[12] = repetitions == 0 ? 1.0F : 0.0F;
  planes[13] = repetitions >= 1 ? 1.0F : 0.0F;
}

}  // namespace envpool::pgx::chess_rules

#endif  // ENVPOOL_PGX_CHESS_RULES_H_
