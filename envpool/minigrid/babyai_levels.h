// The BabyAI levels written by hand (minigrid/envs/babyai: goto.py, open.py,
// pickup.py, putnext.py, unlock.py, other.py; minigrid 3.2.0), each a
// BabyAILevel with the reference's draws in its order, rejection sampling
// included. The LevelGen levels are in babyai_levelgen.h; level_table.h
// names them all.
//
// Two quirks of the reference are kept because they change layouts: Unlock
// and GoToImpUnlock compare numpy integers with `is`, which is never true,
// so their key may land in the locked room and every room gets distractors;
// BabyAI's UnlockPickup tests `max is None` (the builtin), so its max_steps
// is the computed one.
#ifndef ENVPOOL_MINIGRID_BABYAI_LEVELS_H_
#define ENVPOOL_MINIGRID_BABYAI_LEVELS_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "envpool/minigrid/babyai_instr.h"
#include "envpool/minigrid/babyai_level.h"
#include "envpool/minigrid/level_config.h"
#include "envpool/minigrid/world.h"

namespace envpool::minigrid {

// GoToRedBall, GoToRedBallGrey, GoToRedBallNoDists.
class GoToRedBallLevel : public BabyAILevel {
 public:
  GoToRedBallLevel(const LevelConfig& c, bool grey, bool no_dists = false)
      : BabyAILevel(8, 1, 1),
        num_dists_(no_dists ? 0 : c.num_dists),
        grey_(grey) {}

 protected:
  void GenMission() override {
    PlaceAgentInRoom();
    int obj = AddObject(0, 0, kBall, kRed);
    auto dists = AddDistractors(-1, -1, num_dists_, false);
    if (grey_) {
      for (int d : dists) {
        Obj(d).color = kGrey;
      }
    }
    CheckObjsReachable();
    instrs_ = MakeAction(InstrKind::kGoTo, DescOf(obj));
  }

 private:
  int num_dists_;
  bool grey_;
};

class GoToObjLevel : public BabyAILevel {
 public:
  explicit GoToObjLevel(const LevelConfig& c)
      : BabyAILevel(c.room_size, 1, 1) {}

 protected:
  void GenMission() override {
    PlaceAgentInRoom();
    auto objs = AddDistractors(-1, -1, 1, true);
    instrs_ = MakeAction(InstrKind::kGoTo, DescOf(objs[0]));
  }
};

class GoToLocalLevel : public BabyAILevel {
 public:
  explicit GoToLocalLevel(const LevelConfig& c)
      : BabyAILevel(c.room_size, 1, 1), num_dists_(c.num_dists) {}

 protected:
  void GenMission() override {
    PlaceAgentInRoom();
    auto objs = AddDistractors(-1, -1, num_dists_, false);
    CheckObjsReachable();
    int obj = RandElem(objs);
    instrs_ = MakeAction(InstrKind::kGoTo, DescOf(obj));
  }

 private:
  int num_dists_;
};

class GoToLevel : public BabyAILevel {
 public:
  explicit GoToLevel(const LevelConfig& c)
      : BabyAILevel(c.room_size, c.num_rows, c.num_cols),
        num_dists_(c.num_dists),
        doors_open_(c.doors_open) {}

 protected:
  void GenMission() override {
    PlaceAgentInRoom();
    ConnectAll();
    auto objs = AddDistractors(-1, -1, num_dists_, false);
    CheckObjsReachable();
    int obj = RandElem(objs);
    instrs_ = MakeAction(InstrKind::kGoTo, DescOf(obj));
    if (doors_open_) {
      OpenAllDoors();
    }
  }

 private:
  int num_dists_;
  bool doors_open_;
};

// GoToImpUnlock and Unlock share their start: a locked room and its key.
class LockedRoomStartLevel : public BabyAILevel {
 public:
  using BabyAILevel::BabyAILevel;

