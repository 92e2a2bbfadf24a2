// BipedalWalker: gymnasium 1.4's box2d/bipedal_walker.py on the same Box2D
// 2.3 engine: a hull on two two-segment legs, four motor torques, ten lidar
// rays; `hardcore` adds stumps, stairs and pits to the terrain.
//
// gymnasium keeps one b2World for the env's lifetime and destroys and
// recreates the bodies at each reset, so the broad-phase tree and the
// allocators carry over from episode to episode; the proxy ids (and with
// them the order in which contacts are solved) depend on that history.
// This env keeps one world too and destroys the bodies in gymnasium's
// order.  Rewards follow numpy's promotion: the action is float32, so the
// torque costs are float32 and turn the reward into a float32.
#ifndef ENVPOOL_BOX2D_BIPEDAL_WALKER_H_
#define ENVPOOL_BOX2D_BIPEDAL_WALKER_H_

#include <Box2D/Box2D.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

#include "envpool/box2d/episode_log.h"
#include "envpool/core/env.h"
#include "envpool/render/pygame_draw.h"

namespace envpool::box2d {

class BipedalWalkerEnv : public Env {
 public:
  struct Fields {
    Field<float> obs;
    Field<float> action;
  };

  static Options DefaultOptions() {
    return Options{{"max_episode_steps", int64_t{1600}},
                   {"reward_threshold", 300.0},
                   {"hardcore", false}};
  }

  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    const auto pi = static_cast<float>(M_PI);
    // gymnasium's float32 bounds.
    std::vector<double> low{-pi,  -5.0, -5.0, -5.0, -pi, -5.0, -pi,
                            -5.0, -0.0, -pi,  -5.0, -pi, -5.0, -0.0};
    std::vector<double> high{pi,  5.0, 5.0, 5.0, pi, 5.0, pi,
                             5.0, 5.0, pi,  5.0, pi, 5.0, 5.0};
    low.resize(24, -1.0);
    high.resize(24, 1.0);
    fields->obs = spec->state.Add<float>("obs", {24}, low, high);
    fields->action = spec->action.Add<float>("action", {4}, {-1.0F}, {1.0F});
    spec->snapshots = true;
    // gymnasium's render(): 600x400 pygame frames at 50 fps.
    DeclareRendering(options, spec, {"rgb_array"}, static_cast<int>(kViewportW),
                     static_cast<int>(kViewportH), static_cast<int>(kFps));
  }

  BipedalWalkerEnv(const Options& options, const Fields& fields)
      : fields_(fields), hardcore_(options.Get<bool>("hardcore")) {
    world_ = std::make_unique<b2World>(b2Vec2(0.0F, -10.0F));
    world_->SetAllowSleeping(true);
    log_.free_nodes = FreeTreeNodes(*world_);
  }

  void Reset() override {
    Destroy();
    log_.Begin(np_random_, FreeTreeNodes(*world_));
    Build();
  }

  void Step(const ActionView& action) override {
    const float* a = action.Get(fields_.action);
    log_.Add(a, 4);
    Advance({a[0], a[1], a[2], a[3]});
  }

  // Snapshots replay the episode (episode_log.h); lidar_render_ is what
  // rendering changed.
  void SaveState(StateWriter* writer) const override {
    log_.Save(writer);
    writer->Put(lidar_render_);
  }
  void LoadState(StateReader* reader) override {
    EpisodeLog log;
    log.Load(reader, 4);
    int lidar_render = 0;
    reader->Get(&lidar_render);
    const random::Generator now = np_random_;
    const double reward = reward_;
    const bool terminated = terminated_;
    Destroy();
    SetFreeTreeNodes(world_.get(), log.free_nodes);
    if (log.started) {
      np_random_ = log.start_rng;
      Build();
      for (std::size_t t = 0; t < log.NumSteps(4); ++t) {
        const float* a = log.actions.data() + 4 * t;
        Advance({a[0], a[1], a[2], a[3]});
      }
    }
    np_random_ = now;
    reward_ = reward;
    terminated_ = terminated;
    lidar_render_ = lidar_render;
    log_ = std::move(log);
  }

