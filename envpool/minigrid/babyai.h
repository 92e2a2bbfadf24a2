// BabyAI (minigrid/envs/babyai, minigrid 3.2.0): RoomGridLevel, the
// instruction language and its verifiers (core/verifier.py), LevelGen's
// random instructions (core/levelgen.py) and every BabyAI level, with the
// reference's draws in its order, rejection sampling included.
//
// Two quirks of the reference are kept because they change layouts: Unlock
// and GoToImpUnlock compare numpy integers with `is`, which is never true,
// so their key may land in the locked room and every room gets distractors;
// BabyAI's UnlockPickup tests `max is None` (the builtin), so its max_steps
// is the computed one.
#ifndef ENVPOOL_MINIGRID_BABYAI_H_
#define ENVPOOL_MINIGRID_BABYAI_H_

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envpool/minigrid/level_config.h"
#include "envpool/minigrid/room_grid.h"
#include "envpool/minigrid/world.h"

namespace envpool::minigrid {

// RejectSampling: the layout is drawn again.
class RejectSampling : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// LOC_NAMES.
enum Loc : int { kNoLoc = -1, kLocLeft = 0, kLocRight, kLocFront, kLocBehind };

// ObjDesc: a type (-1 any), a colour (-1 any) and a location relative to the
// agent, with the objects matching it and their positions.
struct ObjDesc {
  int type = -1;
  int color = -1;
  int loc = kNoLoc;
  std::vector<int> obj_set;
  std::vector<Pos> obj_poss;
};

enum class InstrKind { kOpen, kGoTo, kPickup, kPutNext, kBefore, kAfter, kAnd };
// verify's results; kNone is the False an And/Before/After starts with.
enum Status : int { kNone = 0, kContinue, kSuccess, kFailure };

struct Instr {
  InstrKind kind = InstrKind::kGoTo;
  ObjDesc desc;        // desc, or desc_move
  ObjDesc desc_fixed;  // PutNext
  bool strict = false;
  int pre_carrying = -1;
  std::unique_ptr<Instr> a;
  std::unique_ptr<Instr> b;
  int a_done = kNone;
  int b_done = kNone;
  bool IsAction() const {
    return kind == InstrKind::kOpen || kind == InstrKind::kGoTo ||
           kind == InstrKind::kPickup || kind == InstrKind::kPutNext;
  }
};

inline std::unique_ptr<Instr> MakeAction(InstrKind kind, ObjDesc desc,
                                         bool strict = false) {
  auto instr = std::make_unique<Instr>();
  instr->kind = kind;
  instr->desc = std::move(desc);
  instr->strict = strict;
  return instr;
}
inline std::unique_ptr<Instr> MakePutNext(ObjDesc move, ObjDesc fixed) {
  auto instr = std::make_unique<Instr>();
  instr->kind = InstrKind::kPutNext;
  instr->desc = std::move(move);
  instr->desc_fixed = std::move(fixed);
  return instr;
}
inline std::unique_ptr<Instr> MakeSeq(InstrKind kind, std::unique_ptr<Instr> a,
                                      std::unique_ptr<Instr> b) {
  auto instr = std::make_unique<Instr>();
  instr->kind = kind;
  instr->a = std::move(a);
  instr->b = std::move(b);
  return instr;
}
inline ObjDesc Desc(int type, int color = -1, int loc = kNoLoc) {
  ObjDesc d;
  d.type = type;
  d.color = color;
  d.loc = loc;
  return d;
}

// RoomGridLevel: layouts drawn until gen_mission and validate_instrs accept
// them, the mission the instruction's surface, success by its verifier.
class BabyAILevel : public RoomGridLevel {
 public:
  BabyAILevel(int room_size, int num_rows, int num_cols,
              int64_t fixed_max_steps = -1)
      : RoomGridLevel(room_size, num_rows, num_cols),
        fixed_max_steps_(fixed_max_steps) {
    mission_id_ = -1;
  }

