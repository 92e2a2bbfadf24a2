// The maze arenas of dm_control 1.0.50's locomotion tasks
// (arenas/mazes.py's RandomMazeWithTargets) and the randomness they take
// from the global np.random:
//
// - the text maze is labmaze 1.0.6's (labmaze.RandomMaze: DeepMind Lab's
//   generator, built from the pinned sdist as @labmaze), seeded once with
//   np.random.randint(2**31) when the arena is built and regenerated at
//   every episode (the generator's own std::mt19937_64 continues);
// - the walls and floor tiles are covering.make_walls's greedy cover of the
//   maze's cells with odd-sized rectangles, placed as the arena places them
//   (cells xy_scale wide, the maze centred on the origin, y pointing up the
//   text);
// - each episode's wall texture and floor textures are drawn from the global
//   np.random (MazeWithTargets.regenerate and _make_floor_variations).
#ifndef ENVPOOL_LOCOMOTION_MAZE_ARENA_H_
#define ENVPOOL_LOCOMOTION_MAZE_ARENA_H_

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "envpool/core/random.h"

namespace deepmind::labmaze {
class RandomMaze;
}  // namespace deepmind::labmaze

namespace envpool::locomotion {

// labmaze.RandomMaze's arguments (the Python defaults where not given by
// the task: retry_count 1000, no extra connections, no doors).
struct MazeParams {
  int height = 11;  // y cells (odd)
  int width = 11;   // x cells (odd)
  int max_rooms = 4;
  int room_min_size = 3;
  int room_max_size = 5;
  int spawns_per_room = 0;
  int objects_per_room = 0;
  int max_variations = 26;
  bool simplify = true;
};

// labmaze.RandomMaze: the generator seeded once, one maze per Regenerate.
// Its state is the seed and how many mazes it made (the constructor makes
// the first), which is what a snapshot keeps: Restore replays the
// generator to the same point (a maze of 11 x 11 cells takes microseconds).
class LabMaze {
 public:
  LabMaze(const MazeParams& params, uint32_t seed);
  ~LabMaze();
  LabMaze(const LabMaze&) = delete;
  LabMaze& operator=(const LabMaze&) = delete;

  void Regenerate();
  // The generator as it was after `generations` mazes from `seed`.
  void Restore(uint32_t seed, int64_t generations);

  // The maze's text, rows ending in '\n', as labmaze's entity_layer and
  // variations_layer give it.
  const std::string& entity_layer() const { return entity_layer_; }
  const std::string& variations_layer() const { return variations_layer_; }
  uint32_t seed() const { return seed_; }
  int64_t generations() const { return generations_; }

 private:
  void Read();

  MazeParams params_;
  uint32_t seed_;
  int64_t generations_ = 0;
  std::unique_ptr<deepmind::labmaze::RandomMaze> maze_;
  std::string entity_layer_, variations_layer_;
};

// labmaze.FixedMazeWithRandomGoals(entity_layer, num_spawns, num_objects)
// without a random_state: a fixed layout whose spawn ('P') and object ('G')
// cells are drawn from the global np.random at every Regenerate: the
// layout's own tokens first (choice(replace=False) among them), then the
// extra ones among its empty cells. labmaze's constructor regenerates once:
// the owner calls Regenerate where the factory builds the maze. Its
// variations layer is all '.' (one floor). It has no state of its own: what
// it draws is the stream's.
class FixedMaze {
 public:
  FixedMaze(const std::string& layout, int num_spawns, int num_objects);

  void Regenerate(random::RandomState* global_random);

  const std::string& entity_layer() const { return entity_layer_; }
  const std::string& variations_layer() const { return variations_layer_; }