 private:
  // Reset after Destroy: the episode's terrain, clouds and walker, and
  // gymnasium's first step.
  void Build() {
    world_->SetContactListener(&listener_);
    game_over_ = false;
    has_prev_shaping_ = false;
    scroll_ = 0.0;
    lidar_render_ = 0;
    GenerateTerrain();
    GenerateClouds();
    CreateWalker();
    // gymnasium's reset ends with step(np.array([0, 0, 0, 0])).
    Advance({0.0F, 0.0F, 0.0F, 0.0F});
    reward_ = 0.0;
    terminated_ = false;
  }

 public:
  void Write(const Output& out) override {
    float* obs = out.Get(fields_.obs);
    for (int i = 0; i < 24; ++i) {
      obs[i] = static_cast<float>(state_[i]);
    }
  }

  // gymnasium's render(): a surface as wide as the course scrolled so far,
  // the sky, the clouds and the terrain in view, one lidar ray (a new one at
  // each frame, 20 frames of every 100), every body, the start flag; then
  // the vertical flip and the last 600 columns.
  void Render(int width, int height, int /*camera_id*/, uint8_t* rgb) override {
    using render::Canvas;
    using render::Rgb;
    using render::ToInt;
    using render::ToShort;
    if (hull_ == nullptr) {
      Canvas canvas(width, height);
      canvas.WriteFlipped(rgb);
      return;
    }
    const double s = kScale;
    const int surface_w = ToInt(kViewportW + std::max(0.0, scroll_) * s);
    Canvas canvas(surface_w, static_cast<int>(kViewportH));
    auto ints = [](std::initializer_list<double> v) {
      std::vector<int> out;
      for (double x : v) {
        out.push_back(ToInt(x));
      }
      return out;
    };
    const double left = scroll_ * s;
    canvas.PgPolygon(ints({left, left + kViewportW, left + kViewportW, left}),
                     ints({0, 0, kViewportH, kViewportH}),
                     Canvas::Pack({215, 215, 255}));
    const uint32_t white = Canvas::Pack({255, 255, 255});
    for (const Cloud& cloud : clouds_) {
      if (cloud.x2 < scroll_ / 2 ||
          cloud.x1 > scroll_ / 2 + kViewportW / kScale) {
        continue;
      }
      std::vector<int> ix, iy;
      std::vector<int16_t> sx, sy;
      for (const auto& p : cloud.poly) {
        const double x = p[0] * s + scroll_ * s / 2;
        const double y = p[1] * s;
        ix.push_back(ToInt(x));
        iy.push_back(ToInt(y));
        sx.push_back(ToShort(x));
        sy.push_back(ToShort(y));
      }
      canvas.PgPolygon(ix, iy, white);
      canvas.AAPolygon(sx, sy, white);
    }
    const uint32_t ground = Canvas::Pack({102, 153, 76});
    for (int i = 0; i + 1 < kTerrainLength; ++i) {
      if (terrain_x_[i + 1] < scroll_ ||
          terrain_x_[i] > scroll_ + kViewportW / kScale) {
        continue;
      }
      const double xs[4] = {terrain_x_[i] * s, terrain_x_[i + 1] * s,
                            terrain_x_[i + 1] * s, terrain_x_[i] * s};
      const double ys[4] = {terrain_y_[i] * s, terrain_y_[i + 1] * s, 0.0, 0.0};
      canvas.PgPolygon(ints({xs[0], xs[1], xs[2], xs[3]}),
                       ints({ys[0], ys[1], ys[2], ys[3]}), ground);
      canvas.AAPolygon(
          {ToShort(xs[0]), ToShort(xs[1]), ToShort(xs[2]), ToShort(xs[3])},
          {ToShort(ys[0]), ToShort(ys[1]), ToShort(ys[2]), ToShort(ys[3])},
          ground);
    }
    lidar_render_ = (lidar_render_ + 1) % 100;
    if (lidar_render_ < 20) {
      const int i = lidar_render_ < 10 ? lidar_render_ : 19 - lidar_render_;
      canvas.PgLine1(ToInt(lidar_p1_[i][0] * s), ToInt(lidar_p1_[i][1] * s),
                     ToInt(lidar_p2_[i][0] * s), ToInt(lidar_p2_[i][1] * s),
                     Canvas::Pack({255, 0, 0}));
    }
    const float fs = static_cast<float>(kScale);
    auto draw_body = [&](b2Body* body, Rgb color1, Rgb color2) {
      const b2Transform& xf = body->GetTransform();
      for (b2Fixture* f = body->GetFixtureList(); f != nullptr;
           f = f->GetNext()) {
        if (f->GetType() == b2Shape::e_edge) {
          const auto* edge = static_cast<const b2EdgeShape*>(f->GetShape());
          const b2Vec2 a = fs * b2Mul(xf, edge->m_vertex1);
          const b2Vec2 b = fs * b2Mul(xf, edge->m_vertex2);
          canvas.PgAALine(a.x, a.y, b.x, b.y, color1);
          continue;
        }
        const auto* poly = static_cast<const b2PolygonShape*>(f->GetShape());
        const int n = poly->m_count;
        std::vector<int> ix(n), iy(n);
        std::vector<int16_t> sx(n), sy(n);
        for (int k = 0; k < n; ++k) {
          const b2Vec2 v = fs * b2Mul(xf, poly->m_vertices[k]);
          ix[k] = ToInt(v.x);
          iy[k] = ToInt(v.y);
          sx[k] = ToShort(v.x);
          sy[k] = ToShort(v.y);
        }
        canvas.PgPolygon(ix, iy, Canvas::Pack(color1));
        canvas.AAPolygon(sx, sy, Canvas::Pack(color1));
        // path.append(path[0]): the outline and its anti-aliased copy get a
        // closing point of their own.
        ix.push_back(ix[0]);
        iy.push_back(iy[0]);
        sx.push_back(sx[0]);
        sy.push_back(sy[0]);
        canvas.PgLines1(ix, iy, true, Canvas::Pack(color2));
        canvas.AAPolygon(sx, sy, Canvas::Pack(color2));
      }
    };
    for (size_t k = 0; k < terrain_.size(); ++k) {
      draw_body(terrain_[k], terrain_colors_[k][0], terrain_colors_[k][1]);
    }
    for (int k = 0; k < 4; ++k) {
      const int i = k < 2 ? -1 : 1;
      draw_body(legs_[k],
                {static_cast<uint8_t>(153 - i * 25),
                 static_cast<uint8_t>(76 - i * 25),
                 static_cast<uint8_t>(127 - i * 25)},
                {static_cast<uint8_t>(102 - i * 25),
                 static_cast<uint8_t>(51 - i * 25),
                 static_cast<uint8_t>(76 - i * 25)});
    }
    draw_body(hull_, {127, 51, 229}, {76, 76, 127});
    const double flagy1 = kTerrainHeight * s;
    const double flagy2 = flagy1 + 50;
    const double x = kTerrainStep * 3 * s;
    canvas.PgAALine(static_cast<float>(x), static_cast<float>(flagy1),
                    static_cast<float>(x), static_cast<float>(flagy2),
                    {0, 0, 0});
    const std::vector<int> fx = ints({x, x, x + 25});
    const std::vector<int> fy = ints({flagy2, flagy2 - 10, flagy2 - 5});
    canvas.PgPolygon(fx, fy, Canvas::Pack({230, 51, 0}));
    canvas.PgLines1({fx[0], fx[1], fx[2], fx[0]}, {fy[0], fy[1], fy[2], fy[0]},
                    false, Canvas::Pack({0, 0, 0}));
    canvas.WriteFlipped(rgb, surface_w - width, width);
  }

