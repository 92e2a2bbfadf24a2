// pygame 2.6.1's surfaces with per-pixel alpha (pygame.Surface(size,
// pygame.SRCALPHA)), byte for byte, as highway-env draws its vehicles:
// rectangles drawn on a transparent surface, pygame.transform.rotate of it,
// blitted onto the frame (a Canvas, no alpha) or onto another such surface.
//
// - FillRect: pygame.draw.rect(surface, colour, rect, 0), the rectangle
//   clipped to the surface; RectOutline: pygame.draw.rect(..., 1), the
//   one-pixel outline inside the rectangle.
// - Rotate: pygame.transform.rotate(surface, angle). The angle is parsed as
//   a C float; a multiple of 90 degrees turns the pixels exactly (rotate90),
//   any other angle samples the source at 16.16 fixed-point steps (its
//   rotate(): nearest neighbour, the new size the truncated bounding box),
//   the background the source's top-left pixel with its alpha cleared.
// - BlitOnto: surface.blit(image, (x, y)) with pygame's alpha blit (x, y
//   truncated toward zero as pygame takes them): onto an opaque surface
//   d' = d + (((s - d) * a + s) >> 8), alpha 0 leaving d; onto a surface
//   with alpha, a transparent destination pixel takes the source's, an
//   opaque one blends the same way, with alpha a + d_a - a * d_a / 255.
// - Vector2Rotate: pygame.math.Vector2(x, y).rotate(degrees) (exact quarter
//   turns within 1e-6 rad, else libm's sin and cos of the angle wrapped to
//   [0, 2 pi)).
#ifndef ENVPOOL_RENDER_PYGAME_TRANSFORM_H_
#define ENVPOOL_RENDER_PYGAME_TRANSFORM_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "envpool/render/pygame_draw.h"

namespace envpool::render {

struct Rgba {
  uint8_t r, g, b, a;
};

inline void Vector2Rotate(double x, double y, double degrees, double* ox,
                          double* oy) {
  constexpr double kEpsilon = 1e-6;
  constexpr double kTwoPi = 2 * M_PI;
  double angle = degrees * M_PI / 180.;
  angle = std::fmod(angle, kTwoPi);
  if (angle < 0) {
    angle += kTwoPi;
  }
  if (std::fmod(angle + kEpsilon, M_PI_2) < 2 * kEpsilon) {
    switch (static_cast<int>((angle + kEpsilon) / M_PI_2)) {
      case 1:
        *ox = -y;
        *oy = x;
        return;
      case 2:
        *ox = -x;
        *oy = -y;
        return;
      case 3:
        *ox = y;
        *oy = -x;
        return;
      default:  // 0 or 4: a whole turn
        *ox = x;
        *oy = y;
        return;
    }
  }
  const double s = std::sin(angle);
  const double c = std::cos(angle);
  *ox = c * x - s * y;
  *oy = s * x + c * y;
}

class RgbaSurface {
 public:
  RgbaSurface() = default;
  // A new SRCALPHA surface: every pixel transparent black.
  RgbaSurface(int width, int height)
      : w_(std::max(width, 0)),
        h_(std::max(height, 0)),
        px_(static_cast<size_t>(w_) * h_, Rgba{0, 0, 0, 0}) {}

  int width() const { return w_; }
  int height() const { return h_; }
  const Rgba& At(int x, int y) const {
    return px_[static_cast<size_t>(y) * w_ + x];
  }
  Rgba& At(int x, int y) { return px_[static_cast<size_t>(y) * w_ + x]; }

  void FillRect(int x, int y, int w, int h, Rgba c) {
    const int x0 = std::max(x, 0);
    const int y0 = std::max(y, 0);
    const int x1 = std::min(x + w, w_);
    const int y1 = std::min(y + h, h_);
    for (int py = y0; py < y1; ++py) {
      for (int px = x0; px < x1; ++px) {
        At(px, py) = c;
      }
    }
  }

  void RectOutline(int x, int y, int w, int h, Rgba c) {
    if (w <= 0 || h <= 0) {
      return;
    }
    FillRect(x, y, w, 1, c);
    FillRect(x, y + h - 1, w, 1, c);
    FillRect(x, y, 1, h, c);
    FillRect(x + w - 1, y, 1, h, c);
  }