 private:
  std::vector<std::string> rows_;
  int num_spawns_, num_objects_;
  std::vector<std::array<int, 2>> empty_cells_, required_spawns_,
      required_objects_;
  std::string entity_layer_, variations_layer_;
};

// The rows of a maze's text (labmaze.TextGrid), empty lines left out.
std::vector<std::string> GridRows(const std::string& text);

// A rectangle of cells, rows [start_y, end_y) and columns [start_x, end_x)
// (covering.MazeWall).
struct MazeRect {
  int start_y, start_x, end_y, end_x;
};

// covering.make_walls(grid, wall_char, make_odd_sized_walls): the greedy
// cover of the cells holding `wall_char` with rectangles, in its order.
std::vector<MazeRect> CoverCells(const std::vector<std::string>& rows,
                                 char wall_char, bool odd_sized);

// A box of the arena: its centre and half sizes in metres, as
// MazeWithTargets computes them for a wall (z: half the height) or a floor
// tile (z: xy_scale, the plane's grid spacing).
struct ArenaBox {
  std::array<double, 3> pos, size;
};

// Where MazeWithTargets puts a rectangle of cells of a maze `width` x
// `height` cells: z is `z_center`, the half height `z_half`.
ArenaBox PlaceRect(const MazeRect& rect, int width, int height, double xy_scale,
                   double z_center, double z_half);

// grid_to_world_positions: the centre of cell (y, x) on the floor.
std::array<double, 3> CellPosition(int y, int x, int width, int height,
                                   double xy_scale);

// The cells holding `token`, row by row (find_token_grid_positions).
std::vector<std::array<int, 2>> FindToken(const std::vector<std::string>& rows,
                                          char token);

// One episode's texture draws from the global np.random
// (MazeWithTargets.regenerate): the wall texture's index among
// `wall_textures`, the main floor texture's among `floor_textures` and, for
// each floor variation after the main one ('A', 'B', ... while the
// variations layer has them), the texture redrawn until it differs from the
// main one.
struct MazeTextureDraws {
  int64_t wall = 0;
  int64_t floor = 0;
  std::vector<int64_t> variations;
};
MazeTextureDraws DrawMazeTextures(const std::string& variations_layer,
                                  int64_t wall_textures, int64_t floor_textures,
                                  random::RandomState* global_random);

// A TargetSphere builder's colours (its checker texture's rgb1 and rgb2).
struct TargetColors {
  std::array<double, 3> rgb1, rgb2;
};

// A task's maze arena and its targets, as an example builds them:
// RandomMazeWithTargets' arguments (or, with `fixed_layout`, a
// FixedMazeWithRandomGoals in a MazeWithTargets), the wall textures' style
// (labmaze's WallTextures: the textures in labmaze's order), the sky and
// floors (either the outdoor_natural aesthetic, its sky and its grass as the
// two floor textures, or labmaze's SkyBox and FloorTextures) and the
// TargetSpheres the task attaches at the target positions
// (ManyHeterogeneousGoalsMaze: a type per builder, in the proportions given,
// the builders shuffled at each episode where `shuffle_target_builders`).
struct MazeArenaSpec {
  // The maze's size (height and width: the fixed layout's, if any) and
  // labmaze's arguments.
  MazeParams maze;
  std::string fixed_layout;
  int fixed_spawns = 0, fixed_objects = 0;
  // The arena's model name (RandomMazeWithTargets: "random_maze";
  // MazeWithTargets: "maze").
  std::string model_name = "random_maze";
  double xy_scale = 2.0;
  double z_height = 2.0;
  std::string wall_style;                  // "style_01"
  std::vector<std::string> wall_textures;  // names, labmaze's order
  // labmaze's skybox style ("sky_03") and floor style ("style_01") with its
  // floor textures in labmaze's order; empty: outdoor_natural's sky and
  // grass.
  std::string sky_style;
  std::string floor_style;
  std::vector<std::string> floor_textures;
  double target_radius = 0.6;
  double target_height = 1.0;
  std::vector<TargetColors> target_builders;
  std::vector<double> target_proportions{1.0};
  bool shuffle_target_builders = false;
};

// basic_rodent_2020.rodent_maze_forage's arena and targets.
const MazeArenaSpec& RodentMazeForageArena();

// basic_cmu_2019.cmu_humanoid_maze_forage's arena and targets.
const MazeArenaSpec& CmuHumanoidMazeForageArena();

// basic_cmu_2019.cmu_humanoid_heterogeneous_forage's: a fixed room of 5 x 5
// cells of 3 m, one spawn and six targets drawn at each episode, three of
// each of two colours (which colour is worth which reward drawn too).
const MazeArenaSpec& CmuHumanoidHeterogeneousForageArena();

// ManyHeterogeneousGoalsMaze._get_targets' count of each type among
// `total` targets: each proportion's share rounded down, then one more for
// the types furthest below their share (numpy's argsort of the errors)
// until the total is reached.
std::vector<int> TargetTypeCounts(const MazeArenaSpec& spec, int total);

// One episode of the arena (the task's initialize_episode_mjcf): the maze
// regenerated, the textures drawn from the global np.random, the target
// positions shuffled with the env's random_state
// (ManyHeterogeneousGoalsMaze), and the spawn positions.
struct MazeEpisode {
  std::string entity_layer, variations_layer;
  MazeTextureDraws textures;
  std::vector<std::array<double, 3>> targets, spawns;
  // The builder of each target type (spec.target_builders' indices): where
  // the spec asks for it, the task shuffles its list of builders in place
  // at every episode, so each episode's order is the last one's shuffled
  // (`builders`: the last episode's; empty before the first, the spec's
  // order).
  std::vector<int64_t> builders;
};
MazeEpisode DrawMazeEpisode(const MazeArenaSpec& spec, LabMaze* maze,
                            random::RandomState* global_random,
                            random::RandomState* random,
                            const std::vector<int64_t>& builders = {});
MazeEpisode DrawMazeEpisode(const MazeArenaSpec& spec, FixedMaze* maze,
                            random::RandomState* global_random,
                            random::RandomState* random,
                            const std::vector<int64_t>& builders = {});
// Whether two episodes are the same (so are their models).
bool SameMazeEpisode(const MazeEpisode& a, const MazeEpisode& b);

// The arena's parts of the MJCF text Composer writes for an episode, each a
// run of lines at its place around the walker's: the defaults and assets
// before and after the walker's, the worldbody's elements before and after
// the walker's body. Texture files are named under `texture_dir`
// (labmaze's style folder: the walls', and the floors' with labmaze's
// floors) and `ground_dir` (the outdoor_natural textures, or labmaze's sky
// style folder) of the model's asset folder.
struct MazeArenaXml {
  std::string model;  // the arena's model name
  std::string defaults_before, defaults_after;
  std::string assets_before, assets_after;
  std::string worldbody_before, worldbody_after;
};
MazeArenaXml WriteMazeArena(const MazeArenaSpec& spec,
                            const MazeEpisode& episode,
                            const std::string& texture_dir,
                            const std::string& ground_dir);

}  // namespace envpool::locomotion

#endif  // ENVPOOL_LOCOMOTION_MAZE_ARENA_H_
