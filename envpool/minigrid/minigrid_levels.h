// The single-grid MiniGrid levels of minigrid 3.2.0 (minigrid/envs/*.py):
// each lays out its grid with the reference's draws in the reference's
// order, and adds its own rules to the base step.
#ifndef ENVPOOL_MINIGRID_MINIGRID_LEVELS_H_
#define ENVPOOL_MINIGRID_MINIGRID_LEVELS_H_

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "envpool/minigrid/level_config.h"
#include "envpool/minigrid/world.h"

namespace envpool::minigrid {

inline bool Adjacent(Pos a, Pos b) {
  return (a.x == b.x && std::abs(a.y - b.y) == 1) ||
         (a.y == b.y && std::abs(a.x - b.x) == 1);
}

// Empty-*: a walled square, the goal in the far corner.
class EmptyLevel : public Level {
 public:
  explicit EmptyLevel(const LevelConfig& c) : c_(c) {
    max_steps_ = 4 * c.size * c.size;
    see_through_walls_ = true;
  }
  void GenGrid() override {
    NewGrid(c_.size, c_.size);
    WallRect(0, 0, width_, height_);
    PutObj(NewGoal(), width_ - 2, height_ - 2);
    if (c_.agent_start_x >= 0) {
      agent_pos_ = {c_.agent_start_x, c_.agent_start_y};
      agent_dir_ = c_.agent_start_dir;
    } else {
      PlaceAgent();
    }
    mission_ = "get to the green goal square";
  }

 private:
  LevelConfig c_;
};

// DoorKey-*: a locked door splits the room, its key on the agent's side.
class DoorKeyLevel : public Level {
 public:
  explicit DoorKeyLevel(const LevelConfig& c) : c_(c) {
    max_steps_ = 10 * c.size * c.size;
  }
  void GenGrid() override {
    NewGrid(c_.size, c_.size);
    WallRect(0, 0, width_, height_);
    PutObj(NewGoal(), width_ - 2, height_ - 2);
    int split = static_cast<int>(RandInt(2, width_ - 2));
    VertWall(split, 0);
    PlaceAgent({0, 0}, {split, height_});
    int door = static_cast<int>(RandInt(1, height_ - 2));
    PutObj(NewDoor(kYellow, true), split, door);
    PlaceObj(NewObj(kKey, kYellow), {0, 0}, {split, height_});
    mission_ = "use the key to open the door and then get to the goal";
  }

 private:
  LevelConfig c_;
};

// FourRooms-v0: four rooms of a 19x19 grid joined by one gap each.
class FourRoomsLevel : public Level {
 public:
  explicit FourRoomsLevel(const LevelConfig& /*c*/) { max_steps_ = 100; }
  void GenGrid() override {
    NewGrid(19, 19);
    HorzWall(0, 0);
    HorzWall(0, height_ - 1);
    VertWall(0, 0);
    VertWall(width_ - 1, 0);
    int room_w = width_ / 2;
    int room_h = height_ / 2;
    for (int j = 0; j < 2; ++j) {
      for (int i = 0; i < 2; ++i) {
        int x_l = i * room_w;
        int y_t = j * room_h;
        int x_r = x_l + room_w;
        int y_b = y_t + room_h;
        if (i + 1 < 2) {
          VertWall(x_r, y_t, room_h);
          Set(x_r, static_cast<int>(RandInt(y_t + 1, y_b)), -1);
        }
        if (j + 1 < 2) {
          HorzWall(x_l, y_b, room_w);
          Set(static_cast<int>(RandInt(x_l + 1, x_r)), y_b, -1);
        }
      }
    }
    PlaceAgent();
    PlaceObj(NewGoal());
    mission_ = "reach the goal";
  }
};

// MultiRoom-*: a chain of rooms joined by closed doors of changing colours.
class MultiRoomLevel : public Level {
 public:
  explicit MultiRoomLevel(const LevelConfig& c) : c_(c) {
    max_steps_ = c.max_num_rooms * 20;
  }
  void GenGrid() override {
    const int width = 25;
    const int height = 25;
    std::vector<Room> rooms;
    int num_rooms =
        static_cast<int>(RandInt(c_.min_num_rooms, c_.max_num_rooms + 1));
    while (static_cast<int>(rooms.size()) < num_rooms) {
      std::vector<Room> attempt;
      Pos entry = {static_cast<int>(RandInt(0, width - 2)), 0};
      entry.y = static_cast<int>(RandInt(0, width - 2));
      PlaceRoom(num_rooms, &attempt, 4, c_.max_room_size, 2, entry);
      if (attempt.size() > rooms.size()) {
        rooms = attempt;
      }
    }
    NewGrid(width, height);
    int wall = NewWall();
    int prev_color = -1;
    for (size_t idx = 0; idx < rooms.size(); ++idx) {
      const Room& room = rooms[idx];
      for (int i = 0; i < room.size.x; ++i) {
        Set(room.top.x + i, room.top.y, wall);
        Set(room.top.x + i, room.top.y + room.size.y - 1, wall);
      }
      for (int j = 0; j < room.size.y; ++j) {
        Set(room.top.x, room.top.y + j, wall);
        Set(room.top.x + room.size.x - 1, room.top.y + j, wall);
      }
      if (idx > 0) {
        std::vector<Color> colors;
        for (Color color : kColorNames) {
          if (color != prev_color) {
            colors.push_back(color);
          }
        }
        Color color = RandElem(colors);
        Set(room.entry, NewDoor(color));
        prev_color = color;
      }
    }
    PlaceAgent(rooms.front().top, rooms.front().size);
    PlaceObj(NewGoal(), rooms.back().top, rooms.back().size);
    mission_ = "traverse the rooms to get to the goal";
  }

