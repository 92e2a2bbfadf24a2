// CarRacing: gymnasium 1.4's box2d/car_racing.py and car_dynamics.py on the
// same Box2D 2.3 engine, continuous (steer, gas, brake) or discrete (5
// actions), with gymnasium's options lap_complete_percent and
// domain_randomize.
//
// The observation is gymnasium's state_pixels frame: the 1000x800 pygame
// surface (the grass field and patches and the road tiles by gfxdraw's
// aapolygon + filled_polygon, the car by pygame.draw.polygon), flipped, the
// indicator bars, the score text (score_text.h), shrunk to 96x96 by
// pygame.transform.smoothscale. The reference computes in Python doubles and
// hands float32 values to Box2D; every value here follows the same order.
//
// gymnasium keeps one b2World per env and destroys the bodies at each reset
// (the tiles in order, the hull, the wheels); so does this env, so episodes
// depend on the env's earlier ones as they do in gymnasium.
#ifndef ENVPOOL_BOX2D_CAR_RACING_H_
#define ENVPOOL_BOX2D_CAR_RACING_H_

#include <Box2D/Box2D.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "envpool/box2d/episode_log.h"
#include "envpool/box2d/score_text.h"
#include "envpool/core/env.h"
#include "envpool/render/pygame_draw.h"

namespace envpool::box2d {

class CarRacingEnv : public Env {
 public:
  struct Fields {
    Field<uint8_t> obs;
    Field<int64_t> discrete_action;
    Field<float> continuous_action;
  };

  static Options DefaultOptions() {
    return Options{{"max_episode_steps", int64_t{1000}},
                   {"reward_threshold", 900.0},
                   {"lap_complete_percent", 0.95},
                   {"domain_randomize", false},
                   {"continuous", true}};
  }

  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    if (!std::isfinite(options.Get<double>("lap_complete_percent"))) {
      throw std::invalid_argument(
          "option 'lap_complete_percent' must be a finite number");
    }
    fields->obs =
        spec->state.Add<uint8_t>("obs", {kStateH, kStateW, 3}, {0.0}, {255.0});
    if (options.Get<bool>("continuous")) {
      fields->continuous_action = spec->action.Add<float>(
          "action", {3}, {-1.0F, 0.0F, 0.0F}, {1.0F, 1.0F, 1.0F});
    } else {
      fields->discrete_action = spec->action.AddDiscrete<int64_t>("action", 5);
    }
    spec->snapshots = true;
    DeclareRendering(options, spec, {"rgb_array"}, kVideoW, kVideoH,
                     static_cast<int>(kFps));
  }

  CarRacingEnv(const Options& options, const Fields& fields)
      : fields_(fields),
        continuous_(options.Get<bool>("continuous")),
        domain_randomize_(options.Get<bool>("domain_randomize")),
        lap_complete_percent_(options.Get<double>("lap_complete_percent")),
        world_(std::make_unique<b2World>(b2Vec2(0.0F, 0.0F))) {
    world_->SetContactListener(&listener_);
    log_.free_nodes = FreeTreeNodes(*world_);
  }

  ~CarRacingEnv() override {
    // The world goes first: its bodies' contacts end through the listener,
    // which reads the tiles and wheels.
    world_->SetContactListener(nullptr);
    world_.reset();
  }

  void Reset() override {
    Destroy();
    log_.Begin(np_random_, FreeTreeNodes(*world_));
    Build(true);
  }

  void Step(const ActionView& action) override {
    float a[3] = {0.0F, 0.0F, 0.0F};
    if (continuous_) {
      const float* v = action.Get(fields_.continuous_action);
      std::copy(v, v + 3, a);
    } else {
      a[0] = static_cast<float>(action.Scalar(fields_.discrete_action));
    }
    log_.Add(a, ActionWidth());
    Apply(a, true);
  }

  // Snapshots replay the episode (episode_log.h) without drawing its frames
  // but the last.
  void SaveState(StateWriter* writer) const override { log_.Save(writer); }
  void LoadState(StateReader* reader) override {
    EpisodeLog log;
    const int width = ActionWidth();
    log.Load(reader, width);
    if (!continuous_) {
      for (float a : log.actions) {
        if (!(a >= 0.0F && a <= 4.0F &&
              a == static_cast<float>(static_cast<int>(a)))) {
          throw SnapshotError("the CarRacing state is corrupt: action " +
                              std::to_string(a));
        }
      }
    }
    const random::Generator now = np_random_;
    const double reward = reward_;
    const bool terminated = terminated_;
    Destroy();
    SetFreeTreeNodes(world_.get(), log.free_nodes);
    if (log.started) {
      np_random_ = log.start_rng;
      const std::size_t steps = log.NumSteps(width);
      Build(steps == 0);
      for (std::size_t t = 0; t < steps; ++t) {
        Apply(log.actions.data() + width * t, t + 1 == steps);
      }
    }
    np_random_ = now;
    reward_ = reward;
    terminated_ = terminated;
    log_ = std::move(log);
  }

 private:
  int ActionWidth() const { return continuous_ ? 3 : 1; }
  // A logged action: (steer, gas, brake) or the discrete action as a float.
  void Apply(const float* action, bool draw) {
    std::array<double, 3> a{};
    if (continuous_) {
      a = {static_cast<double>(action[0]), static_cast<double>(action[1]),
           static_cast<double>(action[2])};
      Steer(-a[0]);
      Gas(a[1]);
      Brake(a[2]);
    } else {
      const auto d = static_cast<int64_t>(action[0]);
      Steer(-0.6 * (d == 1 ? 1 : 0) + 0.6 * (d == 2 ? 1 : 0));
      Gas(0.2 * (d == 3 ? 1 : 0));
      Brake(0.8 * (d == 4 ? 1 : 0));
    }
    Advance(&a, draw);
  }

