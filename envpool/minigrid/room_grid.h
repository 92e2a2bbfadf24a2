// minigrid's RoomGrid (minigrid/core/roomgrid.py): a num_rows x num_cols
// array of square rooms sharing walls, with doors between neighbours, and
// the levels built on it: KeyCorridor, Unlock, UnlockPickup,
// BlockedUnlockPickup, ObstructedMaze (v0 and v1).
#ifndef ENVPOOL_MINIGRID_ROOM_GRID_H_
#define ENVPOOL_MINIGRID_ROOM_GRID_H_

#include <array>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "envpool/minigrid/level_config.h"
#include "envpool/minigrid/world.h"

namespace envpool::minigrid {

class RoomGridLevel : public Level {
 public:
  // A room's door slots: no door, an opening (a removed wall), or a door.
  static constexpr int kNoDoor = -1;
  static constexpr int kOpening = -2;

  struct Room {
    Pos top;
    Pos size;
    std::array<int, 4> doors = {kNoDoor, kNoDoor, kNoDoor, kNoDoor};
    std::array<Pos, 4> door_pos;
    std::array<bool, 4> has_door_pos = {false, false, false, false};
    std::array<int, 4> neighbors = {-1, -1, -1, -1};
    bool locked = false;
    std::vector<int> objs;
  };

  RoomGridLevel(int room_size, int num_rows, int num_cols)
      : room_size_(room_size), num_rows_(num_rows), num_cols_(num_cols) {}

  Room& GetRoom(int i, int j) { return rooms_[j * num_cols_ + i]; }
  int RoomIndexFromPos(Pos p) const {
    int i = p.x / (room_size_ - 1);
    int j = p.y / (room_size_ - 1);
    return j * num_cols_ + i;
  }
  // Whether p lies in the room of index `room` (j * num_cols + i), its
  // walls included.
  bool RoomContains(int room, Pos p) const {
    const Room& r = rooms_[room];
    return p.x >= r.top.x && p.y >= r.top.y && p.x < r.top.x + r.size.x &&
           p.y < r.top.y + r.size.y;
  }

  // RoomGrid._gen_grid.
  void GenRooms() {
    NewGrid((room_size_ - 1) * num_cols_ + 1, (room_size_ - 1) * num_rows_ + 1);
    rooms_.assign(static_cast<size_t>(num_rows_) * num_cols_, Room());
    for (int j = 0; j < num_rows_; ++j) {
      for (int i = 0; i < num_cols_; ++i) {
        Room& room = GetRoom(i, j);
        room.top = {i * (room_size_ - 1), j * (room_size_ - 1)};
        room.size = {room_size_, room_size_};
        WallRect(room.top.x, room.top.y, room_size_, room_size_);
      }
    }
    for (int j = 0; j < num_rows_; ++j) {
      for (int i = 0; i < num_cols_; ++i) {
        Room& room = GetRoom(i, j);
        int x_l = room.top.x + 1;
        int y_l = room.top.y + 1;
        int x_m = room.top.x + room.size.x - 1;
        int y_m = room.top.y + room.size.y - 1;
        if (i < num_cols_ - 1) {
          room.neighbors[0] = j * num_cols_ + i + 1;
          room.door_pos[0] = {x_m, static_cast<int>(RandInt(y_l, y_m))};
          room.has_door_pos[0] = true;
        }
        if (j < num_rows_ - 1) {
          room.neighbors[1] = (j + 1) * num_cols_ + i;
          room.door_pos[1] = {static_cast<int>(RandInt(x_l, x_m)), y_m};
          room.has_door_pos[1] = true;
        }
        if (i > 0) {
          room.neighbors[2] = j * num_cols_ + i - 1;
          room.door_pos[2] = rooms_[room.neighbors[2]].door_pos[0];
          room.has_door_pos[2] = true;
        }
        if (j > 0) {
          room.neighbors[3] = (j - 1) * num_cols_ + i;
          room.door_pos[3] = rooms_[room.neighbors[3]].door_pos[1];
          room.has_door_pos[3] = true;
        }
      }
    }
    agent_pos_ = {num_cols_ / 2 * (room_size_ - 1) + room_size_ / 2,
                  num_rows_ / 2 * (room_size_ - 1) + room_size_ / 2};
    agent_dir_ = 0;
  }

