// highway-env 1.12.1's rgb_array frame (envs/common/graphics.py EnvViewer,
// road/graphics.py WorldSurface, LaneGraphics, RoadGraphics,
// RoadObjectGraphics, vehicle/graphics.py VehicleGraphics), drawn with
// pygame 2.6.1's primitives byte for byte: the window centred on the ego,
// the road grey, each lane's lines as one-pixel segments of its stripes,
// then the objects and the vehicles as rectangles drawn on a transparent
// surface, rotated by pygame.transform.rotate and blitted. The frame is the
// world surface as pygame.surfarray gives it, (height, width, 3), unflipped.
#ifndef ENVPOOL_HIGHWAY_RENDER_H_
#define ENVPOOL_HIGHWAY_RENDER_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "envpool/highway/road.h"
#include "envpool/render/pygame_draw.h"
#include "envpool/render/pygame_transform.h"

namespace envpool::highway {

// The viewer's configuration: screen size, scaling (pixels a metre) and
// where on the screen the ego sits (fractions of the width and height).
struct ViewerConfig {
  int width = 600;
  int height = 150;
  double scaling = 5.5;
  double centering_x = 0.3;
  double centering_y = 0.5;
};

// Python's float // float (float_divmod's floor division).
inline double PyFloorDiv(double vx, double wx) {
  double mod = std::fmod(vx, wx);
  double div = (vx - mod) / wx;
  if (mod != 0) {
    if ((wx < 0) != (mod < 0)) {
      div -= 1.0;
    }
  }
  if (div != 0) {
    double floordiv = std::floor(div);
    if (div - floordiv > 0.5) {
      floordiv += 1.0;
    }
    return floordiv;
  }
  return std::copysign(0.0, vx / wx);
}

class WorldFrame {
 public:
  static constexpr render::Rgb kGrey{100, 100, 100};
  static constexpr render::Rgb kWhite{255, 255, 255};
  static constexpr double kStripeSpacing = 4.33;
  static constexpr double kStripeLength = 3;
  static constexpr double kStripeWidth = 0.3;

  explicit WorldFrame(const ViewerConfig& config)
      : config_(config), canvas_(config.width, config.height) {}

  // WorldSurface.pix: a length in pixels, truncated.
  int Pix(double length) const {
    return static_cast<int>(length * config_.scaling);
  }
  int PixX(double x) const { return Pix(x - origin_.x); }
  int PixY(double y) const { return Pix(y - origin_.y); }

  // move_display_window_to(position).
  void CenterOn(const Vec2& position) {
    origin_ = {
        position.x - config_.centering_x * config_.width / config_.scaling,
        position.y - config_.centering_y * config_.height / config_.scaling};
  }

  // RoadGraphics.display: the grey ground and every lane, in the network's
  // order (highway-env's graph: origin nodes, then destinations, in the
  // order they were added).
  void DrawRoad(const RoadNetwork& network) {
    canvas_.Fill(kGrey);
    for (const RoadNetwork::Road& road : network.roads()) {
      for (const Lane& lane : road.lanes) {
        DrawLane(lane);
      }
    }
  }

  // LaneGraphics.display.
  void DrawLane(const Lane& lane) {
    const int stripes = static_cast<int>(2 * (config_.height + config_.width) /
                                         (kStripeSpacing * config_.scaling));
    const double s_origin = lane.LocalCoordinates(origin_).first;
    const double s0 =
        (PyFloorDiv(static_cast<double>(static_cast<int64_t>(s_origin)),
                    kStripeSpacing) -
         static_cast<double>(FloorDivInt(stripes, 2))) *
        kStripeSpacing;
    for (int side = 0; side < 2; ++side) {
      const LineType type = lane.line_type(side);
      std::vector<double> starts;
      std::vector<double> ends;
      if (type == LineType::kStriped || type == LineType::kContinuous) {
        const double length =
            type == LineType::kStriped ? kStripeLength : kStripeSpacing;
        for (int i = 0; i < stripes; ++i) {
          const double start = s0 + i * kStripeSpacing;
          starts.push_back(start);
          ends.push_back(start + length);
        }
      } else if (type == LineType::kContinuousLine) {
        starts.push_back(s0 + 0 * kStripeSpacing);
        ends.push_back(s0 + stripes * kStripeSpacing + kStripeLength);
      } else {
        continue;
      }
      DrawStripes(lane, starts, ends, side);
    }
  }

