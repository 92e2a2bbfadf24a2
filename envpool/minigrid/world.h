// The grid world every MiniGrid and BabyAI level runs on, as minigrid 3.2.0
// defines it: objects with their type, colour and state indices, the grid,
// the agent, the seven actions, the egocentric observation with its
// visibility mask, and the random helpers (_rand_int, _rand_elem,
// place_obj, ...) that draw from the env's np_random in minigrid's order.
//
// Objects live in one table and the grid holds indices into it, so that
// "the object the agent carries is the one the mission names" is an identity
// test, as minigrid's `is` on Python objects.
#ifndef ENVPOOL_MINIGRID_WORLD_H_
#define ENVPOOL_MINIGRID_WORLD_H_

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "envpool/core/random.h"

namespace envpool::minigrid {

// OBJECT_TO_IDX.
enum ObjType : uint8_t {
  kUnseen = 0,
  kEmpty = 1,
  kWall = 2,
  kFloor = 3,
  kDoor = 4,
  kKey = 5,
  kBall = 6,
  kBox = 7,
  kGoal = 8,
  kLava = 9,
  kAgent = 10,
};

// COLOR_TO_IDX.
enum Color : uint8_t {
  kRed = 0,
  kGreen = 1,
  kBlue = 2,
  kPurple = 3,
  kYellow = 4,
  kGrey = 5,
};

// COLOR_NAMES: the colour names sorted alphabetically, the list minigrid
// draws colours from.
inline constexpr std::array<Color, 6> kColorNames = {kBlue,   kGreen, kGrey,
                                                     kPurple, kRed,   kYellow};

inline const char* ColorName(int color) {
  static constexpr const char* kNames[] = {"red",    "green",  "blue",
                                           "purple", "yellow", "grey"};
  return kNames[color];
}

inline const char* TypeName(int type) {
  static constexpr const char* kNames[] = {"unseen", "empty", "wall", "floor",
                                           "door",   "key",   "ball", "box",
                                           "goal",   "lava",  "agent"};
  return kNames[type];
}

// The rank of a colour in COLOR_NAMES.
inline int ColorRank(int color) {
  for (int i = 0; i < 6; ++i) {
    if (kColorNames[i] == color) {
      return i;
    }
  }
  return -1;
}

struct Pos {
  int x = -1;
  int y = -1;
  bool operator==(const Pos& o) const { return x == o.x && y == o.y; }
  bool operator!=(const Pos& o) const { return !(*this == o); }
};

// DIR_TO_VEC: right, down, left, up.
inline constexpr std::array<Pos, 4> kDirToVec = {Pos{1, 0}, Pos{0, 1},
                                                 Pos{-1, 0}, Pos{0, -1}};

enum Action : int {
  kLeft = 0,
  kRight = 1,
  kForward = 2,
  kPickup = 3,
  kDrop = 4,
  kToggle = 5,
  kDone = 6,
};

struct WorldObj {
  ObjType type = kWall;
  Color color = kGrey;
  bool is_open = false;
  bool is_locked = false;
  int contains = -1;  // a box's content, an object index
  Pos init_pos;
  Pos cur_pos;

  bool CanOverlap() const {
    return type == kGoal || type == kFloor || type == kLava ||
           (type == kDoor && is_open);
  }
  bool CanPickup() const {
    return type == kKey || type == kBall || type == kBox;
  }
  bool SeeBehind() const { return type != kWall && (type != kDoor || is_open); }
  // (type, colour, state): a door is 0 open, 1 closed, 2 locked.
  std::array<uint8_t, 3> Encode() const {
    uint8_t state = 0;
    if (type == kDoor) {
      state = is_open ? 0 : (is_locked ? 2 : 1);
    }
    return {static_cast<uint8_t>(type), static_cast<uint8_t>(color), state};
  }
};

// minigrid raises RecursionError when place_obj or connect_all give up.
class PlacementError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The world of one level: its grid, objects and agent, and minigrid's
// MiniGridEnv helpers and step rules.
class World {
 public:
  using RejectFn = std::function<bool(Pos)>;
  static constexpr int64_t kUnlimited = -1;

