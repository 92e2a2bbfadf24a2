// Rules of minigrid's world, checked on hand-built grids outside the pool:
// what the agent sees, doors and keys, boxes, pickup and drop, and BabyAI's
// verifier on one instruction.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "envpool/core/random.h"
#include "envpool/minigrid/render.h"
#include "envpool/minigrid/wfc.h"
#include "envpool/minigrid/world.h"

namespace envpool::minigrid {
namespace {

// An empty walled room of size x size, the agent at (x, y) facing dir.
class Room : public Level {
 public:
  Room(int size, Pos agent, int dir, bool see_through = false)
      : size_(size), start_(agent), dir_(dir) {
    see_through_walls_ = see_through;
    max_steps_ = 100;
  }
  void GenGrid() override {
    NewGrid(size_, size_);
    WallRect(0, 0, size_, size_);
    agent_pos_ = start_;
    agent_dir_ = dir_;
  }
  std::vector<uint8_t> Image() const {
    std::vector<uint8_t> image(static_cast<size_t>(view_size_) * view_size_ *
                               3);
    GenObsImage(image.data());
    return image;
  }
  // The (type, colour, state) the agent sees at view cell (vx, vy).
  std::vector<int> Seen(int vx, int vy) const {
    auto image = Image();
    const uint8_t* cell =
        image.data() + (static_cast<size_t>(vx) * view_size_ + vy) * 3;
    return {cell[0], cell[1], cell[2]};
  }

