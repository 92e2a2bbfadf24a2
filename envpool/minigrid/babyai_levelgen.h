// BabyAI's LevelGen (minigrid/envs/babyai/core/levelgen.py, minigrid 3.2.0):
// a RoomGrid with an optional locked room, distractors everywhere and a
// random instruction drawn from its kinds of actions and instructions. The
// LevelGen levels (GoToSeq, PickupLoc, Synth*, MiniBossLevel, BossLevel*)
// are LevelGen with some of its arguments fixed by their class
// (LevelGenFixes; level_table.h names which level fixes what).
#ifndef ENVPOOL_MINIGRID_BABYAI_LEVELGEN_H_
#define ENVPOOL_MINIGRID_BABYAI_LEVELGEN_H_

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "envpool/minigrid/babyai_instr.h"
#include "envpool/minigrid/babyai_level.h"
#include "envpool/minigrid/level_config.h"
#include "envpool/minigrid/world.h"

namespace envpool::minigrid {

// LevelGen.__init__'s arguments.
struct LevelGenParams {
  int room_size = 8;
  int num_rows = 3;
  int num_cols = 3;
  int num_dists = 18;
  double locked_room_prob = 0.5;
  bool locations = true;
  bool unblocking = true;
  bool implicit_unlock = true;
  std::vector<std::string> action_kinds = {"goto", "pickup", "open", "putnext"};
  std::vector<std::string> instr_kinds = {"action", "and", "seq"};
};

// LevelGen's arguments as the options give them (LevelGen's **kwargs).
inline LevelGenParams LevelGenParamsOf(const LevelConfig& c) {
  LevelGenParams p;
  p.room_size = c.room_size;
  p.num_rows = c.num_rows;
  p.num_cols = c.num_cols;
  p.num_dists = c.num_dists;
  p.action_kinds = c.action_kinds;
  p.instr_kinds = c.instr_kinds;
  p.locations = c.locations;
  p.unblocking = c.unblocking;
  p.implicit_unlock = c.implicit_unlock;
  p.locked_room_prob = c.locked_room_prob;
  return p;
}

// The arguments a LevelGen level's class passes to LevelGen.__init__ itself,
// whatever the options say; an unset one comes from the options.
struct LevelGenFixes {
  std::optional<int> room_size;
  std::optional<int> num_rows;
  std::optional<int> num_cols;
  std::optional<int> num_dists;
  std::optional<double> locked_room_prob;
  std::optional<bool> locations;
  std::optional<bool> unblocking;
  std::optional<bool> implicit_unlock;
  std::optional<std::vector<std::string>> action_kinds;
  std::optional<std::vector<std::string>> instr_kinds;

  LevelGenFixes& RoomSize(int v) { return Fix(&room_size, v); }
  LevelGenFixes& NumRows(int v) { return Fix(&num_rows, v); }
  LevelGenFixes& NumCols(int v) { return Fix(&num_cols, v); }
  LevelGenFixes& NumDists(int v) { return Fix(&num_dists, v); }
  LevelGenFixes& LockedRoomProb(double v) { return Fix(&locked_room_prob, v); }
  LevelGenFixes& Locations(bool v) { return Fix(&locations, v); }
  LevelGenFixes& Unblocking(bool v) { return Fix(&unblocking, v); }
  LevelGenFixes& ImplicitUnlock(bool v) { return Fix(&implicit_unlock, v); }
  LevelGenFixes& ActionKinds(std::vector<std::string> v) {
    return Fix(&action_kinds, std::move(v));
  }
  LevelGenFixes& InstrKinds(std::vector<std::string> v) {
    return Fix(&instr_kinds, std::move(v));
  }

  // `p` with the fixed arguments in place of the options' values.
  LevelGenParams Apply(LevelGenParams p) const {
    p.room_size = room_size.value_or(p.room_size);
    p.num_rows = num_rows.value_or(p.num_rows);
    p.num_cols = num_cols.value_or(p.num_cols);
    p.num_dists = num_dists.value_or(p.num_dists);
    p.locked_room_prob = locked_room_prob.value_or(p.locked_room_prob);
    p.locations = locations.value_or(p.locations);
    p.unblocking = unblocking.value_or(p.unblocking);
    p.implicit_unlock = implicit_unlock.value_or(p.implicit_unlock);
    p.action_kinds = action_kinds.value_or(p.action_kinds);
    p.instr_kinds = instr_kinds.value_or(p.instr_kinds);
    return p;
  }