  virtual ~World() = default;

  // --- grid -----------------------------------------------------------
  void NewGrid(int width, int height) {
    width_ = width;
    height_ = height;
    objs_.clear();
    cells_.assign(static_cast<size_t>(width) * height, -1);
  }
  int width() const { return width_; }
  int height() const { return height_; }
  int Get(int x, int y) const {
    return cells_[static_cast<size_t>(y) * width_ + x];
  }
  int Get(Pos p) const { return Get(p.x, p.y); }
  void Set(int x, int y, int obj) {
    if (x < 0 || x >= width_ || y < 0 || y >= height_) {
      throw std::logic_error("grid position outside the grid");
    }
    cells_[static_cast<size_t>(y) * width_ + x] = obj;
  }
  void Set(Pos p, int obj) { Set(p.x, p.y, obj); }
  WorldObj& Obj(int index) { return objs_[index]; }
  const WorldObj& Obj(int index) const { return objs_[index]; }
  int NewObj(ObjType type, Color color, bool is_open = false,
             bool is_locked = false) {
    WorldObj obj;
    obj.type = type;
    obj.color = color;
    obj.is_open = is_open;
    obj.is_locked = is_locked;
    objs_.push_back(obj);
    return static_cast<int>(objs_.size()) - 1;
  }
  int NewWall() { return NewObj(kWall, kGrey); }
  // Objects with their default colours, as minigrid's constructors.
  int NewGoal() { return NewObj(kGoal, kGreen); }
  int NewLava() { return NewObj(kLava, kRed); }
  int NewDoor(Color color, bool is_locked = false) {
    return NewObj(kDoor, color, false, is_locked);
  }
  void HorzWall(int x, int y, int length = -1, ObjType type = kWall) {
    if (length < 0) {
      length = width_ - x;
    }
    for (int i = 0; i < length; ++i) {
      Set(x + i, y, type == kLava ? NewLava() : NewWall());
    }
  }
  void VertWall(int x, int y, int length = -1, ObjType type = kWall) {
    if (length < 0) {
      length = height_ - y;
    }
    for (int j = 0; j < length; ++j) {
      Set(x, y + j, type == kLava ? NewLava() : NewWall());
    }
  }
  void WallRect(int x, int y, int w, int h) {
    HorzWall(x, y, w);
    HorzWall(x, y + h - 1, w);
    VertWall(x, y, h);
    VertWall(x + w - 1, y, h);
  }
  // put_obj.
  void PutObj(int obj, int x, int y) {
    Set(x, y, obj);
    objs_[obj].init_pos = {x, y};
    objs_[obj].cur_pos = {x, y};
  }

  // --- random helpers, in minigrid's draws ------------------------------
  int64_t RandInt(int64_t low, int64_t high) {
    return rng_->Integers<int64_t>(low, high);
  }
  bool RandBool() { return RandInt(0, 2) == 0; }
  template <typename T>
  T RandElem(const std::vector<T>& items) {
    return items[RandInt(0, static_cast<int64_t>(items.size()))];
  }
  Color RandColor() { return kColorNames[RandInt(0, 6)]; }
  template <typename T>
  std::vector<T> RandSubset(std::vector<T> items, size_t n) {
    std::vector<T> out;
    while (out.size() < n) {
      int64_t idx = RandInt(0, static_cast<int64_t>(items.size()));
      out.push_back(items[idx]);
      items.erase(items.begin() + idx);
    }
    return out;
  }
  Pos RandPos(int x_low, int x_high, int y_low, int y_high) {
    int x = static_cast<int>(RandInt(x_low, x_high));
    int y = static_cast<int>(RandInt(y_low, y_high));
    return {x, y};
  }

