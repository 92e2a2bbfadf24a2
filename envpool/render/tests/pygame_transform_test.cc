// pygame_transform.h against pygame 2.6.1: the expected pixels and vectors
// below are what pygame.transform.rotate, Surface.blit and
// pygame.math.Vector2.rotate return for the same inputs.
#include "envpool/render/pygame_transform.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace envpool::render {
namespace {

// A 7x4 surface whose pixel (x, y) has red x + 7 y + 1 (opaque), but for
// the transparent top-left pixel.
RgbaSurface Numbered() {
  RgbaSurface s(7, 4);
  for (int y = 0; y < 4; ++y) {
    for (int x = 0; x < 7; ++x) {
      if (x != 0 || y != 0) {
        s.At(x, y) = {static_cast<uint8_t>(x + 7 * y + 1), 0, 0, 255};
      }
    }
  }
  return s;
}

// Each pixel as a letter: '.' transparent, 'A'.. for red 1.., 'a'.. from 27.
std::vector<std::string> Letters(const RgbaSurface& s) {
  std::vector<std::string> rows;
  for (int y = 0; y < s.height(); ++y) {
    std::string row;
    for (int x = 0; x < s.width(); ++x) {
      const Rgba& p = s.At(x, y);
      row += p.a == 0    ? '.'
             : p.r <= 26 ? static_cast<char>('A' + p.r - 1)
                         : static_cast<char>('a' + p.r - 27);
    }
    rows.push_back(row);
  }
  return rows;
}

TEST(PygameTransformTest, RotateAsPygame) {
  const RgbaSurface s = Numbered();
  struct Case {
    float angle;
    std::vector<std::string> rows;
  };
  const std::vector<Case> cases = {
      {7.0F, {"...DEFG", ".BCKLMN", "HIJKSTU", "OPQRZab"}},
      {-33.5F,
       {"........", ".HIBC...", "VOIJDE..", "VWQRKLFG", "..XYSTNG", "...ZaTU.",
        ".....b.."}},
      {90.0F, {"GNUb", "FMTa", "ELSZ", "DKRY", "CJQX", "BIPW", ".HOV"}},
      {-90.0F, {"VOH.", "WPIB", "XQJC", "YRKD", "ZSLE", "aTMF", "bUNG"}},
      {180.0F, {"baZYXWV", "UTSRQPO", "NMLKJIH", "GFEDCB."}},
      {270.0F, {"VOH.", "WPIB", "XQJC", "YRKD", "ZSLE", "aTMF", "bUNG"}},
      {135.25F,
       {"..b....", ".UTZ...", "GMSSY..", ".ELRQX.", "..DJJPV", "...CIH.",
        "......."}},
      {-2.0000001F, {".BCD...", "HIJKEFG", "OPQRLMN", "VWXRSTU"}},
      {359.5F, {".BCD...", "HIJKEFG", "OPQRLMN", "VWXRSTU"}},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(Letters(s.Rotate(c.angle)), c.rows) << c.angle;
  }
}

TEST(PygameTransformTest, Vector2RotateAsPygame) {
  struct Case {
    double x, y, degrees, rx, ry;
  };
  const Case cases[] = {
      {38, 0, -4.2, 0x1.2f2f007ae9f0ep+5, -0x1.643b080024756p+1},
      {38, -38, -4.2, 0x1.18eb4ffae7a99p+5, -0x1.4572b0faec383p+5},
      {19, -19, 123.456, 0x1.5824cfba100c2p+2, 0x1.a539644e3578ap+4},
      {5, -5, -90.0000001, -5, -5},
      {0, -38, 1e-7, 0, -38},
  };
  for (const Case& c : cases) {
    double rx, ry;
    Vector2Rotate(c.x, c.y, c.degrees, &rx, &ry);
    EXPECT_EQ(rx, c.rx) << c.degrees;
    EXPECT_EQ(ry, c.ry) << c.degrees;
  }
}

TEST(PygameTransformTest, AlphaBlitsAsPygame) {
  RgbaSurface src(4, 1);
  const Rgba s[4] = {{90, 80, 70, 128},
                     {90, 80, 70, 128},
                     {200, 1, 3, 200},
                     {255, 255, 255, 0}};
  for (int x = 0; x < 4; ++x) {
    src.At(x, 0) = s[x];
  }
  RgbaSurface dst(4, 1);
  const Rgba d[4] = {
      {0, 0, 0, 0}, {10, 200, 30, 255}, {100, 50, 250, 128}, {7, 9, 11, 1}};
  for (int x = 0; x < 4; ++x) {
    dst.At(x, 0) = d[x];
  }
  src.BlitOnto(&dst, 0, 0);
  const Rgba want[4] = {
      {90, 80, 70, 128}, {50, 140, 50, 255}, {178, 11, 57, 228}, {7, 9, 11, 1}};
  for (int x = 0; x < 4; ++x) {
    const Rgba& p = dst.At(x, 0);
    EXPECT_EQ((std::vector<int>{p.r, p.g, p.b, p.a}),
              (std::vector<int>{want[x].r, want[x].g, want[x].b, want[x].a}))
        << x;
  }
  Canvas opaque(4, 1);
  const Rgb o[4] = {{0, 0, 0}, {10, 200, 30}, {100, 50, 250}, {7, 9, 11}};
  for (int x = 0; x < 4; ++x) {
    opaque.Put(x, 0, Canvas::Pack(o[x]));
  }
  // (x, y) truncated toward zero: -0.5 is 0.
  src.BlitOnto(&opaque, -0.5, 0.7);
  const Rgb want_opaque[4] = {
      {45, 40, 35}, {50, 140, 50}, {178, 11, 57}, {7, 9, 11}};
  for (int x = 0; x < 4; ++x) {
    EXPECT_EQ(opaque.pixels()[x], Canvas::Pack(want_opaque[x])) << x;
  }
}

TEST(PygameTransformTest, RectsAsPygameDrawRect) {
  RgbaSurface s(6, 5);
  s.FillRect(4, -1, 5, 3, {1, 0, 0, 255});  // clipped to the surface
  s.RectOutline(0, 1, 4, 4, {2, 0, 0, 255});
  EXPECT_EQ(Letters(s), (std::vector<std::string>{"....AA", "BBBBAA", "B..B..",
                                                  "B..B..", "BBBB.."}));
}

}  // namespace
}  // namespace envpool::render
