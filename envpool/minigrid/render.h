// minigrid 3.2.0's rgb_array frames (MiniGridEnv.get_frame: the full grid,
// the agent's view highlighted), drawn pixel for pixel as minigrid draws
// them.
//
// minigrid draws each cell as a tile, supersampled: a (3 t) x (3 t) uint8
// image where fill_coords paints every pixel whose centre ((x + 0.5) / side,
// (y + 0.5) / side) a shape's test accepts, in the drawing order of the
// object's render(); the agent's triangle on top, then the highlight blend,
// then a 3x3 box average (downsample) truncated to uint8.  The tests mix
// float32 and float64 as numpy does (point_in_line and point_in_triangle
// build float32 arrays; the pixel coordinates are float64), so the same
// pixels pass them.  Tiles are cached per renderer, keyed as minigrid keys
// its tile_cache: the cell's (type, colour, state), the agent's direction
// and the highlight.
#ifndef ENVPOOL_MINIGRID_RENDER_H_
#define ENVPOOL_MINIGRID_RENDER_H_

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "envpool/core/numpy_blas.h"
#include "envpool/minigrid/world.h"

namespace envpool::minigrid {

// minigrid's frames per second (MiniGridEnv.metadata["render_fps"]) and
// tile size (TILE_PIXELS).
inline constexpr int kRenderFps = 10;
inline constexpr int kTilePixels = 32;

struct Rgb {
  uint8_t r;
  uint8_t g;
  uint8_t b;
};

// COLORS, by COLOR_TO_IDX.
inline Rgb ColorRgb(int color) {
  static constexpr std::array<Rgb, 6> kRgb = {
      Rgb{255, 0, 0},    Rgb{0, 255, 0},   Rgb{0, 0, 255},
      Rgb{112, 39, 195}, Rgb{255, 255, 0}, Rgb{100, 100, 100}};
  return kRgb[color];
}

// A colour computed in float64 and stored into uint8, as numpy's assignment
// does: truncated (COLORS / 2, 0.45 * COLORS).
inline Rgb ScaledRgb(Rgb c, double factor) {
  auto scale = [factor](uint8_t v) {
    return static_cast<uint8_t>(factor * static_cast<double>(v));
  };
  return {scale(c.r), scale(c.g), scale(c.b)};
}

// numpy's 2-element dot products: float32 (sdot), float64 (ddot, rounded as
// this process's numpy rounds it: envpool/core/numpy_blas.h).
using numpy_blas::Dot2;

// point_in_rect.
struct InRect {
  double xmin, xmax, ymin, ymax;
  bool operator()(double x, double y) const {
    return x >= xmin && x <= xmax && y >= ymin && y <= ymax;
  }
};

// point_in_circle.
struct InCircle {
  double cx, cy, r;
  bool operator()(double x, double y) const {
    return (x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r;
  }
};

// point_in_line: the end points and direction in float32, the pixel's
// projection onto the segment in float64.
class InLine {
 public:
  InLine(double x0, double y0, double x1, double y1, double r)
      : p0x_(static_cast<float>(x0)),
        p0y_(static_cast<float>(y0)),
        r_(r),
        xmin_(std::min(x0, x1) - r),
        xmax_(std::max(x0, x1) + r),
        ymin_(std::min(y0, y1) - r),
        ymax_(std::max(y0, y1) + r) {
    float dx = static_cast<float>(x1) - p0x_;
    float dy = static_cast<float>(y1) - p0y_;
    dist_ = std::sqrt(Dot2(dx, dy, dx, dy));
    dirx_ = dx / dist_;
    diry_ = dy / dist_;
  }
  bool operator()(double x, double y) const {
    if (x < xmin_ || x > xmax_ || y < ymin_ || y > ymax_) {
      return false;
    }
    const double dirx = dirx_;
    const double diry = diry_;
    double a = Dot2(x - p0x_, y - p0y_, dirx, diry);
    a = std::min(std::max(a, 0.0), static_cast<double>(dist_));
    double qx = x - (p0x_ + a * dirx);
    double qy = y - (p0y_ + a * diry);
    return std::sqrt(Dot2(qx, qy, qx, qy)) <= r_;
  }

