// A check of procgen 0.10.7's serialized game before procgen reads it.
//
// procgen's libenv `set_state` (vecgame.cpp) deserializes a game with
// `fassert`s that end the process (a read past the end, another format
// version or game name, a game without its player, boss, shields or goal,
// generated assets, no end marker), resizes vectors to counts it reads
// (a negative or huge count: std::length_error or bad_alloc, which end the
// process across the C interface) and then draws the game, which indexes
// the grid, the backgrounds and the asset tables with values it read
// (std::vector::at throws, a theme of 10 or more fasserts, a grid smaller
// than its width and height reads out of bounds). A state that passed the
// pool's checksum can still hold any of these (crafted, or written by
// another build), so `CheckGameState` walks the bytes as procgen's
// `deserialize` methods read them and refuses, with a SnapshotError, every
// state that one of those reads, asserts or draws would fail on.
//
// The layout is procgen's: Game::serialize, BasicAbstractGame::serialize
// (entities, the grid) and each game's own members, in that order, then
// vecgame's END_OF_BUFFER marker. Every int and float is 4 bytes, a bool is
// an int, a vector or string is an int count then its items.
#ifndef ENVPOOL_PROCGEN_PROCGEN_STATE_H_
#define ENVPOOL_PROCGEN_PROCGEN_STATE_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "envpool/core/snapshot.h"

namespace envpool::procgen {

// The members of a game that its id and options fix: a state must carry
// the same values as the env's own game (options, level range, timeout,
// the asset seed, ...); procgen reads them back as they are.
struct FixedMembers {
  std::array<int32_t, 12> options{};  // paint_vel_info ... physics_mode
  int32_t grid_step = 0;
  int32_t level_seed_low = 0;
  int32_t level_seed_high = 0;
  int32_t game_type = 0;
  int32_t game_n = 0;
  int32_t timeout = 0;
  int32_t default_action = 0;
  int32_t fixed_asset_seed = 0;
  int32_t use_procgen_background = 0;
  int32_t end_marker = 0;

  bool operator==(const FixedMembers& o) const {
    return options == o.options && grid_step == o.grid_step &&
           level_seed_low == o.level_seed_low &&
           level_seed_high == o.level_seed_high && game_type == o.game_type &&
           game_n == o.game_n && timeout == o.timeout &&
           default_action == o.default_action &&
           fixed_asset_seed == o.fixed_asset_seed &&
           use_procgen_background == o.use_procgen_background &&
           end_marker == o.end_marker;
  }
  bool operator!=(const FixedMembers& o) const { return !(*this == o); }
};

namespace detail {

// procgen's object ids (object-ids.h) and drawing limits
// (basic-abstract-game.cpp).
constexpr int32_t kPlayer = 0;
constexpr int32_t kInvalidObject = -1;
constexpr int32_t kSpace = 100;
constexpr int32_t kAssetTypes = 100;      // USE_ASSET_THRESHOLD
constexpr int32_t kImageThemes = 10;      // MAX_IMAGE_THEMES
constexpr int32_t kMonochromeTypes = 64;  // color_for_type's k**3
// Entity::serialize: 31 ints and floats.
constexpr std::size_t kEntityBytes = 31 * 4;
// Option indices in FixedMembers::options (Game::serialize's order).
constexpr int kUseGeneratedAssets = 1;
constexpr int kUseMonochromeAssets = 2;

struct Entity {
  int32_t type = 0;
  int32_t image_type = 0;
  int32_t image_theme = 0;
};

[[noreturn]] inline void Corrupt(const std::string& what) {
  throw SnapshotError("the procgen state is corrupt: " + what);
}

class GameReader {
 public:
  GameReader(const char* data, std::size_t size) : data_(data), size_(size) {}

