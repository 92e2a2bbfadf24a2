// MiniGridEnv: every MiniGrid level of minigrid 3.2.0 behind one env class,
// as EnvPool's MiniGridEnvSpec, the level chosen by the `env_name` option
// (level_table.h names every level).
//
// Observation (a dict, as EnvPool's): `direction` (0 right, 1 down, 2 left,
// 3 up), `image` (agent_view_size x agent_view_size x 3 uint8, minigrid's
// (type, colour, state) encoding, x-major as minigrid's obs["image"]) and
// `mission` (the mission string's bytes, zero-padded to mission_bytes).
// info: `agent_pos` (x, y) and `mission_id` (the mission's index among the
// level's enumerated missions: see docs/minigrid.md).
//
// Seeding: minigrid draws layouts from the env's np_random, which np_random_
// reproduces; the levels make minigrid's draws in minigrid's order, so
// envpool's env i with seed s lays out what minigrid's reset(seed=s + i)
// does, and later resets continue the generator as minigrid's do.
#ifndef ENVPOOL_MINIGRID_MINIGRID_ENV_H_
#define ENVPOOL_MINIGRID_MINIGRID_ENV_H_

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envpool/core/env.h"
#include "envpool/minigrid/level_config.h"
#include "envpool/minigrid/level_table.h"
#include "envpool/minigrid/render.h"
#include "envpool/minigrid/world.h"

namespace envpool::minigrid {

class MiniGridEnv : public Env {
 public:
  struct Fields {
    Field<int32_t> direction;
    Field<uint8_t> image;
    Field<uint8_t> mission;
    Field<int32_t> agent_pos;
    Field<int32_t> mission_id;
    Field<int64_t> action;
  };

  // EnvPool's MiniGridEnvSpec options and defaults.
  static Options DefaultOptions() {
    return Options{
        {"env_name", std::string("empty")},
        {"size", int64_t{8}},
        {"width", int64_t{9}},
        {"height", int64_t{7}},
        {"agent_view_size", int64_t{7}},
        {"agent_start_pos", OptionInts{1, 1}},
        {"agent_start_dir", int64_t{0}},
        {"strip2_row", int64_t{2}},
        {"num_crossings", int64_t{1}},
        {"obstacle_type", std::string("lava")},
        {"n_obstacles", int64_t{4}},
        {"action_max", int64_t{6}},
        {"num_objs", int64_t{3}},
        {"num_rows", int64_t{3}},
        {"num_cols", int64_t{3}},
        {"room_size", int64_t{6}},
        {"obj_type", std::string("ball")},
        {"random_length", false},
        {"min_num_rooms", int64_t{2}},
        {"max_num_rooms", int64_t{6}},
        {"max_room_size", int64_t{10}},
        {"agent_room", OptionInts{1, 1}},
        {"key_in_box", true},
        {"blocked", true},
        {"num_quarters", int64_t{4}},
        {"num_rooms_visited", int64_t{25}},
        {"mission_bytes", int64_t{96}},
        {"num_dists", int64_t{18}},
        {"doors_open", false},
        {"debug", false},
        {"select_by", std::string()},
        {"first_color", std::string()},
        {"second_color", std::string()},
        {"strict", false},
        {"num_doors", int64_t{2}},
        {"objs_per_room", int64_t{4}},
        {"start_carrying", false},
        {"distractors", false},
        {"action_kinds", std::string(kDefaultActionKinds)},
        {"instr_kinds", std::string(kDefaultInstrKinds)},
        {"locations", true},
        {"unblocking", true},
        {"implicit_unlock", true},
        {"locked_room_prob", 0.5},
        {"wfc_preset", std::string("MazeSimple")},
        {"ensure_connected", true},
    };
  }