  // VehicleGraphics.display (without the label, the roof, transparency).
  // `ego_colored`: the vehicle's `color` attribute is the ego's green
  // (parking's ego), whatever its state.
  void DrawVehicle(const Vehicle& v, bool ego_colored = false) {
    if (!IsVisible(v.position)) {
      return;
    }
    constexpr double kTireLength = 1;
    constexpr double kTireWidth = 0.3;
    constexpr double kHeadlightLength = 0.72;
    constexpr double kHeadlightWidth = 0.6;
    const double length = v.length + 2 * kTireLength;
    render::RgbaSurface surface(Pix(length), Pix(length));
    const render::Rgba color =
        ego_colored ? render::Rgba{50, 200, 0, 255} : VehicleColor(v);
    const int rx = Pix(kTireLength);
    const int ry = Pix(length / 2 - v.width / 2);
    const int rw = Pix(v.length);
    const int rh = Pix(v.width);
    surface.FillRect(rx, ry, rw, rh, color);
    const render::Rgba light = Lighten(color);
    const int hx = Pix(kTireLength + v.length - kHeadlightLength);
    surface.FillRect(hx, Pix(length / 2 - (1.4 * v.width) / 3),
                     Pix(kHeadlightLength), Pix(kHeadlightWidth), light);
    surface.FillRect(hx, Pix(length / 2 + (0.6 * v.width) / 5),
                     Pix(kHeadlightLength), Pix(kHeadlightWidth), light);
    surface.RectOutline(rx, ry, rw, rh, kBlack);
    if (v.kind == VehicleKind::kKinematic || v.kind == VehicleKind::kBicycle) {
      const double tire_x[4] = {kTireLength, kTireLength, length - kTireLength,
                                length - kTireLength};
      const double tire_y[4] = {
          length / 2 - v.width / 2, length / 2 + v.width / 2,
          length / 2 - v.width / 2, length / 2 + v.width / 2};
      for (int i = 0; i < 4; ++i) {
        render::RgbaSurface tire(Pix(kTireLength), Pix(kTireLength));
        tire.FillRect(0, Pix(kTireLength / 2 - kTireWidth / 2),
                      Pix(kTireLength), Pix(kTireWidth), kBlack);
        BlitRotate(&surface, tire, Pix(tire_x[i]), Pix(tire_y[i]),
                   i < 2 ? 0.0 : TireAngle(v));
      }
    }
    const double h = std::abs(v.heading) > 2 * M_PI / 180 ? v.heading : 0;
    BlitRotate(&canvas_, surface, PixX(v.position.x), PixY(v.position.y),
               RadToDeg(-h));
  }

  // RoadObjectGraphics.display of an Obstacle (yellow, red once hit) or,
  // with `landmark`, a Landmark (blue, green once reached).
  void DrawObject(const Vehicle& o, bool landmark = false, bool hit = false) {
    render::RgbaSurface surface(Pix(o.length), Pix(o.length));
    render::Rgba color{200, 200, 0, 255};
    if (landmark) {
      color = hit ? render::Rgba{50, 200, 0, 255}
                  : render::Rgba{100, 200, 255, 255};
    } else if (o.crashed) {
      color = {255, 100, 100, 255};
    }
    const int ry = Pix(o.length / 2 - o.width / 2);
    surface.FillRect(0, ry, Pix(o.length), Pix(o.width), color);
    surface.RectOutline(0, ry, Pix(o.length), Pix(o.width), kBlack);
    const double h = std::abs(o.heading) > 2 * M_PI / 180 ? o.heading : 0;
    BlitRotate(&canvas_, surface, PixX(o.position.x), PixY(o.position.y),
               RadToDeg(-h));
  }

  // The frame, (height, width, 3).
  void Write(uint8_t* rgb) {
    const std::vector<uint32_t>& px = canvas_.pixels();
    for (uint32_t p : px) {
      *rgb++ = static_cast<uint8_t>(p >> 16);
      *rgb++ = static_cast<uint8_t>(p >> 8);
      *rgb++ = static_cast<uint8_t>(p);
    }
  }

  render::Canvas& canvas() { return canvas_; }

 private:
  static constexpr render::Rgba kBlack{60, 60, 60, 255};

  // Python's int // int.
  static int FloorDivInt(int a, int b) {
    int q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) {
      --q;
    }
    return q;
  }