 private:
  struct Room {
    Pos top;
    Pos size;
    Pos entry;
  };

  bool PlaceRoom(int num_left, std::vector<Room>* rooms, int min_sz, int max_sz,
                 int entry_wall, Pos entry) {
    int size_x = static_cast<int>(RandInt(min_sz, max_sz + 1));
    int size_y = static_cast<int>(RandInt(min_sz, max_sz + 1));
    int top_x = 0;
    int top_y = 0;
    if (rooms->empty()) {
      top_x = entry.x;
      top_y = entry.y;
    } else if (entry_wall == 0) {
      top_x = entry.x - size_x + 1;
      top_y = static_cast<int>(RandInt(entry.y - size_y + 2, entry.y));
    } else if (entry_wall == 1) {
      top_x = static_cast<int>(RandInt(entry.x - size_x + 2, entry.x));
      top_y = entry.y - size_y + 1;
    } else if (entry_wall == 2) {
      top_x = entry.x;
      top_y = static_cast<int>(RandInt(entry.y - size_y + 2, entry.y));
    } else {
      top_x = static_cast<int>(RandInt(entry.x - size_x + 2, entry.x));
      top_y = entry.y;
    }
    if (top_x < 0 || top_y < 0) {
      return false;
    }
    if (top_x + size_x > 25 || top_y + size_y >= 25) {
      return false;
    }
    for (size_t k = 0; k + 1 < rooms->size(); ++k) {
      const Room& room = (*rooms)[k];
      bool non_overlap =
          top_x + size_x < room.top.x || room.top.x + room.size.x <= top_x ||
          top_y + size_y < room.top.y || room.top.y + room.size.y <= top_y;
      if (!non_overlap) {
        return false;
      }
    }
    rooms->push_back(Room{{top_x, top_y}, {size_x, size_y}, entry});
    if (num_left == 1) {
      return true;
    }
    for (int i = 0; i < 8; ++i) {
      std::vector<int> walls;
      for (int w = 0; w < 4; ++w) {
        if (w != entry_wall) {
          walls.push_back(w);
        }
      }
      int exit_wall = RandElem(walls);
      int next_entry_wall = (exit_wall + 2) % 4;
      Pos exit;
      if (exit_wall == 0) {
        exit = {top_x + size_x - 1,
                top_y + static_cast<int>(RandInt(1, size_y - 1))};
      } else if (exit_wall == 1) {
        exit = {top_x + static_cast<int>(RandInt(1, size_x - 1)),
                top_y + size_y - 1};
      } else if (exit_wall == 2) {
        exit = {top_x, top_y + static_cast<int>(RandInt(1, size_y - 1))};
      } else {
        exit = {top_x + static_cast<int>(RandInt(1, size_x - 1)), top_y};
      }
      if (PlaceRoom(num_left - 1, rooms, min_sz, max_sz, next_entry_wall,
                    exit)) {
        break;
      }
    }
    return true;
  }