  // The observation as gymnasium computes it, before its float32 rounding.
  const std::array<double, 24>& observation() const { return state_; }

 private:
  static constexpr double kFps = 50;
  static constexpr double kScale = 30.0;
  static constexpr double kMotorsTorque = 80;
  static constexpr double kSpeedHip = 4;
  static constexpr double kSpeedKnee = 6;
  static constexpr double kLidarRange = 160 / kScale;
  static constexpr double kInitialRandom = 5;
  static constexpr double kLegDown = -8 / kScale;
  static constexpr double kLegW = 8 / kScale;
  static constexpr double kLegH = 34 / kScale;
  static constexpr double kViewportW = 600;
  static constexpr double kViewportH = 400;
  static constexpr double kTerrainStep = 14 / kScale;
  static constexpr int kTerrainLength = 200;
  static constexpr double kTerrainHeight = kViewportH / kScale / 4;
  static constexpr int kTerrainGrass = 10;
  static constexpr int kTerrainStartpad = 20;
  static constexpr float kFriction = 2.5F;

  static b2Vec2 Vec(double x, double y) {
    return b2Vec2(static_cast<float>(x), static_cast<float>(y));
  }

  class ContactDetector : public b2ContactListener {
   public:
    explicit ContactDetector(BipedalWalkerEnv* env) : env_(env) {}
    void BeginContact(b2Contact* contact) override {
      b2Body* a = contact->GetFixtureA()->GetBody();
      b2Body* b = contact->GetFixtureB()->GetBody();
      if (env_->hull_ == a || env_->hull_ == b) {
        env_->game_over_ = true;
      }
      for (int k : {1, 3}) {
        if (env_->legs_[k] == a || env_->legs_[k] == b) {
          env_->ground_contact_[k] = true;
        }
      }
    }
    void EndContact(b2Contact* contact) override {
      b2Body* a = contact->GetFixtureA()->GetBody();
      b2Body* b = contact->GetFixtureB()->GetBody();
      for (int k : {1, 3}) {
        if (env_->legs_[k] == a || env_->legs_[k] == b) {
          env_->ground_contact_[k] = false;
        }
      }
    }