  void GenGrid() override {
    for (int attempt = 0;; ++attempt) {
      // minigrid retries forever; a level whose options leave no layout
      // (more objects than its rooms hold) is an error here instead.
      if (attempt == kMaxLayouts) {
        throw std::runtime_error(
            "no layout of this BabyAI level after " +
            std::to_string(kMaxLayouts) +
            " attempts: its options leave no room for its objects");
      }
      try {
        GenRooms();
        GenMission();
        ValidateInstrs(instrs_.get());
      } catch (const PlacementError&) {
        continue;
      } catch (const RejectSampling&) {
        continue;
      }
      break;
    }
    mission_ = Surface(instrs_.get());
  }

  static constexpr int kMaxLayouts = 20000;

  // RoomGridLevel.reset's work after MiniGridEnv.reset.
  void AfterReset() override {
    ResetVerifier(instrs_.get());
    if (fixed_max_steps_ >= 0) {
      max_steps_ = fixed_max_steps_;
    } else {
      max_steps_ = static_cast<int64_t>(NumNavs(instrs_.get())) * room_size_ *
                   room_size_ * num_rows_ * num_cols_;
    }
  }

  StepResult Step(int action) override {
    StepResult result = BaseStep(action);
    if (action == kDrop) {
      UpdateObjsPoss(instrs_.get());
    }
    int status = Verify(instrs_.get(), action);
    if (status == kSuccess) {
      result.terminated = true;
      result.reward = SuccessReward();
    } else if (status == kFailure) {
      result.terminated = true;
      result.reward = 0.0;
    }
    return result;
  }

 protected:
  virtual void GenMission() = 0;
  // LevelGen's unblocking (validate_instrs reads it; RoomGridLevels have
  // none).
  bool unblocking_ = false;

  // --- ObjDesc ----------------------------------------------------------
  bool PosInside(int room, Pos p) const {
    const Room& r = rooms_[room];
    return p.x >= r.top.x && p.y >= r.top.y && p.x < r.top.x + r.size.x &&
           p.y < r.top.y + r.size.y;
  }

  void FindMatching(ObjDesc* d, bool use_location = true) {
    if (use_location) {
      d->obj_set.clear();
    }
    std::vector<int> tracked = d->obj_set;
    d->obj_poss.clear();
    const int agent_room = RoomIndexFromPos(agent_pos_);
    for (int i = 0; i < width_; ++i) {
      for (int j = 0; j < height_; ++j) {
        int cell = Get(i, j);
        if (cell == -1) {
          continue;
        }
        if (!use_location &&
            std::find(tracked.begin(), tracked.end(), cell) == tracked.end()) {
          continue;
        }
        const WorldObj& o = Obj(cell);
        if (d->type >= 0 && o.type != d->type) {
          continue;
        }
        if (d->color >= 0 && o.color != d->color) {
          continue;
        }
        if (use_location && d->loc != kNoLoc) {
          if (!PosInside(agent_room, {i, j})) {
            continue;
          }
          int vx = i - agent_pos_.x;
          int vy = j - agent_pos_.y;
          Pos d1 = kDirToVec[agent_dir_];
          Pos d2 = {-d1.y, d1.x};
          int side = vx * d2.x + vy * d2.y;
          int ahead = vx * d1.x + vy * d1.y;
          bool match = (d->loc == kLocLeft && side < 0) ||
                       (d->loc == kLocRight && side > 0) ||
                       (d->loc == kLocFront && ahead > 0) ||
                       (d->loc == kLocBehind && ahead < 0);
          if (!match) {
            continue;
          }
        }
        if (use_location) {
          d->obj_set.push_back(cell);
        }
        d->obj_poss.push_back({i, j});
      }
    }
  }