  // place_in_room: not on nor next to the agent, at most 1000 + 1 tries.
  Pos PlaceInRoom(int i, int j, int obj) {
    Room& room = GetRoom(i, j);
    Pos agent = agent_pos_;
    Pos pos = PlaceObj(
        obj, room.top, room.size,
        [agent](Pos p) {
          return std::abs(agent.x - p.x) + std::abs(agent.y - p.y) < 2;
        },
        1000);
    GetRoom(i, j).objs.push_back(obj);
    return pos;
  }

  // add_object: kind < 0 draws a kind (key, ball, box), color < 0 a colour.
  int AddObject(int i, int j, int kind = -1, int color = -1) {
    ObjType type =
        kind < 0 ? KeyBallBox(RandInt(0, 3)) : static_cast<ObjType>(kind);
    Color c = color < 0 ? RandColor() : static_cast<Color>(color);
    int obj = NewObj(type, c);
    PlaceInRoom(i, j, obj);
    return obj;
  }

  // add_door: door_idx < 0 draws a free side, color < 0 a colour, locked < 0
  // a lock (_rand_bool).
  int AddDoor(int i, int j, int door_idx = -1, int color = -1,
              int locked = -1) {
    int room_index = j * num_cols_ + i;
    if (door_idx < 0) {
      for (;;) {
        door_idx = static_cast<int>(RandInt(0, 4));
        const Room& room = rooms_[room_index];
        if (room.neighbors[door_idx] != -1 && room.doors[door_idx] == kNoDoor) {
          break;
        }
      }
    }
    Color c = color < 0 ? RandColor() : static_cast<Color>(color);
    bool is_locked = locked < 0 ? RandBool() : locked != 0;
    Room& room = rooms_[room_index];
    if (room.doors[door_idx] != kNoDoor) {
      throw std::logic_error("door already exists");
    }
    room.locked = is_locked;
    int door = NewDoor(c, is_locked);
    Pos pos = room.door_pos[door_idx];
    Set(pos, door);
    Obj(door).cur_pos = pos;
    room.doors[door_idx] = door;
    rooms_[room.neighbors[door_idx]].doors[(door_idx + 2) % 4] = door;
    return door;
  }

  void RemoveWall(int i, int j, int wall_idx) {
    Room& room = GetRoom(i, j);
    Pos t = room.top;
    int w = room.size.x;
    int h = room.size.y;
    if (wall_idx == 0) {
      for (int k = 1; k < h - 1; ++k) {
        Set(t.x + w - 1, t.y + k, -1);
      }
    } else if (wall_idx == 1) {
      for (int k = 1; k < w - 1; ++k) {
        Set(t.x + k, t.y + h - 1, -1);
      }
    } else if (wall_idx == 2) {
      for (int k = 1; k < h - 1; ++k) {
        Set(t.x, t.y + k, -1);
      }
    } else {
      for (int k = 1; k < w - 1; ++k) {
        Set(t.x + k, t.y, -1);
      }
    }
    room.doors[wall_idx] = kOpening;
    rooms_[room.neighbors[wall_idx]].doors[(wall_idx + 2) % 4] = kOpening;
  }

  // RoomGrid.place_agent: in room (i, j) (drawn where < 0), facing a wall or
  // an empty cell.
  Pos PlaceAgentInRoom(int i = -1, int j = -1, bool rand_dir = true) {
    if (i < 0) {
      i = static_cast<int>(RandInt(0, num_cols_));
    }
    if (j < 0) {
      j = static_cast<int>(RandInt(0, num_rows_));
    }
    Room& room = GetRoom(i, j);
    for (;;) {
      PlaceAgent(room.top, room.size, rand_dir, 1000);
      int front = Get(FrontPos());
      if (front == -1 || Obj(front).type == kWall) {
        break;
      }
    }
    return agent_pos_;
  }

  // connect_all: random unlocked doors until every room is reachable.
  std::vector<int> ConnectAll(const std::vector<Color>& door_colors =
                                  {kColorNames.begin(), kColorNames.end()},
                              int max_itrs = 5000) {
    const int start = RoomIndexFromPos(agent_pos_);
    std::vector<int> added;
    int num_itrs = 0;
    for (;;) {
      if (num_itrs > max_itrs) {
        throw PlacementError("connect_all failed");
      }
      ++num_itrs;
      if (Reachable(start) == num_rows_ * num_cols_) {
        break;
      }
      int i = static_cast<int>(RandInt(0, num_cols_));
      int j = static_cast<int>(RandInt(0, num_rows_));
      int k = static_cast<int>(RandInt(0, 4));
      const Room& room = GetRoom(i, j);
      if (!room.has_door_pos[k] || room.doors[k] != kNoDoor) {
        continue;
      }
      if (room.locked || rooms_[room.neighbors[k]].locked) {
        continue;
      }
      Color color = RandElem(door_colors);
      added.push_back(AddDoor(i, j, k, color, 0));
    }
    return added;
  }