   private:
    BipedalWalkerEnv* env_;
  };

  // gymnasium's LidarCallback: the closest fixture of the ground category.
  class LidarCallback : public b2RayCastCallback {
   public:
    float32 ReportFixture(b2Fixture* fixture, const b2Vec2& p,
                          const b2Vec2& /*normal*/, float32 fraction) override {
      if ((fixture->GetFilterData().categoryBits & 1) == 0) {
        return -1;
      }
      this->fraction = fraction;
      hit = true;
      point = p;
      return fraction;
    }
    double fraction = 1.0;
    bool hit = false;
    b2Vec2 point{0.0F, 0.0F};
  };

  // gymnasium's _destroy: the listener first, then the terrain (in reverse
  // order of creation), the hull and the four leg segments.
  void Destroy() {
    if (terrain_.empty()) {
      return;
    }
    world_->SetContactListener(nullptr);
    for (b2Body* body : terrain_) {
      world_->DestroyBody(body);
    }
    terrain_.clear();
    terrain_colors_.clear();
    world_->DestroyBody(hull_);
    hull_ = nullptr;
    for (b2Body* leg : legs_) {
      world_->DestroyBody(leg);
    }
    legs_ = {};
    joints_ = {};
  }

  void AddPolygon(const std::array<std::array<double, 2>, 4>& poly) {
    std::array<b2Vec2, 4> vertices;
    for (int i = 0; i < 4; ++i) {
      vertices[i] = Vec(poly[i][0], poly[i][1]);
    }
    b2PolygonShape shape;
    shape.Set(vertices.data(), 4);
    b2FixtureDef fd;
    fd.shape = &shape;
    fd.friction = kFriction;
    b2BodyDef bd;
    bd.type = b2_staticBody;
    b2Body* body = world_->CreateBody(&bd);
    body->CreateFixture(&fd);
    terrain_.push_back(body);
    terrain_colors_.push_back({{{255, 255, 255}, {153, 153, 153}}});
  }