 protected:
  // Returns the locked door; the reference's `ik is id` is never true, so
  // the key goes to the first room drawn.
  int AddLockedDoorAndKey(int* id, int* jd) {
    *id = static_cast<int>(RandInt(0, num_cols_));
    *jd = static_cast<int>(RandInt(0, num_rows_));
    int door = AddDoor(*id, *jd, -1, -1, 1);
    int ik = static_cast<int>(RandInt(0, num_cols_));
    int jk = static_cast<int>(RandInt(0, num_rows_));
    AddObject(ik, jk, kKey, Obj(door).color);
    return door;
  }
  void PlaceAgentOutside(int locked_room) {
    for (;;) {
      PlaceAgentInRoom();
      if (RoomIndexFromPos(agent_pos_) == locked_room) {
        continue;
      }
      break;
    }
  }
};

class GoToImpUnlockLevel : public LockedRoomStartLevel {
 public:
  explicit GoToImpUnlockLevel(const LevelConfig& /*c*/)
      : LockedRoomStartLevel(8, 3, 3) {}

 protected:
  void GenMission() override {
    int id = 0;
    int jd = 0;
    AddLockedDoorAndKey(&id, &jd);
    ConnectAll();
    // `i is not id` is always true: every room gets two distractors.
    for (int i = 0; i < num_cols_; ++i) {
      for (int j = 0; j < num_rows_; ++j) {
        AddDistractors(i, j, 2, false);
      }
    }
    PlaceAgentOutside(jd * num_cols_ + id);
    CheckObjsReachable();
    auto objs = AddDistractors(id, jd, 1, false);
    instrs_ = MakeAction(InstrKind::kGoTo, DescOf(objs[0]));
  }
};

class GoToRedBlueBallLevel : public BabyAILevel {
 public:
  explicit GoToRedBlueBallLevel(const LevelConfig& c)
      : BabyAILevel(8, 1, 1), num_dists_(c.num_dists) {}

 protected:
  void GenMission() override {
    PlaceAgentInRoom();
    auto dists = AddDistractors(-1, -1, num_dists_, false);
    for (int d : dists) {
      if (Obj(d).type == kBall &&
          (Obj(d).color == kBlue || Obj(d).color == kRed)) {
        throw RejectSampling("can only have one blue or red ball");
      }
    }
    Color color = RandInt(0, 2) == 0 ? kRed : kBlue;
    int obj = AddObject(0, 0, kBall, color);
    CheckObjsReachable();
    instrs_ = MakeAction(InstrKind::kGoTo, DescOf(obj));
  }

 private:
  int num_dists_;
};

class GoToDoorBabyLevel : public BabyAILevel {
 public:
  explicit GoToDoorBabyLevel(const LevelConfig& /*c*/) : BabyAILevel(7, 3, 3) {}

 protected:
  void GenMission() override {
    std::vector<int> doors;
    for (int k = 0; k < 4; ++k) {
      doors.push_back(AddDoor(1, 1));
    }
    PlaceAgentInRoom(1, 1);
    int obj = RandElem(doors);
    instrs_ = MakeAction(InstrKind::kGoTo, Desc(kDoor, Obj(obj).color));
  }
};

class GoToObjDoorLevel : public BabyAILevel {
 public:
  explicit GoToObjDoorLevel(const LevelConfig& /*c*/) : BabyAILevel(8, 3, 3) {}

 protected:
  void GenMission() override {
    PlaceAgentInRoom(1, 1);
    auto objs = AddDistractors(1, 1, 8, false);
    for (int k = 0; k < 4; ++k) {
      objs.push_back(AddDoor(1, 1));
    }
    CheckObjsReachable();
    int obj = RandElem(objs);
    instrs_ = MakeAction(InstrKind::kGoTo, DescOf(obj));
  }
};

class OpenLevel : public BabyAILevel {
 public:
  explicit OpenLevel(const LevelConfig& /*c*/) : BabyAILevel(8, 3, 3) {}

 protected:
  void GenMission() override {
    PlaceAgentInRoom();
    ConnectAll();
    AddDistractors(-1, -1, 18, false);
    CheckObjsReachable();
    int door = RandElem(AllDoors());
    instrs_ = MakeAction(InstrKind::kOpen, DescOf(door));
  }
};

class OpenRedDoorLevel : public BabyAILevel {
 public:
  explicit OpenRedDoorLevel(const LevelConfig& /*c*/) : BabyAILevel(5, 1, 2) {}