  // place_obj: rejection sampling of an empty cell in the rectangle, not
  // under the agent; throws PlacementError after max_tries + 1 tries.
  Pos PlaceObj(int obj, Pos top = {0, 0}, Pos size = {-1, -1},
               const RejectFn& reject = nullptr,
               int64_t max_tries = kUnlimited) {
    top = {std::max(top.x, 0), std::max(top.y, 0)};
    if (size.x < 0) {
      size = {width_, height_};
    }
    int64_t num_tries = 0;
    Pos pos;
    for (;;) {
      if (max_tries != kUnlimited && num_tries > max_tries) {
        throw PlacementError("rejection sampling failed in place_obj");
      }
      // minigrid would draw forever where no cell qualifies (options asking
      // for more objects than a grid holds); say so instead.
      if (max_tries == kUnlimited && num_tries > 0 &&
          num_tries % kCheckEvery == 0 && !AnyFreeCell(top, size, reject)) {
        throw std::runtime_error(
            "no free cell left to place an object: the level's options ask "
            "for more objects than its grid holds");
      }
      ++num_tries;
      pos.x =
          static_cast<int>(RandInt(top.x, std::min(top.x + size.x, width_)));
      pos.y =
          static_cast<int>(RandInt(top.y, std::min(top.y + size.y, height_)));
      if (Get(pos) != -1) {
        continue;
      }
      if (pos == agent_pos_) {
        continue;
      }
      if (reject && reject(pos)) {
        continue;
      }
      break;
    }
    Set(pos, obj);
    if (obj != -1) {
      objs_[obj].init_pos = pos;
      objs_[obj].cur_pos = pos;
    }
    return pos;
  }
  // Whether place_obj's rectangle has a cell it would accept.
  bool AnyFreeCell(Pos top, Pos size, const RejectFn& reject) const {
    for (int x = top.x; x < std::min(top.x + size.x, width_); ++x) {
      for (int y = top.y; y < std::min(top.y + size.y, height_); ++y) {
        Pos p{x, y};
        if (Get(p) == -1 && p != agent_pos_ && !(reject && reject(p))) {
          return true;
        }
      }
    }
    return false;
  }
  static constexpr int64_t kCheckEvery = 4096;

  // MiniGridEnv.place_agent.
  Pos PlaceAgent(Pos top = {0, 0}, Pos size = {-1, -1}, bool rand_dir = true,
                 int64_t max_tries = kUnlimited) {
    agent_pos_ = {-1, -1};
    Pos pos = PlaceObj(-1, top, size, nullptr, max_tries);
    agent_pos_ = pos;
    if (rand_dir) {
      agent_dir_ = static_cast<int>(RandInt(0, 4));
    }
    return pos;
  }

  // --- the agent ------------------------------------------------------
  Pos DirVec() const { return kDirToVec[agent_dir_]; }
  Pos FrontPos() const {
    Pos d = DirVec();
    return {agent_pos_.x + d.x, agent_pos_.y + d.y};
  }
  // 1 - 0.9 * step_count / max_steps.
  double SuccessReward() const {
    return 1.0 - 0.9 * (static_cast<double>(step_count_) /
                        static_cast<double>(max_steps_));
  }

  struct StepResult {
    double reward = 0.0;
    bool terminated = false;
  };

  // MiniGridEnv.step without the truncation (the pool's and the level's).
  StepResult BaseStep(int action) {
    ++step_count_;
    StepResult result;
    Pos fwd = FrontPos();
    int fwd_cell = Get(fwd);
    switch (action) {
      case kLeft:
        agent_dir_ = (agent_dir_ + 3) % 4;
        break;
      case kRight:
        agent_dir_ = (agent_dir_ + 1) % 4;
        break;
      case kForward:
        if (fwd_cell == -1 || objs_[fwd_cell].CanOverlap()) {
          agent_pos_ = fwd;
        }
        if (fwd_cell != -1 && objs_[fwd_cell].type == kGoal) {
          result.terminated = true;
          result.reward = SuccessReward();
        }
        if (fwd_cell != -1 && objs_[fwd_cell].type == kLava) {
          result.terminated = true;
        }
        break;
      case kPickup:
        if (fwd_cell != -1 && objs_[fwd_cell].CanPickup() && carrying_ == -1) {
          carrying_ = fwd_cell;
          objs_[fwd_cell].cur_pos = {-1, -1};
          Set(fwd, -1);
        }
        break;
      case kDrop:
        if (fwd_cell == -1 && carrying_ != -1) {
          Set(fwd, carrying_);
          objs_[carrying_].cur_pos = fwd;
          carrying_ = -1;
        }
        break;
      case kToggle:
        if (fwd_cell != -1) {
          Toggle(fwd_cell, fwd);
        }
        break;
      default:  // done
        break;
    }
    return result;
  }