  void GenerateTerrain() {
    enum State : int64_t { kGrass = 0, kStump, kStairs, kPit, kStates };
    int64_t state = kGrass;
    double velocity = 0.0;
    double y = kTerrainHeight;
    int64_t counter = kTerrainStartpad;
    bool oneshot = false;
    std::array<double, kTerrainLength>& terrain_x = terrain_x_;
    std::array<double, kTerrainLength>& terrain_y = terrain_y_;
    int64_t stair_steps = 0;
    int64_t stair_width = 0;
    int64_t stair_height = 0;
    double original_y = 0;
    const double ts = kTerrainStep;
    for (int i = 0; i < kTerrainLength; ++i) {
      const double x = i * ts;
      terrain_x[i] = x;
      if (state == kGrass && !oneshot) {
        const double diff = kTerrainHeight - y;
        const double sign = diff > 0 ? 1.0 : (diff < 0 ? -1.0 : 0.0);
        velocity = 0.8 * velocity + 0.01 * sign;
        if (i > kTerrainStartpad) {
          velocity += np_random_.Uniform(-1, 1) / kScale;
        }
        y += velocity;
      } else if (state == kPit && oneshot) {
        counter = np_random_.Integers<int64_t>(3, 5);
        const std::array<std::array<double, 2>, 4> poly{
            {{x, y}, {x + ts, y}, {x + ts, y - 4 * ts}, {x, y - 4 * ts}}};
        AddPolygon(poly);
        std::array<std::array<double, 2>, 4> shifted = poly;
        for (auto& p : shifted) {
          p[0] = p[0] + ts * static_cast<double>(counter);
        }
        AddPolygon(shifted);
        counter += 2;
        original_y = y;
      } else if (state == kPit && !oneshot) {
        y = original_y;
        if (counter > 1) {
          y -= 4 * ts;
        }
      } else if (state == kStump && oneshot) {
        counter = np_random_.Integers<int64_t>(1, 3);
        const double c = static_cast<double>(counter);
        AddPolygon({{{x, y},
                     {x + c * ts, y},
                     {x + c * ts, y + c * ts},
                     {x, y + c * ts}}});
      } else if (state == kStairs && oneshot) {
        stair_height = np_random_.Random() > 0.5 ? 1 : -1;
        stair_width = np_random_.Integers<int64_t>(4, 5);
        stair_steps = np_random_.Integers<int64_t>(3, 5);
        original_y = y;
        for (int64_t s = 0; s < stair_steps; ++s) {
          const auto x0 = static_cast<double>(s * stair_width);
          const auto x1 = static_cast<double>((1 + s) * stair_width);
          const auto y0 = static_cast<double>(s * stair_height);
          const auto y1 = static_cast<double>(-1 + s * stair_height);
          AddPolygon({{{x + x0 * ts, y + y0 * ts},
                       {x + x1 * ts, y + y0 * ts},
                       {x + x1 * ts, y + y1 * ts},
                       {x + x0 * ts, y + y1 * ts}}});
        }
        counter = stair_steps * stair_width;
      } else if (state == kStairs && !oneshot) {
        const int64_t s = stair_steps * stair_width - counter - stair_height;
        const double n =
            static_cast<double>(s) / static_cast<double>(stair_width);
        y = original_y + (n * static_cast<double>(stair_height)) * ts;
      }
      oneshot = false;
      terrain_y[i] = y;
      counter -= 1;
      if (counter == 0) {
        counter =
            np_random_.Integers<int64_t>(kTerrainGrass / 2, kTerrainGrass);
        if (state == kGrass && hardcore_) {
          state = np_random_.Integers<int64_t>(1, kStates);
        } else {
          state = kGrass;
        }
        oneshot = true;
      }
    }
    for (int i = 0; i < kTerrainLength - 1; ++i) {
      b2EdgeShape edge;
      edge.Set(Vec(terrain_x[i], terrain_y[i]),
               Vec(terrain_x[i + 1], terrain_y[i + 1]));
      b2FixtureDef fd;
      fd.shape = &edge;
      fd.friction = kFriction;
      fd.filter.categoryBits = 0x0001;
      b2BodyDef bd;
      bd.type = b2_staticBody;
      b2Body* body = world_->CreateBody(&bd);
      body->CreateFixture(&fd);
      terrain_.push_back(body);
      const render::Rgb color{76, static_cast<uint8_t>(i % 2 == 0 ? 255 : 204),
                              76};
      terrain_colors_.push_back({{color, color}});
    }
    std::reverse(terrain_.begin(), terrain_.end());
    std::reverse(terrain_colors_.begin(), terrain_colors_.end());
  }