  // Reset after Destroy: the episode's colours, track and car, and
  // gymnasium's first step(None).
  void Build(bool draw) {
    reward_sum_ = 0.0;
    prev_reward_ = 0.0;
    tile_visited_count_ = 0;
    t_ = 0.0;
    new_lap_ = false;
    road_poly_.clear();
    if (domain_randomize_) {
      for (double& c : road_color_) {
        c = np_random_.Uniform(0, 210);
      }
      for (double& c : bg_color_) {
        c = np_random_.Uniform(0, 210);
      }
      grass_color_ = bg_color_;
      grass_color_[np_random_.Integers<int64_t>(0, 3)] += 20;
    }
    while (!CreateTrack()) {
    }
    CreateCar(track_[0].beta, track_[0].x, track_[0].y);
    Advance(nullptr, draw);
    reward_ = 0.0;
    terminated_ = false;
  }

 public:
  void Write(const Output& out) override {
    std::copy(state_.begin(), state_.end(), out.Get(fields_.obs));
  }

  // gymnasium's render() in rgb_array mode: the same drawing with the skid
  // marks, shrunk to 600x400.
  void Render(int width, int height, int /*camera_id*/, uint8_t* rgb) override {
    if (hull_ == nullptr) {
      std::fill(rgb, rgb + static_cast<size_t>(width) * height * 3, 0);
      return;
    }
    DrawFrame(true, width, height, rgb);
  }

 private:
  static constexpr int kStateW = 96;
  static constexpr int kStateH = 96;
  static constexpr int kVideoW = 600;
  static constexpr int kVideoH = 400;
  static constexpr int kWindowW = 1000;
  static constexpr int kWindowH = 800;
  static constexpr double kScale = 6.0;
  static constexpr double kTrackRad = 900 / kScale;
  static constexpr double kPlayfield = 2000 / kScale;
  static constexpr double kFps = 50;
  static constexpr double kZoom = 2.7;
  static constexpr double kTrackDetailStep = 21 / kScale;
  static constexpr double kTrackTurnRate = 0.31;
  static constexpr double kTrackWidth = 40 / kScale;
  static constexpr double kBorder = 8 / kScale;
  static constexpr int kBorderMinCount = 4;
  static constexpr double kGrassDim = kPlayfield / 20.0;
  static constexpr int kCheckpoints = 12;

  // car_dynamics.py
  static constexpr double kSize = 0.02;
  static constexpr double kEnginePower = 100000000 * kSize * kSize;
  static constexpr double kWheelMomentOfInertia = 4000 * kSize * kSize;
  static constexpr double kFrictionLimit = 1000000 * kSize * kSize;
  static constexpr double kWheelR = 27;
  static constexpr double kWheelW = 14;

  static double Sign(double v) { return v > 0 ? 1.0 : (v < 0 ? -1.0 : 0.0); }
  static b2Vec2 Vec(double x, double y) {
    return b2Vec2(static_cast<float>(x), static_cast<float>(y));
  }

  // What a Box2D body's user data points to: a road tile or a wheel.
  struct Tag {
    bool is_tile;
  };
  struct Tile {
    Tag tag{true};
    b2Body* body = nullptr;
    int idx = 0;
    bool road_visited = false;
    size_t poly = 0;  // its entry in road_poly_, whose colour contacts reset
  };
  struct Particle {
    bool grass;
    std::vector<std::array<double, 2>> poly;
  };
  struct Wheel {
    Tag tag{false};
    b2Body* body = nullptr;
    b2RevoluteJoint* joint = nullptr;
    double gas = 0.0;
    double brake = 0.0;
    double steer = 0.0;
    double phase = 0.0;
    double omega = 0.0;
    bool has_skid_start = false;
    // The mark it extends; it may have left particles_ and still grow.
    std::shared_ptr<Particle> skid_particle;
    std::set<int> tiles;
  };
  struct TrackPoint {
    double alpha, beta, x, y;
  };
  struct RoadPoly {
    std::array<std::array<double, 2>, 4> points;
    std::array<double, 3> color;
  };

  // gymnasium's FrictionDetector.
  class FrictionDetector : public b2ContactListener {
   public:
    explicit FrictionDetector(CarRacingEnv* env) : env_(env) {}
    void BeginContact(b2Contact* contact) override { Contact(contact, true); }
    void EndContact(b2Contact* contact) override { Contact(contact, false); }

   private:
    void Contact(b2Contact* contact, bool begin) {
      auto* u1 =
          static_cast<Tag*>(contact->GetFixtureA()->GetBody()->GetUserData());
      auto* u2 =
          static_cast<Tag*>(contact->GetFixtureB()->GetBody()->GetUserData());
      Tile* tile = nullptr;
      Tag* obj = nullptr;
      if (u1 != nullptr && u1->is_tile) {
        tile = reinterpret_cast<Tile*>(u1);
        obj = u2;
      }
      if (u2 != nullptr && u2->is_tile) {
        tile = reinterpret_cast<Tile*>(u2);
        obj = u1;
      }
      if (tile == nullptr) {
        return;
      }
      env_->road_poly_[tile->poly].color = env_->road_color_;
      if (obj == nullptr || obj->is_tile) {
        return;
      }
      auto* wheel = reinterpret_cast<Wheel*>(obj);
      const double n = static_cast<double>(env_->track_.size());
      if (begin) {
        wheel->tiles.insert(tile->idx);
        if (!tile->road_visited) {
          tile->road_visited = true;
          env_->reward_sum_ += 1000.0 / n;
          env_->tile_visited_count_ += 1;
          // The lap is complete when enough of the track was covered.
          if (tile->idx == 0 &&
              static_cast<double>(env_->tile_visited_count_) / n >
                  env_->lap_complete_percent_) {
            env_->new_lap_ = true;
          }
        }
      } else {
        wheel->tiles.erase(tile->idx);
      }
    }
    CarRacingEnv* env_;
  };