 protected:
  void GenMission() override {
    AddDoor(0, 0, 0, kRed, 0);
    PlaceAgentInRoom(0, 0);
    instrs_ = MakeAction(InstrKind::kOpen, Desc(kDoor, kRed));
  }
};

class OpenDoorLevel : public BabyAILevel {
 public:
  explicit OpenDoorLevel(const LevelConfig& c)
      : BabyAILevel(8, 3, 3), debug_(c.debug), select_by_(c.select_by) {}

 protected:
  void GenMission() override {
    std::vector<Color> all(kColorNames.begin(), kColorNames.end());
    auto colors = RandSubset(all, 4);
    std::vector<int> objs;
    for (int i = 0; i < 4; ++i) {
      objs.push_back(AddDoor(1, 1, i, colors[i], 0));
    }
    std::string select_by = select_by_;
    if (select_by.empty()) {
      select_by = RandInt(0, 2) == 0 ? "color" : "loc";
    }
    ObjDesc desc;
    if (select_by == "color") {
      desc = Desc(kDoor, Obj(objs[0]).color);
    } else {
      desc = Desc(kDoor, -1, static_cast<int>(RandInt(0, 4)));
    }
    PlaceAgentInRoom(1, 1);
    instrs_ = MakeAction(InstrKind::kOpen, std::move(desc), debug_);
  }

 private:
  bool debug_;
  std::string select_by_;
};

class OpenTwoDoorsLevel : public BabyAILevel {
 public:
  explicit OpenTwoDoorsLevel(const LevelConfig& c)
      : BabyAILevel(6, 3, 3, 20 * 36),
        first_(c.first_color),
        second_(c.second_color),
        strict_(c.strict) {}

 protected:
  void GenMission() override {
    std::vector<Color> all(kColorNames.begin(), kColorNames.end());
    auto colors = RandSubset(all, 2);
    int first = first_ >= 0 ? first_ : colors[0];
    int second = second_ >= 0 ? second_ : colors[1];
    int door1 = AddDoor(1, 1, 2, first, 0);
    int door2 = AddDoor(1, 1, 0, second, 0);
    PlaceAgentInRoom(1, 1);
    instrs_ = MakeSeq(InstrKind::kBefore,
                      MakeAction(InstrKind::kOpen, DescOf(door1), strict_),
                      MakeAction(InstrKind::kOpen, DescOf(door2)));
  }

 private:
  int first_;
  int second_;
  bool strict_;
};

class OpenDoorsOrderLevel : public BabyAILevel {
 public:
  explicit OpenDoorsOrderLevel(const LevelConfig& c)
      : BabyAILevel(6, 3, 3, 20 * 36),
        num_doors_(c.num_doors),
        debug_(c.debug) {}

 protected:
  void GenMission() override {
    std::vector<Color> all(kColorNames.begin(), kColorNames.end());
    auto colors = RandSubset(all, num_doors_);
    std::vector<int> doors;
    for (int i = 0; i < num_doors_; ++i) {
      doors.push_back(AddDoor(1, 1, -1, colors[i], 0));
    }
    PlaceAgentInRoom(1, 1);
    auto pair = RandSubset(doors, 2);
    ObjDesc desc1 = DescOf(pair[0]);
    ObjDesc desc2 = DescOf(pair[1]);
    int64_t mode = RandInt(0, 3);
    if (mode == 0) {
      instrs_ = MakeAction(InstrKind::kOpen, desc1, debug_);
    } else {
      instrs_ = MakeSeq(mode == 1 ? InstrKind::kBefore : InstrKind::kAfter,
                        MakeAction(InstrKind::kOpen, desc1, debug_),
                        MakeAction(InstrKind::kOpen, desc2, debug_));
    }
  }

