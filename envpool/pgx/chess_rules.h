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

inline constexpr int kEmpty = 0;
inline constexpr int kPawn = 1;
inline constexpr int kKnight = 2;
inline constexpr int kBishop = 3;
inline constexpr int kRook = 4;
inline constexpr int kQueen = 5;
inline constexpr int kKing = 6;

// Where the mover's pieces 1..6 go on an empty `kSide` x `kSide` board
// (pawns forward, to higher ranks; on the 8 x 8 board two squares from the
// second rank too, Gardner's 5 x 5 board has no double step), as pgx's
// CAN_MOVE and BETWEEN tables.
template <int kSide>
struct Geometry {
  static constexpr int kSquares = kSide * kSide;

  // can_move[piece][from][to], and the same as lists: dests[piece][from].
  std::array<std::array<std::array<bool, kSquares>, kSquares>, 7> can_move{};
  std::array<std::array<std::vector<int>, kSquares>, 7> dests;
  std::array<std::vector<int>, kSquares> near;  // king and knight squares
  std::array<std::vector<int>, kSquares> far;   // the queen's others
  // The squares strictly between two squares of a line (empty otherwise).
  std::array<std::array<std::vector<int>, kSquares>, kSquares> between;

  static const Geometry& Get() {
    static const Geometry* geometry = new Geometry();
    return *geometry;
  }

 private:
  Geometry() {
    for (int from = 0; from < kSquares; ++from) {
      const int r0 = from % kSide;
      const int c0 = from / kSide;
      for (int to = 0; to < kSquares; ++to) {
        if (from == to) {
          continue;
        }
        const int r1 = to % kSide;
        const int c1 = to / kSide;
        const int adr = std::abs(r1 - r0);
        const int adc = std::abs(c1 - c0);
        bool moves[7] = {};
        moves[kPawn] = (r1 - r0 == 1 && adc <= 1) ||
                       (kSide == 8 && r0 == 1 && r1 == 3 && adc == 0);
        moves[kKnight] = (adr == 1 && adc == 2) || (adr == 2 && adc == 1);
        moves[kBishop] = adr == adc;
        moves[kRook] = adr == 0 || adc == 0;
        moves[kQueen] = moves[kRook] || moves[kBishop];
        moves[kKing] = adr <= 1 && adc <= 1;
        for (int p = 1; p <= 6; ++p) {
          if (moves[p]) {
            can_move[p][from][to] = true;
            dests[p][from].push_back(to);
          }
        }
        if (moves[kKing] || moves[kKnight]) {
          near[from].push_back(to);
        } else if (moves[kQueen]) {
          far[from].push_back(to);
        }
        if (moves[kQueen]) {
          const int dr = std::clamp(r1 - r0, -1, 1);
          const int dc = std::clamp(c1 - c0, -1, 1);
          for (int r = r0 + dr, c = c0 + dc; r != r1 || c != c1;
               r += dr, c += dc) {
            between[from][to].push_back(c * kSide + r);
          }
        }
      }
    }
  }
};

// Whether the squares between `from` and `to` are empty.
template <int kSide>
bool Clear(const std::array<int, kSide * kSide>& board, int from, int to) {
  for (int sq : Geometry<kSide>::Get().between[from][to]) {
    if (board[sq] != kEmpty) {
      return false;
    }
  }
  return true;
}

// pgx's king square: the first square nearest in value to the mover's KING.
template <std::size_t N>
int KingSquare(const std::array<int, N>& board) {
  int king = 0;
  for (int sq = 1; sq < static_cast<int>(N); ++sq) {
    if (std::abs(board[sq] - kKing) < std::abs(board[king] - kKing)) {
      king = sq;
    }
  }
  return king;
}

// Whether an opponent's piece (negative) attacks `pos`: one that could go
// there as the mover's would go back (a pawn only diagonally), a slider
// through empty squares.
template <int kSide>
bool IsAttacked(const std::array<int, kSide * kSide>& board, int pos) {
  const Geometry<kSide>& g = Geometry<kSide>::Get();
  for (int to : g.near[pos]) {
    const int piece = -board[to];
    if (piece > 0 && g.can_move[piece][pos][to] &&
        !(piece == kPawn && to / kSide == pos / kSide)) {
      return true;
    }
  }
  for (int to : g.far[pos]) {
    const int piece = -board[to];
    if ((piece == kQueen || piece == kRook || piece == kBishop) &&
        g.can_move[piece][pos][to] && Clear<kSide>(board, pos, to)) {
      return true;
    }
  }
  return false;
}

// pgx's _is_pseudo_legal for the mover (positive): its piece reaches `to`
// through empty squares, onto an empty or opponent's square; a pawn goes
// straight to an empty square, diagonally only to capture.
template <int kSide>
bool PseudoLegal(const std::array<int, kSide * kSide>& board, int from,
                 int to) {
  const int piece = board[from];
  if (piece <= 0 || board[to] > 0 ||
      !Geometry<kSide>::Get().can_move[piece][from][to] ||
      !Clear<kSide>(board, from, to)) {
    return false;
  }
  if (piece == kPawn) {
    const bool same_file = to / kSide == from / kSide;
    return same_file ? board[to] == kEmpty : board[to] < 0;
  }
  return true;
}

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
