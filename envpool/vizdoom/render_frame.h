// The pixels of the ViZDoom envs' render() frame: a screen-format buffer
// (any of ViZDoom's formats but the palette one) copied as RGB into its
// place in the frame, as vizdoom's gymnasium wrapper shows it.
#ifndef ENVPOOL_VIZDOOM_RENDER_FRAME_H_
#define ENVPOOL_VIZDOOM_RENDER_FRAME_H_

#include <cstdint>

#include "ViZDoom.h"

namespace envpool::vizdoom {

// Where red, green and blue are in one pixel of a screen-format buffer:
// byte (plane) offsets and the step between pixels.  planar: the offsets
// are of whole planes.
struct PixelLayout {
  int r = 0, g = 0, b = 0, step = 1;
  bool planar = false;
  bool gray = false;
};

// The layout of `format`; std::invalid_argument for DOOM_256_COLORS8.
PixelLayout LayoutOf(::vizdoom::ScreenFormat format);

// The layout of the depth buffer: one gray byte per pixel.
inline constexpr PixelLayout kDepthLayout{0, 0, 0, 1, false, true};

// Copies an h x w screen-format buffer as RGB into columns [x0, x0 + w) of
// a frame `frame_width` pixels wide.
void BlitRgb(const uint8_t* src, const PixelLayout& layout, int h, int w,
             int frame_width, int x0, uint8_t* rgb);

}  // namespace envpool::vizdoom

#endif  // ENVPOOL_VIZDOOM_RENDER_FRAME_H_