 private:
  int size_;
  Pos start_;
  int dir_;
};

TEST(MiniGridWorldTest, AgentCellHoldsWhatItCarriesAndWallsHideWhatIsBehind) {
  random::Generator rng(uint64_t{0});
  Room room(9, {4, 7}, 3);  // facing up from the bottom row
  room.rng_ = &rng;
  room.Reset();
  // A wall across the room two cells ahead: the cells behind it unseen.
  room.HorzWall(1, 5, 7);
  EXPECT_EQ(room.Seen(3, 6), (std::vector<int>{kEmpty, 0, 0}));
  EXPECT_EQ(room.Seen(3, 4), (std::vector<int>{kWall, kGrey, 0}));
  EXPECT_EQ(room.Seen(3, 3), (std::vector<int>{kUnseen, 0, 0}));
  room.carrying_ = room.NewObj(kKey, kYellow);
  EXPECT_EQ(room.Seen(3, 6), (std::vector<int>{kKey, kYellow, 0}));
}

TEST(MiniGridWorldTest, LockedDoorOpensOnlyWithItsKeyAndClosedDoorsHide) {
  random::Generator rng(uint64_t{0});
  Room room(7, {3, 5}, 3);
  room.rng_ = &rng;
  room.Reset();
  int door = room.NewDoor(kBlue, true);
  room.PutObj(door, 3, 4);
  EXPECT_EQ(room.Seen(3, 5), (std::vector<int>{kDoor, kBlue, 2}));
  room.Step(kToggle);
  EXPECT_TRUE(room.Obj(door).is_locked);
  room.carrying_ = room.NewObj(kKey, kRed);
  room.Step(kToggle);
  EXPECT_TRUE(room.Obj(door).is_locked);
  room.carrying_ = room.NewObj(kKey, kBlue);
  room.Step(kToggle);
  EXPECT_FALSE(room.Obj(door).is_locked);
  EXPECT_TRUE(room.Obj(door).is_open);
  EXPECT_EQ(room.Seen(3, 5), (std::vector<int>{kDoor, kBlue, 0}));
  room.Step(kForward);
  EXPECT_EQ(room.agent_pos_, (Pos{3, 4}));
}

TEST(MiniGridWorldTest, BoxTurnsIntoItsContentAndPickupDropMoveObjects) {
  random::Generator rng(uint64_t{0});
  Room room(7, {3, 5}, 3);
  room.rng_ = &rng;
  room.Reset();
  int box = room.NewObj(kBox, kPurple);
  int ball = room.NewObj(kBall, kGreen);
  room.Obj(box).contains = ball;
  room.PutObj(box, 3, 4);
  room.Step(kToggle);
  EXPECT_EQ(room.Get(3, 4), ball);
  room.Step(kPickup);
  EXPECT_EQ(room.carrying_, ball);
  EXPECT_EQ(room.Get(3, 4), -1);
  EXPECT_EQ(room.Obj(ball).cur_pos, (Pos{-1, -1}));
  room.Step(kLeft);  // facing left now, (2, 5) is free
  room.Step(kDrop);
  EXPECT_EQ(room.carrying_, -1);
  EXPECT_EQ(room.Get(2, 5), ball);
  EXPECT_EQ(room.Obj(ball).cur_pos, (Pos{2, 5}));
}

TEST(MiniGridWorldTest, GoalEndsWithTheStepDiscountedReward) {
  random::Generator rng(uint64_t{0});
  Room room(5, {3, 2}, 1);
  room.rng_ = &rng;
  room.Reset();
  room.PutObj(room.NewGoal(), 3, 3);
  room.Step(kLeft);
  room.Step(kRight);
  auto result = room.Step(kForward);
  EXPECT_TRUE(result.terminated);
  EXPECT_DOUBLE_EQ(result.reward, 1.0 - 0.9 * 3.0 / 100.0);
}

TEST(MiniGridWorldTest, RandomHelpersDrawAsNumpy) {
  // _rand_int and _rand_elem are integers(low, high) on np_random.
  random::Generator a(uint64_t{3});
  random::Generator b(uint64_t{3});
  Room room(5, {1, 1}, 0);
  room.rng_ = &a;
  for (int k = 0; k < 8; ++k) {
    EXPECT_EQ(room.RandInt(0, 6), b.Integers<int64_t>(0, 6));
  }
}

// Pixels of minigrid's tiles worked out by hand: a 32-pixel tile is drawn on
// 96 x 96 subpixels and averaged 3 x 3.
TEST(MiniGridRenderTest, TilePixelsAsMinigridDrawsThem) {
  std::vector<uint8_t> tile(32 * 32 * 3);
  auto px = [&](int x, int y, int ch) { return tile[(y * 32 + x) * 3 + ch]; };
  // An empty cell: the grid line (the subpixels left of x = 0.031 and above
  // y = 0.031) grey 100 in the first pixel row and column, black inside.
  RenderTile(nullptr, -1, false, 32, tile.data());
  EXPECT_EQ(px(0, 0, 0), 100);
  EXPECT_EQ(px(0, 17, 1), 100);
  EXPECT_EQ(px(17, 0, 2), 100);
  EXPECT_EQ(px(1, 1, 0), 0);
  EXPECT_EQ(px(31, 31, 0), 0);
  // Highlighted: 0 + 0.3 * 255 = 76.5, truncated; the line 100 + 0.3 * 155.
  RenderTile(nullptr, -1, true, 32, tile.data());
  EXPECT_EQ(px(5, 5, 0), 76);
  EXPECT_EQ(px(0, 5, 0), 146);
  // A locked purple door's inside: 0.45 * (112, 39, 195), truncated.
  WorldObj door;
  door.type = kDoor;
  door.color = kPurple;
  door.is_locked = true;
  RenderTile(&door, -1, false, 32, tile.data());
  EXPECT_EQ(px(4, 8, 0), 50);
  EXPECT_EQ(px(4, 8, 1), 17);
  EXPECT_EQ(px(4, 8, 2), 87);
  // The agent facing right: red at the tile's centre, not at its corners.
  RenderTile(nullptr, 0, false, 32, tile.data());
  EXPECT_EQ(px(16, 16, 0), 255);
  EXPECT_EQ(px(16, 16, 1), 0);
  EXPECT_EQ(px(30, 30, 0), 0);
}

TEST(MiniGridRenderTest, FrameIsTheGridOfTilesWithTheViewHighlighted) {
  Room room(5, {1, 3}, 3);  // facing up from the bottom-left corner
  random::Generator rng(uint64_t{0});
  room.rng_ = &rng;
  room.Reset();
  const int t = 8;
  std::vector<uint8_t> frame(5 * t * 5 * t * 3);
  FrameRenderer renderer;
  renderer.Render(room, t, frame.data());
  auto px = [&](int cx, int cy, int x, int y) {
    return frame[((cy * t + y) * 5 * t + cx * t + x) * 3];
  };
  std::vector<uint8_t> wall(t * t * 3);
  std::vector<uint8_t> lit_wall(t * t * 3);
  RenderTile(&room.Obj(room.Get(0, 0)), -1, false, t, wall.data());
  RenderTile(&room.Obj(room.Get(0, 0)), -1, true, t, lit_wall.data());
  // The top-left wall is seen (lit); the bottom wall (y = 4) lies behind
  // the agent, outside its view (not lit).
  EXPECT_NE(wall[(4 * t + 4) * 3], lit_wall[(4 * t + 4) * 3]);
  EXPECT_EQ(px(0, 0, 4, 4), lit_wall[(4 * t + 4) * 3]);
  EXPECT_EQ(px(2, 4, 4, 4), wall[(4 * t + 4) * 3]);
  // The agent's cell: red at its centre.
  EXPECT_EQ(px(1, 3, t / 2, t / 2), 255);
  // Drawn again from the cache: the same frame.
  std::vector<uint8_t> again(frame.size());
  renderer.Render(room, t, again.data());
  EXPECT_EQ(frame, again);
}

// numpy's RandomState(0).randint(1 - 2**63, 2**63, 3, dtype=np.int64).
TEST(MiniGridWfcTest, HashVectorIsNumpysLegacyRandint) {
  const std::vector<uint64_t> v = wfc_internal::HashVector(3);
  EXPECT_EQ(static_cast<int64_t>(v[0]), 900450186894289456);
  EXPECT_EQ(static_cast<int64_t>(v[1]), 3969543146641149121);
  EXPECT_EQ(static_cast<int64_t>(v[2]), 1895649597198586620);
}

// The pattern counts minigrid 3.2.0's make_pattern_catalog_with_rotations
// finds in the six images, and its weights (the number of the 8
// transformed images a pattern occurs in).
TEST(MiniGridWfcTest, CataloguesHaveMinigridsPatterns) {
  const int counts[6] = {12, 14, 37, 5, 42, 40};
  for (int i = 0; i < 6; ++i) {
    const WfcCatalog& catalog = CatalogFor(kWfcPatternImages[i]);
    EXPECT_EQ(catalog.num_patterns, counts[i]) << kWfcPatternImages[i].preset;
    for (double w : catalog.weights) {
      EXPECT_TRUE(w >= 1 && w <= 8);
    }
  }
  for (double w : CatalogFor(kWfcPatternImages[0]).weights) {
    EXPECT_EQ(w, 8);  // MazeSimple's patterns all occur in every transform
  }
}

// Python 3.11: hash((3, 5)), hash((0, 0)), hash((22, 1)).
TEST(MiniGridWfcTest, TupleHashIsCPythons) {
  EXPECT_EQ(static_cast<int64_t>(wfc_internal::PyTupleHash(3, 5)),
            7586885779985432798);
  EXPECT_EQ(static_cast<int64_t>(wfc_internal::PyTupleHash(0, 0)),
            -8458139203682520985);
  EXPECT_EQ(static_cast<int64_t>(wfc_internal::PyTupleHash(22, 1)),
            4214847519409810856);
}

// keys = (r % 23, r * r % 23) for r < 23: [keys.index(k) for k in set(keys)]
// in Python 3.11 (23 keys: the table grows twice).
TEST(MiniGridWfcTest, SetOrderIsCPythons) {
  std::vector<uint64_t> hashes;
  for (int r = 0; r < 23; ++r) {
    hashes.push_back(wfc_internal::PyTupleHash(r, r * r % 23));
  }
  const std::vector<int> expected = {8,  13, 22, 12, 3,  14, 2, 10,
                                     16, 7,  6,  20, 5,  4,  0, 1,
                                     9,  17, 19, 11, 18, 21, 15};
  EXPECT_EQ(wfc_internal::PySetOrder(hashes), expected);
}

}  // namespace
}  // namespace envpool::minigrid