 private:
  int num_doors_;
  bool debug_;
};

class PickupLevel : public BabyAILevel {
 public:
  PickupLevel(const LevelConfig& /*c*/, bool unblock)
      : BabyAILevel(8, 3, 3), unblock_(unblock) {}

 protected:
  void GenMission() override {
    PlaceAgentInRoom();
    ConnectAll();
    auto objs = AddDistractors(-1, -1, unblock_ ? 20 : 18, false);
    if (unblock_) {
      if (CheckObjsReachable(false)) {
        throw RejectSampling("all objects reachable");
      }
    } else {
      CheckObjsReachable();
    }
    int obj = RandElem(objs);
    instrs_ = MakeAction(InstrKind::kPickup, DescOf(obj));
  }

 private:
  bool unblock_;
};

class PickupDistLevel : public BabyAILevel {
 public:
  explicit PickupDistLevel(const LevelConfig& c)
      : BabyAILevel(7, 1, 1), debug_(c.debug) {}

 protected:
  void GenMission() override {
    auto objs = AddDistractors(-1, -1, 5, true);
    PlaceAgentInRoom(0, 0);
    int obj = RandElem(objs);
    int type = Obj(obj).type;
    int color = Obj(obj).color;
    int64_t select_by = RandInt(0, 3);  // type, color, both
    if (select_by == 1) {
      type = -1;
    } else if (select_by == 0) {
      color = -1;
    }
    instrs_ = MakeAction(InstrKind::kPickup, Desc(type, color), debug_);
  }

 private:
  bool debug_;
};

class PickupAboveLevel : public BabyAILevel {
 public:
  explicit PickupAboveLevel(const LevelConfig& /*c*/)
      : BabyAILevel(6, 3, 3, 8 * 36) {}

 protected:
  void GenMission() override {
    int obj = AddObject(1, 0);
    AddDoor(1, 1, 3, -1, 0);
    PlaceAgentInRoom(1, 1);
    ConnectAll();
    instrs_ = MakeAction(InstrKind::kPickup, DescOf(obj));
  }
};

class PutNextLocalLevel : public BabyAILevel {
 public:
  explicit PutNextLocalLevel(const LevelConfig& c)
      : BabyAILevel(c.room_size, 1, 1), num_objs_(c.num_objs) {}

 protected:
  void GenMission() override {
    PlaceAgentInRoom();
    auto objs = AddDistractors(-1, -1, num_objs_, true);
    CheckObjsReachable();
    auto pair = RandSubset(objs, 2);
    instrs_ = MakePutNext(DescOf(pair[0]), DescOf(pair[1]));
  }

 private:
  int num_objs_;
};

// PutNext* (and its Carrying variants, which start holding the object to
// move: minigrid takes it off the grid after reset's observation is made).
class PutNextLevel : public BabyAILevel {
 public:
  explicit PutNextLevel(const LevelConfig& c)
      : BabyAILevel(c.room_size, 1, 2, 8 * c.room_size * c.room_size),
        objs_per_room_(c.objs_per_room),
        start_carrying_(c.start_carrying) {}

  void AfterReset() override {
    BabyAILevel::AfterReset();
    if (start_carrying_) {
      reset_image_.resize(static_cast<size_t>(view_size_) * view_size_ * 3);
      GenObsImage(reset_image_.data());
      Set(Obj(obj_a_).init_pos, -1);
      carrying_ = obj_a_;
    }
  }
  bool start_carrying() const { return start_carrying_; }

 protected:
  void GenMission() override {
    PlaceAgentInRoom(0, 0);
    auto objs_l = AddDistractors(0, 0, objs_per_room_, true);
    auto objs_r = AddDistractors(1, 0, objs_per_room_, true);
    RemoveWall(0, 0, 0);
    int a = RandElem(objs_l);
    int b = RandElem(objs_r);
    if (RandBool()) {
      std::swap(a, b);
    }
    obj_a_ = a;
    instrs_ = MakePutNext(DescOf(a), DescOf(b));
  }