  void Destroy() {
    if (tiles_.empty()) {
      return;
    }
    for (Tile& t : tiles_) {
      world_->DestroyBody(t.body);
    }
    world_->DestroyBody(hull_);
    hull_ = nullptr;
    for (Wheel& w : wheels_) {
      world_->DestroyBody(w.body);
    }
    tiles_.clear();
  }

  bool CreateTrack() {
    std::array<std::array<double, 3>, kCheckpoints> checkpoints{};
    for (int c = 0; c < kCheckpoints; ++c) {
      const double noise = np_random_.Uniform(0, 2 * M_PI * 1 / kCheckpoints);
      double alpha = 2 * M_PI * c / kCheckpoints + noise;
      double rad = np_random_.Uniform(kTrackRad / 3, kTrackRad);
      if (c == 0) {
        alpha = 0;
        rad = 1.5 * kTrackRad;
      }
      if (c == kCheckpoints - 1) {
        alpha = 2 * M_PI * c / kCheckpoints;
        start_alpha_ = 2 * M_PI * (-0.5) / kCheckpoints;
        rad = 1.5 * kTrackRad;
      }
      checkpoints[c] = {alpha, rad * std::cos(alpha), rad * std::sin(alpha)};
    }
    double x = 1.5 * kTrackRad;
    double y = 0;
    double beta = 0;
    int dest_i = 0;
    int laps = 0;
    std::vector<TrackPoint> track;
    int no_freeze = 2500;
    bool visited_other_side = false;
    while (true) {
      double alpha = std::atan2(y, x);
      if (visited_other_side && alpha > 0) {
        laps += 1;
        visited_other_side = false;
      }
      if (alpha < 0) {
        visited_other_side = true;
        alpha += 2 * M_PI;
      }
      double dest_x = 0;
      double dest_y = 0;
      while (true) {
        bool failed = true;
        while (true) {
          const auto& cp = checkpoints[dest_i % kCheckpoints];
          dest_x = cp[1];
          dest_y = cp[2];
          if (alpha <= cp[0]) {
            failed = false;
            break;
          }
          dest_i += 1;
          if (dest_i % kCheckpoints == 0) {
            break;
          }
        }
        if (!failed) {
          break;
        }
        alpha -= 2 * M_PI;
      }
      const double r1x = std::cos(beta);
      const double r1y = std::sin(beta);
      const double p1x = -r1y;
      const double p1y = r1x;
      const double dest_dx = dest_x - x;
      const double dest_dy = dest_y - y;
      double proj = r1x * dest_dx + r1y * dest_dy;
      while (beta - alpha > 1.5 * M_PI) {
        beta -= 2 * M_PI;
      }
      while (beta - alpha < -1.5 * M_PI) {
        beta += 2 * M_PI;
      }
      const double prev_beta = beta;
      proj *= kScale;
      if (proj > 0.3) {
        beta -= std::min(kTrackTurnRate, std::fabs(0.001 * proj));
      }
      if (proj < -0.3) {
        beta += std::min(kTrackTurnRate, std::fabs(0.001 * proj));
      }
      x += p1x * kTrackDetailStep;
      y += p1y * kTrackDetailStep;
      track.push_back({alpha, prev_beta * 0.5 + beta * 0.5, x, y});
      if (laps > 4) {
        break;
      }
      no_freeze -= 1;
      if (no_freeze == 0) {
        break;
      }
    }
    int i1 = -1;
    int i2 = -1;
    int i = static_cast<int>(track.size());
    while (true) {
      i -= 1;
      if (i == 0) {
        return false;
      }
      const bool pass_through_start =
          track[i].alpha > start_alpha_ && track[i - 1].alpha <= start_alpha_;
      if (pass_through_start && i2 == -1) {
        i2 = i;
      } else if (pass_through_start && i1 == -1) {
        i1 = i;
        break;
      }
    }
    // track[i1 : i2 - 1]
    std::vector<TrackPoint> loop;
    for (int k = i1; k < i2 - 1; ++k) {
      loop.push_back(track[k]);
    }
    const int n = static_cast<int>(loop.size());
    const double first_beta = loop[0].beta;
    const double first_perp_x = std::cos(first_beta);
    const double first_perp_y = std::sin(first_beta);
    const double gx = first_perp_x * (loop[0].x - loop[n - 1].x);
    const double gy = first_perp_y * (loop[0].y - loop[n - 1].y);
    const double well_glued_together = std::sqrt(gx * gx + gy * gy);
    if (well_glued_together > kTrackDetailStep) {
      return false;
    }
    auto at = [n](int k) { return ((k % n) + n) % n; };
    std::vector<bool> border(n, false);
    for (int k = 0; k < n; ++k) {
      bool good = true;
      double oneside = 0;
      for (int neg = 0; neg < kBorderMinCount; ++neg) {
        const double beta1 = loop[at(k - neg - 0)].beta;
        const double beta2 = loop[at(k - neg - 1)].beta;
        good = good && std::fabs(beta1 - beta2) > kTrackTurnRate * 0.2;
        oneside += Sign(beta1 - beta2);
      }
      good = good && std::fabs(oneside) == kBorderMinCount;
      border[k] = good;
    }
    for (int k = 0; k < n; ++k) {
      for (int neg = 0; neg < kBorderMinCount; ++neg) {
        border[at(k - neg)] = border[at(k - neg)] || border[k];
      }
    }
    tiles_.clear();
    tiles_.reserve(n);
    road_poly_.clear();
    for (int k = 0; k < n; ++k) {
      const TrackPoint& p1 = loop[k];
      const TrackPoint& p2 = loop[at(k - 1)];
      const double beta1 = p1.beta;
      const double beta2 = p2.beta;
      const double x1 = p1.x;
      const double y1 = p1.y;
      const double x2 = p2.x;
      const double y2 = p2.y;
      const std::array<double, 2> road1_l{x1 - kTrackWidth * std::cos(beta1),
                                          y1 - kTrackWidth * std::sin(beta1)};
      const std::array<double, 2> road1_r{x1 + kTrackWidth * std::cos(beta1),
                                          y1 + kTrackWidth * std::sin(beta1)};
      const std::array<double, 2> road2_l{x2 - kTrackWidth * std::cos(beta2),
                                          y2 - kTrackWidth * std::sin(beta2)};
      const std::array<double, 2> road2_r{x2 + kTrackWidth * std::cos(beta2),
                                          y2 + kTrackWidth * std::sin(beta2)};
      std::array<b2Vec2, 4> vertices{
          Vec(road1_l[0], road1_l[1]), Vec(road1_r[0], road1_r[1]),
          Vec(road2_r[0], road2_r[1]), Vec(road2_l[0], road2_l[1])};
      b2PolygonShape shape;
      shape.Set(vertices.data(), 4);
      b2FixtureDef fd;
      fd.shape = &shape;
      b2BodyDef bd;
      bd.type = b2_staticBody;
      b2Body* body = world_->CreateBody(&bd);
      body->CreateFixture(&fd);
      tiles_.emplace_back();
      Tile& tile = tiles_.back();
      tile.body = body;
      body->SetUserData(&tile.tag);
      const double c = 0.01 * (k % 3) * 255;
      tile.road_visited = false;
      tile.idx = k;
      body->GetFixtureList()->SetSensor(true);
      tile.poly = road_poly_.size();
      road_poly_.push_back(
          {{road1_l, road1_r, road2_r, road2_l},
           {road_color_[0] + c, road_color_[1] + c, road_color_[2] + c}});
      if (border[k]) {
        const double side = Sign(beta2 - beta1);
        const std::array<double, 2> b1_l{
            x1 + side * kTrackWidth * std::cos(beta1),
            y1 + side * kTrackWidth * std::sin(beta1)};
        const std::array<double, 2> b1_r{
            x1 + side * (kTrackWidth + kBorder) * std::cos(beta1),
            y1 + side * (kTrackWidth + kBorder) * std::sin(beta1)};
        const std::array<double, 2> b2_l{
            x2 + side * kTrackWidth * std::cos(beta2),
            y2 + side * kTrackWidth * std::sin(beta2)};
        const std::array<double, 2> b2_r{
            x2 + side * (kTrackWidth + kBorder) * std::cos(beta2),
            y2 + side * (kTrackWidth + kBorder) * std::sin(beta2)};
        road_poly_.push_back({{b1_l, b1_r, b2_r, b2_l},
                              k % 2 == 0 ? std::array<double, 3>{255, 255, 255}
                                         : std::array<double, 3>{255, 0, 0}});
      }
    }
    track_ = loop;
    return true;
  }