  int32_t Int(const char* what) {
    if (size_ - offset_ < 4) {
      Corrupt(std::string("it ends inside ") + what);
    }
    int32_t v = 0;
    std::memcpy(&v, data_ + offset_, 4);
    offset_ += 4;
    return v;
  }
  float Float(const char* what) {
    const int32_t bits = Int(what);
    float v = 0;
    std::memcpy(&v, &bits, 4);
    return v;
  }
  void Skip(int n, const char* what) {
    for (int i = 0; i < n; ++i) {
      Int(what);
    }
  }
  // A count of items of `item_bytes` each that must fit in what is left.
  int32_t Count(const char* what, std::size_t item_bytes) {
    const int32_t n = Int(what);
    if (n < 0 || static_cast<std::size_t>(n) > left() / item_bytes) {
      Corrupt(std::string(what) + " has " + std::to_string(n) +
              " items, more than the state holds");
    }
    return n;
  }
  std::string String(const char* what) {
    const int32_t n = Count(what, 1);
    std::string s(data_ + offset_, static_cast<std::size_t>(n));
    offset_ += static_cast<std::size_t>(n);
    return s;
  }
  std::vector<int32_t> IntVector(const char* what) {
    std::vector<int32_t> v(static_cast<std::size_t>(Count(what, 4)));
    for (int32_t& x : v) {
      x = Int(what);
    }
    return v;
  }
  void SkipVector(const char* what) { Skip(Count(what, 4), what); }

  // RandGen::serialize: is_seeded, then std::mt19937 as text; procgen's
  // generators draw only once seeded (`fassert(is_seeded)`).
  void Generator(const char* what, bool must_be_seeded) {
    const int32_t seeded = Int(what);
    const std::string text = String(what);
    if (must_be_seeded && seeded == 0) {
      Corrupt(std::string(what) + " is not seeded");
    }
    std::istringstream in(text);
    std::mt19937 generator;
    in >> generator;
    if (in.fail()) {
      Corrupt(std::string(what) + " is not a std::mt19937 state");
    }
  }

  Entity ReadEntity() {
    Entity e;
    Skip(6, "an entity");  // x, y, vx, vy, rx, ry
    e.type = Int("an entity");
    e.image_type = Int("an entity");
    e.image_theme = Int("an entity");
    Skip(22, "an entity");  // render_z ... climber_spawn_x
    return e;
  }
  std::vector<Entity> Entities(const char* what) {
    std::vector<Entity> entities(
        static_cast<std::size_t>(Count(what, kEntityBytes)));
    for (Entity& e : entities) {
      e = ReadEntity();
    }
    return entities;
  }

  std::size_t left() const { return size_ - offset_; }