 private:
  int objs_per_room_;
  bool start_carrying_;
  int obj_a_ = -1;
};

class BabyUnlockLevel : public LockedRoomStartLevel {
 public:
  explicit BabyUnlockLevel(const LevelConfig& /*c*/)
      : LockedRoomStartLevel(8, 3, 3) {}

 protected:
  void GenMission() override {
    int id = 0;
    int jd = 0;
    int door = AddLockedDoorAndKey(&id, &jd);
    if (RandBool()) {
      std::vector<Color> colors;
      for (Color color : kColorNames) {
        if (color != Obj(door).color) {
          colors.push_back(color);
        }
      }
      ConnectAll(colors);
    } else {
      ConnectAll();
    }
    for (int i = 0; i < num_cols_; ++i) {
      for (int j = 0; j < num_rows_; ++j) {
        AddDistractors(i, j, 3, false);
      }
    }
    PlaceAgentOutside(jd * num_cols_ + id);
    CheckObjsReachable();
    instrs_ = MakeAction(InstrKind::kOpen, DescOf(door));
  }
};

class UnlockLocalLevel : public BabyAILevel {
 public:
  explicit UnlockLocalLevel(const LevelConfig& c)
      : BabyAILevel(8, 3, 3), distractors_(c.distractors) {}

 protected:
  void GenMission() override {
    int door = AddDoor(1, 1, -1, -1, 1);
    AddObject(1, 1, kKey, Obj(door).color);
    if (distractors_) {
      AddDistractors(1, 1, 3, true);
    }
    PlaceAgentInRoom(1, 1);
    instrs_ = MakeAction(InstrKind::kOpen, Desc(kDoor));
  }

 private:
  bool distractors_;
};

class KeyInBoxLevel : public BabyAILevel {
 public:
  explicit KeyInBoxLevel(const LevelConfig& /*c*/) : BabyAILevel(8, 3, 3) {}

 protected:
  void GenMission() override {
    int door = AddDoor(1, 1, -1, -1, 1);
    int key = NewObj(kKey, Obj(door).color);
    int box = NewObj(kBox, RandColor());
    Obj(box).contains = key;
    PlaceInRoom(1, 1, box);
    PlaceAgentInRoom(1, 1);
    instrs_ = MakeAction(InstrKind::kOpen, Desc(kDoor));
  }
};

// UnlockPickup (max_steps computed: the reference's `max is None`),
// BlockedUnlockPickup.
class BabyUnlockPickupLevel : public BabyAILevel {
 public:
  BabyUnlockPickupLevel(const LevelConfig& c, bool blocked)
      : BabyAILevel(6, 1, 2, blocked ? 16 * 36 : -1),
        blocked_(blocked),
        distractors_(c.distractors) {}

 protected:
  void GenMission() override {
    int obj = AddObject(1, 0, kBox);
    int door = AddDoor(0, 0, 0, -1, 1);
    if (blocked_) {
      Pos pos = Obj(door).cur_pos;
      Color color = RandColor();
      Set(pos.x - 1, pos.y, NewObj(kBall, color));
    }
    AddObject(0, 0, kKey, Obj(door).color);
    if (!blocked_ && distractors_) {
      AddDistractors(-1, -1, 4, true);
    }
    PlaceAgentInRoom(0, 0);
    instrs_ = MakeAction(InstrKind::kPickup, DescOf(obj, !blocked_));
  }

 private:
  bool blocked_;
  bool distractors_;
};

class UnlockToUnlockLevel : public BabyAILevel {
 public:
  explicit UnlockToUnlockLevel(const LevelConfig& /*c*/)
      : BabyAILevel(6, 1, 3, 30 * 36) {}

 protected:
  void GenMission() override {
    std::vector<Color> all(kColorNames.begin(), kColorNames.end());
    auto colors = RandSubset(all, 2);
    AddDoor(0, 0, 0, colors[0], 1);
    AddObject(2, 0, kKey, colors[0]);
    AddDoor(1, 0, 0, colors[1], 1);
    AddObject(1, 0, kKey, colors[1]);
    int obj = AddObject(0, 0, kBall);
    PlaceAgentInRoom(1, 0);
    instrs_ = MakeAction(InstrKind::kPickup, DescOf(obj, false));
  }
};

class ActionObjDoorLevel : public BabyAILevel {
 public:
  explicit ActionObjDoorLevel(const LevelConfig& /*c*/)
      : BabyAILevel(7, 3, 3) {}