  // How many rooms the start room reaches through doors and openings.
  int Reachable(int start) const {
    std::vector<char> seen(rooms_.size(), 0);
    std::vector<int> stack = {start};
    int count = 0;
    while (!stack.empty()) {
      int r = stack.back();
      stack.pop_back();
      if (seen[r]) {
        continue;
      }
      seen[r] = 1;
      ++count;
      for (int d = 0; d < 4; ++d) {
        if (rooms_[r].doors[d] != kNoDoor) {
          stack.push_back(rooms_[r].neighbors[d]);
        }
      }
    }
    return count;
  }

  static ObjType KeyBallBox(int64_t index) {
    static constexpr ObjType kTypes[] = {kKey, kBall, kBox};
    return kTypes[index];
  }

 protected:
  int room_size_;
  int num_rows_;
  int num_cols_;
  std::vector<Room> rooms_;
};

// A level whose success is picking up one given object.
class PickupTargetLevel : public RoomGridLevel {
 public:
  using RoomGridLevel::RoomGridLevel;
  StepResult Step(int action) override {
    StepResult result = BaseStep(action);
    if (action == kPickup && carrying_ != -1 && carrying_ == target_) {
      result.reward = SuccessReward();
      result.terminated = true;
    }
    return result;
  }

 protected:
  int target_ = -1;
};

inline ObjType ObjTypeFromName(const std::string& name) {
  if (name == "key") {
    return kKey;
  }
  if (name == "box") {
    return kBox;
  }
  return kBall;
}

// KeyCorridor*: the object behind a locked door, its key in another room.
class KeyCorridorLevel : public PickupTargetLevel {
 public:
  explicit KeyCorridorLevel(const LevelConfig& c)
      : PickupTargetLevel(c.room_size, c.num_rows, 3), c_(c) {
    max_steps_ = 30 * c.room_size * c.room_size;
  }
  void GenGrid() override {
    GenRooms();
    for (int j = 1; j < num_rows_; ++j) {
      RemoveWall(1, j, 3);
    }
    int room_idx = static_cast<int>(RandInt(0, num_rows_));
    int door = AddDoor(2, room_idx, 2, -1, 1);
    target_ = AddObject(2, room_idx, ObjTypeFromName(c_.obj_type));
    int key_room = static_cast<int>(RandInt(0, num_rows_));
    AddObject(0, key_room, kKey, Obj(door).color);
    PlaceAgentInRoom(1, num_rows_ / 2);
    ConnectAll();
    mission_ = std::string("pick up the ") + ColorName(Obj(target_).color) +
               " " + TypeName(Obj(target_).type);
    mission_id_ = ColorRank(Obj(target_).color);
  }

 private:
  LevelConfig c_;
};

// Unlock-v0: open the locked door.
class UnlockLevel : public RoomGridLevel {
 public:
  explicit UnlockLevel(const LevelConfig& /*c*/) : RoomGridLevel(6, 1, 2) {
    max_steps_ = 8 * 36;
  }
  void GenGrid() override {
    GenRooms();
    door_ = AddDoor(0, 0, 0, -1, 1);
    AddObject(0, 0, kKey, Obj(door_).color);
    PlaceAgentInRoom(0, 0);
    mission_ = "open the door";
  }
  StepResult Step(int action) override {
    StepResult result = BaseStep(action);
    if (action == kToggle && Obj(door_).is_open) {
      result.reward = SuccessReward();
      result.terminated = true;
    }
    return result;
  }