  // np.rad2deg.
  static double RadToDeg(double rad) { return rad * (180.0 / M_PI); }
  // np.rad2deg(-action["steering"]): a BicycleVehicle keeps the float32
  // steering of its ContinuousAction (numpy's float32 loop multiplies by
  // 180f / pi_f), a kinematic Vehicle a Python float.
  static double TireAngle(const Vehicle& v) {
    if (v.kind == VehicleKind::kBicycle) {
      const float k = 180.0F / static_cast<float>(M_PI);
      return static_cast<double>(-static_cast<float>(v.steering) * k);
    }
    return RadToDeg(-v.steering);
  }

  bool IsVisible(const Vec2& p) const {
    constexpr int kMargin = 50;
    const int x = PixX(p.x);
    const int y = PixY(p.y);
    return -kMargin < x && x < config_.width + kMargin && -kMargin < y &&
           y < config_.height + kMargin;
  }

  // VehicleGraphics.get_color (no vehicle of this family sets a colour).
  static render::Rgba VehicleColor(const Vehicle& v) {
    if (v.crashed) {
      return {255, 100, 100, 255};
    }
    if (v.kind == VehicleKind::kIdm) {
      return {100, 200, 255, 255};
    }
    if (v.kind == VehicleKind::kMdp) {
      return {50, 200, 0, 255};
    }
    return {200, 200, 0, 255};
  }
  static render::Rgba Lighten(render::Rgba c) {
    auto up = [](uint8_t v) {
      return static_cast<uint8_t>(
          std::min(static_cast<int>(static_cast<double>(v) / 0.68), 255));
    };
    return {up(c.r), up(c.g), up(c.b), c.a};
  }

  // LaneGraphics.draw_stripes.
  void DrawStripes(const Lane& lane, const std::vector<double>& starts,
                   const std::vector<double>& ends, int side) {
    const int width = std::max(Pix(kStripeWidth), 1);
    const uint32_t white = render::Canvas::Pack(kWhite);
    for (size_t k = 0; k < starts.size(); ++k) {
      const double lat = (side - 0.5) * lane.WidthAt(starts[k]);
      const double start = std::min(std::max(starts[k], 0.0), lane.length());
      const double end = std::min(std::max(ends[k], 0.0), lane.length());
      if (!(std::abs(start - end) > 0.5 * kStripeLength)) {
        continue;
      }
      const Vec2 a = lane.Position(start, lat);
      const Vec2 b = lane.Position(end, lat);
      if (width == 1) {
        canvas_.PgLine1(PixX(a.x), PixY(a.y), PixX(b.x), PixY(b.y), white);
      } else {
        canvas_.PgLineWidth(PixX(a.x), PixY(a.y), PixX(b.x), PixY(b.y), width,
                            white);
      }
    }
  }

  // blit_rotate(surf, image, pos, angle): the image rotated about its
  // centre, placed so that its centre lands on pos.
  template <typename Target>
  static void BlitRotate(Target* target, const render::RgbaSurface& image,
                         int pos_x, int pos_y, double angle) {
    const double w = image.width();
    const double h = image.height();
    const double box[4][2] = {{0, 0}, {w, 0}, {w, -h}, {0, -h}};
    double min_x = 0, min_y = 0, max_x = 0, max_y = 0;
    for (int i = 0; i < 4; ++i) {
      double rx, ry;
      render::Vector2Rotate(box[i][0], box[i][1], angle, &rx, &ry);
      if (i == 0 || rx < min_x) {
        min_x = rx;
      }
      if (i == 0 || ry < min_y) {
        min_y = ry;
      }
      if (i == 0 || rx > max_x) {
        max_x = rx;
      }
      if (i == 0 || ry > max_y) {
        max_y = ry;
      }
    }
    const double origin_x = w / 2;
    const double origin_y = h / 2;
    double pivot_rx, pivot_ry;
    render::Vector2Rotate(origin_x, -origin_y, angle, &pivot_rx, &pivot_ry);
    const double move_x = pivot_rx - origin_x;
    const double move_y = pivot_ry - -origin_y;
    const double x = pos_x - origin_x + min_x - move_x;
    const double y = pos_y - origin_y - max_y + move_y;
    const render::RgbaSurface rotated = image.Rotate(static_cast<float>(angle));
    rotated.BlitOnto(target, x, y);
  }

  ViewerConfig config_;
  render::Canvas canvas_;
  Vec2 origin_;
};

}  // namespace envpool::highway

#endif  // ENVPOOL_HIGHWAY_RENDER_H_