 private:
  const char* data_;
  std::size_t size_;
  std::size_t offset_ = 0;
};

inline bool HasEntity(const std::vector<Entity>& entities, int32_t type) {
  for (const Entity& e : entities) {
    if (e.type == type) {
      return true;
    }
  }
  return false;
}

// What procgen's draw_image does with a type and theme: a negative image
// type is not drawn; one of 100 or more (or any, with monochrome assets) is
// a coloured square, which color_for_type asserts is a monochrome type
// below 64; others index the asset tables with theme * 100 + type.
inline void CheckDrawn(int32_t type, int32_t theme, bool monochrome,
                       const char* what) {
  // image_for_type is abs(type) (INT32_MIN stays negative: not drawn).
  const int32_t image = type == INT32_MIN ? type : (type < 0 ? -type : type);
  if (image < 0 || image == kSpace) {
    return;
  }
  if (monochrome || image >= kAssetTypes) {
    if (!monochrome || image >= kMonochromeTypes) {
      Corrupt(std::string(what) + " of type " + std::to_string(type) +
              " cannot be drawn");
    }
    return;
  }
  if (theme < 0 || theme >= kImageThemes) {
    Corrupt(std::string(what) + " has theme " + std::to_string(theme) +
            ", not 0..9");
  }
}

// What CheckGameState needs of each game: the members its serialize adds,
// in order (i an int or bool, f a float, v a vector of ints, floats or
// bools, e entities); how many backgrounds it draws from (its
// load_background_images' list in resources.cpp); and a grid type of 100 or
// more that its own draw_grid_obj draws (chaser's orbs), else 0.
struct GameLayout {
  const char* name;
  const char* members;
  int32_t backgrounds;
  int32_t drawn_grid_type;
};

inline const GameLayout& FindLayout(const std::string& game) {
  // space 13, platform 49 + 13, topdown 9, topdown_simple 1, water 7,
  // water_surface 4.
  static const std::array<GameLayout, 16> layouts = {{
      {"bigfish", "if", 7, 0},
      {"bossfight", "viiiiiiiiiiiiiiiffffffff", 13, 0},
      {"caveflyer", "", 13, 0},
      {"chaser", "vviiiiiii", 1, 1002},
      {"climber", "iiiiiff", 62, 0},
      {"coinrun", "fiiiiff", 62, 0},
      {"dodgeball", "ffffiii", 9, 0},
      {"fruitbot", "ffi", 9, 0},
      {"heist", "iiv", 9, 0},
      {"jumper", "iiiiiif", 62, 0},
      {"leaper", "ivivi", 9, 0},
      {"maze", "ii", 9, 0},
      {"miner", "i", 62, 0},
      {"ninja", "iiiiffff", 62, 0},
      {"plunder", "ivvvviiiifffff", 4, 0},
      {"starpilot", "e", 13, 0},
  }};
  for (const GameLayout& layout : layouts) {
    if (game == layout.name) {
      return layout;
    }
  }
  Corrupt("no layout for game " + game);
}

}  // namespace detail

// Walks procgen 0.10.7's serialization of `game` (`data`, as libenv's
// get_state wrote it) and returns the members the game's id and options
// fix; throws SnapshotError where procgen would abort reading or drawing it.
//
// `check_values` false reads the layout only (the env's own game, read for
// its fixed members).
inline FixedMembers CheckGameState(const std::string& game, const char* data,
                                   std::size_t size, bool check_values = true) {
  using detail::Corrupt;
  const detail::GameLayout& layout = detail::FindLayout(game);
  detail::GameReader r(data, size);
  FixedMembers fixed;
  // Game::serialize.
  if (r.Int("the format version") != 0) {
    Corrupt("not procgen's format version 0");
  }
  if (r.String("the game name") != game) {
    Corrupt("not a state of " + game);
  }
  for (int32_t& option : fixed.options) {
    option = r.Int("the options");
  }
  if (fixed.options[detail::kUseGeneratedAssets] != 0) {
    Corrupt("procgen cannot restore generated assets");
  }
  const bool monochrome = fixed.options[detail::kUseMonochromeAssets] != 0;
  fixed.grid_step = r.Int("grid_step");
  fixed.level_seed_low = r.Int("level_seed_low");
  fixed.level_seed_high = r.Int("level_seed_high");
  fixed.game_type = r.Int("game_type");
  fixed.game_n = r.Int("game_n");
  r.Generator("the level generator", true);
  r.Generator("the game's generator", true);
  r.Skip(3, "the step data");  // reward, done, level_complete
  r.Int("action");
  fixed.timeout = r.Int("timeout");
  // current_level_seed, prev_level_seed, episodes_remaining, episode_done,
  // last_reward_timer, last_reward.
  r.Skip(6, "the episode");
  fixed.default_action = r.Int("default_action");
  fixed.fixed_asset_seed = r.Int("fixed_asset_seed");
  r.Int("cur_time");
  // A game waiting for procgen's stepping threads makes act() assert.
  if (r.Int("is_waiting_for_step") != 0) {
    Corrupt("the game is waiting for a step");
  }

  // BasicAbstractGame::serialize.
  const int32_t grid_size = r.Int("grid_size");
  const std::vector<detail::Entity> entities = r.Entities("the entities");
  if (!detail::HasEntity(entities, detail::kPlayer)) {
    Corrupt("no player among the entities");
  }
  for (const detail::Entity& e : entities) {
    if (check_values) {
      detail::CheckDrawn(e.image_type, e.image_theme, monochrome, "an entity");
    }
  }
  fixed.use_procgen_background = r.Int("use_procgen_background");
  const int32_t background = r.Int("background_index");
  const int32_t backgrounds =
      fixed.use_procgen_background != 0 ? 1 : layout.backgrounds;
  if (check_values && (background < 0 || background >= backgrounds)) {
    Corrupt("background " + std::to_string(background) + " is not one of " +
            std::to_string(backgrounds));
  }
  // bg_tile_ratio, bg_pct_x, char_dim, last_move_action, move_action,
  // special_action, mixrate, maxspeed, max_jump, action_vx, action_vy,
  // action_vrot, center_x, center_y, random_agent_start,
  // has_useful_vel_info, step_rand_int.
  r.Skip(17, "the game's members");
  r.Generator("the asset generator", false);
  const int32_t width = r.Int("main_width");
  const int32_t height = r.Int("main_height");
  r.Int("out_of_bounds_object");
  r.Skip(6, "the view");  // unit, view_dim, x_off, y_off, visibility, ...
  const int32_t grid_width = r.Int("the grid's width");
  const int32_t grid_height = r.Int("the grid's height");
  const std::vector<int32_t> grid = r.IntVector("the grid");
  if (width <= 0 || height <= 0 || grid_width != width ||
      grid_height != height ||
      static_cast<int64_t>(width) * height !=
          static_cast<int64_t>(grid.size()) ||
      static_cast<int64_t>(grid_size) != static_cast<int64_t>(grid.size())) {
    Corrupt("the grid is " + std::to_string(grid_width) + "x" +
            std::to_string(grid_height) + " with " +
            std::to_string(grid.size()) + " cells, the world " +
            std::to_string(width) + "x" + std::to_string(height) +
            " with grid_size " + std::to_string(grid_size));
  }
  for (int32_t cell : grid) {
    if (!check_values || cell == detail::kInvalidObject ||
        (layout.drawn_grid_type != 0 && cell == layout.drawn_grid_type)) {
      continue;
    }
    // The grid draws with theme 0 or a game's wall theme (< 10).
    detail::CheckDrawn(cell, 0, monochrome, "a grid cell");
  }

  // The game's own members.
  std::vector<detail::Entity> spawners;
  std::vector<std::vector<int32_t>> vectors;
  for (const char* kind = layout.members; *kind != '\0'; ++kind) {
    switch (*kind) {
      case 'i':
      case 'f':
        r.Int("the game's members");
        break;
      case 'v':
        vectors.push_back(r.IntVector("the game's members"));
        break;
      case 'e':
        spawners = r.Entities("the spawners");
        for (const detail::Entity& e : spawners) {
          if (!check_values) {
            break;
          }
          detail::CheckDrawn(e.image_type, e.image_theme, monochrome,
                             "a spawner");
        }
        break;
      default:
        Corrupt("bad layout");
    }
  }
  if (game == "bossfight" &&
      !(detail::HasEntity(entities, 2) && detail::HasEntity(entities, 3))) {
    Corrupt("no boss or no shields among the entities");  // BOSS, SHIELDS
  }
  if (game == "jumper" && !detail::HasEntity(entities, 1)) {
    Corrupt("no goal among the entities");  // jumper's GOAL
  }
  // chaser's step indexes is_space_vec by grid cell and draws a cell of
  // free_cells modulo its size.
  if (check_values && game == "chaser") {
    const std::vector<int32_t>& free_cells = vectors[0];
    bool in_grid = !free_cells.empty();
    for (int32_t cell : free_cells) {
      in_grid = in_grid && cell >= 0 && cell < grid_size;
    }
    if (!in_grid || vectors[1].size() != grid.size()) {
      Corrupt("chaser's free cells or open cells do not fit its grid");
    }
  }
  fixed.end_marker = r.Int("the end marker");
  if (r.left() != 0) {
    Corrupt(std::to_string(r.left()) + " bytes after the end marker");
  }
  return fixed;
}

}  // namespace envpool::procgen

#endif  // ENVPOOL_PROCGEN_PROCGEN_STATE_H_
