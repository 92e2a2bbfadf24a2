// The options a level reads, taken once from the env's options.
#ifndef ENVPOOL_MINIGRID_LEVEL_CONFIG_H_
#define ENVPOOL_MINIGRID_LEVEL_CONFIG_H_

#include <cstdint>
#include <string>
#include <vector>

namespace envpool::minigrid {

struct LevelConfig {
  std::string env_name;
  int size = 8;
  int width = 9;
  int height = 7;
  int agent_view_size = 7;
  // agent_start_pos (x, y) and agent_start_dir; x < 0: placed at random.
  int agent_start_x = 1;
  int agent_start_y = 1;
  int agent_start_dir = 0;
  int strip2_row = 2;
  int num_crossings = 1;
  std::string obstacle_type = "lava";
  int n_obstacles = 4;
  int num_objs = 3;
  int num_rows = 3;
  int num_cols = 3;
  int room_size = 6;
  std::string obj_type = "ball";
  bool random_length = false;
  int min_num_rooms = 2;
  int max_num_rooms = 6;
  int max_room_size = 10;
  int agent_room_x = 1;
  int agent_room_y = 1;
  bool key_in_box = true;
  bool blocked = true;
  int num_quarters = 4;
  int num_rooms_visited = 25;
  // BabyAI
  int num_dists = 18;
  bool doors_open = false;
  bool debug = false;
  std::string select_by;  // "", "color" or "loc"
  int first_color = -1;   // a colour index, -1 drawn
  int second_color = -1;
  bool strict = false;
  int num_doors = 2;
  int objs_per_room = 4;
  bool start_carrying = false;
  bool distractors = false;
  // BabyAI's LevelGen (BossLevel, Synth*, ...): its constructor's arguments.
  std::vector<std::string> action_kinds = {"goto", "pickup", "open", "putnext"};
  std::vector<std::string> instr_kinds = {"action", "and", "seq"};
  bool locations = true;
  bool unblocking = true;
  bool implicit_unlock = true;
  double locked_room_prob = 0.5;
  // WFC: the preset (minigrid's WFC_PRESETS key) and whether only the
  // largest connected open area is kept.
  std::string wfc_preset = "MazeSimple";
  bool ensure_connected = true;
};

}  // namespace envpool::minigrid

#endif  // ENVPOOL_MINIGRID_LEVEL_CONFIG_H_