  b2Body* CreatePolygonBody(const std::vector<std::vector<double>>& polys,
                            double x, double y, double angle) {
    b2BodyDef bd;
    bd.type = b2_dynamicBody;
    bd.position = Vec(x, y);
    bd.angle = static_cast<float>(angle);
    b2Body* body = world_->CreateBody(&bd);
    for (const auto& poly : polys) {
      std::vector<b2Vec2> v;
      for (size_t k = 0; k < poly.size(); k += 2) {
        v.push_back(Vec(poly[k] * kSize, poly[k + 1] * kSize));
      }
      b2PolygonShape shape;
      shape.Set(v.data(), static_cast<int32>(v.size()));
      b2FixtureDef fd;
      fd.shape = &shape;
      fd.density = 1.0F;
      body->CreateFixture(&fd);
    }
    return body;
  }

  void CreateCar(double init_angle, double init_x, double init_y) {
    hull_ = CreatePolygonBody({{-60, +130, +60, +130, +60, +110, -60, +110},
                               {-15, +120, +15, +120, +20, +20, -20, 20},
                               {+25, +20, +50, -10, +50, -40, +20, -90, -20,
                                -90, -50, -40, -50, -10, -25, +20},
                               {-50, -120, +50, -120, +50, -90, -50, -90}},
                              init_x, init_y, init_angle);
    particles_.clear();
    static constexpr std::array<std::array<double, 2>, 4> kWheelPos{
        {{-55, +80}, {+55, +80}, {-55, -82}, {+55, -82}}};
    for (int k = 0; k < 4; ++k) {
      const double wx = kWheelPos[k][0];
      const double wy = kWheelPos[k][1];
      const double front_k = 1.0;
      b2BodyDef bd;
      bd.type = b2_dynamicBody;
      bd.position = Vec(init_x + wx * kSize, init_y + wy * kSize);
      bd.angle = static_cast<float>(init_angle);
      b2Body* body = world_->CreateBody(&bd);
      const std::array<std::array<double, 2>, 4> wheel_poly{
          {{-kWheelW, +kWheelR},
           {+kWheelW, +kWheelR},
           {+kWheelW, -kWheelR},
           {-kWheelW, -kWheelR}}};
      std::array<b2Vec2, 4> v;
      for (int j = 0; j < 4; ++j) {
        v[j] = Vec(wheel_poly[j][0] * front_k * kSize,
                   wheel_poly[j][1] * front_k * kSize);
      }
      b2PolygonShape shape;
      shape.Set(v.data(), 4);
      b2FixtureDef fd;
      fd.shape = &shape;
      fd.density = 0.1F;
      fd.filter.categoryBits = 0x0020;
      fd.filter.maskBits = 0x001;
      fd.restitution = 0.0F;
      body->CreateFixture(&fd);
      Wheel& w = wheels_[k];
      w = Wheel();
      w.body = body;
      b2RevoluteJointDef rjd;
      rjd.bodyA = hull_;
      rjd.bodyB = body;
      rjd.referenceAngle =
          static_cast<float>(static_cast<double>(body->GetAngle()) -
                             static_cast<double>(hull_->GetAngle()));
      rjd.localAnchorA = Vec(wx * kSize, wy * kSize);
      rjd.localAnchorB = Vec(0, 0);
      rjd.enableMotor = true;
      rjd.enableLimit = true;
      rjd.maxMotorTorque = static_cast<float>(180 * 900 * kSize * kSize);
      rjd.motorSpeed = 0.0F;
      rjd.lowerAngle = -0.4F;
      rjd.upperAngle = +0.4F;
      w.joint = static_cast<b2RevoluteJoint*>(world_->CreateJoint(&rjd));
      body->SetUserData(&w.tag);
    }
  }