  static LevelConfig Config(const Options& o) {
    LevelConfig c;
    auto get_int = [&o](const char* name, int64_t low, int64_t high) {
      int64_t v = o.Get<int64_t>(name);
      if (v < low || v > high) {
        throw std::invalid_argument(std::string("MiniGrid option '") + name +
                                    "' must be in " + std::to_string(low) +
                                    ".." + std::to_string(high) + ", got " +
                                    std::to_string(v));
      }
      return static_cast<int>(v);
    };
    c.env_name = o.Get<std::string>("env_name");
    c.size = get_int("size", 5, 25);
    c.width = get_int("width", 7, 25);
    c.height = get_int("height", 5, 25);
    c.agent_view_size = get_int("agent_view_size", 3, 25);
    if (c.agent_view_size % 2 == 0) {
      throw std::invalid_argument(
          "MiniGrid option 'agent_view_size' must be odd, got " +
          std::to_string(c.agent_view_size));
    }
    const OptionInts start = o.Get<OptionInts>("agent_start_pos");
    const bool random_start = start == OptionInts{-1, -1};
    if (start.size() != 2 ||
        (!random_start &&
         (start[0] < 0 || start[0] > 23 || start[1] < 0 || start[1] > 23))) {
      throw std::invalid_argument(
          "MiniGrid option 'agent_start_pos' must be [x, y] with x and y in "
          "0..23, or [-1, -1] (placed at random, minigrid's None), got " +
          IntsText(start));
    }
    c.agent_start_x = static_cast<int>(start[0]);
    c.agent_start_y = static_cast<int>(start[1]);
    c.agent_start_dir = get_int("agent_start_dir", -1, 3);
    c.strip2_row = get_int("strip2_row", 1, 23);
    c.num_crossings = get_int("num_crossings", 0, 20);
    c.obstacle_type = o.Get<std::string>("obstacle_type");
    if (c.obstacle_type != "lava" && c.obstacle_type != "wall") {
      throw std::invalid_argument(
          "MiniGrid option 'obstacle_type' must be 'lava' or 'wall', got '" +
          c.obstacle_type + "'");
    }
    c.n_obstacles = get_int("n_obstacles", 0, 100);
    c.num_objs = get_int("num_objs", 1, 20);
    c.num_rows = get_int("num_rows", 1, 3);
    c.num_cols = get_int("num_cols", 1, 3);
    c.room_size = get_int("room_size", 3, 20);
    c.obj_type = o.Get<std::string>("obj_type");
    if (c.obj_type != "ball" && c.obj_type != "key" && c.obj_type != "box") {
      throw std::invalid_argument(
          "MiniGrid option 'obj_type' must be 'ball', 'key' or 'box', got '" +
          c.obj_type + "'");
    }
    c.random_length = o.Get<bool>("random_length");
    c.min_num_rooms = get_int("min_num_rooms", 1, 10);
    c.max_num_rooms = get_int("max_num_rooms", c.min_num_rooms, 10);
    c.max_room_size = get_int("max_room_size", 4, 10);
    const OptionInts room = o.Get<OptionInts>("agent_room");
    if (room.size() != 2 || room[0] < 0 || room[0] > 2 || room[1] < 0 ||
        room[1] > 2) {
      throw std::invalid_argument(
          "MiniGrid option 'agent_room' must be [i, j], a room's column and "
          "row, each in 0..2, got " +
          IntsText(room));
    }
    c.agent_room_x = static_cast<int>(room[0]);
    c.agent_room_y = static_cast<int>(room[1]);
    c.key_in_box = o.Get<bool>("key_in_box");
    c.blocked = o.Get<bool>("blocked");
    c.num_quarters = get_int("num_quarters", 1, 4);
    c.num_rooms_visited = get_int("num_rooms_visited", 1, 100);
    c.num_dists = get_int("num_dists", 0, 40);
    c.doors_open = o.Get<bool>("doors_open");
    c.debug = o.Get<bool>("debug");
    c.select_by = o.Get<std::string>("select_by");
    if (!c.select_by.empty() && c.select_by != "color" &&
        c.select_by != "loc") {
      throw std::invalid_argument(
          "MiniGrid option 'select_by' must be '', 'color' or 'loc', got '" +
          c.select_by + "'");
    }
    c.first_color = ColorOption(o, "first_color");
    c.second_color = ColorOption(o, "second_color");
    c.strict = o.Get<bool>("strict");
    c.num_doors = get_int("num_doors", 2, 4);
    c.objs_per_room = get_int("objs_per_room", 1, 9);
    c.start_carrying = o.Get<bool>("start_carrying");
    c.distractors = o.Get<bool>("distractors");
    c.action_kinds =
        KindsOption(o, "action_kinds", {"goto", "pickup", "open", "putnext"});
    c.instr_kinds = KindsOption(o, "instr_kinds", {"action", "and", "seq"});
    c.locations = o.Get<bool>("locations");
    c.unblocking = o.Get<bool>("unblocking");
    c.implicit_unlock = o.Get<bool>("implicit_unlock");
    c.locked_room_prob = o.Get<double>("locked_room_prob");
    if (!(c.locked_room_prob >= 0.0 && c.locked_room_prob <= 1.0)) {
      throw std::invalid_argument(
          "MiniGrid option 'locked_room_prob' must be in [0, 1], got " +
          std::to_string(c.locked_room_prob));
    }
    c.wfc_preset = o.Get<std::string>("wfc_preset");
    c.ensure_connected = o.Get<bool>("ensure_connected");
    CheckLevelTakesOptions(c);
    return c;
  }