  // Clouds are only drawn, but their draws advance the generator.
  void GenerateClouds() {
    for (Cloud& cloud : clouds_) {
      const double x = np_random_.Uniform(0, kTerrainLength) * kTerrainStep;
      const double y = kViewportH / kScale * 3 / 4;
      for (int a = 0; a < 5; ++a) {
        const double px = x + 15 * kTerrainStep * std::sin(3.14 * 2 * a / 5) +
                          np_random_.Uniform(0, 5 * kTerrainStep);
        const double py = y + 5 * kTerrainStep * std::cos(3.14 * 2 * a / 5) +
                          np_random_.Uniform(0, 5 * kTerrainStep);
        cloud.poly[a] = {px, py};
      }
      cloud.x1 = cloud.x2 = cloud.poly[0][0];
      for (const auto& p : cloud.poly) {
        cloud.x1 = std::min(cloud.x1, p[0]);
        cloud.x2 = std::max(cloud.x2, p[0]);
      }
    }
  }

  static b2Body* CreateBox(b2World* world, double x, double y, double angle,
                           double half_w, double half_h) {
    b2BodyDef bd;
    bd.type = b2_dynamicBody;
    bd.position = Vec(x, y);
    bd.angle = static_cast<float>(angle);
    b2Body* body = world->CreateBody(&bd);
    b2PolygonShape box;
    box.SetAsBox(static_cast<float>(half_w), static_cast<float>(half_h));
    b2FixtureDef fd;
    fd.shape = &box;
    fd.density = 1.0F;
    fd.restitution = 0.0F;
    fd.filter.categoryBits = 0x0020;
    fd.filter.maskBits = 0x001;
    body->CreateFixture(&fd);
    return body;
  }

  b2RevoluteJoint* CreateMotor(b2Body* a, b2Body* b, double anchor_a_y,
                               double anchor_b_y, double speed, double lower,
                               double upper) {
    b2RevoluteJointDef rjd;
    rjd.bodyA = a;
    rjd.bodyB = b;
    // pybox2d's revoluteJointDef(bodyA=..., bodyB=...) sets the reference
    // angle to bodyB.angle - bodyA.angle (in Python doubles).
    rjd.referenceAngle = static_cast<float>(static_cast<double>(b->GetAngle()) -
                                            static_cast<double>(a->GetAngle()));
    rjd.localAnchorA = Vec(0, anchor_a_y);
    rjd.localAnchorB = Vec(0, anchor_b_y);
    rjd.enableMotor = true;
    rjd.enableLimit = true;
    rjd.maxMotorTorque = static_cast<float>(kMotorsTorque);
    rjd.motorSpeed = static_cast<float>(speed);
    rjd.lowerAngle = static_cast<float>(lower);
    rjd.upperAngle = static_cast<float>(upper);
    return static_cast<b2RevoluteJoint*>(world_->CreateJoint(&rjd));
  }

