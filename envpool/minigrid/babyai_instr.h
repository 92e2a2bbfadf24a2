// BabyAI's instruction language (minigrid/envs/babyai/core/verifier.py,
// minigrid 3.2.0): object descriptions, the instructions built from them,
// their surface (the mission text) and their verifier, which reads the
// level's grid after each step. Free functions of the level they read, as
// the reference's methods take the env.
#ifndef ENVPOOL_MINIGRID_BABYAI_INSTR_H_
#define ENVPOOL_MINIGRID_BABYAI_INSTR_H_

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envpool/minigrid/room_grid.h"
#include "envpool/minigrid/world.h"

namespace envpool::minigrid {

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

// --- ObjDesc ---------------------------------------------------------------

// find_matching_objs: with use_location, the objects matching `d` now
// (scanning x-major, as the reference); without, the positions of the
// objects already in d->obj_set (after a drop moved one).
inline void FindMatching(const RoomGridLevel& env, ObjDesc* d,
                         bool use_location = true) {
  if (use_location) {
    d->obj_set.clear();
  }
  std::vector<int> tracked = d->obj_set;
  d->obj_poss.clear();
  const int agent_room = env.RoomIndexFromPos(env.agent_pos_);
  for (int i = 0; i < env.width(); ++i) {
    for (int j = 0; j < env.height(); ++j) {
      int cell = env.Get(i, j);
      if (cell == -1) {
        continue;
      }
      if (!use_location &&
          std::find(tracked.begin(), tracked.end(), cell) == tracked.end()) {
        continue;
      }
      const WorldObj& o = env.Obj(cell);
      if (d->type >= 0 && o.type != d->type) {
        continue;
      }
      if (d->color >= 0 && o.color != d->color) {
        continue;
      }
      if (use_location && d->loc != kNoLoc) {
        if (!env.RoomContains(agent_room, {i, j})) {
          continue;
        }
        int vx = i - env.agent_pos_.x;
        int vy = j - env.agent_pos_.y;
        Pos d1 = kDirToVec[env.agent_dir_];
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

inline std::string DescSurface(const RoomGridLevel& env, ObjDesc* d) {
  FindMatching(env, d);
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

// --- instructions ----------------------------------------------------------

// The mission text.
inline std::string Surface(const RoomGridLevel& env, Instr* in) {
  switch (in->kind) {
    case InstrKind::kOpen:
      return "open " + DescSurface(env, &in->desc);
    case InstrKind::kGoTo:
      return "go to " + DescSurface(env, &in->desc);
    case InstrKind::kPickup:
      return "pick up " + DescSurface(env, &in->desc);
    case InstrKind::kPutNext: {
      std::string move = DescSurface(env, &in->desc);
      return "put " + move + " next to " + DescSurface(env, &in->desc_fixed);
    }
    case InstrKind::kBefore: {
      std::string a = Surface(env, in->a.get());
      return a + ", then " + Surface(env, in->b.get());
    }
    case InstrKind::kAfter: {
      std::string a = Surface(env, in->a.get());
      return a + " after you " + Surface(env, in->b.get());
    }
    default: {
      std::string a = Surface(env, in->a.get());
      return a + " and " + Surface(env, in->b.get());
    }
  }
}

inline void ResetVerifier(const RoomGridLevel& env, Instr* in) {
  if (in->IsAction()) {
    in->pre_carrying = -1;
    FindMatching(env, &in->desc);
    if (in->kind == InstrKind::kPutNext) {
      FindMatching(env, &in->desc_fixed);
    }
    return;
  }
  ResetVerifier(env, in->a.get());
  ResetVerifier(env, in->b.get());
  in->a_done = kNone;
  in->b_done = kNone;
}

// update_objs_poss: after a drop, where the described objects are now.
inline void UpdateObjsPoss(const RoomGridLevel& env, Instr* in) {
  if (!in->IsAction()) {
    UpdateObjsPoss(env, in->a.get());
    UpdateObjsPoss(env, in->b.get());
    return;
  }
  FindMatching(env, &in->desc, false);
  if (in->kind == InstrKind::kPutNext) {
    FindMatching(env, &in->desc_fixed, false);
  }
}

inline bool NextTo(Pos a, Pos b) {
  return std::abs(a.x - b.x) + std::abs(a.y - b.y) == 1;
}

// PutNextInstr.objs_next: an object to move already next to a fixed one.
inline bool ObjsNext(const RoomGridLevel& env, const Instr* in) {
  for (int obj : in->desc.obj_set) {
    Pos pa = env.Obj(obj).cur_pos;
    for (Pos pb : in->desc_fixed.obj_poss) {
      if (NextTo(pa, pb)) {
        return true;
      }
    }
  }
  return false;
}

// verify(action) after the env's step: kContinue, kSuccess or kFailure.
inline int Verify(const RoomGridLevel& env, Instr* in, int action) {
  switch (in->kind) {
    case InstrKind::kOpen: {
      if (action != kToggle) {
        return kContinue;
      }
      int front = env.Get(env.FrontPos());
      for (int door : in->desc.obj_set) {
        if (front != -1 && front == door && env.Obj(door).is_open) {
          return kSuccess;
        }
      }
      if (in->strict && front != -1 && env.Obj(front).type == kDoor) {
        return kFailure;
      }
      return kContinue;
    }
    case InstrKind::kGoTo: {
      Pos front = env.FrontPos();
      for (Pos p : in->desc.obj_poss) {
        if (p == front) {
          return kSuccess;
        }
      }
      return kContinue;
    }
    case InstrKind::kPickup: {
      int pre = in->pre_carrying;
      in->pre_carrying = env.carrying_;
      if (action != kPickup) {
        return kContinue;
      }
      for (int obj : in->desc.obj_set) {
        if (pre == -1 && env.carrying_ == obj) {
          return kSuccess;
        }
      }
      if (in->strict && env.carrying_ != -1) {
        return kFailure;
      }
      in->pre_carrying = env.carrying_;
      return kContinue;
    }
    case InstrKind::kPutNext: {
      int pre = in->pre_carrying;
      in->pre_carrying = env.carrying_;
      if (in->strict && action == kPickup && env.carrying_ != -1) {
        return kFailure;
      }
      if (action != kDrop) {
        return kContinue;
      }
      for (int obj : in->desc.obj_set) {
        if (pre != obj) {
          continue;
        }
        Pos pa = env.Obj(obj).cur_pos;
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
        in->b_done = Verify(env, in->b.get(), action);
        if (in->b_done == kFailure) {
          return kFailure;
        }
        if (in->b_done == kSuccess) {
          return kSuccess;
        }
      } else {
        in->a_done = Verify(env, in->a.get(), action);
        if (in->a_done == kFailure) {
          return kFailure;
        }
        if (in->a_done == kSuccess) {
          return Verify(env, in, action);
        }
        if (in->strict && Verify(env, in->b.get(), action) == kSuccess) {
          return kFailure;
        }
      }
      return kContinue;
    }
    case InstrKind::kAfter: {
      if (in->b_done == kSuccess) {
        in->a_done = Verify(env, in->a.get(), action);
        if (in->a_done == kSuccess) {
          return kSuccess;
        }
        if (in->a_done == kFailure) {
          return kFailure;
        }
      } else {
        in->b_done = Verify(env, in->b.get(), action);
        if (in->b_done == kFailure) {
          return kFailure;
        }
        if (in->b_done == kSuccess) {
          return Verify(env, in, action);
        }
        if (in->strict && Verify(env, in->a.get(), action) == kSuccess) {
          return kFailure;
        }
      }
      return kContinue;
    }
    default: {  // and
      if (in->a_done != kSuccess) {
        in->a_done = Verify(env, in->a.get(), action);
      }
      if (in->b_done != kSuccess) {
        in->b_done = Verify(env, in->b.get(), action);
      }
      if (in->a_done == kSuccess && in->b_done == kSuccess) {
        return kSuccess;
      }
      return kContinue;
    }
  }
}

// num_navs_needed: what BabyAI's max_steps counts.
inline int NumNavs(const Instr* in) {
  if (in->kind == InstrKind::kPutNext) {
    return 2;
  }
  if (in->IsAction()) {
    return 1;
  }
  return NumNavs(in->a.get()) + NumNavs(in->b.get());
}

}  // namespace envpool::minigrid

#endif  // ENVPOOL_MINIGRID_BABYAI_INSTR_H_