  std::string DescSurface(ObjDesc* d) {
    FindMatching(d);
    if (d->obj_set.empty()) {
      throw std::logic_error("no object matching description");
    }
    std::string s = d->type >= 0 ? TypeName(d->type) : "object";
    if (d->color >= 0) {
      s = std::string(ColorName(d->color)) + " " + s;
    }
    if (d->loc == kLocFront) {
      s += " in front of you";
    } else if (d->loc == kLocBehind) {
      s += " behind you";
    } else if (d->loc == kLocLeft) {
      s += " on your left";
    } else if (d->loc == kLocRight) {
      s += " on your right";
    }
    return (d->obj_set.size() > 1 ? "a " : "the ") + s;
  }

  // --- instructions -----------------------------------------------------
  std::string Surface(Instr* in) {
    switch (in->kind) {
      case InstrKind::kOpen:
        return "open " + DescSurface(&in->desc);
      case InstrKind::kGoTo:
        return "go to " + DescSurface(&in->desc);
      case InstrKind::kPickup:
        return "pick up " + DescSurface(&in->desc);
      case InstrKind::kPutNext: {
        std::string move = DescSurface(&in->desc);
        return "put " + move + " next to " + DescSurface(&in->desc_fixed);
      }
      case InstrKind::kBefore: {
        std::string a = Surface(in->a.get());
        return a + ", then " + Surface(in->b.get());
      }
      case InstrKind::kAfter: {
        std::string a = Surface(in->a.get());
        return a + " after you " + Surface(in->b.get());
      }
      default: {
        std::string a = Surface(in->a.get());
        return a + " and " + Surface(in->b.get());
      }
    }
  }

  void ResetVerifier(Instr* in) {
    if (in->IsAction()) {
      in->pre_carrying = -1;
      FindMatching(&in->desc);
      if (in->kind == InstrKind::kPutNext) {
        FindMatching(&in->desc_fixed);
      }
      return;
    }
    ResetVerifier(in->a.get());
    ResetVerifier(in->b.get());
    in->a_done = kNone;
    in->b_done = kNone;
  }

  void UpdateObjsPoss(Instr* in) {
    if (!in->IsAction()) {
      UpdateObjsPoss(in->a.get());
      UpdateObjsPoss(in->b.get());
      return;
    }
    FindMatching(&in->desc, false);
    if (in->kind == InstrKind::kPutNext) {
      FindMatching(&in->desc_fixed, false);
    }
  }

  static bool NextTo(Pos a, Pos b) {
    return std::abs(a.x - b.x) + std::abs(a.y - b.y) == 1;
  }

  bool ObjsNext(const Instr* in) const {
    for (int obj : in->desc.obj_set) {
      Pos pa = Obj(obj).cur_pos;
      for (Pos pb : in->desc_fixed.obj_poss) {
        if (NextTo(pa, pb)) {
          return true;
        }
      }
    }
    return false;
  }