  void Gas(double gas) {
    gas = std::min(std::max(gas, 0.0), 1.0);
    for (int k = 2; k < 4; ++k) {
      Wheel& w = wheels_[k];
      double diff = gas - w.gas;
      if (diff > 0.1) {
        diff = 0.1;
      }
      w.gas += diff;
    }
  }
  void Brake(double b) {
    for (Wheel& w : wheels_) {
      w.brake = b;
    }
  }
  void Steer(double s) {
    wheels_[0].steer = s;
    wheels_[1].steer = s;
  }

  // car_dynamics.Car.step
  void CarStep(double dt) {
    for (Wheel& w : wheels_) {
      const double joint_angle = w.joint->GetJointAngle();
      const double dir = Sign(w.steer - joint_angle);
      const double val = std::fabs(w.steer - joint_angle);
      w.joint->SetMotorSpeed(
          static_cast<float>(dir * std::min(50.0 * val, 3.0)));

      bool grass = true;
      double friction_limit = kFrictionLimit * 0.6;
      if (!w.tiles.empty()) {  // every tile's road_friction is 1.0
        friction_limit = std::max(friction_limit, kFrictionLimit * 1.0);
        grass = false;
      }
      const b2Vec2 forw = w.body->GetWorldVector(b2Vec2(0.0F, 1.0F));
      const b2Vec2 side = w.body->GetWorldVector(b2Vec2(1.0F, 0.0F));
      const b2Vec2 v = w.body->GetLinearVelocity();
      const double vf =
          static_cast<double>(forw.x) * v.x + static_cast<double>(forw.y) * v.y;
      const double vs =
          static_cast<double>(side.x) * v.x + static_cast<double>(side.y) * v.y;
      w.omega += dt * kEnginePower * w.gas / kWheelMomentOfInertia /
                 (std::fabs(w.omega) + 5.0);
      if (w.brake >= 0.9) {
        w.omega = 0;
      } else if (w.brake > 0) {
        const double brake_force = 15;
        const double bdir = -Sign(w.omega);
        double bval = brake_force * w.brake;
        if (std::fabs(bval) > std::fabs(w.omega)) {
          bval = std::fabs(w.omega);
        }
        w.omega += bdir * bval;
      }
      w.phase += w.omega * dt;
      const double wheel_rad = 1.0 * kWheelR * kSize;
      const double vr = w.omega * wheel_rad;
      double f_force = -vf + vr;
      double p_force = -vs;
      f_force *= 205000 * kSize * kSize;
      p_force *= 205000 * kSize * kSize;
      double force = std::sqrt(f_force * f_force + p_force * p_force);

      if (std::fabs(force) > 2.0 * friction_limit) {
        const b2Vec2 pos = w.body->GetPosition();
        if (w.skid_particle && w.skid_particle->grass == grass &&
            w.skid_particle->poly.size() < 30) {
          w.skid_particle->poly.push_back(
              {static_cast<double>(pos.x), static_cast<double>(pos.y)});
        } else if (!w.has_skid_start) {
          w.has_skid_start = true;
        } else {
          // skid_start is pybox2d's live view of the wheel's position, so
          // the mark starts with two copies of the current one.
          w.skid_particle = CreateParticle(pos, pos, grass);
          w.has_skid_start = false;
        }
      } else {
        w.has_skid_start = false;
        w.skid_particle.reset();
      }

      if (std::fabs(force) > friction_limit) {
        f_force /= force;
        p_force /= force;
        force = friction_limit;
        f_force *= force;
        p_force *= force;
      }
      w.omega -= dt * f_force * wheel_rad / kWheelMomentOfInertia;
      w.body->ApplyForceToCenter(Vec(p_force * side.x + f_force * forw.x,
                                     p_force * side.y + f_force * forw.y),
                                 true);
    }
  }

