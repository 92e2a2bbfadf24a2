#include "envpool/vizdoom/render_frame.h"

#include <cstddef>
#include <stdexcept>

namespace envpool::vizdoom {

PixelLayout LayoutOf(::vizdoom::ScreenFormat format) {
  switch (format) {
    case ::vizdoom::CRCGCB:
      return {0, 1, 2, 1, true, false};
    case ::vizdoom::CBCGCR:
      return {2, 1, 0, 1, true, false};
    case ::vizdoom::RGB24:
      return {0, 1, 2, 3, false, false};
    case ::vizdoom::BGR24:
      return {2, 1, 0, 3, false, false};
    case ::vizdoom::RGBA32:
      return {0, 1, 2, 4, false, false};
    case ::vizdoom::ARGB32:
      return {1, 2, 3, 4, false, false};
    case ::vizdoom::BGRA32:
      return {2, 1, 0, 4, false, false};
    case ::vizdoom::ABGR32:
      return {3, 2, 1, 4, false, false};
    case ::vizdoom::GRAY8:
      return {0, 0, 0, 1, false, true};
    default:
      throw std::invalid_argument(
          "render_mode 'rgb_array': the cfg's screen_format "
          "DOOM_256_COLORS8 (Doom palette indices) is not rendered; use "
          "RGB24, CRCGCB or GRAY8");
  }
}

void BlitRgb(const uint8_t* src, const PixelLayout& layout, int h, int w,
             int frame_width, int x0, uint8_t* rgb) {
  const std::size_t plane = static_cast<std::size_t>(h) * w;
  for (int y = 0; y < h; ++y) {
    uint8_t* dst = rgb + (static_cast<std::size_t>(y) * frame_width + x0) * 3;
    for (int x = 0; x < w; ++x, dst += 3) {
      const std::size_t i = static_cast<std::size_t>(y) * w + x;
      if (layout.planar) {
        dst[0] = src[layout.r * plane + i];
        dst[1] = src[layout.g * plane + i];
        dst[2] = src[layout.b * plane + i];
      } else {
        const uint8_t* px = src + i * layout.step;
        dst[0] = px[layout.r];
        dst[1] = px[layout.g];
        dst[2] = px[layout.b];
      }
    }
  }
}

}  // namespace envpool::vizdoom