  int Verify(Instr* in, int action) {
    switch (in->kind) {
      case InstrKind::kOpen: {
        if (action != kToggle) {
          return kContinue;
        }
        int front = Get(FrontPos());
        for (int door : in->desc.obj_set) {
          if (front != -1 && front == door && Obj(door).is_open) {
            return kSuccess;
          }
        }
        if (in->strict && front != -1 && Obj(front).type == kDoor) {
          return kFailure;
        }
        return kContinue;
      }
      case InstrKind::kGoTo: {
        Pos front = FrontPos();
        for (Pos p : in->desc.obj_poss) {
          if (p == front) {
            return kSuccess;
          }
        }
        return kContinue;
      }
      case InstrKind::kPickup: {
        int pre = in->pre_carrying;
        in->pre_carrying = carrying_;
        if (action != kPickup) {
          return kContinue;
        }
        for (int obj : in->desc.obj_set) {
          if (pre == -1 && carrying_ == obj) {
            return kSuccess;
          }
        }
        if (in->strict && carrying_ != -1) {
          return kFailure;
        }
        in->pre_carrying = carrying_;
        return kContinue;
      }
      case InstrKind::kPutNext: {
        int pre = in->pre_carrying;
        in->pre_carrying = carrying_;
        if (in->strict && action == kPickup && carrying_ != -1) {
          return kFailure;
        }
        if (action != kDrop) {
          return kContinue;
        }
        for (int obj : in->desc.obj_set) {
          if (pre != obj) {
            continue;
          }
          Pos pa = Obj(obj).cur_pos;
          for (Pos pb : in->desc_fixed.obj_poss) {
            if (NextTo(pa, pb)) {
              return kSuccess;
            }
          }
        }
        return kContinue;
      }
      case InstrKind::kBefore: {
        if (in->a_done == kSuccess) {
          in->b_done = Verify(in->b.get(), action);
          if (in->b_done == kFailure) {
            return kFailure;
          }
          if (in->b_done == kSuccess) {
            return kSuccess;
          }
        } else {
          in->a_done = Verify(in->a.get(), action);
          if (in->a_done == kFailure) {
            return kFailure;
          }
          if (in->a_done == kSuccess) {
            return Verify(in, action);
          }
          if (in->strict && Verify(in->b.get(), action) == kSuccess) {
            return kFailure;
          }
        }
        return kContinue;
      }
      case InstrKind::kAfter: {
        if (in->b_done == kSuccess) {
          in->a_done = Verify(in->a.get(), action);
          if (in->a_done == kSuccess) {
            return kSuccess;
          }
          if (in->a_done == kFailure) {
            return kFailure;
          }
        } else {
          in->b_done = Verify(in->b.get(), action);
          if (in->b_done == kFailure) {
            return kFailure;
          }
          if (in->b_done == kSuccess) {
            return Verify(in, action);
          }
          if (in->strict && Verify(in->a.get(), action) == kSuccess) {
            return kFailure;
          }
        }
        return kContinue;
      }
      default: {  // and
        if (in->a_done != kSuccess) {
          in->a_done = Verify(in->a.get(), action);
        }
        if (in->b_done != kSuccess) {
          in->b_done = Verify(in->b.get(), action);
        }
        if (in->a_done == kSuccess && in->b_done == kSuccess) {
          return kSuccess;
        }
        return kContinue;
      }
    }
  }

  int NumNavs(const Instr* in) const {
    if (in->kind == InstrKind::kPutNext) {
      return 2;
    }
    if (in->IsAction()) {
      return 1;
    }
    return NumNavs(in->a.get()) + NumNavs(in->b.get());
  }

  void ValidateInstrs(Instr* in) {
    std::vector<int> locked_colors;
    if (unblocking_) {
      for (int i = 0; i < num_cols_; ++i) {
        for (int j = 0; j < num_rows_; ++j) {
          for (int door : GetRoom(i, j).doors) {
            if (door >= 0 && Obj(door).is_locked) {
              locked_colors.push_back(Obj(door).color);
            }
          }
        }
      }
    }
    if (in->kind == InstrKind::kPutNext) {
      ResetVerifier(in);
      for (int obj : in->desc.obj_set) {
        const auto& fixed = in->desc_fixed.obj_set;
        if (std::find(fixed.begin(), fixed.end(), obj) != fixed.end()) {
          throw RejectSampling(
              "there are objects that match both lhs and rhs of PutNext");
        }
      }
      if (ObjsNext(in)) {
        throw RejectSampling("objs already next to each other");
      }
    }
    if (in->IsAction()) {
      if (!unblocking_) {
        return;
      }
      auto check = [&locked_colors](const ObjDesc& d) {
        if (d.type == kKey &&
            std::find(locked_colors.begin(), locked_colors.end(), d.color) !=
                locked_colors.end()) {
          throw RejectSampling(
              "cannot do anything with/to a key that can be used to open a "
              "door");
        }
      };
      check(in->desc);
      if (in->kind == InstrKind::kPutNext) {
        check(in->desc_fixed);
      }
      return;
    }
    ValidateInstrs(in->a.get());
    ValidateInstrs(in->b.get());
  }