  // car_dynamics.Car._create_particle: at most 30 skid marks are kept
  // (and drawn), the oldest dropped first.
  std::shared_ptr<Particle> CreateParticle(b2Vec2 p1, b2Vec2 p2, bool grass) {
    auto p = std::make_shared<Particle>(
        Particle{grass,
                 {{static_cast<double>(p1.x), static_cast<double>(p1.y)},
                  {static_cast<double>(p2.x), static_cast<double>(p2.y)}}});
    particles_.push_back(p);
    while (particles_.size() > 30) {
      particles_.pop_front();
    }
    return p;
  }

  // One gymnasium step; `action` null for the reset's step(None). `draw`:
  // whether to draw the observation (a replay draws only its last).
  void Advance(const std::array<double, 3>* action, bool draw) {
    CarStep(1.0 / kFps);
    world_->Step(static_cast<float>(1.0 / kFps), 6 * 30, 2 * 30);
    t_ += 1.0 / kFps;
    if (draw) {
      DrawFrame(false, kStateW, kStateH, state_.data());
    }
    double step_reward = 0;
    bool terminated = false;
    if (action != nullptr) {
      reward_sum_ -= 0.1;
      step_reward = reward_sum_ - prev_reward_;
      prev_reward_ = reward_sum_;
      if (tile_visited_count_ == static_cast<int>(track_.size()) || new_lap_) {
        terminated = true;
      }
      const b2Vec2 pos = hull_->GetPosition();
      if (std::fabs(static_cast<double>(pos.x)) > kPlayfield ||
          std::fabs(static_cast<double>(pos.y)) > kPlayfield) {
        terminated = true;
        step_reward = -100;
      }
    }
    reward_ = step_reward;
    terminated_ = terminated;
  }

