// Moves on the gridworlds of the toy_text family (FrozenLake, CliffWalking).
#ifndef ENVPOOL_TOY_TEXT_GRID_H_
#define ENVPOOL_TOY_TEXT_GRID_H_

#include <cstdint>

namespace envpool::toy_text {

enum class Heading { kUp, kRight, kDown, kLeft };

// The cell one step from `cell` (row-major on a rows x cols grid); a step
// off the grid leaves the agent where it is.
inline int64_t GridMove(int64_t cell, int64_t rows, int64_t cols,
                        Heading heading) {
  int64_t row = cell / cols;
  int64_t col = cell % cols;
  switch (heading) {
    case Heading::kUp:
      row = row > 0 ? row - 1 : row;
      break;
    case Heading::kRight:
      col = col < cols - 1 ? col + 1 : col;
      break;
    case Heading::kDown:
      row = row < rows - 1 ? row + 1 : row;
      break;
    case Heading::kLeft:
      col = col > 0 ? col - 1 : col;
      break;
  }
  return row * cols + col;
}

}  // namespace envpool::toy_text

#endif  // ENVPOOL_TOY_TEXT_GRID_H_