  // --- RoomGridLevel helpers ----------------------------------------------
  void OpenAllDoors() {
    for (int i = 0; i < num_cols_; ++i) {
      for (int j = 0; j < num_rows_; ++j) {
        for (int door : GetRoom(i, j).doors) {
          if (door >= 0) {
            Obj(door).is_open = true;
          }
        }
      }
    }
  }

  bool CheckObjsReachable(bool raise = true) {
    std::vector<char> reachable(static_cast<size_t>(width_) * height_, 0);
    std::vector<Pos> stack = {agent_pos_};
    while (!stack.empty()) {
      Pos p = stack.back();
      stack.pop_back();
      if (p.x < 0 || p.x >= width_ || p.y < 0 || p.y >= height_) {
        continue;
      }
      char& seen = reachable[static_cast<size_t>(p.y) * width_ + p.x];
      if (seen) {
        continue;
      }
      seen = 1;
      int cell = Get(p);
      if (cell != -1 && Obj(cell).type != kDoor) {
        continue;
      }
      stack.push_back({p.x + 1, p.y});
      stack.push_back({p.x - 1, p.y});
      stack.push_back({p.x, p.y + 1});
      stack.push_back({p.x, p.y - 1});
    }
    for (int i = 0; i < width_; ++i) {
      for (int j = 0; j < height_; ++j) {
        int cell = Get(i, j);
        if (cell == -1 || Obj(cell).type == kWall) {
          continue;
        }
        if (!reachable[static_cast<size_t>(j) * width_ + i]) {
          if (!raise) {
            return false;
          }
          throw RejectSampling("unreachable object");
        }
      }
    }
    return true;
  }

  // add_distractors: colour then kind per object; room drawn where < 0.
  std::vector<int> AddDistractors(int i, int j, int num, bool all_unique) {
    std::vector<std::pair<int, int>> objs;
    for (const Room& room : rooms_) {
      for (int obj : room.objs) {
        objs.emplace_back(Obj(obj).type, Obj(obj).color);
      }
    }
    std::vector<int> dists;
    while (static_cast<int>(dists.size()) < num) {
      Color color = RandColor();
      ObjType type = KeyBallBox(RandInt(0, 3));
      std::pair<int, int> key(type, color);
      if (all_unique &&
          std::find(objs.begin(), objs.end(), key) != objs.end()) {
        continue;
      }
      int room_i = i >= 0 ? i : static_cast<int>(RandInt(0, num_cols_));
      int room_j = j >= 0 ? j : static_cast<int>(RandInt(0, num_rows_));
      dists.push_back(AddObject(room_i, room_j, type, color));
      objs.push_back(key);
    }
    return dists;
  }

  std::vector<int> AllDoors() {
    std::vector<int> doors;
    for (int i = 0; i < num_cols_; ++i) {
      for (int j = 0; j < num_rows_; ++j) {
        for (int door : GetRoom(i, j).doors) {
          if (door >= 0) {
            doors.push_back(door);
          }
        }
      }
    }
    return doors;
  }

  ObjDesc DescOf(int obj, bool with_color = true) {
    return Desc(Obj(obj).type, with_color ? Obj(obj).color : -1);
  }