  LevelConfig c_;
};

// LavaCrossing / SimpleCrossing: rivers of lava or walls with one gap each.
class CrossingLevel : public Level {
 public:
  explicit CrossingLevel(const LevelConfig& c) : c_(c) {
    max_steps_ = 4 * c.size * c.size;
    lava_ = c.obstacle_type == "lava";
  }
  void GenGrid() override {
    NewGrid(c_.size, c_.size);
    WallRect(0, 0, width_, height_);
    agent_pos_ = {1, 1};
    agent_dir_ = 0;
    PutObj(NewGoal(), width_ - 2, height_ - 2);
    // (vertical?, position)
    std::vector<std::pair<bool, int>> rivers;
    for (int i = 2; i < height_ - 2; i += 2) {
      rivers.emplace_back(true, i);
    }
    for (int j = 2; j < width_ - 2; j += 2) {
      rivers.emplace_back(false, j);
    }
    rng_->Shuffle(&rivers);
    rivers.resize(std::min<size_t>(rivers.size(), c_.num_crossings));
    std::vector<int> rivers_v;
    std::vector<int> rivers_h;
    for (const auto& [vertical, pos] : rivers) {
      (vertical ? rivers_v : rivers_h).push_back(pos);
    }
    std::sort(rivers_v.begin(), rivers_v.end());
    std::sort(rivers_h.begin(), rivers_h.end());
    for (int i = 1; i < width_ - 1; ++i) {
      for (int j : rivers_h) {
        PutObj(Obstacle(), i, j);
      }
    }
    for (int i : rivers_v) {
      for (int j = 1; j < height_ - 1; ++j) {
        PutObj(Obstacle(), i, j);
      }
    }
    // true: cross a horizontal step (h), false: a vertical one (v).
    std::vector<int> path(rivers_v.size(), 1);
    path.insert(path.end(), rivers_h.size(), 0);
    rng_->Shuffle(&path);
    std::vector<int> limits_v = {0};
    limits_v.insert(limits_v.end(), rivers_v.begin(), rivers_v.end());
    limits_v.push_back(height_ - 1);
    std::vector<int> limits_h = {0};
    limits_h.insert(limits_h.end(), rivers_h.begin(), rivers_h.end());
    limits_h.push_back(width_ - 1);
    size_t room_i = 0;
    size_t room_j = 0;
    for (int horizontal : path) {
      int i = 0;
      int j = 0;
      if (horizontal != 0) {
        i = limits_v[room_i + 1];
        j = limits_h[room_j] + 1 +
            static_cast<int>(
                RandInt(0, limits_h[room_j + 1] - limits_h[room_j] - 1));
        ++room_i;
      } else {
        i = limits_v[room_i] + 1 +
            static_cast<int>(
                RandInt(0, limits_v[room_i + 1] - limits_v[room_i] - 1));
        j = limits_h[room_j + 1];
        ++room_j;
      }
      Set(i, j, -1);
    }
    mission_ = lava_ ? "avoid the lava and get to the green goal square"
                     : "find the opening and get to the green goal square";
  }

 private:
  int Obstacle() { return lava_ ? NewLava() : NewWall(); }
  LevelConfig c_;
  bool lava_;
};

// LavaGap-*: one column of lava with a gap.
class LavaGapLevel : public Level {
 public:
  explicit LavaGapLevel(const LevelConfig& c) : c_(c) {
    max_steps_ = 4 * c.size * c.size;
    lava_ = c.obstacle_type == "lava";
  }
  void GenGrid() override {
    NewGrid(c_.size, c_.size);
    WallRect(0, 0, width_, height_);
    agent_pos_ = {1, 1};
    agent_dir_ = 0;
    PutObj(NewGoal(), width_ - 2, height_ - 2);
    Pos gap;
    gap.x = static_cast<int>(RandInt(2, width_ - 2));
    gap.y = static_cast<int>(RandInt(1, height_ - 1));
    VertWall(gap.x, 1, height_ - 2, lava_ ? kLava : kWall);
    Set(gap, -1);
    mission_ = lava_ ? "avoid the lava and get to the green goal square"
                     : "find the opening and get to the green goal square";
  }