 private:
  int door_ = -1;
};

// UnlockPickup-v0 and BlockedUnlockPickup-v0: pick up the box behind the
// locked door (blocked: a ball in front of the door).
class UnlockPickupLevel : public PickupTargetLevel {
 public:
  UnlockPickupLevel(const LevelConfig& /*c*/, bool blocked)
      : PickupTargetLevel(6, 1, 2), blocked_(blocked) {
    max_steps_ = (blocked ? 16 : 8) * 36;
  }
  void GenGrid() override {
    GenRooms();
    target_ = AddObject(1, 0, kBox);
    int door = AddDoor(0, 0, 0, -1, 1);
    if (blocked_) {
      Pos pos = Obj(door).cur_pos;
      Color color = RandColor();
      Set(pos.x - 1, pos.y, NewObj(kBall, color));
    }
    AddObject(0, 0, kKey, Obj(door).color);
    PlaceAgentInRoom(0, 0);
    mission_ =
        std::string("pick up the ") + ColorName(Obj(target_).color) + " box";
    mission_id_ = ColorRank(Obj(target_).color) * (blocked_ ? 2 : 1);
  }

 private:
  bool blocked_;
};

// ObstructedMaze-*: find the blue ball behind locked doors whose keys may
// hide in boxes, the doors maybe blocked by green balls.
class ObstructedMazeLevel : public PickupTargetLevel {
 public:
  // kind: 0 the 1Dlhb family (two rooms), 1 Full (v0), 2 Full_V1.
  ObstructedMazeLevel(const LevelConfig& c, int kind)
      : PickupTargetLevel(6, kind == 0 ? 1 : 3, kind == 0 ? 2 : 3),
        c_(c),
        kind_(kind) {
    int visited = kind == 0 ? 2 : c.num_rooms_visited;
    max_steps_ = 4 * visited * 36;
  }
  void GenGrid() override {
    GenRooms();
    std::vector<Color> all(kColorNames.begin(), kColorNames.end());
    door_colors_ = RandSubset(all, all.size());
    mission_ = "pick up the blue ball";
    if (kind_ == 0) {
      AddMazeDoor(0, 0, 0, door_colors_[0], true, c_.key_in_box, c_.blocked);
      target_ = AddObject(1, 0, kBall, kBlue);
      PlaceAgentInRoom(0, 0);
      return;
    }
    static constexpr Pos kSideRooms[] = {{2, 1}, {1, 2}, {0, 1}, {1, 0}};
    static constexpr Pos kCorners[] = {{2, 0}, {2, 2}, {0, 2}, {0, 0}};
    for (int i = 0; i < c_.num_quarters; ++i) {
      Pos side = kSideRooms[i];
      AddMazeDoor(1, 1, i, door_colors_[i], false, false, false);
      if (kind_ == 1) {
        for (int k : {-1, 1}) {
          int idx = (i + k + 4) % 4;
          AddMazeDoor(side.x, side.y, idx, door_colors_[(i + k + 6) % 6], true,
                      c_.key_in_box, c_.blocked);
        }
      } else {
        for (int k : {-1, 1}) {
          int idx = (i + k + 4) % 4;
          AddMazeDoor(side.x, side.y, idx, door_colors_[(i + k + 6) % 6], true,
                      false, c_.blocked, /*with_key=*/false);
        }
        for (int k : {-1, 1}) {
          AddKey(side.x, side.y, door_colors_[(i + k + 6) % 6], c_.key_in_box);
        }
      }
    }
    int corner = static_cast<int>(RandInt(0, c_.num_quarters));
    target_ = AddObject(kCorners[corner].x, kCorners[corner].y, kBall, kBlue);
    PlaceAgentInRoom(c_.agent_room_x, c_.agent_room_y);
  }

 private:
  // ObstructedMazeEnv.add_door: a door, a green ball in front of it when
  // blocked, and its key (in a grey box when key_in_box) when locked.
  void AddMazeDoor(int i, int j, int door_idx, Color color, bool locked,
                   bool key_in_box, bool blocked, bool with_key = true) {
    int door = AddDoor(i, j, door_idx, color, locked ? 1 : 0);
    Pos pos = Obj(door).cur_pos;
    if (blocked) {
      Pos vec = kDirToVec[door_idx];
      Set(pos.x - vec.x, pos.y - vec.y, NewObj(kBall, kGreen));
    }
    if (locked && with_key) {
      AddKey(i, j, Obj(door).color, key_in_box);
    }
  }
  void AddKey(int i, int j, Color color, bool key_in_box) {
    int obj = NewObj(kKey, color);
    if (key_in_box) {
      int box = NewObj(kBox, kGrey);
      Obj(box).contains = obj;
      obj = box;
    }
    PlaceInRoom(i, j, obj);
  }

  LevelConfig c_;
  int kind_;
  std::vector<Color> door_colors_;
};

}  // namespace envpool::minigrid

#endif  // ENVPOOL_MINIGRID_ROOM_GRID_H_
