// The two X passes of SmoothShrinker (two rows per SSE2 register, four per
// AVX2 register) give the same bytes, and both give smoothscale's: pygame
// 2.6.1's smoothscale of a uniform (102, 204, 102) 1000x800 surface to 96x96
// is (100, 202, 100) everywhere (its fixed-point shares lose a little).
#include "envpool/render/pygame_draw.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

namespace envpool::render {
namespace {

std::vector<uint8_t> Shrink(const std::vector<uint32_t>& px, int sw, int sh,
                            int dw, int dh, int rows_per_pass) {
  std::vector<const uint32_t*> rows(sh);
  for (int y = 0; y < sh; ++y) {
    rows[y] = px.data() + static_cast<size_t>(y) * sw;
  }
  SmoothShrinker shrinker;
  shrinker.SetRowsPerPass(rows_per_pass);
  std::vector<uint8_t> rgb(static_cast<size_t>(dw) * dh * 3, 7);
  shrinker.Shrink(rows.data(), sw, sh, dw, dh, rgb.data());
  return rgb;
}

TEST(SmoothShrinkerTest, FourRowPassEqualsTwoRowPass) {
  if (!SmoothShrinker::CpuHasAvx2()) {
    GTEST_SKIP() << "no AVX2 on this CPU: only the two-row pass runs";
  }
  std::mt19937 rng(1);
  // CarRacing's state and render sizes, and odd ones (rows left over after
  // the last group of four, runs of one pixel).
  const int sizes[][4] = {{1000, 800, 96, 96},
                          {1000, 800, 600, 400},
                          {333, 257, 31, 29},
                          {64, 63, 60, 61}};
  for (const auto& s : sizes) {
    std::vector<uint32_t> px(static_cast<size_t>(s[0]) * s[1]);
    for (uint32_t& p : px) {
      p = rng() & 0xffffffu;
    }
    // Flat areas as well as noise: the sums saturate at 255 there.
    for (size_t i = 0; i < px.size() / 3; ++i) {
      px[i] = 0xffffffu;
    }
    EXPECT_EQ(Shrink(px, s[0], s[1], s[2], s[3], 4),
              Shrink(px, s[0], s[1], s[2], s[3], 2))
        << s[0] << "x" << s[1] << " -> " << s[2] << "x" << s[3];
  }
}

TEST(SmoothShrinkerTest, UniformSurfaceAsPygameShrinksIt) {
  const std::vector<uint32_t> px(1000 * 800, 0x66cc66u);
  for (int pass : {2, 4}) {
    if (pass == 4 && !SmoothShrinker::CpuHasAvx2()) {
      continue;
    }
    const std::vector<uint8_t> rgb = Shrink(px, 1000, 800, 96, 96, pass);
    for (size_t i = 0; i < rgb.size(); i += 3) {
      ASSERT_EQ(rgb[i], 100) << "pass " << pass << " byte " << i;
      ASSERT_EQ(rgb[i + 1], 202) << "pass " << pass << " byte " << i;
      ASSERT_EQ(rgb[i + 2], 100) << "pass " << pass << " byte " << i;
    }
  }
}

}  // namespace
}  // namespace envpool::render