  void CreateWalker() {
    const double init_x = kTerrainStep * kTerrainStartpad / 2;
    const double init_y = kTerrainHeight + 2 * kLegH;
    b2BodyDef bd;
    bd.type = b2_dynamicBody;
    bd.position = Vec(init_x, init_y);
    hull_ = world_->CreateBody(&bd);
    {
      static constexpr std::array<std::array<double, 2>, 5> kHullPoly{
          {{-30, 9}, {6, 9}, {34, 1}, {34, -8}, {-30, -8}}};
      std::array<b2Vec2, 5> vertices;
      for (size_t i = 0; i < kHullPoly.size(); ++i) {
        vertices[i] = Vec(kHullPoly[i][0] / kScale, kHullPoly[i][1] / kScale);
      }
      b2PolygonShape poly;
      poly.Set(vertices.data(), 5);
      b2FixtureDef fd;
      fd.shape = &poly;
      fd.density = 5.0F;
      fd.friction = 0.1F;
      fd.filter.categoryBits = 0x0020;
      fd.filter.maskBits = 0x001;
      fd.restitution = 0.0F;
      hull_->CreateFixture(&fd);
    }
    const double fx = np_random_.Uniform(-kInitialRandom, kInitialRandom);
    hull_->ApplyForceToCenter(Vec(fx, 0), true);

    ground_contact_ = {false, false, false, false};
    for (int k = 0; k < 2; ++k) {
      const int i = k == 0 ? -1 : 1;
      b2Body* leg =
          CreateBox(world_.get(), init_x, init_y - kLegH / 2 - kLegDown,
                    i * 0.05, kLegW / 2, kLegH / 2);
      legs_[2 * k] = leg;
      joints_[2 * k] =
          CreateMotor(hull_, leg, kLegDown, kLegH / 2, i, -0.8, 1.1);
      b2Body* lower =
          CreateBox(world_.get(), init_x, init_y - kLegH * 3 / 2 - kLegDown,
                    i * 0.05, 0.8 * kLegW / 2, kLegH / 2);
      legs_[2 * k + 1] = lower;
      joints_[2 * k + 1] =
          CreateMotor(leg, lower, -kLegH / 2, kLegH / 2, 1, -1.6, -0.1);
    }
  }