 private:
  template <typename T, typename V>
  LevelGenFixes& Fix(std::optional<T>* field, V&& value) {
    *field = std::forward<V>(value);
    return *this;
  }
};

class LevelGenLevel : public BabyAILevel {
 public:
  explicit LevelGenLevel(const LevelGenParams& p)
      : BabyAILevel(p.room_size, p.num_rows, p.num_cols), p_(p) {
    unblocking_ = p.unblocking;
  }

 protected:
  void GenMission() override {
    locked_room_ = -1;
    if (rng_->Uniform(0.0, 1.0) < p_.locked_room_prob) {
      AddLockedRoom();
    }
    ConnectAll();
    AddDistractors(-1, -1, p_.num_dists, false);
    for (;;) {
      PlaceAgentInRoom();
      if (RoomIndexFromPos(agent_pos_) == locked_room_) {
        continue;
      }
      break;
    }
    if (!p_.unblocking) {
      CheckObjsReachable();
    }
    instrs_ = RandInstr(p_.action_kinds, p_.instr_kinds);
  }

 private:
  void AddLockedRoom() {
    int door = -1;
    for (;;) {
      int i = static_cast<int>(RandInt(0, num_cols_));
      int j = static_cast<int>(RandInt(0, num_rows_));
      int door_idx = static_cast<int>(RandInt(0, 4));
      locked_room_ = j * num_cols_ + i;
      if (rooms_[locked_room_].neighbors[door_idx] == -1) {
        continue;
      }
      door = AddDoor(i, j, door_idx, -1, 1);
      break;
    }
    for (;;) {
      int i = static_cast<int>(RandInt(0, num_cols_));
      int j = static_cast<int>(RandInt(0, num_rows_));
      if (j * num_cols_ + i == locked_room_) {
        continue;
      }
      AddObject(i, j, kKey, Obj(door).color);
      break;
    }
  }

  // OBJ_TYPES is box, ball, key, door; the colour list starts with None.
  ObjDesc RandObj(const std::vector<int>& types, int max_tries = 100) {
    int num_tries = 0;
    for (;;) {
      if (num_tries > max_tries) {
        throw PlacementError("failed to find suitable object");
      }
      ++num_tries;
      int64_t c = RandInt(0, 7);
      int color = c == 0 ? -1 : kColorNames[c - 1];
      int type = RandElem(types);
      int loc = kNoLoc;
      if (p_.locations && RandBool()) {
        loc = static_cast<int>(RandInt(0, 4));
      }
      ObjDesc desc = Desc(type, color, loc);
      FindMatching(*this, &desc);
      if (desc.obj_set.empty()) {
        continue;
      }
      if (!p_.implicit_unlock && locked_room_ >= 0) {
        bool any_outside = false;
        for (Pos p : desc.obj_poss) {
          if (!RoomContains(locked_room_, p)) {
            any_outside = true;
          }
        }
        if (!any_outside) {
          continue;
        }
      }
      return desc;
    }
  }

  std::unique_ptr<Instr> RandInstr(const std::vector<std::string>& actions,
                                   const std::vector<std::string>& kinds) {
    static const std::vector<int> kAll = {kBox, kBall, kKey, kDoor};
    static const std::vector<int> kNotDoor = {kBox, kBall, kKey};
    static const std::vector<int> kDoors = {kDoor};
    const std::string kind = RandElem(kinds);
    if (kind == "action") {
      const std::string action = RandElem(actions);
      if (action == "goto") {
        return MakeAction(InstrKind::kGoTo, RandObj(kAll));
      }
      if (action == "pickup") {
        return MakeAction(InstrKind::kPickup, RandObj(kNotDoor));
      }
      if (action == "open") {
        return MakeAction(InstrKind::kOpen, RandObj(kDoors));
      }
      ObjDesc move = RandObj(kNotDoor);
      ObjDesc fixed = RandObj(kAll);
      return MakePutNext(std::move(move), std::move(fixed));
    }
    if (kind == "and") {
      auto a = RandInstr(actions, {"action"});
      auto b = RandInstr(actions, {"action"});
      return MakeSeq(InstrKind::kAnd, std::move(a), std::move(b));
    }
    auto a = RandInstr(actions, {"action", "and"});
    auto b = RandInstr(actions, {"action", "and"});
    bool before = RandInt(0, 2) == 0;
    return MakeSeq(before ? InstrKind::kBefore : InstrKind::kAfter,
                   std::move(a), std::move(b));
  }

  LevelGenParams p_;
  int locked_room_ = -1;
};

}  // namespace envpool::minigrid

#endif  // ENVPOOL_MINIGRID_BABYAI_LEVELGEN_H_
