// BabyAI's RoomGridLevel (minigrid/envs/babyai/core/roomgrid_level.py,
// minigrid 3.2.0): a RoomGrid level whose layout is drawn again until its
// mission (an instruction, babyai_instr.h) is valid, whose mission text is
// the instruction's surface and whose episode ends where the instruction's
// verifier says, with the helpers the BabyAI levels build their layouts
// with.
#ifndef ENVPOOL_MINIGRID_BABYAI_LEVEL_H_
#define ENVPOOL_MINIGRID_BABYAI_LEVEL_H_

#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envpool/minigrid/babyai_instr.h"
#include "envpool/minigrid/room_grid.h"
#include "envpool/minigrid/world.h"

namespace envpool::minigrid {

// RejectSampling: the layout is drawn again.
class RejectSampling : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

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
    mission_ = Surface(*this, instrs_.get());
  }

  static constexpr int kMaxLayouts = 20000;

  // RoomGridLevel.reset's work after MiniGridEnv.reset.
  void AfterReset() override {
    ResetVerifier(*this, instrs_.get());
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
      UpdateObjsPoss(*this, instrs_.get());
    }
    int status = Verify(*this, instrs_.get(), action);
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

  // validate_instrs: rejection sampling of the drawn instruction.
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
      ResetVerifier(*this, in);
      for (int obj : in->desc.obj_set) {
        const auto& fixed = in->desc_fixed.obj_set;
        if (std::find(fixed.begin(), fixed.end(), obj) != fixed.end()) {
          throw RejectSampling(
              "there are objects that match both lhs and rhs of PutNext");
        }
      }
      if (ObjsNext(*this, in)) {
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

}  // namespace envpool::minigrid

#endif  // ENVPOOL_MINIGRID_BABYAI_LEVEL_H_