  // WorldObj.toggle: doors open and close (a locked one opens with the key of
  // its colour), a box is replaced by its content.
  bool Toggle(int obj, Pos pos) {
    WorldObj& o = objs_[obj];
    if (o.type == kDoor) {
      if (o.is_locked) {
        if (carrying_ != -1 && objs_[carrying_].type == kKey &&
            objs_[carrying_].color == o.color) {
          o.is_locked = false;
          o.is_open = true;
          return true;
        }
        return false;
      }
      o.is_open = !o.is_open;
      return true;
    }
    if (o.type == kBox) {
      Set(pos, o.contains);
      return true;
    }
    return false;
  }

  // gen_obs_grid: the agent_view_size square ahead of the agent (view_,
  // row vj, column vi, the agent at the bottom middle looking up) and which
  // of its cells the agent sees (mask_: all of them where
  // see_through_walls, else process_vis: cells hidden behind walls and
  // closed doors are not).
  void ComputeView() const {
    const int sz = view_size_;
    const int hs = sz / 2;
    const Pos f = DirVec();
    const Pos r = {-f.y, f.x};
    const Pos top_left = ViewTopLeft();
    view_.assign(static_cast<size_t>(sz) * sz, -1);
    for (int vj = 0; vj < sz; ++vj) {
      for (int vi = 0; vi < sz; ++vi) {
        int x = top_left.x - f.x * vj + r.x * vi;
        int y = top_left.y - f.y * vj + r.y * vi;
        int cell = kOutside;
        if (x >= 0 && x < width_ && y >= 0 && y < height_) {
          cell = Get(x, y);
        }
        view_[vj * sz + vi] = cell;
      }
    }
    auto see_behind = [&](int cell) {
      if (cell == -1) {
        return true;
      }
      if (cell == kOutside) {
        return false;
      }
      return objs_[cell].SeeBehind();
    };
    mask_.assign(static_cast<size_t>(sz) * sz, see_through_walls_ ? 1 : 0);
    if (!see_through_walls_) {
      mask_[(sz - 1) * sz + hs] = 1;
      for (int j = sz - 1; j >= 0; --j) {
        for (int i = 0; i < sz - 1; ++i) {
          if (!mask_[j * sz + i] || !see_behind(view_[j * sz + i])) {
            continue;
          }
          mask_[j * sz + i + 1] = 1;
          if (j > 0) {
            mask_[(j - 1) * sz + i + 1] = 1;
            mask_[(j - 1) * sz + i] = 1;
          }
        }
        for (int i = sz - 1; i >= 1; --i) {
          if (!mask_[j * sz + i] || !see_behind(view_[j * sz + i])) {
            continue;
          }
          mask_[j * sz + i - 1] = 1;
          if (j > 0) {
            mask_[(j - 1) * sz + i - 1] = 1;
            mask_[(j - 1) * sz + i] = 1;
          }
        }
      }
    }
  }

  // The world cell of the view's top-left corner (row 0, column 0).
  Pos ViewTopLeft() const {
    const int sz = view_size_;
    const Pos f = DirVec();
    const Pos r = {-f.y, f.x};
    return {agent_pos_.x + f.x * (sz - 1) - r.x * (sz / 2),
            agent_pos_.y + f.y * (sz - 1) - r.y * (sz / 2)};
  }

  // get_full_render's highlight_mask: the grid cells the agent sees,
  // `mask` width x height, x-major.
  void HighlightMask(std::vector<uint8_t>* mask) const {
    ComputeView();
    mask->assign(static_cast<size_t>(width_) * height_, 0);
    const int sz = view_size_;
    const Pos f = DirVec();
    const Pos r = {-f.y, f.x};
    const Pos top_left = ViewTopLeft();
    for (int vj = 0; vj < sz; ++vj) {
      for (int vi = 0; vi < sz; ++vi) {
        if (!mask_[vj * sz + vi]) {
          continue;
        }
        int x = top_left.x - f.x * vj + r.x * vi;
        int y = top_left.y - f.y * vj + r.y * vi;
        if (x >= 0 && x < width_ && y >= 0 && y < height_) {
          (*mask)[static_cast<size_t>(x) * height_ + y] = 1;
        }
      }
    }
  }