  // gymnasium's _render: the 1000x800 surface, shrunk to width x height.
  void DrawFrame(bool draw_particles, int width, int height, uint8_t* rgb) {
    using render::Canvas;
    using render::ToInt;
    using render::ToShort;
    Scratch& scratch = ThreadScratch();
    Canvas& canvas = scratch.canvas;
    std::vector<uint32_t>& flip_rows = scratch.flip_rows;
    const double angle = -static_cast<double>(hull_->GetAngle());
    const double zoom = 0.1 * kScale * std::max(1 - t_, 0.0) +
                        kZoom * kScale * std::min(t_, 1.0);
    const b2Vec2 hp = hull_->GetPosition();
    const double scroll_x = -static_cast<double>(hp.x) * zoom;
    const double scroll_y = -static_cast<double>(hp.y) * zoom;
    double tx = 0;
    double ty = 0;
    const render::Rotation rotation(angle);
    rotation.Apply(scroll_x, scroll_y, &tx, &ty);
    tx = kWindowW / 2.0 + tx;
    ty = kWindowH / 4.0 + ty;
    const double max_shape_dim =
        std::max(std::max(kGrassDim, kTrackWidth), kTrackDetailStep) *
        std::sqrt(2.0) * kZoom * kScale;

    auto colored_polygon = [&](const std::array<std::array<double, 2>, 4>& poly,
                               const std::array<double, 3>& color, bool clip,
                               bool background = false) {
      std::array<double, 4> px{};
      std::array<double, 4> py{};
      bool visible = !clip;
      for (int k = 0; k < 4; ++k) {
        double rx = 0;
        double ry = 0;
        rotation.Apply(poly[k][0], poly[k][1], &rx, &ry);
        px[k] = rx * zoom + tx;
        py[k] = ry * zoom + ty;
        if (-max_shape_dim <= px[k] && px[k] <= kWindowW + max_shape_dim &&
            -max_shape_dim <= py[k] && py[k] <= kWindowH + max_shape_dim) {
          visible = true;
        }
      }
      if (!visible) {
        return;
      }
      render::Rgb c{static_cast<uint8_t>(static_cast<int>(color[0])),
                    static_cast<uint8_t>(static_cast<int>(color[1])),
                    static_cast<uint8_t>(static_cast<int>(color[2]))};
      std::array<int16_t, 4> sx{};
      std::array<int16_t, 4> sy{};
      for (int k = 0; k < 4; ++k) {
        sx[k] = ToShort(px[k]);
        sy[k] = ToShort(py[k]);
      }
      // The field, first on the black surface: when its fill paints every
      // pixel, neither the black nor its outline can show.
      if (background) {
        canvas.AAFilledPolygonOver({0, 0, 0}, sx.data(), sy.data(), 4,
                                   Canvas::Pack(c));
      } else {
        canvas.AAFilledPolygon(sx.data(), sy.data(), 4, Canvas::Pack(c));
      }
    };

    // _render_road
    const double bounds = kPlayfield;
    colored_polygon({{{bounds, bounds},
                      {bounds, -bounds},
                      {-bounds, -bounds},
                      {-bounds, bounds}}},
                    bg_color_, false, true);
    for (int gxi = -20; gxi < 20; gxi += 2) {
      for (int gyi = -20; gyi < 20; gyi += 2) {
        const double gx = gxi;
        const double gy = gyi;
        colored_polygon(
            {{{kGrassDim * gx + kGrassDim, kGrassDim * gy + 0},
              {kGrassDim * gx + 0, kGrassDim * gy + 0},
              {kGrassDim * gx + 0, kGrassDim * gy + kGrassDim},
              {kGrassDim * gx + kGrassDim, kGrassDim * gy + kGrassDim}}},
            grass_color_, true);
      }
    }
    for (const RoadPoly& rp : road_poly_) {
      colored_polygon(rp.points, rp.color, true);
    }

    // Car.draw
    auto to_screen = [&](double x, double y, double* sx, double* sy) {
      double rx = 0;
      double ry = 0;
      rotation.Apply(x, y, &rx, &ry);
      *sx = rx * zoom + tx;
      *sy = ry * zoom + ty;
    };
    if (draw_particles) {
      for (const auto& particle : particles_) {
        const Particle& p = *particle;
        std::vector<int> xs;
        std::vector<int> ys;
        for (const auto& c : p.poly) {
          double sx = 0;
          double sy = 0;
          to_screen(c[0], c[1], &sx, &sy);
          xs.push_back(ToInt(sx));
          ys.push_back(ToInt(sy));
        }
        const render::Rgb color =
            p.grass ? render::Rgb{102, 102, 0} : render::Rgb{0, 0, 0};
        canvas.PgLinesWidth(xs, ys, 2, Canvas::Pack(color));
      }
    }
    auto draw_body = [&](b2Body* body, render::Rgb color, const Wheel* wheel) {
      const b2Transform& xf = body->GetTransform();
      for (b2Fixture* f = body->GetFixtureList(); f != nullptr;
           f = f->GetNext()) {
        const auto* poly = static_cast<const b2PolygonShape*>(f->GetShape());
        std::vector<int> xs;
        std::vector<int> ys;
        for (int k = 0; k < poly->m_count; ++k) {
          const b2Vec2 v = b2Mul(xf, poly->m_vertices[k]);
          double sx = 0;
          double sy = 0;
          to_screen(v.x, v.y, &sx, &sy);
          xs.push_back(ToInt(sx));
          ys.push_back(ToInt(sy));
        }
        canvas.PgPolygon(xs, ys, Canvas::Pack(color));
        if (wheel == nullptr) {
          continue;
        }
        const double a1 = wheel->phase;
        const double a2 = wheel->phase + 1.2;
        const double s1 = std::sin(a1);
        const double s2 = std::sin(a2);
        double c1 = std::cos(a1);
        double c2 = std::cos(a2);
        if (s1 > 0 && s2 > 0) {
          continue;
        }
        if (s1 > 0) {
          c1 = Sign(c1);
        }
        if (s2 > 0) {
          c2 = Sign(c2);
        }
        const std::array<std::array<double, 2>, 4> white{
            {{-kWheelW * kSize, +kWheelR * c1 * kSize},
             {+kWheelW * kSize, +kWheelR * c1 * kSize},
             {+kWheelW * kSize, +kWheelR * c2 * kSize},
             {-kWheelW * kSize, +kWheelR * c2 * kSize}}};
        std::vector<int> wx;
        std::vector<int> wy;
        for (const auto& p : white) {
          const b2Vec2 v = b2Mul(xf, Vec(p[0], p[1]));
          double sx = 0;
          double sy = 0;
          to_screen(v.x, v.y, &sx, &sy);
          wx.push_back(ToInt(sx));
          wy.push_back(ToInt(sy));
        }
        canvas.PgPolygon(wx, wy, Canvas::Pack({77, 77, 77}));
      }
    };
    for (const Wheel& w : wheels_) {
      draw_body(w.body, {0, 0, 0}, &w);
    }
    draw_body(hull_, {204, 0, 0}, nullptr);

    // pygame.transform.flip(surf, False, True), then the indicators and the
    // score. The drawings after the flip touch rows from `top` down only
    // (pygame's polygon stays within its points' rows): when that is the
    // lower half, only the rows from `top` down are flipped in place (their
    // old content kept in flip_rows for the rows it becomes) and the
    // shrink reads the others through row pointers, a copy of a quarter of
    // the surface instead of the swap of all of it.
    std::vector<uint32_t>& px = canvas.pixels();
    // f"{reward:04.0f}": Python and C both round the binary value to
    // nearest, ties to even.
    char text[64];
    std::snprintf(text, sizeof(text), "%04.0f", reward_sum_);
    const ScoreText::Image image = Font().Render(text);
    const int x0 = 60 - image.width / 2;
    const int y0 =
        static_cast<int>(kWindowH - kWindowH * 2.5 / 40.0) - image.height / 2;
    int top = std::min(y0, RenderIndicators(nullptr));
    top = std::max(top, 0);
    std::array<const uint32_t*, kWindowH> rows{};
    auto row = [&](int y) {
      return px.data() + static_cast<ptrdiff_t>(y) * kWindowW;
    };
    if (2 * top >= kWindowH) {
      const int n = kWindowH - top;
      flip_rows.resize(static_cast<size_t>(n) * kWindowW);
      std::copy(row(top), row(kWindowH), flip_rows.begin());
      for (int y = top; y < kWindowH; ++y) {
        std::copy(row(kWindowH - 1 - y), row(kWindowH - y), row(y));
      }
      for (int y = 0; y < kWindowH; ++y) {
        if (y < n) {
          rows[y] = flip_rows.data() +
                    static_cast<ptrdiff_t>(kWindowH - 1 - y - top) * kWindowW;
        } else if (y < top) {
          rows[y] = row(kWindowH - 1 - y);
        } else {
          rows[y] = row(y);
        }
      }
    } else {
      for (int y = 0; y < kWindowH / 2; ++y) {
        std::swap_ranges(row(y), row(y + 1), row(kWindowH - 1 - y));
      }
      for (int y = 0; y < kWindowH; ++y) {
        rows[y] = row(y);
      }
    }

    RenderIndicators(&canvas);

    // The score, blitted centred at (60, 750).
    for (int y = 0; y < image.height; ++y) {
      for (int x = 0; x < image.width; ++x) {
        const uint8_t v = image.shade[static_cast<size_t>(y) * image.width + x];
        canvas.Put(x0 + x, y0 + y, Canvas::Pack({v, v, v}));
      }
    }

    // smoothscale to width x height (the three channels at once).
    render::SmoothShrinker& shrinker =
        width == kStateW && height == kStateH ? shrink_state_ : shrink_render_;
    shrinker.Shrink(rows.data(), kWindowW, kWindowH, width, height, rgb);
  }