 private:
  float p0x_, p0y_;
  double r_;
  double xmin_, xmax_, ymin_, ymax_;
  float dist_, dirx_, diry_;
};

// The agent: point_in_triangle((0.12, 0.19), (0.87, 0.50), (0.12, 0.81))
// (float32 corners and their float32 dot products, the pixel's in float64),
// turned by rotate_fn about the tile's centre by a quarter turn per
// direction.
class AgentTriangle {
 public:
  explicit AgentTriangle(int dir) {
    constexpr double kPi = 3.14159265358979323846;  // math.pi
    const double theta = 0.5 * kPi * dir;
    cos_ = std::cos(-theta);
    sin_ = std::sin(-theta);
    ax_ = 0.12F;
    ay_ = 0.19F;
    const float bx = 0.87F;
    const float by = 0.50F;
    const float cx = 0.12F;
    const float cy = 0.81F;
    v0x_ = cx - ax_;
    v0y_ = cy - ay_;
    v1x_ = bx - ax_;
    v1y_ = by - ay_;
    dot00_ = Dot2(v0x_, v0y_, v0x_, v0y_);
    dot01_ = Dot2(v0x_, v0y_, v1x_, v1y_);
    dot11_ = Dot2(v1x_, v1y_, v1x_, v1y_);
    const float denom = dot00_ * dot11_ - dot01_ * dot01_;
    inv_denom_ = 1.0F / denom;
  }
  bool operator()(double px, double py) const {
    const double c = 0.5;
    const double rx = px - c;
    const double ry = py - c;
    const double x = c + rx * cos_ - ry * sin_;
    const double y = c + ry * cos_ + rx * sin_;
    const double v2x = x - static_cast<double>(ax_);
    const double v2y = y - static_cast<double>(ay_);
    const double dot02 =
        Dot2(static_cast<double>(v0x_), static_cast<double>(v0y_), v2x, v2y);
    const double dot12 =
        Dot2(static_cast<double>(v1x_), static_cast<double>(v1y_), v2x, v2y);
    const double u = (static_cast<double>(dot11_) * dot02 -
                      static_cast<double>(dot01_) * dot12) *
                     static_cast<double>(inv_denom_);
    const double v = (static_cast<double>(dot00_) * dot12 -
                      static_cast<double>(dot01_) * dot02) *
                     static_cast<double>(inv_denom_);
    return u >= 0 && v >= 0 && (u + v) < 1;
  }

 private:
  double cos_, sin_;
  float ax_, ay_, v0x_, v0y_, v1x_, v1y_;
  float dot00_, dot01_, dot11_, inv_denom_;
};

// One supersampled tile being drawn.
class TileCanvas {
 public:
  explicit TileCanvas(int side)
      : side_(side), px_(static_cast<size_t>(side) * side * 3, 0) {}

  // fill_coords.
  template <typename Inside>
  void Fill(const Inside& inside, Rgb c) {
    for (int y = 0; y < side_; ++y) {
      const double yf = (y + 0.5) / side_;
      for (int x = 0; x < side_; ++x) {
        const double xf = (x + 0.5) / side_;
        if (inside(xf, yf)) {
          uint8_t* p = &px_[(static_cast<size_t>(y) * side_ + x) * 3];
          p[0] = c.r;
          p[1] = c.g;
          p[2] = c.b;
        }
      }
    }
  }

  // highlight_img: 30% of the way to white, in float64, truncated.
  void Highlight() {
    for (uint8_t& v : px_) {
      const double blend = v + 0.30 * static_cast<double>(255 - v);
      v = static_cast<uint8_t>(std::min(blend, 255.0));
    }
  }