  void Advance(const std::array<float, 4>& action) {
    static constexpr std::array<double, 4> kSpeeds{kSpeedHip, kSpeedKnee,
                                                   kSpeedHip, kSpeedKnee};
    // float(SPEED * np.sign(a)), float(MOTORS_TORQUE * np.clip(|a|, 0, 1)):
    // float32 arithmetic on the float32 action.
    std::array<float, 4> clipped{};
    for (int j = 0; j < 4; ++j) {
      const float a = action[j];
      const float sign = a > 0 ? 1.0F : (a < 0 ? -1.0F : 0.0F);
      clipped[j] = std::min(std::max(std::fabs(a), 0.0F), 1.0F);
      joints_[j]->SetMotorSpeed(static_cast<float>(kSpeeds[j]) * sign);
      joints_[j]->SetMaxMotorTorque(static_cast<float>(kMotorsTorque) *
                                    clipped[j]);
    }

    world_->Step(static_cast<float>(1.0 / kFps), 6 * 30, 2 * 30);

    const b2Vec2 pos = hull_->GetPosition();
    const b2Vec2 vel = hull_->GetLinearVelocity();
    std::array<LidarCallback, 10> lidar;
    for (int i = 0; i < 10; ++i) {
      const double p2x =
          static_cast<double>(pos.x) + std::sin(1.5 * i / 10.0) * kLidarRange;
      const double p2y =
          static_cast<double>(pos.y) - std::cos(1.5 * i / 10.0) * kLidarRange;
      world_->RayCast(&lidar[i], pos, Vec(p2x, p2y));
      // What render() draws: from the hull to the closest hit, else to the
      // end of the ray.
      lidar_p1_[i] = {pos.x, pos.y};
      lidar_p2_[i] = lidar[i].hit ? std::array<double, 2>{lidar[i].point.x,
                                                          lidar[i].point.y}
                                  : std::array<double, 2>{p2x, p2y};
    }
    scroll_ = static_cast<double>(pos.x) - kViewportW / kScale / 5;
    state_[0] = hull_->GetAngle();
    state_[1] = 2.0 * static_cast<double>(hull_->GetAngularVelocity()) / kFps;
    state_[2] = 0.3 * static_cast<double>(vel.x) * (kViewportW / kScale) / kFps;
    state_[3] = 0.3 * static_cast<double>(vel.y) * (kViewportH / kScale) / kFps;
    for (int leg = 0; leg < 2; ++leg) {
      const int base = 4 + 5 * leg;
      b2RevoluteJoint* hip = joints_[2 * leg];
      b2RevoluteJoint* knee = joints_[2 * leg + 1];
      state_[base + 0] = hip->GetJointAngle();
      state_[base + 1] = static_cast<double>(hip->GetJointSpeed()) / kSpeedHip;
      state_[base + 2] = static_cast<double>(knee->GetJointAngle()) + 1.0;
      state_[base + 3] =
          static_cast<double>(knee->GetJointSpeed()) / kSpeedKnee;
      state_[base + 4] = ground_contact_[2 * leg + 1] ? 1.0 : 0.0;
    }
    for (int i = 0; i < 10; ++i) {
      state_[14 + i] = lidar[i].fraction;
    }

    double shaping = 130 * static_cast<double>(pos.x) / kScale;
    shaping -= 5.0 * std::fabs(state_[0]);
    // reward is a Python float (0 on the first step) until the first torque
    // cost, a float32, makes it a float32.
    const double base = has_prev_shaping_ ? shaping - prev_shaping_ : 0.0;
    prev_shaping_ = shaping;
    has_prev_shaping_ = true;
    auto reward = static_cast<float>(base);
    const auto cost_rate = static_cast<float>(0.00035 * kMotorsTorque);
    for (int j = 0; j < 4; ++j) {
      reward -= cost_rate * clipped[j];
    }
    double result = reward;
    terminated_ = false;
    if (game_over_ || pos.x < 0) {
      result = -100;
      terminated_ = true;
    }
    if (static_cast<double>(pos.x) >
        (kTerrainLength - kTerrainGrass) * kTerrainStep) {
      terminated_ = true;
    }
    reward_ = result;
  }

  Fields fields_;
  bool hardcore_;
  EpisodeLog log_;
  ContactDetector listener_{this};
  std::unique_ptr<b2World> world_;
  std::vector<b2Body*> terrain_;
  // What render() draws besides the bodies.
  struct Cloud {
    std::array<std::array<double, 2>, 5> poly;
    double x1, x2;
  };
  std::vector<std::array<render::Rgb, 2>> terrain_colors_;
  std::array<double, kTerrainLength> terrain_x_{};
  std::array<double, kTerrainLength> terrain_y_{};
  std::array<Cloud, kTerrainLength / 20> clouds_{};
  std::array<std::array<double, 2>, 10> lidar_p1_{};
  std::array<std::array<double, 2>, 10> lidar_p2_{};
  double scroll_ = 0.0;
  int lidar_render_ = 0;
  b2Body* hull_ = nullptr;
  std::array<b2Body*, 4> legs_{};
  std::array<b2RevoluteJoint*, 4> joints_{};
  std::array<bool, 4> ground_contact_{};
  bool game_over_ = false;
  bool has_prev_shaping_ = false;
  double prev_shaping_ = 0.0;
  std::array<double, 24> state_{};
};

}  // namespace envpool::box2d

#endif  // ENVPOOL_BOX2D_BIPEDAL_WALKER_H_