  static constexpr const char* kDefaultActionKinds = "goto,pickup,open,putnext";
  static constexpr const char* kDefaultInstrKinds = "action,and,seq";

  static std::string IntsText(const OptionInts& v) {
    std::string text = "[";
    for (size_t i = 0; i < v.size(); ++i) {
      text += (i ? ", " : "") + std::to_string(v[i]);
    }
    return text + "]";
  }

  // A comma-separated list of LevelGen's kinds (EnvPool's form of minigrid's
  // list argument), in order: the level draws from it by index.
  static std::vector<std::string> KindsOption(
      const Options& o, const char* name,
      const std::vector<std::string>& known) {
    const std::string text = o.Get<std::string>(name);
    std::vector<std::string> kinds;
    size_t begin = 0;
    for (;;) {
      const size_t end = text.find(',', begin);
      std::string kind = text.substr(
          begin, end == std::string::npos ? std::string::npos : end - begin);
      if (std::find(known.begin(), known.end(), kind) == known.end()) {
        std::string names;
        for (const std::string& k : known) {
          names += (names.empty() ? "" : ", ") + k;
        }
        throw std::invalid_argument(
            std::string("MiniGrid option '") + name +
            "' must be a comma-separated list of " + names + " (e.g. '" +
            (std::string(name) == "action_kinds" ? kDefaultActionKinds
                                                 : kDefaultInstrKinds) +
            "'), got '" + text + "'");
      }
      kinds.push_back(std::move(kind));
      if (end == std::string::npos) {
        break;
      }
      begin = end + 1;
    }
    return kinds;
  }

  // A colour name, or "" (-1: drawn by the level).
  static int ColorOption(const Options& o, const char* name) {
    std::string value = o.Get<std::string>(name);
    if (value.empty()) {
      return -1;
    }
    for (int color = 0; color < 6; ++color) {
      if (value == ColorName(color)) {
        return color;
      }
    }
    throw std::invalid_argument(
        std::string("MiniGrid option '") + name +
        "' must be '' or one of red, green, blue, purple, yellow, grey, got '" +
        value + "'");
  }

  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    LevelConfig c = Config(options);
    std::unique_ptr<Level> level = MakeLevel(c);
    int64_t action_max = options.Get<int64_t>("action_max");
    if (action_max != level->NumActions() - 1) {
      throw std::invalid_argument("MiniGrid option 'action_max' must be " +
                                  std::to_string(level->NumActions() - 1) +
                                  " for env_name '" + c.env_name + "', got " +
                                  std::to_string(action_max));
    }
    int64_t mission_bytes = options.Get<int64_t>("mission_bytes");
    if (mission_bytes < 1 || mission_bytes > 4096) {
      throw std::invalid_argument(
          "MiniGrid option 'mission_bytes' must be in 1..4096, got " +
          std::to_string(mission_bytes));
    }
    const int64_t v = c.agent_view_size;
    fields->direction = spec->state.AddDiscrete<int32_t>("obs:direction", 4);
    fields->image =
        spec->state.Add<uint8_t>("obs:image", {v, v, 3}, {0.0}, {255.0});
    fields->mission = spec->state.Add<uint8_t>("obs:mission", {mission_bytes},
                                               {0.0}, {255.0});
    fields->agent_pos =
        spec->state.Add<int32_t>("info:agent_pos", {2}, {0.0}, {25.0});
    fields->mission_id =
        spec->state.Add<int32_t>("info:mission_id", {}, {-1.0}, {1024.0});
    fields->action =
        spec->action.AddDiscrete<int64_t>("action", action_max + 1);
    spec->snapshots = true;
    DeclareFrames(options, c, spec);
  }