 private:
  LevelConfig c_;
  bool lava_;
};

// DistShift1/2: two strips of lava between the agent and the goal.
class DistShiftLevel : public Level {
 public:
  explicit DistShiftLevel(const LevelConfig& c) : c_(c) {
    max_steps_ = 4 * c.width * c.height;
    see_through_walls_ = true;
  }
  void GenGrid() override {
    NewGrid(c_.width, c_.height);
    WallRect(0, 0, width_, height_);
    PutObj(NewGoal(), width_ - 2, 1);
    for (int i = 0; i < width_ - 6; ++i) {
      Set(3 + i, 1, NewLava());
      Set(3 + i, c_.strip2_row, NewLava());
    }
    if (c_.agent_start_x >= 0) {
      agent_pos_ = {c_.agent_start_x, c_.agent_start_y};
      agent_dir_ = c_.agent_start_dir;
    } else {
      PlaceAgent();
    }
    mission_ = "get to the green goal square";
  }

 private:
  LevelConfig c_;
};

// Dynamic-Obstacles-*: balls that move at random every step; touching one
// ends the episode with -1.
class DynamicObstaclesLevel : public Level {
 public:
  explicit DynamicObstaclesLevel(const LevelConfig& c) : c_(c) {
    max_steps_ = 4 * c.size * c.size;
    see_through_walls_ = true;
    n_obstacles_ = c.n_obstacles <= c.size / 2.0 + 1
                       ? c.n_obstacles
                       : static_cast<int>(c.size / 2.0);
  }
  int NumActions() const override { return 3; }
  void GenGrid() override {
    NewGrid(c_.size, c_.size);
    WallRect(0, 0, width_, height_);
    Set(width_ - 2, height_ - 2, NewGoal());
    if (c_.agent_start_x >= 0) {
      agent_pos_ = {c_.agent_start_x, c_.agent_start_y};
      agent_dir_ = c_.agent_start_dir;
    } else {
      PlaceAgent();
    }
    obstacles_.clear();
    for (int i = 0; i < n_obstacles_; ++i) {
      obstacles_.push_back(NewObj(kBall, kBlue));
      PlaceObj(obstacles_.back(), {0, 0}, {-1, -1}, nullptr, 100);
    }
    mission_ = "get to the green goal square";
  }
  StepResult Step(int action) override {
    int front = Get(FrontPos());
    bool not_clear = front != -1 && Obj(front).type != kGoal;
    for (int obstacle : obstacles_) {
      Pos old = Obj(obstacle).cur_pos;
      try {
        PlaceObj(obstacle, {old.x - 1, old.y - 1}, {3, 3}, nullptr, 100);
        Set(old, -1);
      } catch (const PlacementError&) {
        // minigrid leaves an obstacle that cannot move where it is.
      }
    }
    StepResult result = BaseStep(action);
    if (action == kForward && not_clear) {
      result.reward = -1.0;
      result.terminated = true;
    }
    return result;
  }

 private:
  LevelConfig c_;
  int n_obstacles_;
  std::vector<int> obstacles_;
};

// Fetch-*: pick up the named object; any other object ends the episode.
class FetchLevel : public Level {
 public:
  explicit FetchLevel(const LevelConfig& c) : c_(c) {
    max_steps_ = 5 * c.size * c.size;
    see_through_walls_ = true;
  }
  void GenGrid() override {
    NewGrid(c_.size, c_.size);
    HorzWall(0, 0);
    HorzWall(0, height_ - 1);
    VertWall(0, 0);
    VertWall(width_ - 1, 0);
    static const std::vector<ObjType> kTypes = {kKey, kBall};
    std::vector<int> objs;
    while (static_cast<int>(objs.size()) < c_.num_objs) {
      ObjType type = RandElem(kTypes);
      Color color = kColorNames[RandInt(0, 6)];
      int obj = NewObj(type, color);
      PlaceObj(obj);
      objs.push_back(obj);
    }
    PlaceAgent();
    int target = objs[RandInt(0, static_cast<int64_t>(objs.size()))];
    target_type_ = Obj(target).type;
    target_color_ = Obj(target).color;
    static const char* kSyntax[] = {"get a", "go get a", "fetch a",
                                    "go fetch a", "you must fetch a"};
    int idx = static_cast<int>(RandInt(0, 5));
    mission_ = std::string(kSyntax[idx]) + " " + ColorName(target_color_) +
               " " + TypeName(target_type_);
    mission_id_ = (idx * 6 + ColorRank(target_color_)) * 2 +
                  (target_type_ == kKey ? 0 : 1);
  }
  StepResult Step(int action) override {
    StepResult result = BaseStep(action);
    if (carrying_ != -1) {
      const WorldObj& held = Obj(carrying_);
      if (held.color == target_color_ && held.type == target_type_) {
        result.reward = SuccessReward();
      } else {
        result.reward = 0.0;
      }
      result.terminated = true;
    }
    return result;
  }