  int64_t fixed_max_steps_;
  std::unique_ptr<Instr> instrs_;
};

// --- LevelGen -------------------------------------------------------------

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
      FindMatching(&desc);
      if (desc.obj_set.empty()) {
        continue;
      }
      if (!p_.implicit_unlock && locked_room_ >= 0) {
        bool any_outside = false;
        for (Pos p : desc.obj_poss) {
          if (!PosInside(locked_room_, p)) {
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

// --- the hand-written levels ----------------------------------------------

// GoToRedBall, GoToRedBallGrey, GoToRedBallNoDists.
class GoToRedBallLevel : public BabyAILevel {
 public:
  GoToRedBallLevel(const LevelConfig& c, int num_dists, bool grey)
      : BabyAILevel(8, 1, 1), num_dists_(num_dists), grey_(grey) {}

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

// The LevelGen levels' settings: the options, where a level's class takes
// the argument (LevelGen's **kwargs), else as its class fixes it. Options a
// class fixes hold EnvPool's default here (MiniGridEnv::CheckOptionsApply).
inline LevelGenParams LevelGenFor(const LevelConfig& c) {
  LevelGenParams p;
  const std::string& n = c.env_name;
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
  if (n == "babyai_goto_seq") {
    p.action_kinds = {"goto"};
    p.locked_room_prob = 0;
    p.locations = false;
    p.unblocking = false;
  } else if (n == "babyai_pickup_loc") {
    p.action_kinds = {"pickup"};
    p.instr_kinds = {"action"};
    p.num_rows = 1;
    p.num_cols = 1;
    p.num_dists = 8;
    p.locked_room_prob = 0;
    p.locations = true;
    p.unblocking = false;
  } else if (n == "babyai_synth") {
    p.instr_kinds = {"action"};
    p.locations = false;
    p.implicit_unlock = false;
  } else if (n == "babyai_synth_loc") {
    p.instr_kinds = {"action"};
    p.implicit_unlock = false;
  } else if (n == "babyai_synth_seq") {
    p.implicit_unlock = false;
  } else if (n == "babyai_mini_boss_level") {
    p.num_cols = 2;
    p.num_rows = 2;
    p.room_size = 5;
    p.num_dists = 7;
    p.locked_room_prob = 0.25;
  } else if (n == "babyai_boss_level_no_unlock") {
    p.locked_room_prob = 0;
    p.implicit_unlock = false;
  }
  return p;
}

inline const std::vector<std::string>& BabyAILevelNames() {
  static const std::vector<std::string> kNames = {
      "babyai_goto_red_ball_grey",
      "babyai_goto_red_ball",
      "babyai_goto_red_ball_no_dists",
      "babyai_goto_obj",
      "babyai_goto_local",
      "babyai_goto",
      "babyai_goto_imp_unlock",
      "babyai_goto_seq",
      "babyai_goto_red_blue_ball",
      "babyai_goto_door",
      "babyai_goto_obj_door",
      "babyai_open",
      "babyai_open_red_door",
      "babyai_open_door",
      "babyai_open_two_doors",
      "babyai_open_doors_order",
      "babyai_pickup",
      "babyai_unblock_pickup",
      "babyai_pickup_loc",
      "babyai_pickup_dist",
      "babyai_pickup_above",
      "babyai_put_next_local",
      "babyai_put_next",
      "babyai_unlock",
      "babyai_unlock_local",
      "babyai_key_in_box",
      "babyai_unlock_pickup",
      "babyai_blocked_unlock_pickup",
      "babyai_unlock_to_unlock",
      "babyai_action_obj_door",
      "babyai_find_obj",
      "babyai_key_corridor",
      "babyai_one_room",
      "babyai_move_two_across",
      "babyai_synth",
      "babyai_synth_loc",
      "babyai_synth_seq",
      "babyai_mini_boss_level",
      "babyai_boss_level",
      "babyai_boss_level_no_unlock",
  };
  return kNames;
}

// nullptr for a name that is not a BabyAI level.
inline std::unique_ptr<BabyAILevel> MakeBabyAILevel(const LevelConfig& c) {
  const std::string& n = c.env_name;
  if (n == "babyai_goto_red_ball_grey") {
    return std::make_unique<GoToRedBallLevel>(c, c.num_dists, true);
  }
  if (n == "babyai_goto_red_ball") {
    return std::make_unique<GoToRedBallLevel>(c, c.num_dists, false);
  }
  if (n == "babyai_goto_red_ball_no_dists") {
    return std::make_unique<GoToRedBallLevel>(c, 0, false);
  }
  if (n == "babyai_goto_obj") {
    return std::make_unique<GoToObjLevel>(c);
  }
  if (n == "babyai_goto_local") {
    return std::make_unique<GoToLocalLevel>(c);
  }
  if (n == "babyai_goto") {
    return std::make_unique<GoToLevel>(c);
  }
  if (n == "babyai_goto_imp_unlock") {
    return std::make_unique<GoToImpUnlockLevel>(c);
  }
  if (n == "babyai_goto_red_blue_ball") {
    return std::make_unique<GoToRedBlueBallLevel>(c);
  }
  if (n == "babyai_goto_door") {
    return std::make_unique<GoToDoorBabyLevel>(c);
  }
  if (n == "babyai_goto_obj_door") {
    return std::make_unique<GoToObjDoorLevel>(c);
  }
  if (n == "babyai_open") {
    return std::make_unique<OpenLevel>(c);
  }
  if (n == "babyai_open_red_door") {
    return std::make_unique<OpenRedDoorLevel>(c);
  }
  if (n == "babyai_open_door") {
    return std::make_unique<OpenDoorLevel>(c);
  }
  if (n == "babyai_open_two_doors") {
    return std::make_unique<OpenTwoDoorsLevel>(c);
  }
  if (n == "babyai_open_doors_order") {
    return std::make_unique<OpenDoorsOrderLevel>(c);
  }
  if (n == "babyai_pickup") {
    return std::make_unique<PickupLevel>(c, false);
  }
  if (n == "babyai_unblock_pickup") {
    return std::make_unique<PickupLevel>(c, true);
  }
  if (n == "babyai_pickup_dist") {
    return std::make_unique<PickupDistLevel>(c);
  }
  if (n == "babyai_pickup_above") {
    return std::make_unique<PickupAboveLevel>(c);
  }
  if (n == "babyai_put_next_local") {
    return std::make_unique<PutNextLocalLevel>(c);
  }
  if (n == "babyai_put_next") {
    return std::make_unique<PutNextLevel>(c);
  }
  if (n == "babyai_unlock") {
    return std::make_unique<BabyUnlockLevel>(c);
  }
  if (n == "babyai_unlock_local") {
    return std::make_unique<UnlockLocalLevel>(c);
  }
  if (n == "babyai_key_in_box") {
    return std::make_unique<KeyInBoxLevel>(c);
  }
  if (n == "babyai_unlock_pickup") {
    return std::make_unique<BabyUnlockPickupLevel>(c, false);
  }
  if (n == "babyai_blocked_unlock_pickup") {
    return std::make_unique<BabyUnlockPickupLevel>(c, true);
  }
  if (n == "babyai_unlock_to_unlock") {
    return std::make_unique<UnlockToUnlockLevel>(c);
  }
  if (n == "babyai_action_obj_door") {
    return std::make_unique<ActionObjDoorLevel>(c);
  }
  if (n == "babyai_find_obj") {
    return std::make_unique<FindObjLevel>(c);
  }
  if (n == "babyai_key_corridor") {
    return std::make_unique<BabyKeyCorridorLevel>(c);
  }
  if (n == "babyai_one_room") {
    return std::make_unique<OneRoomLevel>(c);
  }
  if (n == "babyai_move_two_across") {
    return std::make_unique<MoveTwoAcrossLevel>(c);
  }
  for (const char* gen :
       {"babyai_goto_seq", "babyai_pickup_loc", "babyai_synth",
        "babyai_synth_loc", "babyai_synth_seq", "babyai_mini_boss_level",
        "babyai_boss_level", "babyai_boss_level_no_unlock"}) {
    if (n == gen) {
      return std::make_unique<LevelGenLevel>(LevelGenFor(c));
    }
  }
  return nullptr;
}

}  // namespace envpool::minigrid

#endif  // ENVPOOL_MINIGRID_BABYAI_H_