  // minigrid's render(): the full grid at tile_size 32 pixels a cell
  // (32 * width x 32 * height), or at another tile size t where
  // render_width and render_height are t * width and t * height (minigrid's
  // tile_size option), 10 frames per second.
  static void DeclareFrames(const Options& options, const LevelConfig& c,
                            EnvSpec* spec) {
    auto [grid_w, grid_h] = GridSize(c);
    auto get = [&](const char* name) {
      return options.Has(name) ? options.Get<int64_t>(name) : int64_t{0};
    };
    const int64_t w = get("render_width");
    const int64_t h = get("render_height");
    if ((w != 0 || h != 0) && grid_w > 0) {
      const bool tiles = w > 0 && h > 0 && w % grid_w == 0 && h % grid_h == 0 &&
                         w / grid_w == h / grid_h;
      if (!tiles) {
        throw std::invalid_argument(
            "options 'render_width' and 'render_height' must both be 0 (" +
            std::to_string(grid_w * kTilePixels) + "x" +
            std::to_string(grid_h * kTilePixels) +
            ", 32 pixels a cell) or t * " + std::to_string(grid_w) +
            " and t * " + std::to_string(grid_h) +
            " for a tile size t: this grid is " + std::to_string(grid_w) + "x" +
            std::to_string(grid_h) + " cells; got " + std::to_string(w) + "x" +
            std::to_string(h));
      }
    }
    DeclareRendering(options, spec, {"rgb_array"}, grid_w * kTilePixels,
                     grid_h * kTilePixels, kRenderFps, /*any_size=*/true);
  }

  // The level's grid size in cells, read off one layout (every level's is
  // fixed by its options); 0 x 0 where the options leave no layout (the
  // first reset says why).
  static std::pair<int, int> GridSize(const LevelConfig& c) {
    std::unique_ptr<Level> level = MakeLevel(c);
    random::Generator rng(uint64_t{0});
    level->rng_ = &rng;
    try {
      level->Reset();
    } catch (const std::exception&) {
      return {0, 0};
    }
    return {level->width(), level->height()};
  }

  MiniGridEnv(const Options& options, const Fields& fields)
      : fields_(fields),
        level_(MakeLevel(Config(options))),
        mission_bytes_(options.Get<int64_t>("mission_bytes")) {
    level_->view_size_ = Config(options).agent_view_size;
    level_->rng_ = &np_random_;
  }

  void Reset() override {
    episode_start_rng_ = np_random_;
    episode_actions_.clear();
    episode_started_ = true;
    level_->Reset();
    reward_ = 0.0;
    terminated_ = false;
    truncated_ = false;
  }

  void Step(const ActionView& action) override {
    const int a = static_cast<int>(action.Scalar(fields_.action));
    auto result = level_->Step(a);
    episode_actions_.push_back(static_cast<uint8_t>(a));
    reward_ = result.reward;
    terminated_ = result.terminated;
    truncated_ = level_->Truncated();
  }