  // gen_obs's image: the view's cells encoded, cells the agent does not see
  // unseen (0), the agent's cell holding what it carries.  image[x][y][3],
  // x-major.
  void GenObsImage(uint8_t* image) const {
    ComputeView();
    const int sz = view_size_;
    const int hs = sz / 2;
    view_[(sz - 1) * sz + hs] = carrying_;
    for (int vi = 0; vi < sz; ++vi) {
      for (int vj = 0; vj < sz; ++vj) {
        uint8_t* out = image + (static_cast<size_t>(vi) * sz + vj) * 3;
        int cell = view_[vj * sz + vi];
        if (!mask_[vj * sz + vi]) {
          out[0] = out[1] = out[2] = 0;
        } else if (cell == -1) {
          out[0] = kEmpty;
          out[1] = out[2] = 0;
        } else if (cell == kOutside) {
          out[0] = kWall;
          out[1] = kGrey;
          out[2] = 0;
        } else {
          auto code = objs_[cell].Encode();
          out[0] = code[0];
          out[1] = code[1];
          out[2] = code[2];
        }
      }
    }
  }

  // The full grid as minigrid's Grid.encode() (x-major), for tests.
  std::vector<uint8_t> EncodeGrid() const {
    std::vector<uint8_t> out(static_cast<size_t>(width_) * height_ * 3);
    for (int x = 0; x < width_; ++x) {
      for (int y = 0; y < height_; ++y) {
        uint8_t* o = out.data() + (static_cast<size_t>(x) * height_ + y) * 3;
        int cell = Get(x, y);
        if (cell == -1) {
          o[0] = kEmpty;
          o[1] = o[2] = 0;
        } else {
          auto code = objs_[cell].Encode();
          o[0] = code[0];
          o[1] = code[1];
          o[2] = code[2];
        }
      }
    }
    return out;
  }

  // --- state ------------------------------------------------------------
  random::Generator* rng_ = nullptr;
  int view_size_ = 7;
  bool see_through_walls_ = false;
  int64_t max_steps_ = 100;
  int64_t step_count_ = 0;
  Pos agent_pos_;
  int agent_dir_ = 0;
  int carrying_ = -1;
  std::string mission_;
  // The mission's index among the level's enumerated missions, -1 where the
  // level's missions are not enumerated.
  int mission_id_ = 0;

 protected:
  int width_ = 0;
  int height_ = 0;
  std::vector<WorldObj> objs_;
  std::vector<int> cells_;
  // A view cell beyond the grid (a wall to the agent).
  static constexpr int kOutside = -2;
  mutable std::vector<int> view_;
  mutable std::vector<uint8_t> mask_;
};

// A level: how it lays out its grid and how its step differs from the base.
class Level : public World {
 public:
  // minigrid's reset: agent at (-1, -1), _gen_grid, nothing carried.
  void Reset() {
    reset_image_.clear();
    agent_pos_ = {-1, -1};
    agent_dir_ = -1;
    carrying_ = -1;
    GenGrid();
    carrying_ = -1;
    step_count_ = 0;
    AfterReset();
  }
  virtual void GenGrid() = 0;
  // What a level does after minigrid's reset (BabyAI: its verifier).
  virtual void AfterReset() {}
  // minigrid truncates at step_count >= max_steps, whatever the TimeLimit.
  bool Truncated() const { return step_count_ >= max_steps_; }
  // The first observation, where the level changed the world after minigrid
  // made it (PutNext*Carrying); empty otherwise.
  std::vector<uint8_t> reset_image_;
  virtual StepResult Step(int action) { return BaseStep(action); }
  // How many actions the level takes (Dynamic-Obstacles: 3).
  virtual int NumActions() const { return 7; }
};

}  // namespace envpool::minigrid

#endif  // ENVPOOL_MINIGRID_WORLD_H_