 private:
  LevelConfig c_;
  ObjType target_type_ = kKey;
  Color target_color_ = kRed;
};

// GoToDoor-*: stand next to the named door and say done.
class GoToDoorLevel : public Level {
 public:
  explicit GoToDoorLevel(const LevelConfig& c) : c_(c) {
    max_steps_ = 4 * c.size * c.size;
    see_through_walls_ = true;
  }
  void GenGrid() override {
    NewGrid(c_.size, c_.size);
    int width = static_cast<int>(RandInt(5, c_.size + 1));
    int height = static_cast<int>(RandInt(5, c_.size + 1));
    WallRect(0, 0, width, height);
    std::vector<Pos> doors;
    doors.push_back({static_cast<int>(RandInt(2, width - 2)), 0});
    doors.push_back({static_cast<int>(RandInt(2, width - 2)), height - 1});
    doors.push_back({0, static_cast<int>(RandInt(2, height - 2))});
    doors.push_back({width - 1, static_cast<int>(RandInt(2, height - 2))});
    std::vector<Color> colors;
    while (colors.size() < doors.size()) {
      Color color = RandColor();
      if (std::find(colors.begin(), colors.end(), color) != colors.end()) {
        continue;
      }
      colors.push_back(color);
    }
    for (size_t i = 0; i < doors.size(); ++i) {
      Set(doors[i], NewDoor(colors[i]));
    }
    PlaceAgent({0, 0}, {width, height});
    int idx = static_cast<int>(RandInt(0, 4));
    target_ = doors[idx];
    mission_ = std::string("go to the ") + ColorName(colors[idx]) + " door";
    mission_id_ = ColorRank(colors[idx]);
  }
  StepResult Step(int action) override {
    StepResult result = BaseStep(action);
    if (action == kToggle) {
      result.terminated = true;
    }
    if (action == kDone) {
      if (Adjacent(agent_pos_, target_)) {
        result.reward = SuccessReward();
      }
      result.terminated = true;
    }
    return result;
  }

 private:
  LevelConfig c_;
  Pos target_;
};

inline ObjType KeyBallBox(int64_t index) {
  static constexpr ObjType kTypes[] = {kKey, kBall, kBox};
  return kTypes[index];
}
inline int KeyBallBoxRank(ObjType type) {
  return type == kKey ? 0 : (type == kBall ? 1 : 2);
}

// GoToObject-*: stand next to the named object and say done.
class GoToObjectLevel : public Level {
 public:
  explicit GoToObjectLevel(const LevelConfig& c) : c_(c) {
    max_steps_ = 5 * c.size * c.size;
    see_through_walls_ = true;
  }
  void GenGrid() override {
    NewGrid(c_.size, c_.size);
    WallRect(0, 0, width_, height_);
    std::vector<std::pair<ObjType, Color>> objs;
    std::vector<Pos> positions;
    while (static_cast<int>(objs.size()) < c_.num_objs) {
      ObjType type = KeyBallBox(RandInt(0, 3));
      Color color = RandColor();
      if (std::find(objs.begin(), objs.end(), std::make_pair(type, color)) !=
          objs.end()) {
        continue;
      }
      positions.push_back(PlaceObj(NewObj(type, color)));
      objs.emplace_back(type, color);
    }
    PlaceAgent();
    int idx = static_cast<int>(RandInt(0, static_cast<int64_t>(objs.size())));
    target_ = positions[idx];
    mission_ = std::string("go to the ") + ColorName(objs[idx].second) + " " +
               TypeName(objs[idx].first);
    mission_id_ =
        ColorRank(objs[idx].second) * 3 + KeyBallBoxRank(objs[idx].first);
  }
  StepResult Step(int action) override {
    StepResult result = BaseStep(action);
    if (action == kToggle) {
      result.terminated = true;
    }
    if (action == kDone) {
      if (Adjacent(agent_pos_, target_)) {
        result.reward = SuccessReward();
      }
      result.terminated = true;
    }
    return result;
  }

