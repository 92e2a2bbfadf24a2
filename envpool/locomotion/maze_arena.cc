#include "envpool/locomotion/maze_arena.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envpool/core/numpy_kernels.h"
#include "envpool/locomotion/soccer_model.h"
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
// mazes.py's constants: the real walls' geom group (not rendered), the top
// camera's distance and padding, the floor variations' characters.
constexpr int kWallGeomGroup = 3;
constexpr double kTopCameraDistance = 100;
constexpr double kTopCameraPadding = 1.1;
const char* const kFloorVariations = ".ABCDEFGHIJKLMNOPQRSTUVWXYZ";
// outdoor_natural's floor textures, in MazeWithTargets' order: two textures
// of the same grass (the main floor's and the variations' differ by name).
const char* const kFloorTextures[] = {"aesthetic_texture_main",
                                      "aesthetic_texture"};

std::string Num(double x) { return MjcfNumber(x); }

std::string Vec(const double* v, int n) {
  std::string text;
  for (int i = 0; i < n; ++i) {
    text += (i == 0 ? "" : " ") + Num(v[i]);
  }
  return text;
}

}  // namespace

LabMaze::LabMaze(const MazeParams& params, uint32_t seed) : params_(params) {
  // labmaze.RandomMaze's checks: its Python wrapper refuses these (its C++
  // generator takes them and makes a maze of another shape than asked).
  auto refuse = [](const std::string& what, int value) {
    throw std::invalid_argument("labmaze: " + what + ", got " +
                                std::to_string(value));
  };
  if (params.height <= 0 || params.height % 2 == 0) {
    refuse("the height is a positive odd number of cells", params.height);
  }
  if (params.width <= 0 || params.width % 2 == 0) {
    refuse("the width is a positive odd number of cells", params.width);
  }
  if (params.room_min_size < 0) {
    refuse("room_min_size is at least 0", params.room_min_size);
  }
  if (params.room_max_size < params.room_min_size) {
    refuse("room_max_size is at least room_min_size", params.room_max_size);
  }
  if (params.max_variations < 0 || params.max_variations > 26) {
    refuse("max_variations is 0 to 26", params.max_variations);
  }
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

FixedMaze::FixedMaze(const std::string& layout, int num_spawns, int num_objects)
    : rows_(GridRows(layout)),
      num_spawns_(num_spawns),
      num_objects_(num_objects) {
  for (int y = 0; y < static_cast<int>(rows_.size()); ++y) {
    for (int x = 0; x < static_cast<int>(rows_[y].size()); ++x) {
      const char cell = rows_[y][x];
      if (cell == ' ') {
        empty_cells_.push_back({y, x});
      } else if (cell == kSpawnToken[0]) {
        required_spawns_.push_back({y, x});
      } else if (cell == kObjectToken[0]) {
        required_objects_.push_back({y, x});
      }
    }
  }
  variations_layer_.clear();
  for (const std::string& row : rows_) {
    variations_layer_ += std::string(row.size(), '.') + "\n";
  }
}

void FixedMaze::Regenerate(random::RandomState* global_random) {
  std::vector<std::string> rows = rows_;
  for (const auto* cells :
       {&empty_cells_, &required_spawns_, &required_objects_}) {
    for (const auto& [y, x] : *cells) {
      rows[y][x] = ' ';
    }
  }
  // choice(len(required), min(num, len(required)), replace=False): the
  // first of a permutation.
  auto chosen = [global_random](const std::vector<std::array<int, 2>>& cells,
                                int count) {
    std::vector<std::array<int, 2>> picked;
    if (cells.empty()) {
      return picked;
    }
    const auto size = static_cast<std::size_t>(
        std::min<int64_t>(count, static_cast<int64_t>(cells.size())));
    for (int64_t i : global_random->Choice(static_cast<int64_t>(cells.size()),
                                           size, false)) {
      picked.push_back(cells[static_cast<std::size_t>(i)]);
    }
    return picked;
  };
  std::vector<std::array<int, 2>> spawns =
      chosen(required_spawns_, num_spawns_);
  std::vector<std::array<int, 2>> objects =
      chosen(required_objects_, num_objects_);
  const int extra_spawns =
      std::max(0, num_spawns_ - static_cast<int>(required_spawns_.size()));
  const int extra_objects =
      std::max(0, num_objects_ - static_cast<int>(required_objects_.size()));
  if (extra_spawns + extra_objects > 0) {
    const std::vector<int64_t> extras = global_random->Choice(
        static_cast<int64_t>(empty_cells_.size()),
        static_cast<std::size_t>(extra_spawns + extra_objects), false);
    for (std::size_t i = 0; i < extras.size(); ++i) {
      const auto& cell = empty_cells_[static_cast<std::size_t>(extras[i])];
      (static_cast<int>(i) < extra_spawns ? spawns : objects).push_back(cell);
    }
  }
  for (const auto& [y, x] : spawns) {
    rows[y][x] = kSpawnToken[0];
  }
  for (const auto& [y, x] : objects) {
    rows[y][x] = kObjectToken[0];
  }
  entity_layer_.clear();
  for (const std::string& row : rows) {
    entity_layer_ += row + "\n";
  }
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

const MazeArenaSpec& RodentMazeForageArena() {
  static const MazeArenaSpec spec = [] {
    MazeArenaSpec arena;
    arena.maze.height = 11;
    arena.maze.width = 11;
    arena.maze.max_rooms = 4;
    arena.maze.room_min_size = 4;
    arena.maze.room_max_size = 5;
    arena.maze.spawns_per_room = 1;
    arena.maze.objects_per_room = 3;
    arena.xy_scale = 0.5;
    arena.z_height = 0.3;
    arena.wall_style = "style_01";
    arena.wall_textures = {"blue",   "cerise",     "green_bright", "green",
                           "purple", "red_bright", "red",          "yellow"};
    arena.target_radius = 0.05;
    arena.target_height = 0.125;
    arena.target_builders = {{{0, 0, 0.4}, {0, 0, 0.7}}};
    return arena;
  }();
  return spec;
}

const MazeArenaSpec& CmuHumanoidMazeForageArena() {
  static const MazeArenaSpec spec = [] {
    // The rodent's RandomMazeWithTargets arguments and wall textures, in
    // cells of 3 m with walls of the default 2 m.
    MazeArenaSpec arena = RodentMazeForageArena();
    arena.xy_scale = 3.0;
    arena.z_height = 2.0;
    arena.sky_style = "sky_03";
    arena.floor_style = "style_01";
    arena.floor_textures = {"blue_bright",   "blue",   "blue_team",
                            "orange_bright", "orange", "red_team"};
    arena.target_radius = 0.4;
    arena.target_height = 1.0;  // TargetSphere's default
    arena.target_builders = {{{0, 0, 0.4}, {0, 0, 0.7}}};
    return arena;
  }();
  return spec;
}

const MazeArenaSpec& CmuHumanoidHeterogeneousForageArena() {
  static const MazeArenaSpec spec = [] {
    MazeArenaSpec arena = CmuHumanoidMazeForageArena();
    arena.fixed_layout =
        "*******\n"
        "*     *\n"
        "*  P  *\n"
        "*     *\n"
        "*  G  *\n"
        "*     *\n"
        "*******\n";
    arena.fixed_spawns = 1;
    arena.fixed_objects = 6;
    arena.maze.height = 7;
    arena.maze.width = 7;
    arena.model_name = "maze";
    arena.xy_scale = 3.0;
    arena.z_height = 2.0;
    // Green then red, shuffled at each episode; one of each per two targets.
    arena.target_builders = {{{0, 0.4, 0}, {0, 0.7, 0}},
                             {{0.4, 0, 0}, {0.7, 0, 0}}};
    arena.target_proportions = {1.0, 1.0};
    arena.shuffle_target_builders = true;
    return arena;
  }();
  return spec;
}

std::vector<int> TargetTypeCounts(const MazeArenaSpec& spec, int total) {
  const std::vector<double>& proportions = spec.target_proportions;
  double sum = 0;
  for (double p : proportions) {
    sum = sum + p;
  }
  std::vector<int> counts;
  std::vector<double> errors;
  int current = 0;
  for (double p : proportions) {
    const double fraction = p / sum;
    const int count = static_cast<int>(fraction * total);
    counts.push_back(count);
    errors.push_back(fraction - count / static_cast<double>(total));
    current += count;
  }
  // np.argsort of so few errors sorts by insertion: stable.
  std::vector<std::size_t> order(counts.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    order[i] = i;
  }
  std::stable_sort(order.begin(), order.end(),
                   [&errors](auto a, auto b) { return errors[a] < errors[b]; });
  while (current < total && !order.empty()) {
    ++counts[order.back()];
    order.pop_back();
    ++current;
  }
  return counts;
}

namespace {

// The episode of a maze just regenerated: its textures, spawns and targets.
MazeEpisode DrawEpisodeOf(const MazeArenaSpec& spec,
                          const std::string& entity_layer,
                          const std::string& variations_layer,
                          random::RandomState* global_random,
                          random::RandomState* random,
                          const std::vector<int64_t>& builders) {
  MazeEpisode episode;
  episode.entity_layer = entity_layer;
  episode.variations_layer = variations_layer;
  const auto floor_textures =
      spec.floor_style.empty()
          ? static_cast<int64_t>(std::size(kFloorTextures))
          : static_cast<int64_t>(spec.floor_textures.size());
  episode.textures = DrawMazeTextures(
      episode.variations_layer, static_cast<int64_t>(spec.wall_textures.size()),
      floor_textures, global_random);
  const auto rows = GridRows(episode.entity_layer);
  const int width = spec.maze.width, height = spec.maze.height;
  for (const auto& [y, x] : FindToken(rows, kObjectToken[0])) {
    episode.targets.push_back(CellPosition(y, x, width, height, spec.xy_scale));
  }
  for (const auto& [y, x] : FindToken(rows, kSpawnToken[0])) {
    episode.spawns.push_back(CellPosition(y, x, width, height, spec.xy_scale));
  }
  // ManyHeterogeneousGoalsMaze.initialize_episode_mjcf shuffles the target
  // positions (a list: numpy's untyped shuffle, the same draws), then
  // _get_targets the builders (a list too) where the task asks for it.
  random->Shuffle(&episode.targets);
  episode.builders = builders;
  if (episode.builders.empty()) {
    for (std::size_t i = 0; i < spec.target_builders.size(); ++i) {
      episode.builders.push_back(static_cast<int64_t>(i));
    }
  }
  if (spec.shuffle_target_builders) {
    random->Shuffle(&episode.builders);
  }
  return episode;
}

}  // namespace

MazeEpisode DrawMazeEpisode(const MazeArenaSpec& spec, LabMaze* maze,
                            random::RandomState* global_random,
                            random::RandomState* random,
                            const std::vector<int64_t>& builders) {
  maze->Regenerate();
  return DrawEpisodeOf(spec, maze->entity_layer(), maze->variations_layer(),
                       global_random, random, builders);
}

MazeEpisode DrawMazeEpisode(const MazeArenaSpec& spec, FixedMaze* maze,
                            random::RandomState* global_random,
                            random::RandomState* random,
                            const std::vector<int64_t>& builders) {
  maze->Regenerate(global_random);
  return DrawEpisodeOf(spec, maze->entity_layer(), maze->variations_layer(),
                       global_random, random, builders);
}

MazeArenaXml WriteMazeArena(const MazeArenaSpec& spec,
                            const MazeEpisode& episode,
                            const std::string& texture_dir,
                            const std::string& ground_dir) {
  MazeArenaXml xml;
  xml.model = spec.model_name;
  const int width = spec.maze.width, height = spec.maze.height;
  const double scale = spec.xy_scale;
  const std::string style = "labmaze_" + spec.wall_style + "/";
  // labmaze's sky and floors are entities attached before and after the
  // walls' (their models' names, "labmaze_" and the style, made unique by
  // Composer with a suffix); outdoor_natural's are the arena's own assets,
  // written before its materials.
  const bool labmaze_floors = !spec.floor_style.empty();
  const std::string sky = "labmaze_" + spec.sky_style + "/";
  std::string floor_style = "labmaze_" + spec.floor_style;
  if (spec.floor_style == spec.wall_style) {
    floor_style += "_1";
  }
  floor_style += "/";
  std::vector<std::string> floor_textures;
  if (labmaze_floors) {
    for (const std::string& texture : spec.floor_textures) {
      floor_textures.push_back(floor_style + texture);
    }
  } else {
    floor_textures.assign(std::begin(kFloorTextures), std::end(kFloorTextures));
  }
  xml.defaults_before =
      "    <default class=\"/\">\n"
      "      <geom rgba=\"1 1 1 1\"/>\n"
      "    </default>\n";
  if (labmaze_floors) {
    xml.defaults_before += "    <default class=\"" + sky + "\"/>\n";
  }
  xml.defaults_before += "    <default class=\"" + style + "\"/>\n";
  if (labmaze_floors) {
    xml.defaults_before += "    <default class=\"" + floor_style + "\"/>\n";
  } else {
    xml.assets_before =
        "    <texture name=\"aesthetic_skybox\" class=\"/\" "
        "type=\"skybox\" file=\"" +
        ground_dir +
        "/OutdoorSkybox2048.png\" gridsize=\"3 4\" "
        "gridlayout=\".U..LFRB.D..\"/>\n";
    for (const char* texture : kFloorTextures) {
      xml.assets_before += std::string("    <texture name=\"") + texture +
                           "\" class=\"/\" type=\"2d\" file=\"" + ground_dir +
                           "/OutdoorGrassFloorD.png\"/>\n";
    }
  }
  // The walls (MazeWithTargets._make_wall_geoms): a box in maze_body per
  // rectangle of the cover, and its texturing planes (a material per axis,
  // a plane per side but the bottom).
  const std::string wall_texture =
      style + spec.wall_textures.at(episode.textures.wall);
  const auto entity_rows = GridRows(episode.entity_layer);
  const auto walls = CoverCells(entity_rows, '*', true);
  std::string wall_geoms, texturing;
  // _make_wall_texturing_planes' xyaxes per axis and side.
  const char* const xyaxes[3][2] = {
      {"0 -1 0 0 0 1", "0 1 0 0 0 1"},
      {"1 0 0 0 0 1", "-1 0 0 0 0 1"},
      {"-1 0 0 0 1 0", "1 0 0 0 1 0"},
  };
  const char axes[] = {'x', 'y', 'z'};
  for (std::size_t i = 0; i < walls.size(); ++i) {
    const ArenaBox wall = PlaceRect(walls[i], width, height, scale,
                                    spec.z_height / 2, spec.z_height / 2);
    const std::string name = "wall*_" + std::to_string(i);
    wall_geoms += "      <geom name=\"" + name +
                  "\" class=\"/\" type=\"box\" group=\"" +
                  std::to_string(kWallGeomGroup) + "\" size=\"" +
                  Vec(wall.size.data(), 3) + "\" pos=\"" +
                  Vec(wall.pos.data(), 3) + "\"/>\n";
    for (int axis = 0; axis < 3; ++axis) {
      double other[2];
      int k = 0;
      for (int j = 0; j < 3; ++j) {
        if (j != axis) {
          other[k++] = wall.size[j];
        }
      }
      const std::string material = name + "_" + axes[axis];
      const double repeat[2] = {2 * other[0] / scale, 2 * other[1] / scale};
      xml.assets_before += "    <material name=\"" + material +
                           "\" class=\"/\" texture=\"" + wall_texture +
                           "\" texrepeat=\"" + Vec(repeat, 2) + "\"/>\n";
      const double plane_size[3] = {other[0], other[1], scale};
      for (int side = 0; side < 2; ++side) {
        if (axis == 2 && side == 0) {
          continue;
        }
        const int sign = side == 0 ? -1 : 1;
        double pos[3];
        for (int j = 0; j < 3; ++j) {
          // wall_pos + sign * delta_vector * wall_size (integers first).
          pos[j] =
              wall.pos[j] +
              static_cast<double>(sign * (j == axis ? 1 : 0)) * wall.size[j];
        }
        texturing += "    <geom name=\"" + name + "_texturing_" +
                     (side == 0 ? "neg_" : "pos_") + axes[axis] +
                     "\" class=\"/\" type=\"plane\" contype=\"0\" "
                     "conaffinity=\"0\" size=\"" +
                     Vec(plane_size, 3) + "\" material=\"" + material +
                     "\" pos=\"" + Vec(pos, 3) + "\" xyaxes=\"" +
                     xyaxes[axis][side] + "\"/>\n";
      }
    }
  }
  // The floor (_make_floor_variations): each variation's tiles, the main
  // floor's texture for '.', the variation's own draw for the others.
  const auto variation_rows = GridRows(episode.variations_layer);
  std::size_t drawn = 0;
  for (const char* v = kFloorVariations; *v != '\0'; ++v) {
    const char variation = *v;
    if (episode.variations_layer.find(variation) == std::string::npos) {
      break;
    }
    int64_t texture = episode.textures.floor;
    if (variation != '.') {
      if (drawn >= episode.textures.variations.size()) {
        break;  // a single floor texture: no variations
      }
      texture = episode.textures.variations[drawn++];
    }
    const auto tiles = CoverCells(variation_rows, variation, true);
    for (std::size_t i = 0; i < tiles.size(); ++i) {
      const ArenaBox tile =
          PlaceRect(tiles[i], width, height, scale, 0.0, scale);
      const std::string name =
          variation == '.'
              ? "floor_" + std::to_string(i)
              : std::string("floor_") + variation + "_" + std::to_string(i);
      const double repeat[2] = {2 * tile.size[0] / scale,
                                2 * tile.size[1] / scale};
      xml.assets_before += "    <material name=\"" + name +
                           "\" class=\"/\" texture=\"" +
                           floor_textures.at(texture) + "\" texrepeat=\"" +
                           Vec(repeat, 2) + "\"/>\n";
      texturing += "    <geom name=\"" + name +
                   "\" class=\"/\" type=\"plane\" contype=\"0\" "
                   "conaffinity=\"0\" size=\"" +
                   Vec(tile.size.data(), 3) + "\" material=\"" + name +
                   "\" pos=\"" + Vec(tile.pos.data(), 3) + "\"/>\n";
    }
  }
  // labmaze's sky (the attached SkyBox entity: its faces in SkyBox's
  // order), wall textures (WallTextures) and floor textures (FloorTextures).
  if (labmaze_floors) {
    xml.assets_before += "    <texture name=\"" + sky + "texture\" class=\"" +
                         sky + "\" type=\"skybox\"";
    const char* const faces[][2] = {{"right", "rt"}, {"left", "lf"},
                                    {"up", "up"},    {"down", "dn"},
                                    {"front", "ft"}, {"back", "bk"}};
    for (const auto& [face, file] : faces) {
      xml.assets_before += std::string(" file") + face + "=\"" + ground_dir +
                           "/" + file + ".png\"";
    }
    xml.assets_before += "/>\n";
  }
  for (const std::string& texture : spec.wall_textures) {
    xml.assets_before += "    <texture name=\"" + style + texture +
                         "\" class=\"" + style + "\" type=\"2d\" file=\"" +
                         texture_dir + "/wall_" + texture + "_d.png\"/>\n";
  }
  if (labmaze_floors) {
    for (const std::string& texture : spec.floor_textures) {
      xml.assets_before += "    <texture name=\"" + floor_style + texture +
                           "\" class=\"" + floor_style +
                           "\" type=\"2d\" file=\"" + texture_dir + "/floor_" +
                           texture + "_d.png\"/>\n";
    }
  }
  // The worldbody: the textures' attachment frame, the ground, the walls,
  // the top camera (framing the maze), then after the walker the texturing
  // planes, the floor tiles and the targets.
  const double ground[3] = {width * (scale / 2), height * (scale / 2), 1};
  const double maze_size = std::max(width, height);
  const double fovy =
      (360 / M_PI) *
      numpy_kernels::Arctan2(kTopCameraPadding * maze_size * scale / 2,
                             kTopCameraDistance);
  if (labmaze_floors) {
    xml.worldbody_before += "    <body name=\"" + sky + "\"/>\n";
  }
  xml.worldbody_before += "    <body name=\"" + style + "\"/>\n";
  if (labmaze_floors) {
    xml.worldbody_before += "    <body name=\"" + floor_style + "\"/>\n";
  }
  xml.worldbody_before +=
      "    <geom name=\"ground\" class=\"/\" type=\"plane\" size=\"" +
      Vec(ground, 3) +
      "\" pos=\"0 0 0\" rgba=\"0 0 0 0\"/>\n"
      "    <body name=\"maze_body\">\n" +
      wall_geoms +
      "    </body>\n"
      "    <camera name=\"top_camera\" class=\"/\" fovy=\"" +
      Num(fovy) + "\" pos=\"0 0 100\" zaxis=\"0 0 1\"/>\n";
  xml.worldbody_after = texturing;
  // The targets, type after type (target_<type>_<i>), each type in its
  // builder's colours, at the shuffled positions in order.
  const double target_size = spec.target_radius;
  const std::vector<int> counts =
      TargetTypeCounts(spec, static_cast<int>(episode.targets.size()));
  std::size_t position = 0;
  for (std::size_t type = 0; type < counts.size(); ++type) {
    const TargetColors& colors = spec.target_builders.at(
        static_cast<std::size_t>(episode.builders.at(type)));
    for (int i = 0; i < counts[type]; ++i, ++position) {
      const std::string target =
          "target_" + std::to_string(type) + "_" + std::to_string(i) + "/";
      xml.defaults_after += "    <default class=\"" + target + "\"/>\n";
      xml.assets_after += "    <texture name=\"" + target +
                          "target_sphere\" class=\"" + target +
                          "\" type=\"cube\" builtin=\"checker\" rgb1=\"" +
                          Vec(colors.rgb1.data(), 3) + "\" rgb2=\"" +
                          Vec(colors.rgb2.data(), 3) +
                          "\" width=\"100\" height=\"100\"/>\n"
                          "    <material name=\"" +
                          target + "target_sphere\" class=\"" + target +
                          "\" texture=\"" + target + "target_sphere\"/>\n";
      xml.worldbody_after +=
          "    <body pos=\"" + Vec(episode.targets[position].data(), 3) +
          "\" name=\"" + target + "\">\n      <geom name=\"" + target +
          "geom\" class=\"" + target + "\" type=\"sphere\" size=\"" +
          Num(target_size) + "\" material=\"" + target +
          "target_sphere\" margin=\"" + Num(-2 * target_size) + "\" gap=\"" +
          Num(2 * target_size) + "\" pos=\"0 0 " + Num(spec.target_height) +
          "\"/>\n    </body>\n";
    }
  }
  return xml;
}

bool SameMazeEpisode(const MazeEpisode& a, const MazeEpisode& b) {
  return a.entity_layer == b.entity_layer &&
         a.variations_layer == b.variations_layer &&
         a.textures.wall == b.textures.wall &&
         a.textures.floor == b.textures.floor &&
         a.textures.variations == b.textures.variations &&
         a.targets == b.targets && a.spawns == b.spawns &&
         a.builders == b.builders;
}

}  // namespace envpool::locomotion