  // downsample by `factor` (numpy's mean over the columns, then the rows),
  // truncated to uint8 as the frame's assignment does; `out` is
  // (side / factor)^2 x 3.
  void Downsample(int factor, uint8_t* out) const {
    const int n = side_ / factor;
    for (int ty = 0; ty < n; ++ty) {
      for (int tx = 0; tx < n; ++tx) {
        for (int ch = 0; ch < 3; ++ch) {
          double sum = 0.0;
          for (int sy = 0; sy < factor; ++sy) {
            const uint8_t* row =
                &px_[((static_cast<size_t>(ty) * factor + sy) * side_ +
                      static_cast<size_t>(tx) * factor) *
                     3];
            int row_sum = 0;
            for (int sx = 0; sx < factor; ++sx) {
              row_sum += row[sx * 3 + ch];
            }
            const double row_mean = row_sum / static_cast<double>(factor);
            sum = sy == 0 ? row_mean : sum + row_mean;
          }
          out[(static_cast<size_t>(ty) * n + tx) * 3 + ch] =
              static_cast<uint8_t>(sum / factor);
        }
      }
    }
  }

 private:
  int side_;
  std::vector<uint8_t> px_;
};

// WorldObj.render of each object type.
inline void DrawObject(const WorldObj& obj, TileCanvas* img) {
  const Rgb c = ColorRgb(obj.color);
  const Rgb black{0, 0, 0};
  switch (obj.type) {
    case kGoal:
    case kWall:
      img->Fill(InRect{0, 1, 0, 1}, c);
      break;
    case kFloor:
      img->Fill(InRect{0.031, 1, 0.031, 1}, ScaledRgb(c, 0.5));
      break;
    case kLava: {
      img->Fill(InRect{0, 1, 0, 1}, Rgb{255, 128, 0});
      for (int i = 0; i < 3; ++i) {
        const double ylo = 0.3 + 0.2 * i;
        const double yhi = 0.4 + 0.2 * i;
        img->Fill(InLine(0.1, ylo, 0.3, yhi, 0.03), black);
        img->Fill(InLine(0.3, yhi, 0.5, ylo, 0.03), black);
        img->Fill(InLine(0.5, ylo, 0.7, yhi, 0.03), black);
        img->Fill(InLine(0.7, yhi, 0.9, ylo, 0.03), black);
      }
      break;
    }
    case kDoor:
      if (obj.is_open) {
        img->Fill(InRect{0.88, 1.00, 0.00, 1.00}, c);
        img->Fill(InRect{0.92, 0.96, 0.04, 0.96}, black);
      } else if (obj.is_locked) {
        img->Fill(InRect{0.00, 1.00, 0.00, 1.00}, c);
        img->Fill(InRect{0.06, 0.94, 0.06, 0.94}, ScaledRgb(c, 0.45));
        img->Fill(InRect{0.52, 0.75, 0.50, 0.56}, c);
      } else {
        img->Fill(InRect{0.00, 1.00, 0.00, 1.00}, c);
        img->Fill(InRect{0.04, 0.96, 0.04, 0.96}, black);
        img->Fill(InRect{0.08, 0.92, 0.08, 0.92}, c);
        img->Fill(InRect{0.12, 0.88, 0.12, 0.88}, black);
        img->Fill(InCircle{0.75, 0.50, 0.08}, c);
      }
      break;
    case kKey:
      img->Fill(InRect{0.50, 0.63, 0.31, 0.88}, c);
      img->Fill(InRect{0.38, 0.50, 0.59, 0.66}, c);
      img->Fill(InRect{0.38, 0.50, 0.81, 0.88}, c);
      img->Fill(InCircle{0.56, 0.28, 0.190}, c);
      img->Fill(InCircle{0.56, 0.28, 0.064}, black);
      break;
    case kBall:
      img->Fill(InCircle{0.5, 0.5, 0.31}, c);
      break;
    case kBox:
      img->Fill(InRect{0.12, 0.88, 0.12, 0.88}, c);
      img->Fill(InRect{0.18, 0.82, 0.18, 0.82}, black);
      img->Fill(InRect{0.16, 0.84, 0.47, 0.53}, c);
      break;
    default:  // unseen, empty, agent: nothing in a grid cell
      break;
  }
}

// Grid.render_tile at `tile` pixels (subdivs 3); `obj` null for an empty
// cell, `agent_dir` -1 without the agent. `out` is tile x tile x 3.
inline void RenderTile(const WorldObj* obj, int agent_dir, bool highlight,
                       int tile, uint8_t* out) {
  constexpr int kSubdivs = 3;
  TileCanvas img(tile * kSubdivs);
  const Rgb grid_line{100, 100, 100};
  img.Fill(InRect{0, 0.031, 0, 1}, grid_line);
  img.Fill(InRect{0, 1, 0, 0.031}, grid_line);
  if (obj != nullptr) {
    DrawObject(*obj, &img);
  }
  if (agent_dir >= 0) {
    img.Fill(AgentTriangle(agent_dir), Rgb{255, 0, 0});
  }
  if (highlight) {
    img.Highlight();
  }
  img.Downsample(kSubdivs, out);
}

// get_frame(highlight=True, tile_size, agent_pov=False) of one env, with
// its tiles cached.  One renderer per env: the pool never draws one env
// from two threads at once.
class FrameRenderer {
 public:
  // The frame of `world` at `tile` pixels a cell: (height * tile) x
  // (width * tile) x 3, row-major.
  void Render(const World& world, int tile, uint8_t* rgb) {
    if (tile != tile_) {
      cache_.assign(kKeys, {});
      tile_ = tile;
    }
    const int w = world.width();
    const int h = world.height();
    world.HighlightMask(&highlight_);
    const size_t tile_bytes = static_cast<size_t>(tile) * tile * 3;
    const size_t row_bytes = static_cast<size_t>(w) * tile * 3;
    for (int j = 0; j < h; ++j) {
      for (int i = 0; i < w; ++i) {
        const int cell = world.Get(i, j);
        const WorldObj* obj = cell == -1 ? nullptr : &world.Obj(cell);
        const bool agent_here =
            world.agent_pos_.x == i && world.agent_pos_.y == j;
        const int dir = agent_here ? world.agent_dir_ : -1;
        const bool lit = highlight_[static_cast<size_t>(i) * h + j] != 0;
        std::vector<uint8_t>& cached = cache_[Key(obj, dir, lit)];
        if (cached.empty()) {
          cached.resize(tile_bytes);
          RenderTile(obj, dir, lit, tile, cached.data());
        }
        for (int y = 0; y < tile; ++y) {
          std::memcpy(rgb + (static_cast<size_t>(j) * tile + y) * row_bytes +
                          static_cast<size_t>(i) * tile * 3,
                      cached.data() + static_cast<size_t>(y) * tile * 3,
                      static_cast<size_t>(tile) * 3);
        }
      }
    }
  }

 private:
  // (type, colour, state, direction + 1, highlight); an empty cell is type
  // kEmpty.
  static constexpr int kKeys = 11 * 6 * 3 * 5 * 2;
  static int Key(const WorldObj* obj, int dir, bool lit) {
    int type = kEmpty;
    int color = 0;
    int state = 0;
    if (obj != nullptr) {
      auto code = obj->Encode();
      type = code[0];
      color = code[1];
      state = code[2];
    }
    return (((type * 6 + color) * 3 + state) * 5 + dir + 1) * 2 + (lit ? 1 : 0);
  }

  int tile_ = 0;
  std::vector<std::vector<uint8_t>> cache_;
  std::vector<uint8_t> highlight_;
};

}  // namespace envpool::minigrid

#endif  // ENVPOOL_MINIGRID_RENDER_H_