 private:
  LevelConfig c_;
  Pos target_;
};

// PutNear-*: put the named object next to the other named one.
class PutNearLevel : public Level {
 public:
  explicit PutNearLevel(const LevelConfig& c) : c_(c) {
    max_steps_ = 5 * c.size;
    see_through_walls_ = true;
  }
  void GenGrid() override {
    NewGrid(c_.size, c_.size);
    HorzWall(0, 0);
    HorzWall(0, height_ - 1);
    VertWall(0, 0);
    VertWall(width_ - 1, 0);
    std::vector<std::pair<ObjType, Color>> objs;
    std::vector<Pos> positions;
    auto near_obj = [&positions](Pos p) {
      for (Pos q : positions) {
        if (std::abs(p.x - q.x) <= 1 && std::abs(p.y - q.y) <= 1) {
          return true;
        }
      }
      return false;
    };
    while (static_cast<int>(objs.size()) < c_.num_objs) {
      ObjType type = KeyBallBox(RandInt(0, 3));
      Color color = RandColor();
      if (std::find(objs.begin(), objs.end(), std::make_pair(type, color)) !=
          objs.end()) {
        continue;
      }
      Pos pos = PlaceObj(NewObj(type, color), {0, 0}, {-1, -1}, near_obj);
      objs.emplace_back(type, color);
      positions.push_back(pos);
    }
    PlaceAgent();
    int64_t n = static_cast<int64_t>(objs.size());
    int idx = static_cast<int>(RandInt(0, n));
    move_type_ = objs[idx].first;
    move_color_ = objs[idx].second;
    int target = 0;
    do {
      target = static_cast<int>(RandInt(0, n));
    } while (target == idx);
    target_pos_ = positions[target];
    mission_ = std::string("put the ") + ColorName(move_color_) + " " +
               TypeName(move_type_) + " near the " +
               ColorName(objs[target].second) + " " +
               TypeName(objs[target].first);
    mission_id_ =
        ((ColorRank(move_color_) * 3 + KeyBallBoxRank(move_type_)) * 6 +
         ColorRank(objs[target].second)) *
            3 +
        KeyBallBoxRank(objs[target].first);
  }
  StepResult Step(int action) override {
    int pre_carrying = carrying_;
    StepResult result = BaseStep(action);
    Pos front = FrontPos();
    if (action == kPickup && carrying_ != -1) {
      const WorldObj& held = Obj(carrying_);
      if (held.type != move_type_ || held.color != move_color_) {
        result.terminated = true;
      }
    }
    if (action == kDrop && pre_carrying != -1) {
      if (Get(front) == pre_carrying) {
        if (std::abs(front.x - target_pos_.x) <= 1 &&
            std::abs(front.y - target_pos_.y) <= 1) {
          result.reward = SuccessReward();
        }
      }
      result.terminated = true;
    }
    return result;
  }

