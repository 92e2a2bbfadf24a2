// pygame's sprite drawing, byte for byte: an opaque 24-bit surface
// (pygame.Surface(size), no per-pixel alpha) that images with per-pixel
// alpha (pygame.image.load of an RGBA PNG) are blitted onto, as gymnasium's
// toy_text envs draw their frames.
//
// - Blit: pygame 2's own alpha blit (alphablit.c, used for a source with
//   per-pixel alpha; its AVX2/SSE2 paths give the same bytes), per channel
//   d' = d + (((s - d) * a + s) >> 8), the shift an arithmetic one; a pixel
//   of alpha 0 leaves d. Positions are truncated to int as pygame's blit
//   takes them; the part off the surface is clipped.
// - Fill: Surface.fill, Rect: pygame.draw.rect(surface, colour, rect, 1)
//   (the one-pixel outline inside the rectangle), Flip:
//   pygame.transform.flip, Scale: pygame.transform.scale, nearest
//   neighbour: destination pixel x takes source pixel x * src_w / dst_w
//   (integer division), rows alike: what pygame's stretch loop picks,
//   measured equal for every pair of widths up to 39 and on non-square
//   images. gymnasium 1.4's toy_text envs
//   scale every sprite to its own size at the frame sizes they draw at (a
//   copy), so they do not use it.
#ifndef ENVPOOL_RENDER_PYGAME_BLIT_H_
#define ENVPOOL_RENDER_PYGAME_BLIT_H_

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "envpool/render/png.h"

namespace envpool::render {

struct Colour {
  uint8_t r, g, b;
};

class Surface {
 public:
  Surface(int width, int height)
      : width_(width),
        height_(height),
        rgb_(static_cast<size_t>(width) * height * 3, 0) {}

  int width() const { return width_; }
  int height() const { return height_; }
  const std::vector<uint8_t>& rgb() const { return rgb_; }

  void Fill(Colour c) {
    for (size_t i = 0; i < rgb_.size(); i += 3) {
      rgb_[i] = c.r;
      rgb_[i + 1] = c.g;
      rgb_[i + 2] = c.b;
    }
  }

  void Put(int x, int y, Colour c) {
    if (x >= 0 && x < width_ && y >= 0 && y < height_) {
      uint8_t* p = rgb_.data() + (static_cast<size_t>(y) * width_ + x) * 3;
      p[0] = c.r;
      p[1] = c.g;
      p[2] = c.b;
    }
  }

  // surface.blit(image, (x, y)) for an image with per-pixel alpha.
  void Blit(const RgbaImage& image, int x, int y) {
    const int x0 = std::max(0, x), y0 = std::max(0, y);
    const int x1 = std::min(width_, x + image.width);
    const int y1 = std::min(height_, y + image.height);
    if (x0 >= x1) {
      return;
    }
    for (int py = y0; py < y1; ++py) {
      const uint8_t* s = image.At(x0 - x, py - y);
      uint8_t* d = rgb_.data() + (static_cast<size_t>(py) * width_ + x0) * 3;
      for (int px = x0; px < x1; ++px, s += 4, d += 3) {
        const int a = s[3];
        if (a == 0) {
          continue;
        }
        if (a == 255) {  // the formula gives the source
          d[0] = s[0];
          d[1] = s[1];
          d[2] = s[2];
          continue;
        }
        for (int c = 0; c < 3; ++c) {
          const int sc = s[c], dc = d[c];
          // >> of a negative int is an arithmetic shift (C++20, and every
          // compiler this builds with before it).
          d[c] = static_cast<uint8_t>((((sc - dc) * a + sc) >> 8) + dc);
        }
      }
    }
  }

  // pygame.draw.rect(surface, colour, (x, y, w, h), 1).
  void Rect(int x, int y, int w, int h, Colour c) {
    if (w <= 0 || h <= 0) {
      return;
    }
    for (int px = x; px < x + w; ++px) {
      Put(px, y, c);
      Put(px, y + h - 1, c);
    }
    for (int py = y; py < y + h; ++py) {
      Put(x, py, c);
      Put(x + w - 1, py, c);
    }
  }

  // The frame as height x width x 3 bytes.
  void CopyTo(uint8_t* out) const {
    std::memcpy(out, rgb_.data(), rgb_.size());
  }

 private:
  int width_;
  int height_;
  std::vector<uint8_t> rgb_;
};

// pygame.transform.flip(image, flip_x, flip_y).
inline RgbaImage Flip(const RgbaImage& image, bool flip_x, bool flip_y) {
  RgbaImage out = image;
  for (int y = 0; y < image.height; ++y) {
    for (int x = 0; x < image.width; ++x) {
      const int sx = flip_x ? image.width - 1 - x : x;
      const int sy = flip_y ? image.height - 1 - y : y;
      std::memcpy(
          out.rgba.data() + (static_cast<size_t>(y) * image.width + x) * 4,
          image.At(sx, sy), 4);
    }
  }
  return out;
}

// pygame.transform.scale(image, (width, height)).
inline RgbaImage Scale(const RgbaImage& image, int width, int height) {
  RgbaImage out;
  out.width = width;
  out.height = height;
  out.rgba.resize(static_cast<size_t>(width) * height * 4);
  for (int y = 0; y < height; ++y) {
    const int sy =
        static_cast<int>(static_cast<int64_t>(y) * image.height / height);
    for (int x = 0; x < width; ++x) {
      const int sx =
          static_cast<int>(static_cast<int64_t>(x) * image.width / width);
      std::memcpy(out.rgba.data() + (static_cast<size_t>(y) * width + x) * 4,
                  image.At(sx, sy), 4);
    }
  }
  return out;
}

}  // namespace envpool::render

#endif  // ENVPOOL_RENDER_PYGAME_BLIT_H_