  // Draws the indicators (on canvas, when given); returns the smallest row
  // of their points.
  int RenderIndicators(render::Canvas* canvas) {
    using render::Canvas;
    using render::ToInt;
    const double W = kWindowW;
    const double H = kWindowH;
    const double s = W / 40.0;
    const double h = H / 40.0;
    int min_y = kWindowH;
    auto polygon = [&](const std::array<std::array<double, 2>, 4>& pts,
                       render::Rgb color) {
      std::vector<int> xs;
      std::vector<int> ys;
      for (const auto& p : pts) {
        xs.push_back(ToInt(p[0]));
        ys.push_back(ToInt(p[1]));
        min_y = std::min(min_y, ys.back());
      }
      if (canvas != nullptr) {
        canvas->PgPolygon(xs, ys, Canvas::Pack(color));
      }
    };
    polygon({{{W, H}, {W, H - 5 * h}, {0, H - 5 * h}, {0, H}}}, {0, 0, 0});
    auto vertical_ind = [&](double place, double val) {
      return std::array<std::array<double, 2>, 4>{
          {{place * s, H - (h + h * val)},
           {(place + 1) * s, H - (h + h * val)},
           {(place + 1) * s, H - h},
           {(place + 0) * s, H - h}}};
    };
    auto horiz_ind = [&](double place, double val) {
      return std::array<std::array<double, 2>, 4>{
          {{(place + 0) * s, H - 4 * h},
           {(place + val) * s, H - 4 * h},
           {(place + val) * s, H - 2 * h},
           {(place + 0) * s, H - 2 * h}}};
    };
    auto render_if_min = [&](double value,
                             const std::array<std::array<double, 2>, 4>& pts,
                             render::Rgb color) {
      if (std::fabs(value) > 1e-4) {
        polygon(pts, color);
      }
    };
    const b2Vec2 lv = hull_->GetLinearVelocity();
    const double vx = lv.x;
    const double vy = lv.y;
    const double true_speed = std::sqrt(vx * vx + vy * vy);
    render_if_min(true_speed, vertical_ind(5, 0.02 * true_speed),
                  {255, 255, 255});
    render_if_min(wheels_[0].omega, vertical_ind(7, 0.01 * wheels_[0].omega),
                  {0, 0, 255});
    render_if_min(wheels_[1].omega, vertical_ind(8, 0.01 * wheels_[1].omega),
                  {0, 0, 255});
    render_if_min(wheels_[2].omega, vertical_ind(9, 0.01 * wheels_[2].omega),
                  {51, 0, 255});
    render_if_min(wheels_[3].omega, vertical_ind(10, 0.01 * wheels_[3].omega),
                  {51, 0, 255});
    const double joint_angle = wheels_[0].joint->GetJointAngle();
    render_if_min(joint_angle, horiz_ind(20, -10.0 * joint_angle), {0, 255, 0});
    const double av = hull_->GetAngularVelocity();
    render_if_min(av, horiz_ind(30, -0.8 * av), {255, 0, 0});
    return min_y;
  }

  ScoreText& Font() {
    if (!font_) {
      font_ = std::make_unique<ScoreText>();
    }
    return *font_;
  }

  Fields fields_;
  bool continuous_;
  bool domain_randomize_;
  double lap_complete_percent_;
  FrictionDetector listener_{this};
  std::unique_ptr<b2World> world_;
  EpisodeLog log_;
  std::unique_ptr<ScoreText> font_;
  // The 1000x800 surface is drawn whole each frame, so it is scratch: one
  // per thread rather than per env keeps it in the thread's cache when the
  // thread steps many envs (16 envs' surfaces are 51 MB).
  struct Scratch {
    render::Canvas canvas{kWindowW, kWindowH};
    std::vector<uint32_t> flip_rows;
  };
  static Scratch& ThreadScratch() {
    thread_local Scratch scratch;
    return scratch;
  }

  // Reused from frame to frame: the shrink's tables and rows.
  render::SmoothShrinker shrink_state_;
  render::SmoothShrinker shrink_render_;
  std::array<double, 3> road_color_{102, 102, 102};
  std::array<double, 3> bg_color_{102, 204, 102};
  std::array<double, 3> grass_color_{102, 230, 102};
  std::vector<Tile> tiles_;
  std::vector<RoadPoly> road_poly_;
  std::vector<TrackPoint> track_;
  std::array<Wheel, 4> wheels_{};
  std::deque<std::shared_ptr<Particle>> particles_;
  b2Body* hull_ = nullptr;
  double start_alpha_ = 0.0;
  double reward_sum_ = 0.0;
  double prev_reward_ = 0.0;
  int tile_visited_count_ = 0;
  double t_ = 0.0;
  bool new_lap_ = false;
  std::vector<uint8_t> state_ =
      std::vector<uint8_t>(static_cast<size_t>(kStateW) * kStateH * 3);
};

}  // namespace envpool::box2d

#endif  // ENVPOOL_BOX2D_CAR_RACING_H_