 private:
  LevelConfig c_;
  ObjType move_type_ = kKey;
  Color move_color_ = kRed;
  Pos target_pos_;
};

// RedBlueDoors-*: open the red door, then the blue one.
class RedBlueDoorsLevel : public Level {
 public:
  explicit RedBlueDoorsLevel(const LevelConfig& c) : c_(c) {
    max_steps_ = 20 * c.size * c.size;
  }
  void GenGrid() override {
    const int s = c_.size;
    NewGrid(2 * s, s);
    WallRect(0, 0, 2 * s, s);
    WallRect(s / 2, 0, s, s);
    PlaceAgent({s / 2, 0}, {s, s});
    red_ = NewDoor(kRed);
    Set(s / 2, static_cast<int>(RandInt(1, s - 1)), red_);
    blue_ = NewDoor(kBlue);
    Set(s / 2 + s - 1, static_cast<int>(RandInt(1, s - 1)), blue_);
    mission_ = "open the red door then the blue door";
  }
  StepResult Step(int action) override {
    bool red_before = Obj(red_).is_open;
    bool blue_before = Obj(blue_).is_open;
    StepResult result = BaseStep(action);
    bool red_after = Obj(red_).is_open;
    bool blue_after = Obj(blue_).is_open;
    if (blue_after) {
      result.reward = red_before ? SuccessReward() : 0.0;
      result.terminated = true;
    } else if (red_after && blue_before) {
      result.reward = 0.0;
      result.terminated = true;
    }
    return result;
  }

 private:
  LevelConfig c_;
  int red_ = -1;
  int blue_ = -1;
};

// Memory*: remember the object in the start room, go to its match.
class MemoryLevel : public Level {
 public:
  explicit MemoryLevel(const LevelConfig& c) : c_(c) {
    max_steps_ = 5 * c.size * c.size;
  }
  void GenGrid() override {
    NewGrid(c_.size, c_.size);
    HorzWall(0, 0);
    HorzWall(0, height_ - 1);
    VertWall(0, 0);
    VertWall(width_ - 1, 0);
    const int h = height_;
    int upper = h / 2 - 2;
    int lower = h / 2 + 2;
    int hallway_end = c_.random_length
                          ? static_cast<int>(RandInt(4, width_ - 2))
                          : width_ - 3;
    for (int i = 1; i < 5; ++i) {
      Set(i, upper, NewWall());
      Set(i, lower, NewWall());
    }
    Set(4, upper + 1, NewWall());
    Set(4, lower - 1, NewWall());
    for (int i = 5; i < hallway_end; ++i) {
      Set(i, upper + 1, NewWall());
      Set(i, lower - 1, NewWall());
    }
    for (int j = 0; j < h; ++j) {
      if (j != h / 2) {
        Set(hallway_end, j, NewWall());
      }
      Set(hallway_end + 2, j, NewWall());
    }
    agent_pos_ = {static_cast<int>(RandInt(1, hallway_end + 1)), h / 2};
    agent_dir_ = 0;
    ObjType start = RandInt(0, 2) == 0 ? kKey : kBall;
    Set(1, h / 2 - 1, NewObj(start, kGreen));
    // [[Ball, Key], [Key, Ball]]
    bool ball_first = RandInt(0, 2) == 0;
    ObjType first = ball_first ? kBall : kKey;
    ObjType second = ball_first ? kKey : kBall;
    Pos pos0 = {hallway_end + 1, h / 2 - 2};
    Pos pos1 = {hallway_end + 1, h / 2 + 2};
    Set(pos0, NewObj(first, kGreen));
    Set(pos1, NewObj(second, kGreen));
    if (start == first) {
      success_ = {pos0.x, pos0.y + 1};
      failure_ = {pos1.x, pos1.y - 1};
    } else {
      success_ = {pos1.x, pos1.y - 1};
      failure_ = {pos0.x, pos0.y + 1};
    }
    mission_ = "go to the matching object at the end of the hallway";
  }
  StepResult Step(int action) override {
    if (action == kPickup) {
      action = kToggle;
    }
    StepResult result = BaseStep(action);
    if (agent_pos_ == success_) {
      result.reward = SuccessReward();
      result.terminated = true;
    }
    if (agent_pos_ == failure_) {
      result.reward = 0.0;
      result.terminated = true;
    }
    return result;
  }