 protected:
  void GenMission() override {
    auto objs = AddDistractors(1, 1, 5, true);
    for (int k = 0; k < 4; ++k) {
      objs.push_back(AddDoor(1, 1, -1, -1, 0));
    }
    PlaceAgentInRoom(1, 1);
    int obj = RandElem(objs);
    ObjDesc desc = DescOf(obj);
    if (Obj(obj).type == kDoor) {
      instrs_ =
          MakeAction(RandBool() ? InstrKind::kGoTo : InstrKind::kOpen, desc);
    } else {
      instrs_ =
          MakeAction(RandBool() ? InstrKind::kGoTo : InstrKind::kPickup, desc);
    }
  }
};

class FindObjLevel : public BabyAILevel {
 public:
  explicit FindObjLevel(const LevelConfig& c)
      : BabyAILevel(c.room_size, 3, 3, 20 * c.room_size * c.room_size) {}

 protected:
  void GenMission() override {
    int i = static_cast<int>(RandInt(0, num_rows_));
    int j = static_cast<int>(RandInt(0, num_cols_));
    int obj = AddObject(i, j);
    PlaceAgentInRoom(1, 1);
    ConnectAll();
    instrs_ = MakeAction(InstrKind::kPickup, DescOf(obj, false));
  }
};

class BabyKeyCorridorLevel : public BabyAILevel {
 public:
  explicit BabyKeyCorridorLevel(const LevelConfig& c)
      : BabyAILevel(c.room_size, c.num_rows, 3,
                    30 * c.room_size * c.room_size) {}

 protected:
  void GenMission() override {
    for (int j = 1; j < num_rows_; ++j) {
      RemoveWall(1, j, 3);
    }
    int room_idx = static_cast<int>(RandInt(0, num_rows_));
    int door = AddDoor(2, room_idx, 2, -1, 1);
    int obj = AddObject(2, room_idx, kBall);
    int key_room = static_cast<int>(RandInt(0, num_rows_));
    AddObject(0, key_room, kKey, Obj(door).color);
    PlaceAgentInRoom(1, num_rows_ / 2);
    ConnectAll();
    instrs_ = MakeAction(InstrKind::kPickup, DescOf(obj, false));
  }
};

class OneRoomLevel : public BabyAILevel {
 public:
  explicit OneRoomLevel(const LevelConfig& c)
      : BabyAILevel(c.room_size, 1, 1) {}

 protected:
  void GenMission() override {
    int obj = AddObject(0, 0, kBall);
    PlaceAgentInRoom();
    instrs_ = MakeAction(InstrKind::kPickup, DescOf(obj, false));
  }
};

class MoveTwoAcrossLevel : public BabyAILevel {
 public:
  explicit MoveTwoAcrossLevel(const LevelConfig& c)
      : BabyAILevel(c.room_size, 1, 2, 16 * c.room_size * c.room_size),
        objs_per_room_(c.objs_per_room) {}

 protected:
  void GenMission() override {
    PlaceAgentInRoom(0, 0);
    auto objs_l = AddDistractors(0, 0, objs_per_room_, true);
    auto objs_r = AddDistractors(1, 0, objs_per_room_, true);
    RemoveWall(0, 0, 0);
    objs_l = RandSubset(objs_l, 2);
    objs_r = RandSubset(objs_r, 2);
    instrs_ = MakeSeq(InstrKind::kBefore,
                      MakePutNext(DescOf(objs_l[0]), DescOf(objs_r[0])),
                      MakePutNext(DescOf(objs_r[1]), DescOf(objs_l[1])));
  }

 private:
  int objs_per_room_;
};

}  // namespace envpool::minigrid

#endif  // ENVPOOL_MINIGRID_BABYAI_LEVELS_H_