  RgbaSurface Rotate(float angle) const {
    if (std::fmod(static_cast<double>(angle), 90.0) == 0) {
      return Rotate90(static_cast<int>(angle));
    }
    const double radangle = angle * .01745329251994329;
    const double sangle = std::sin(radangle);
    const double cangle = std::cos(radangle);
    const double x = w_;
    const double y = h_;
    const double cx = cangle * x;
    const double cy = cangle * y;
    const double sx = sangle * x;
    const double sy = sangle * y;
    const int nxmax = static_cast<int>(
        std::max(std::max(std::max(std::fabs(cx + sy), std::fabs(cx - sy)),
                          std::fabs(-cx + sy)),
                 std::fabs(-cx - sy)));
    const int nymax = static_cast<int>(
        std::max(std::max(std::max(std::fabs(sx + cy), std::fabs(sx - cy)),
                          std::fabs(-sx + cy)),
                 std::fabs(-sx - cy)));
    RgbaSurface dst(nxmax, nymax);
    Rgba background{0, 0, 0, 0};
    if (w_ > 0 && h_ > 0) {
      background = At(0, 0);
      background.a = 0;
    }
    const int cyd = dst.h_ / 2;
    const int xd = (w_ - dst.w_) * (1 << 15);
    const int yd = (h_ - dst.h_) * (1 << 15);
    const int isin = static_cast<int>(sangle * 65536);
    const int icos = static_cast<int>(cangle * 65536);
    const int ax = dst.w_ * (1 << 15) -
                   static_cast<int>(
                       cangle * static_cast<double>(
                                    (static_cast<int64_t>(dst.w_) - 1) << 15));
    const int ay = dst.h_ * (1 << 15) -
                   static_cast<int>(
                       sangle * static_cast<double>(
                                    (static_cast<int64_t>(dst.w_) - 1) << 15));
    const int xmaxval = w_ * (1 << 16) - 1;
    const int ymaxval = h_ * (1 << 16) - 1;
    for (int py = 0; py < dst.h_; ++py) {
      int dx = (ax + (isin * (cyd - py))) + xd;
      int dy = (ay - (icos * (cyd - py))) + yd;
      for (int px = 0; px < dst.w_; ++px) {
        if (dx < 0 || dy < 0 || dx > xmaxval || dy > ymaxval) {
          dst.At(px, py) = background;
        } else {
          dst.At(px, py) = At(dx >> 16, dy >> 16);
        }
        dx += icos;
        dy += isin;
      }
    }
    return dst;
  }

  // rotate90: counter-clockwise quarter turns (negative: clockwise).
  RgbaSurface Rotate90(int angle) const {
    int turns = (angle / 90) % 4;
    if (turns < 0) {
      turns += 4;
    }
    const bool swap = (turns & 1) != 0;
    RgbaSurface dst(swap ? h_ : w_, swap ? w_ : h_);
    for (int y = 0; y < dst.h_; ++y) {
      for (int x = 0; x < dst.w_; ++x) {
        int sx = x;
        int sy = y;
        switch (turns) {
          case 1:
            sx = w_ - 1 - y;
            sy = x;
            break;
          case 2:
            sx = w_ - 1 - x;
            sy = h_ - 1 - y;
            break;
          case 3:
            sx = y;
            sy = h_ - 1 - x;
            break;
          default:
            break;
        }
        dst.At(x, y) = At(sx, sy);
      }
    }
    return dst;
  }

  void BlitOnto(Canvas* dst, double x, double y) const {
    const int ox = static_cast<int>(x);
    const int oy = static_cast<int>(y);
    std::vector<uint32_t>& pixels = dst->pixels();
    const int dw = dst->width();
    const int dh = dst->height();
    for (int py = std::max(0, -oy); py < h_ && py + oy < dh; ++py) {
      for (int px = std::max(0, -ox); px < w_ && px + ox < dw; ++px) {
        const Rgba& s = At(px, py);
        if (s.a == 0) {
          continue;
        }
        uint32_t& d = pixels[static_cast<size_t>(py + oy) * dw + px + ox];
        const int dr = static_cast<int>((d >> 16) & 0xff);
        const int dg = static_cast<int>((d >> 8) & 0xff);
        const int db = static_cast<int>(d & 0xff);
        const int r = dr + (((s.r - dr) * s.a + s.r) >> 8);
        const int g = dg + (((s.g - dg) * s.a + s.g) >> 8);
        const int b = db + (((s.b - db) * s.a + s.b) >> 8);
        d = (static_cast<uint32_t>(r) << 16) | (static_cast<uint32_t>(g) << 8) |
            static_cast<uint32_t>(b);
      }
    }
  }

  void BlitOnto(RgbaSurface* dst, double x, double y) const {
    const int ox = static_cast<int>(x);
    const int oy = static_cast<int>(y);
    for (int py = std::max(0, -oy); py < h_ && py + oy < dst->h_; ++py) {
      for (int px = std::max(0, -ox); px < w_ && px + ox < dst->w_; ++px) {
        const Rgba& s = At(px, py);
        Rgba& d = dst->At(px + ox, py + oy);
        if (d.a == 0) {
          d = s;
          continue;
        }
        auto blend = [&](int sc, int dc) {
          return static_cast<uint8_t>(dc + (((sc - dc) * s.a + sc) >> 8));
        };
        d.r = blend(s.r, d.r);
        d.g = blend(s.g, d.g);
        d.b = blend(s.b, d.b);
        d.a = static_cast<uint8_t>(s.a + d.a - (s.a * d.a) / 255);
      }
    }
  }

 private:
  int w_ = 0;
  int h_ = 0;
  std::vector<Rgba> px_;
};

}  // namespace envpool::render

#endif  // ENVPOOL_RENDER_PYGAME_TRANSFORM_H_