 private:
  LevelConfig c_;
  Pos success_;
  Pos failure_;
};

// LockedRoom-v0: six rooms off a hallway, one locked with the goal inside.
class LockedRoomLevel : public Level {
 public:
  explicit LockedRoomLevel(const LevelConfig& c) : c_(c) {
    max_steps_ = 10 * c.size;
  }
  void GenGrid() override {
    const int w = c_.size;
    const int h = c_.size;
    NewGrid(w, h);
    for (int i = 0; i < w; ++i) {
      Set(i, 0, NewWall());
      Set(i, h - 1, NewWall());
    }
    for (int j = 0; j < h; ++j) {
      Set(0, j, NewWall());
      Set(w - 1, j, NewWall());
    }
    int l_wall = w / 2 - 2;
    int r_wall = w / 2 + 2;
    for (int j = 0; j < h; ++j) {
      Set(l_wall, j, NewWall());
      Set(r_wall, j, NewWall());
    }
    struct Room {
      Pos top;
      Pos size;
      Pos door;
      Color color = kRed;
    };
    std::vector<Room> rooms;
    for (int n = 0; n < 3; ++n) {
      int j = n * (h / 3);
      for (int i = 0; i < l_wall; ++i) {
        Set(i, j, NewWall());
      }
      for (int i = r_wall; i < w; ++i) {
        Set(i, j, NewWall());
      }
      int room_w = l_wall + 1;
      int room_h = h / 3 + 1;
      rooms.push_back({{0, j}, {room_w, room_h}, {l_wall, j + 3}});
      rooms.push_back({{r_wall, j}, {room_w, room_h}, {r_wall, j + 3}});
    }
    auto rand_pos = [this](const Room& room) {
      return RandPos(room.top.x + 1, room.top.x + room.size.x - 1,
                     room.top.y + 1, room.top.y + room.size.y - 1);
    };
    int locked = static_cast<int>(RandInt(0, 6));
    Set(rand_pos(rooms[locked]), NewGoal());
    std::vector<Color> colors(kColorNames.begin(), kColorNames.end());
    for (int r = 0; r < 6; ++r) {
      int64_t idx = RandInt(0, static_cast<int64_t>(colors.size()));
      rooms[r].color = colors[idx];
      colors.erase(colors.begin() + idx);
      Set(rooms[r].door, NewDoor(rooms[r].color, r == locked));
    }
    int key_room = 0;
    do {
      key_room = static_cast<int>(RandInt(0, 6));
    } while (key_room == locked);
    Set(rand_pos(rooms[key_room]), NewObj(kKey, rooms[locked].color));
    PlaceAgent({l_wall, 0}, {r_wall - l_wall, h});
    Color lc = rooms[locked].color;
    Color kc = rooms[key_room].color;
    mission_ = std::string("get the ") + ColorName(lc) + " key from the " +
               ColorName(kc) + " room, unlock the " + ColorName(lc) +
               " door and go to the goal";
    mission_id_ = (ColorRank(lc) * 6 + ColorRank(kc)) * 6 + ColorRank(lc);
  }

 private:
  LevelConfig c_;
};

// Playground-v0: nine rooms, doors and twelve objects, no goal.
class PlaygroundLevel : public Level {
 public:
  explicit PlaygroundLevel(const LevelConfig& /*c*/) { max_steps_ = 100; }
  void GenGrid() override {
    NewGrid(19, 19);
    HorzWall(0, 0);
    HorzWall(0, height_ - 1);
    VertWall(0, 0);
    VertWall(width_ - 1, 0);
    int room_w = width_ / 3;
    int room_h = height_ / 3;
    for (int j = 0; j < 3; ++j) {
      for (int i = 0; i < 3; ++i) {
        int x_l = i * room_w;
        int y_t = j * room_h;
        int x_r = x_l + room_w;
        int y_b = y_t + room_h;
        if (i + 1 < 3) {
          VertWall(x_r, y_t, room_h);
          int y = static_cast<int>(RandInt(y_t + 1, y_b - 1));
          Set(x_r, y, NewDoor(RandColor()));
        }
        if (j + 1 < 3) {
          HorzWall(x_l, y_b, room_w);
          int x = static_cast<int>(RandInt(x_l + 1, x_r - 1));
          Set(x, y_b, NewDoor(RandColor()));
        }
      }
    }
    PlaceAgent();
    for (int i = 0; i < 12; ++i) {
      ObjType type = KeyBallBox(RandInt(0, 3));
      Color color = RandColor();
      PlaceObj(NewObj(type, color));
    }
    mission_ = "";
  }
};

}  // namespace envpool::minigrid

#endif  // ENVPOOL_MINIGRID_MINIGRID_LEVELS_H_
