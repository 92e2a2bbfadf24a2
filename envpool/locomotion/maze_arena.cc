#include "envpool/locomotion/maze_arena.h"

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "labmaze/cc/random_maze.h"

namespace envpool::locomotion {

namespace {

// labmaze's defaults that dm_control's mazes leave as they are
// (labmaze/cc/defaults.h; the Python wrapper passes the same).
constexpr int kRetryCount = 1000;
constexpr double kExtraConnectionProbability = 0.0;
constexpr bool kHasDoors = false;
constexpr char kSpawnToken[] = "P";
constexpr char kObjectToken[] = "G";

}  // namespace

LabMaze::LabMaze(const MazeParams& params, uint32_t seed) : params_(params) {
  Restore(seed, 1);
}

LabMaze::~LabMaze() = default;

void LabMaze::Restore(uint32_t seed, int64_t generations) {
  if (generations < 1) {
    throw std::invalid_argument(
        "a maze generator has made at least its first maze, got " +
        std::to_string(generations) + " generations");
  }
  seed_ = seed;
  // The constructor makes the first maze.
  maze_ = std::make_unique<deepmind::labmaze::RandomMaze>(
      params_.height, params_.width, params_.max_rooms, params_.room_min_size,
      params_.room_max_size, kRetryCount, kExtraConnectionProbability,
      params_.max_variations, kHasDoors, params_.simplify,
      params_.spawns_per_room, kSpawnToken, params_.objects_per_room,
      kObjectToken, seed);
  for (int64_t i = 1; i < generations; ++i) {
    maze_->Regenerate();
  }
  generations_ = generations;
  Read();
}

void LabMaze::Regenerate() {
  maze_->Regenerate();
  ++generations_;
  Read();
}

void LabMaze::Read() {
  entity_layer_ = maze_->EntityLayer();
  variations_layer_ = maze_->VariationsLayer();
}

std::vector<std::string> GridRows(const std::string& text) {
  std::vector<std::string> rows;
  std::size_t begin = 0;
  while (begin < text.size()) {
    std::size_t end = text.find('\n', begin);
    if (end == std::string::npos) {
      end = text.size();
    }
    if (end > begin) {
      rows.push_back(text.substr(begin, end - begin));
    }
    begin = end + 1;
  }
  return rows;
}

std::vector<MazeRect> CoverCells(const std::vector<std::string>& rows,
                                 char wall_char, bool odd_sized) {
  const int height = static_cast<int>(rows.size());
  const int width = height == 0 ? 0 : static_cast<int>(rows[0].size());
  std::vector<std::vector<bool>> covered(height, std::vector<bool>(width));
  auto is_open_wall = [&](int y, int x) {
    return rows[y][x] == wall_char && !covered[y][x];
  };
  std::vector<MazeRect> walls;
  int next_y = 0, next_x = 0;
  // _find_next_start: the next uncovered wall cell in reading order from
  // (next_y, next_x); height marks the end.
  auto find_next_start = [&] {
    for (int y = next_y; y < height; ++y) {
      for (int x = y == next_y ? next_x : 0; x < width; ++x) {
        if (is_open_wall(y, x)) {
          next_y = y;
          next_x = x;
          return;
        }
      }
    }
    next_y = height;
    next_x = width;
  };
  find_next_start();
  while (next_y < height) {
    // _find_next_wall: each row's longest strip from the start (no longer
    // than the row above's), shortened to an odd width; the rectangle of
    // the most cells ends at that row (among every other row when odd).
    const int start_y = next_y, start_x = next_x;
    int x = width;
    std::vector<int> end_x_for_rows, total_cells;
    for (int y = start_y; y < height; ++y) {
      int col = start_x;
      while (col < x && is_open_wall(y, col)) {
        ++col;
      }
      x = col;
      if (x <= start_x) {
        break;
      }
      if (odd_sized && (x - start_x) % 2 == 0) {
        --x;
      }
      end_x_for_rows.push_back(x);
      total_cells.push_back((x - start_x) * (y - start_y + 1));
    }
    int end_y_offset = 0;
    const int step = odd_sized ? 2 : 1;
    for (int i = 0; i < static_cast<int>(total_cells.size()); i += step) {
      if (total_cells[i] > total_cells[end_y_offset]) {
        end_y_offset = i;
      }
    }
    MazeRect wall{start_y, start_x, start_y + end_y_offset + 1,
                  end_x_for_rows[end_y_offset]};
    for (int y = wall.start_y; y < wall.end_y; ++y) {
      for (int c = wall.start_x; c < wall.end_x; ++c) {
        covered[y][c] = true;
      }
    }
    walls.push_back(wall);
    next_y = start_y;
    next_x = wall.end_x;
    find_next_start();
  }
  return walls;
}

ArenaBox PlaceRect(const MazeRect& rect, int width, int height, double xy_scale,
                   double z_center, double z_half) {
  const double x_offset = (width - 1) / 2.0;
  const double y_offset = (height - 1) / 2.0;
  // GridCoordinates((start.y + end.y - 1) / 2, (start.x + end.x - 1) / 2).
  const double mid_y = (rect.start_y + rect.end_y - 1) / 2.0;
  const double mid_x = (rect.start_x + rect.end_x - 1) / 2.0;
  ArenaBox box{};
  box.pos = {(mid_x - x_offset) * xy_scale, -(mid_y - y_offset) * xy_scale,
             z_center};
  box.size = {(rect.end_x - mid_x - 0.5) * xy_scale,
              (rect.end_y - mid_y - 0.5) * xy_scale, z_half};
  return box;
}

std::array<double, 3> CellPosition(int y, int x, int width, int height,
                                   double xy_scale) {
  const double x_offset = (width - 1) / 2.0;
  const double y_offset = (height - 1) / 2.0;
  return {(x - x_offset) * xy_scale, -(y - y_offset) * xy_scale, 0.0};
}

std::vector<std::array<int, 2>> FindToken(const std::vector<std::string>& rows,
                                          char token) {
  std::vector<std::array<int, 2>> cells;
  for (int y = 0; y < static_cast<int>(rows.size()); ++y) {
    for (int x = 0; x < static_cast<int>(rows[y].size()); ++x) {
      if (rows[y][x] == token) {
        cells.push_back({y, x});
      }
    }
  }
  return cells;
}

MazeTextureDraws DrawMazeTextures(const std::string& variations_layer,
                                  int64_t wall_textures, int64_t floor_textures,
                                  random::RandomState* global_random) {
  MazeTextureDraws draws;
  // np.random.choice of a list: one randint(0, len).
  draws.wall = global_random->Randint<int64_t>(0, wall_textures);
  draws.floor = global_random->Randint<int64_t>(0, floor_textures);
  const std::string variations = ".ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  for (char variation : variations) {
    if (variations_layer.find(variation) == std::string::npos) {
      break;
    }
    if (variation == '.') {
      continue;
    }
    if (floor_textures == 1) {
      break;  // _make_floor_variations returns: no other texture to take
    }
    int64_t texture = draws.floor;
    while (texture == draws.floor) {
      texture = global_random->Randint<int64_t>(0, floor_textures);
    }
    draws.variations.push_back(texture);
  }
  return draws;
}

}  // namespace envpool::locomotion
