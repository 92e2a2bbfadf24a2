// The render frame's pixels: every screen format becomes RGB in its place.
#include "envpool/vizdoom/render_frame.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

namespace envpool::vizdoom {
namespace {

TEST(RenderTest, EveryScreenFormatBecomesRgb) {
  // Two pixels, (1, 2, 3) and (4, 5, 6) as RGB, in each format.
  struct Case {
    ::vizdoom::ScreenFormat format;
    std::vector<uint8_t> bytes;
  };
  const std::vector<Case> cases = {
      {::vizdoom::CRCGCB, {1, 4, 2, 5, 3, 6}},
      {::vizdoom::CBCGCR, {3, 6, 2, 5, 1, 4}},
      {::vizdoom::RGB24, {1, 2, 3, 4, 5, 6}},
      {::vizdoom::BGR24, {3, 2, 1, 6, 5, 4}},
      {::vizdoom::RGBA32, {1, 2, 3, 9, 4, 5, 6, 9}},
      {::vizdoom::ARGB32, {9, 1, 2, 3, 9, 4, 5, 6}},
      {::vizdoom::BGRA32, {3, 2, 1, 9, 6, 5, 4, 9}},
      {::vizdoom::ABGR32, {9, 3, 2, 1, 9, 6, 5, 4}},
  };
  for (const Case& c : cases) {
    // Into the right half of a frame two images wide.
    std::vector<uint8_t> rgb(2 * 2 * 3, 0);
    BlitRgb(c.bytes.data(), LayoutOf(c.format), 1, 2, 4, 2, rgb.data());
    EXPECT_EQ(rgb, (std::vector<uint8_t>{0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6}))
        << c.format;
  }
  std::vector<uint8_t> gray = {7, 8};
  std::vector<uint8_t> rgb(6, 0);
  BlitRgb(gray.data(), LayoutOf(::vizdoom::GRAY8), 1, 2, 2, 0, rgb.data());
  EXPECT_EQ(rgb, (std::vector<uint8_t>{7, 7, 7, 8, 8, 8}));
  BlitRgb(gray.data(), kDepthLayout, 1, 2, 2, 0, rgb.data());
  EXPECT_EQ(rgb, (std::vector<uint8_t>{7, 7, 7, 8, 8, 8}));
  EXPECT_THROW(LayoutOf(::vizdoom::DOOM_256_COLORS8), std::invalid_argument);
}

}  // namespace
}  // namespace envpool::vizdoom
