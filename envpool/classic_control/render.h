// gymnasium 1.4's classic_control render() drawings, one function per env:
// the same geometry (coordinates, int truncations, colours) drawn with the
// pygame-equal primitives of draw.h. `rgb` is height x width x 3 bytes.
#ifndef ENVPOOL_CLASSIC_CONTROL_RENDER_H_
#define ENVPOOL_CLASSIC_CONTROL_RENDER_H_

#include <cmath>
#include <cstdint>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "envpool/classic_control/numpy_trig.h"
#include "envpool/core/env.h"
#include "envpool/render/png.h"
#include "envpool/render/pygame_draw.h"

namespace envpool::classic_control {

using namespace envpool::render;  // NOLINT(build/namespaces)

constexpr int kCartPoleScreen[2] = {600, 400};
constexpr int kMountainCarScreen[2] = {600, 400};
constexpr int kAcrobotScreen[2] = {500, 500};
constexpr int kPendulumScreen = 500;

// The alpha of gymnasium's assets/clockwise.png (its colour is black), read
// at the first Pendulum frame that shows a torque.
inline const AlphaImage& ClockwiseImage() {
  static std::mutex mutex;
  static std::unique_ptr<AlphaImage> image;
  std::lock_guard<std::mutex> lock(mutex);
  if (!image) {
    // gymnasium's classic_control/assets (registration.py's ASSET_DIR).
    const std::string dir = envpool::FamilyAssetDir("classic_control");
    if (dir.empty()) {
      throw std::runtime_error(
          "Pendulum's frame needs gymnasium's classic_control/assets/"
          "clockwise.png and gymnasium is not installed (pip install "
          "gymnasium)");
    }
    image = std::make_unique<AlphaImage>(LoadPngAlpha(dir + "/clockwise.png"));
  }
  return *image;
}

// gymnasium's CartPole render(): the cart, pole and axle drawn with
// gfxdraw, the track line, then the vertical flip.
inline void DrawCartPole(const double* state, int width, int height,
                         uint8_t* rgb) {
  Canvas canvas(width, height);
  canvas.Fill({255, 255, 255});
  const double scale = kCartPoleScreen[0] / (2.4 * 2);
  const double polewidth = 10.0;
  const double polelen = scale * (2 * 0.5);
  const double cartwidth = 50.0;
  const double cartheight = 30.0;
  double l = -cartwidth / 2, r = cartwidth / 2, t = cartheight / 2,
         b = -cartheight / 2;
  const double axleoffset = cartheight / 4.0;
  const double cartx = state[0] * scale + kCartPoleScreen[0] / 2.0;
  const double carty = 100;
  std::vector<int16_t> vx = {ToShort(l + cartx), ToShort(l + cartx),
                             ToShort(r + cartx), ToShort(r + cartx)};
  std::vector<int16_t> vy = {ToShort(b + carty), ToShort(t + carty),
                             ToShort(t + carty), ToShort(b + carty)};
  uint32_t black = Canvas::Pack({0, 0, 0});
  canvas.AAFilledPolygon(vx, vy, black);
  l = -polewidth / 2;
  r = polewidth / 2;
  t = polelen - polewidth / 2;
  b = -polewidth / 2;
  const double corners[4][2] = {{l, b}, {l, t}, {r, t}, {r, b}};
  for (int i = 0; i < 4; ++i) {
    double px, py;
    RotateRad(corners[i][0], corners[i][1], -state[2], &px, &py);
    vx[i] = ToShort(px + cartx);
    vy[i] = ToShort(py + carty + axleoffset);
  }
  uint32_t pole = Canvas::Pack({202, 152, 101});
  canvas.AAFilledPolygon(vx, vy, pole);
  uint32_t axle = Canvas::Pack({129, 132, 203});
  auto ax = static_cast<int16_t>(static_cast<int64_t>(cartx));
  auto ay = static_cast<int16_t>(static_cast<int64_t>(carty + axleoffset));
  auto ar = static_cast<int16_t>(polewidth / 2);
  canvas.AACircle(ax, ay, ar, axle);
  canvas.FilledCircle(ax, ay, ar, axle);
  canvas.HLine(0, kCartPoleScreen[0], static_cast<int>(carty), black);
  canvas.WriteFlipped(rgb);
}

// gymnasium's MountainCar render() (and MountainCarContinuous's, the same
// drawing with its own goal): the hill as 100 anti-aliased segments, the
// car, its wheels and the flag, then the vertical flip. `single`: the state
// is a float32 array (MountainCarContinuous after a step), so numpy computes
// the car's place in float32 (its float32 sin included).
inline void DrawMountainCar(double pos, double goal_position, bool single,
                            int width, int height, uint8_t* rgb) {
  constexpr double kMin = -1.2;
  constexpr double kMax = 0.6;
  auto hill = [](double x) { return std::sin(3 * x) * .45 + .55; };
  Canvas canvas(width, height);
  canvas.Fill({255, 255, 255});
  const double scale = kMountainCarScreen[0] / (kMax - kMin);
  const double carwidth = 40;
  const double carheight = 20;
  // np.linspace(min, max, 100): i * step + start, the last one exactly max.
  std::vector<float> xs(100), ys(100);
  const double step = (kMax - kMin) / 99;
  for (int i = 0; i < 100; ++i) {
    double x = i == 99 ? kMax : i * step + kMin;
    xs[i] = static_cast<float>((x - kMin) * scale);
    ys[i] = static_cast<float>(hill(x) * scale);
  }
  canvas.PgAALines(xs, ys, {0, 0, 0});
  const double clearance = 10;
  const double l = -carwidth / 2, r = carwidth / 2, t = carheight, b = 0;
  const double corners[4][2] = {{l, b}, {l, t}, {r, t}, {r, b}};
  double angle;
  double car_x;  // (pos - min) * scale
  double car_y;  // hill(pos) * scale
  if (single) {
    auto p = static_cast<float>(pos);
    angle = std::cos(static_cast<double>(3.0F * p));
    car_x = (p - static_cast<float>(kMin)) * static_cast<float>(scale);
    float h = numpy_f32::Sin(3.0F * p) * 0.45F + 0.55F;
    car_y = h * static_cast<float>(scale);
  } else {
    angle = std::cos(3 * pos);
    car_x = (pos - kMin) * scale;
    car_y = hill(pos) * scale;
  }
  // A Python float plus a float32 scalar is a float32 sum.
  auto add = [single](double a, double b) {
    return single ? static_cast<double>(static_cast<float>(a) +
                                        static_cast<float>(b))
                  : a + b;
  };
  std::vector<int16_t> vx(4), vy(4);
  for (int i = 0; i < 4; ++i) {
    double cx, cy;
    RotateRad(corners[i][0], corners[i][1], angle, &cx, &cy);
    vx[i] = ToShort(add(cx, car_x));
    vy[i] = ToShort(add(cy + clearance, car_y));
  }
  uint32_t black = Canvas::Pack({0, 0, 0});
  canvas.AAFilledPolygon(vx, vy, black);
  uint32_t grey = Canvas::Pack({128, 128, 128});
  const double wheels[2][2] = {{carwidth / 4, 0}, {-carwidth / 4, 0}};
  for (const auto& w : wheels) {
    double cx, cy;
    RotateRad(w[0], w[1], angle, &cx, &cy);
    auto wx = static_cast<int16_t>(static_cast<int64_t>(add(cx, car_x)));
    auto wy =
        static_cast<int16_t>(static_cast<int64_t>(add(cy + clearance, car_y)));
    auto rad = static_cast<int16_t>(carheight / 2.5);
    canvas.AACircle(wx, wy, rad, grey);
    canvas.FilledCircle(wx, wy, rad, grey);
  }
  auto flagx = static_cast<int>((goal_position - kMin) * scale);
  auto flagy1 = static_cast<int>(hill(goal_position) * scale);
  int flagy2 = flagy1 + 50;
  canvas.VLine(flagx, flagy1, flagy2, black);
  std::vector<int16_t> fx = {static_cast<int16_t>(flagx),
                             static_cast<int16_t>(flagx),
                             static_cast<int16_t>(flagx + 25)};
  std::vector<int16_t> fy = {static_cast<int16_t>(flagy2),
                             static_cast<int16_t>(flagy2 - 10),
                             static_cast<int16_t>(flagy2 - 5)};
  uint32_t yellow = Canvas::Pack({204, 204, 0});
  canvas.AAFilledPolygon(fx, fy, yellow);
  canvas.WriteFlipped(rgb);
}

// gymnasium's Acrobot render(): the ground line (pygame.draw.line, its
// float ends truncated), two links and their joints, then the vertical flip.
// `single`: the state is float32 (right after a reset), where numpy takes
// the first link's cos and sin and the link angles in float32.
inline void DrawAcrobot(const double* state, bool single, int width, int height,
                        uint8_t* rgb) {
  constexpr double kLink1 = 1.0;
  constexpr double kLink2 = 1.0;
  Canvas canvas(width, height);
  canvas.Fill({255, 255, 255});
  const double bound = kLink1 + kLink2 + 0.2;
  const double scale = kAcrobotScreen[0] / (bound * 2);
  const double offset = kAcrobotScreen[0] / 2.0;
  double p1x, p1y, th1, th2;
  if (single) {
    const auto s0 = static_cast<float>(state[0]);
    const auto s1 = static_cast<float>(state[1]);
    p1x = -static_cast<float>(kLink1) * numpy_f32::Cos(s0) *
          static_cast<float>(scale);
    p1y = static_cast<float>(kLink1) * numpy_f32::Sin(s0) *
          static_cast<float>(scale);
    th1 = s0 - static_cast<float>(M_PI / 2);
    th2 = (s0 + s1) - static_cast<float>(M_PI / 2);
  } else {
    p1x = -kLink1 * std::cos(state[0]) * scale;
    p1y = kLink1 * std::sin(state[0]) * scale;
    th1 = state[0] - M_PI / 2;
    th2 = state[0] + state[1] - M_PI / 2;
  }
  // The joints are [0, 0] and p1 with x and y swapped.
  const double joints[2][2] = {{0, 0}, {p1y, p1x}};
  const double thetas[2] = {th1, th2};
  const double lengths[2] = {kLink1 * scale, kLink2 * scale};
  const auto line_y = static_cast<int>(1 * scale + offset);
  canvas.HLine(static_cast<int>(-2.2 * scale + offset),
               static_cast<int>(2.2 * scale + offset), line_y,
               Canvas::Pack({0, 0, 0}));
  const uint32_t link = Canvas::Pack({0, 204, 204});
  const uint32_t joint = Canvas::Pack({204, 204, 0});
  for (int k = 0; k < 2; ++k) {
    const double x = joints[k][0] + offset;
    const double y = joints[k][1] + offset;
    const double l = 0, r = lengths[k], t = 0.1 * scale, b = -0.1 * scale;
    const double corners[4][2] = {{l, b}, {l, t}, {r, t}, {r, b}};
    std::vector<int16_t> vx(4), vy(4);
    for (int i = 0; i < 4; ++i) {
      double cx, cy;
      RotateRad(corners[i][0], corners[i][1], thetas[k], &cx, &cy);
      vx[i] = ToShort(cx + x);
      vy[i] = ToShort(cy + y);
    }
    canvas.AAFilledPolygon(vx, vy, link);
    auto jx = static_cast<int16_t>(static_cast<int64_t>(x));
    auto jy = static_cast<int16_t>(static_cast<int64_t>(y));
    auto jr = static_cast<int16_t>(0.1 * scale);
    canvas.AACircle(jx, jy, jr, joint);
    canvas.FilledCircle(jx, jy, jr, joint);
  }
  canvas.WriteFlipped(rgb);
}

// gymnasium's Pendulum render(): the rod and its two round ends, the arrow
// (clockwise.png smoothscaled to the last torque's size, mirrored for a
// positive one, blitted at the centre) when a step has been taken, the axle,
// then the vertical flip. `last_u` is the clipped float32 torque.
inline void DrawPendulum(double theta, bool has_last_u, float last_u, int width,
                         int height, uint8_t* rgb) {
  Canvas canvas(width, height);
  canvas.Fill({255, 255, 255});
  const double bound = 2.2;
  const double scale = kPendulumScreen / (bound * 2);
  const int offset = kPendulumScreen / 2;
  const double rod_length = 1 * scale;
  const double rod_width = 0.2 * scale;
  const double l = 0, r = rod_length, t = rod_width / 2, b = -rod_width / 2;
  const double corners[4][2] = {{l, b}, {l, t}, {r, t}, {r, b}};
  const double angle = theta + M_PI / 2;
  std::vector<int16_t> vx(4), vy(4);
  for (int i = 0; i < 4; ++i) {
    double cx, cy;
    RotateRad(corners[i][0], corners[i][1], angle, &cx, &cy);
    vx[i] = ToShort(cx + offset);
    vy[i] = ToShort(cy + offset);
  }
  const uint32_t red = Canvas::Pack({204, 77, 77});
  canvas.AAFilledPolygon(vx, vy, red);
  const auto end_rad = static_cast<int16_t>(rod_width / 2);
  const auto center = static_cast<int16_t>(offset);
  canvas.AACircle(center, center, end_rad, red);
  canvas.FilledCircle(center, center, end_rad, red);
  double ex, ey;
  RotateRad(rod_length, 0, angle, &ex, &ey);
  const auto end_x = static_cast<int16_t>(static_cast<int64_t>(ex + offset));
  const auto end_y = static_cast<int16_t>(static_cast<int64_t>(ey + offset));
  canvas.AACircle(end_x, end_y, end_rad, red);
  canvas.FilledCircle(end_x, end_y, end_rad, red);
  if (has_last_u) {
    // float(scale * np.abs(last_u) / 2): float32 arithmetic, truncated.
    const float side_f = static_cast<float>(scale) * std::fabs(last_u) / 2.0F;
    const auto side = static_cast<int>(side_f);
    if (side > 0) {
      const AlphaImage& image = ClockwiseImage();
      std::vector<uint8_t> scaled =
          SmoothShrink(image.alpha, image.width, image.height, side, side);
      // flip(img, last_u > 0, True)
      std::vector<uint8_t> flipped(scaled.size());
      for (int y = 0; y < side; ++y) {
        for (int x = 0; x < side; ++x) {
          int sx = last_u > 0 ? side - 1 - x : x;
          flipped[static_cast<size_t>(y) * side + x] =
              scaled[static_cast<size_t>(side - 1 - y) * side + sx];
        }
      }
      canvas.BlitBlackAlpha(flipped, side, side, offset - side / 2,
                            offset - side / 2);
    }
  }
  const uint32_t black = Canvas::Pack({0, 0, 0});
  const auto axle = static_cast<int16_t>(0.05 * scale);
  canvas.AACircle(center, center, axle, black);
  canvas.FilledCircle(center, center, axle, black);
  canvas.WriteFlipped(rgb);
}

}  // namespace envpool::classic_control

#endif  // ENVPOOL_CLASSIC_CONTROL_RENDER_H_