  void Write(const Output& out) override {
    *out.Get(fields_.direction) = level_->agent_dir_;
    uint8_t* image = out.Get(fields_.image);
    if (!level_->reset_image_.empty()) {
      std::memcpy(image, level_->reset_image_.data(),
                  level_->reset_image_.size());
      level_->reset_image_.clear();
    } else {
      level_->GenObsImage(image);
    }
    uint8_t* mission = out.Get(fields_.mission);
    std::memset(mission, 0, mission_bytes_);
    const std::string& text = level_->mission_;
    std::memcpy(mission, text.data(),
                std::min<size_t>(text.size(), mission_bytes_));
    int32_t* pos = out.Get(fields_.agent_pos);
    pos[0] = level_->agent_pos_.x;
    pos[1] = level_->agent_pos_.y;
    *out.Get(fields_.mission_id) = level_->mission_id_;
  }

  void Render(int width, int height, int /*camera_id*/, uint8_t* rgb) override {
    const int tile = width / std::max(level_->width(), 1);
    if (tile < 1 || width != tile * level_->width() ||
        height != tile * level_->height()) {
      throw std::runtime_error("a " + std::to_string(width) + "x" +
                               std::to_string(height) +
                               " frame does not fit this layout's " +
                               std::to_string(level_->width()) + "x" +
                               std::to_string(level_->height()) + " grid");
    }
    renderer_.Render(*level_, tile, rgb);
  }

  // Test hook: the full grid (minigrid's Grid.encode(), x-major) followed by
  // width, height, agent x, y, direction and the carried object's code.
  std::vector<double> GetState() const override {
    std::vector<uint8_t> grid = level_->EncodeGrid();
    std::vector<double> state(grid.begin(), grid.end());
    state.push_back(level_->width());
    state.push_back(level_->height());
    state.push_back(level_->agent_pos_.x);
    state.push_back(level_->agent_pos_.y);
    state.push_back(level_->agent_dir_);
    int carrying = level_->carrying_;
    state.push_back(carrying == -1 ? -1 : level_->Obj(carrying).type);
    state.push_back(carrying == -1 ? -1 : level_->Obj(carrying).color);
    return state;
  }

  // Snapshots replay the episode: the generator as the episode's reset
  // found it and the actions since. A level's state is its grid and agent
  // and also what its layout drew (BabyAI's instruction tree and its
  // verifier's progress, Dynamic-Obstacles' obstacles, ...), which the
  // layout and the same actions rebuild exactly. Restoring costs one reset
  // and one step per action taken in the episode (docs/snapshots.md).
  void SaveState(StateWriter* writer) const override {
    writer->Put(episode_started_, episode_start_rng_, episode_actions_);
  }
  void LoadState(StateReader* reader) override {
    bool started = false;
    random::Generator start(uint64_t{0});
    std::vector<uint8_t> actions;
    reader->Get(&started, &start, &actions);
    const int num_actions = level_->NumActions();
    for (uint8_t a : actions) {
      if (a >= num_actions) {
        throw SnapshotError("the MiniGrid state is corrupt: action " +
                            std::to_string(a));
      }
    }
    const random::Generator now = np_random_;
    if (started) {
      np_random_ = start;
      level_->Reset();
      for (uint8_t a : actions) {
        level_->Step(a);
      }
      level_->reset_image_.clear();
    }
    np_random_ = now;
    episode_started_ = started;
    episode_start_rng_ = start;
    episode_actions_ = std::move(actions);
  }

  const Level& level() const { return *level_; }

 private:
  // The episode a snapshot replays (SaveState).
  bool episode_started_ = false;
  random::Generator episode_start_rng_{uint64_t{0}};
  std::vector<uint8_t> episode_actions_;
  Fields fields_;
  std::unique_ptr<Level> level_;
  size_t mission_bytes_;
  FrameRenderer renderer_;
};

}  // namespace envpool::minigrid

#endif  // ENVPOOL_MINIGRID_MINIGRID_ENV_H_
