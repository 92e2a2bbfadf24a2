// The Atari preprocessing kernels: resize (expected values are what
// opencv-python 5.0's cv2.resize returns for the same inputs), max-pool,
// frame stack and the frame-skip loop.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "envpool/atari/atari_env.h"
#include "envpool/render/frames.h"

namespace envpool::atari {
namespace {

std::vector<uint8_t> Resize(const std::vector<uint8_t>& src, int h, int w,
                            int dh, int dw, bool area) {
  std::vector<uint8_t> dst(static_cast<std::size_t>(dh) * dw);
  Resizer resizer(h, w, dh, dw, area);
  resizer.Apply(src.data(), dst.data());
  return dst;
}

TEST(ResizeTest, AreaWeighsPartlyCoveredPixels) {
  // 3x3 -> 2x2: each output covers 1.5 x 1.5 pixels.
  std::vector<uint8_t> src = {0, 30, 60, 90, 120, 150, 180, 210, 240};
  EXPECT_EQ(Resize(src, 3, 3, 2, 2, true),
            (std::vector<uint8_t>{40, 80, 160, 200}));
  // 4x5 -> 3x2: one bright corner pixel reaches one output only.
  std::vector<uint8_t> corner(20, 0);
  corner[19] = 255;
  EXPECT_EQ(Resize(corner, 4, 5, 3, 2, true),
            (std::vector<uint8_t>{0, 0, 0, 0, 0, 76}));
}

TEST(ResizeTest, AreaHalvingRoundsTiesUp) {
  // 2x2 blocks: (1 + 0 + 0 + 1) / 4 = 0.5 -> 1, 6 / 4 = 1.5 -> 2.
  std::vector<uint8_t> src = {1, 0, 1, 2, 0, 1, 2, 1};
  EXPECT_EQ(Resize(src, 2, 4, 1, 2, true), (std::vector<uint8_t>{1, 2}));
}

TEST(ResizeTest, AreaIntegerBlocksRoundTiesToEven) {
  // 1x2 blocks: 0.5 -> 0, 1.5 -> 2, 2.5 -> 2.
  std::vector<uint8_t> src = {1, 0, 3, 0, 5, 0};
  EXPECT_EQ(Resize(src, 1, 6, 1, 3, true), (std::vector<uint8_t>{0, 2, 2}));
  // 3x3 block: 6 / 9 -> 1.
  std::vector<uint8_t> block = {1, 1, 1, 1, 1, 1, 0, 0, 0};
  EXPECT_EQ(Resize(block, 3, 3, 1, 1, true), (std::vector<uint8_t>{1}));
}

TEST(ResizeTest, AreaUpscaleInterpolatesLinearly) {
  std::vector<uint8_t> src = {0, 100, 200, 255};
  EXPECT_EQ(Resize(src, 2, 2, 3, 3, true),
            (std::vector<uint8_t>{0, 50, 100, 100, 139, 178, 200, 228, 255}));
  // INTER_LINEAR rounds the same point differently.
  EXPECT_EQ(Resize(src, 2, 2, 3, 3, false),
            (std::vector<uint8_t>{0, 50, 100, 100, 139, 178, 200, 227, 255}));
}

TEST(ResizeTest, LinearDownscale) {
  std::vector<uint8_t> src(20);
  for (int i = 0; i < 20; ++i) {
    src[i] = static_cast<uint8_t>(12 * i);
  }
  EXPECT_EQ(Resize(src, 4, 5, 3, 2, false),
            (std::vector<uint8_t>{19, 49, 99, 129, 179, 209}));
}

TEST(ResizeTest, SameSizeCopies) {
  std::vector<uint8_t> src = {1, 2, 3, 4, 5, 6};
  EXPECT_EQ(Resize(src, 2, 3, 2, 3, true), src);
  EXPECT_EQ(Resize(src, 2, 3, 2, 3, false), src);
}

TEST(ResizeTest, ConstantImageStaysConstant) {
  for (bool area : {true, false}) {
    for (auto [dh, dw] : {std::pair{84, 84}, {105, 80}, {70, 80}, {250, 200}}) {
      std::vector<uint8_t> src(210 * 160, 77);
      std::vector<uint8_t> out = Resize(src, 210, 160, dh, dw, area);
      for (uint8_t v : out) {
        ASSERT_EQ(v, 77) << dh << "x" << dw << " area=" << area;
      }
    }
  }
}

TEST(FrameStackTest, KeepsTheLastFramesOldestFirst) {
  FrameStack stack(3, 2);
  auto push = [&](uint8_t v) {
    uint8_t* f = stack.Next();
    f[0] = v;
    f[1] = static_cast<uint8_t>(v + 100);
    stack.Push();
  };
  push(1);
  stack.FillWithNewest();
  std::vector<uint8_t> out(6);
  stack.CopyTo(out.data());
  EXPECT_EQ(out, (std::vector<uint8_t>{1, 101, 1, 101, 1, 101}));
  push(2);
  push(3);
  push(4);
  stack.CopyTo(out.data());
  EXPECT_EQ(out, (std::vector<uint8_t>{2, 102, 3, 103, 4, 104}));
}

// A one-pixel game: frame t shows palette index screens[t] and pays
// rewards[t].  The palette maps index i to 10 * i.
struct FakeGame {
  std::vector<uint8_t> screens;
  std::vector<int> rewards;
  int game_over_at = -1;
  int t = -1;
  int Act() { return rewards[++t]; }
  bool GameOver() const { return t == game_over_at; }
  const uint8_t* Screen() const { return &screens[t]; }
};

FramePool TenfoldPool() {
  uint8_t table[256];
  for (int i = 0; i < 256; ++i) {
    table[i] = static_cast<uint8_t>(10 * i % 256);
  }
  FramePool pool(1, 1);
  pool.SetPalette(0, table);
  return pool;
}

TEST(SkipAndPoolTest, MaxPoolsTheLastTwoFrames) {
  FakeGame game{{9, 1, 5, 3}, {1, 0, 2, 1}};
  FramePool pool = TenfoldPool();
  SkipResult r = SkipAndPool(game, 4, &pool);
  EXPECT_EQ(r.reward, 4);
  EXPECT_FALSE(r.game_over);
  EXPECT_EQ(game.t, 3);
  EXPECT_EQ(pool.frame()[0], 50);  // max(50, 30): the first two are skipped
}

TEST(SkipAndPoolTest, StopsAtGameOverAndPoolsWhatItHeld) {
  FramePool pool = TenfoldPool();
  uint8_t reset_screen = 2;
  pool.Reset(&reset_screen);
  FakeGame first{{1, 1, 7, 3}, {0, 0, 0, 0}};
  SkipAndPool(first, 4, &pool);
  EXPECT_EQ(pool.frame()[0], 70);  // max(70, 30)
  // Game over on the second frame: no frame of this step is read; the pool
  // of the previous step meets its second-to-last frame again.
  FakeGame second{{9, 9, 9, 9}, {1, 1, 1, 1}, 1};
  SkipResult r = SkipAndPool(second, 4, &pool);
  EXPECT_EQ(r.reward, 2);
  EXPECT_TRUE(r.game_over);
  EXPECT_EQ(second.t, 1);
  EXPECT_EQ(pool.frame()[0], 70);
  // Game over on the last frame: the kept frame is pooled into what was held.
  FakeGame third{{0, 0, 8, 9}, {0, 0, 0, 0}, 3};
  SkipAndPool(third, 4, &pool);
  EXPECT_EQ(pool.frame()[0], 80);
}

TEST(SkipAndPoolTest, ResetStartsFromABlankPreviousFrame) {
  FramePool pool = TenfoldPool();
  uint8_t reset_screen = 4;
  pool.Reset(&reset_screen);
  FakeGame game{{9, 9, 9, 9}, {0, 0, 0, 0}, 0};
  SkipAndPool(game, 4, &pool);
  EXPECT_EQ(pool.frame()[0], 40);  // max(reset frame, blank)
}

TEST(SkipAndPoolTest, OneFrameSkipReadsOneFrameWithoutPooling) {
  FramePool pool = TenfoldPool();
  uint8_t reset_screen = 20;
  pool.Reset(&reset_screen);
  FakeGame game{{4}, {5}};
  SkipResult r = SkipAndPool(game, 1, &pool);
  EXPECT_EQ(r.reward, 5);
  EXPECT_EQ(pool.frame()[0], 40);
}

TEST(FramePoolTest, ConvertsEachChannelThroughItsPalette) {
  uint8_t red[256], green[256], blue[256];
  for (int i = 0; i < 256; ++i) {
    red[i] = static_cast<uint8_t>(i);
    green[i] = static_cast<uint8_t>(255 - i);
    blue[i] = static_cast<uint8_t>(i / 2);
  }
  FramePool pool(3, 2);
  pool.SetPalette(0, red);
  pool.SetPalette(1, green);
  pool.SetPalette(2, blue);
  uint8_t a[2] = {10, 200};
  uint8_t b[2] = {20, 100};
  pool.Reset(a);
  pool.KeepPrevious(a);
  pool.PoolLast(b, true);
  // Planes R, G, B; each channel pooled on its own values.
  std::vector<uint8_t> frame(pool.frame(), pool.frame() + 6);
  EXPECT_EQ(frame, (std::vector<uint8_t>{20, 200, 245, 155, 10, 100}));
}

TEST(AtariEnvTest, MissingRomNamesTheFileAndTheFix) {
  Options options = AtariEnv::DefaultOptions();
  options.Set("rom_dir", std::string("/nonexistent"));
  EnvSpec spec;
  AtariEnv::Fields fields;
  try {
    AtariEnv::Declare(options, &spec, &fields);
    FAIL() << "expected an error";
  } catch (const std::invalid_argument& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("/nonexistent/pong.bin"), std::string::npos) << what;
    EXPECT_NE(what.find("pip install ale-py==0.11.2"), std::string::npos)
        << what;
  }
}

}  // namespace
}  // namespace envpool::atari
