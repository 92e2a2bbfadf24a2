// LunarLander: gymnasium 1.4's box2d/lunar_lander.py on the same Box2D 2.3
// engine, discrete (4 actions) or continuous (2 throttles), with gymnasium's
// options gravity, enable_wind, wind_power and turbulence_power.
//
// The reference computes in Python doubles and hands float32 values to
// Box2D at each call (forces, impulses, points); every value here is
// computed in the same order in double and rounded where pybox2d rounds it.
// gymnasium creates exhaust particles (Box2D bodies that touch only the
// ground) only when it has a render mode, and so do we; they never touch the
// lander, so the episode is the same either way.
#ifndef ENVPOOL_BOX2D_LUNAR_LANDER_H_
#define ENVPOOL_BOX2D_LUNAR_LANDER_H_

#include <Box2D/Box2D.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <deque>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "envpool/box2d/episode_log.h"
#include "envpool/core/env.h"
#include "envpool/render/pygame_draw.h"

namespace envpool::box2d {

class LunarLanderEnv : public Env {
 public:
  struct Fields {
    Field<float> obs;
    Field<int64_t> discrete_action;
    Field<float> continuous_action;
  };

  static Options DefaultOptions() {
    return Options{{"max_episode_steps", int64_t{1000}},
                   {"reward_threshold", 200.0},
                   {"continuous", false},
                   {"gravity", -10.0},
                   {"enable_wind", false},
                   {"wind_power", 15.0},
                   {"turbulence_power", 1.5}};
  }

  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    const double gravity = options.Get<double>("gravity");
    if (!(gravity > -12.0 && gravity < 0.0)) {
      throw std::invalid_argument(
          "option 'gravity' must be between -12 and 0 (exclusive), got " +
          std::to_string(gravity));
    }
    for (const char* name : {"wind_power", "turbulence_power"}) {
      if (!std::isfinite(options.Get<double>(name))) {
        throw std::invalid_argument(std::string("option '") + name +
                                    "' must be a finite number");
      }
    }
    const float pi2 = static_cast<float>(2 * M_PI);
    fields->obs = spec->state.Add<float>(
        "obs", {8}, {-2.5F, -2.5F, -10.0F, -10.0F, -pi2, -10.0F, -0.0F, -0.0F},
        {2.5F, 2.5F, 10.0F, 10.0F, pi2, 10.0F, 1.0F, 1.0F});
    if (options.Get<bool>("continuous")) {
      fields->continuous_action =
          spec->action.Add<float>("action", {2}, {-1.0F}, {1.0F});
    } else {
      fields->discrete_action = spec->action.AddDiscrete<int64_t>("action", 4);
    }
    spec->snapshots = true;
    // gymnasium's render(): 600x400 pygame frames at 50 fps.
    DeclareRendering(options, spec, {"rgb_array"}, static_cast<int>(kViewportW),
                     static_cast<int>(kViewportH), static_cast<int>(kFps));
  }

  LunarLanderEnv(const Options& options, const Fields& fields)
      : fields_(fields),
        continuous_(options.Get<bool>("continuous")),
        gravity_(options.Get<double>("gravity")),
        enable_wind_(options.Get<bool>("enable_wind")),
        wind_power_(options.Get<double>("wind_power")),
        turbulence_power_(options.Get<double>("turbulence_power")),
        particles_on_(options.Has("render_mode") &&
                      !options.Get<std::string>("render_mode").empty()) {}

  void Reset() override {
    // Each episode builds a new world: nothing of the last one carries over.
    log_.Begin(np_random_, {});
    Build();
  }

  void Step(const ActionView& action) override {
    float a[2] = {0.0F, 0.0F};
    if (continuous_) {
      const float* v = action.Get(fields_.continuous_action);
      a[0] = v[0];
      a[1] = v[1];
    } else {
      a[0] = static_cast<float>(action.Scalar(fields_.discrete_action));
    }
    log_.Add(a, ActionWidth());
    Apply(a);
  }

  // Snapshots replay the episode (episode_log.h), its frames too: rendering
  // ages the particles, which are bodies of the world.
  void SaveState(StateWriter* writer) const override { log_.Save(writer); }
  void LoadState(StateReader* reader) override {
    EpisodeLog log;
    log.Load(reader, ActionWidth());
    if (!continuous_) {
      for (float a : log.actions) {
        if (!(a == 0.0F || a == 1.0F || a == 2.0F || a == 3.0F)) {
          throw SnapshotError("the LunarLander state is corrupt: action " +
                              std::to_string(a));
        }
      }
    }
    const random::Generator now = np_random_;
    const double reward = reward_;
    const bool terminated = terminated_;
    particles_.clear();
    world_.reset();
    if (log.started) {
      np_random_ = log.start_rng;
      Build();
      std::size_t frame = 0;
      const int width = ActionWidth();
      for (std::size_t t = 0; t <= log.NumSteps(width); ++t) {
        for (; frame < log.renders.size() && log.renders[frame] == t; ++frame) {
          AgeParticles();
        }
        if (t < log.NumSteps(width)) {
          Apply(log.actions.data() + width * t);
        }
      }
    }
    np_random_ = now;
    reward_ = reward;
    terminated_ = terminated;
    log_ = std::move(log);
  }

  void Write(const Output& out) override {
    float* obs = out.Get(fields_.obs);
    for (int i = 0; i < 8; ++i) {
      obs[i] = static_cast<float>(state_[i]);
    }
  }

  // gymnasium's render(): it ages the particles (and drops the dead ones at
  // the front of the list), then draws the sky above the terrain, the
  // particles, the lander, its legs and, after each of their fixtures, the
  // two helipad flags; then the vertical flip.
  void Render(int width, int height, int /*camera_id*/, uint8_t* rgb) override {
    using render::Canvas;
    using render::ToInt;
    using render::ToShort;
    Canvas canvas(width, height);
    canvas.Fill({255, 255, 255});
    if (!world_) {
      canvas.WriteFlipped(rgb);
      return;
    }
    log_.AddRender();
    AgeParticles();
    const uint32_t black = Canvas::Pack({0, 0, 0});
    for (int i = 0; i + 1 < kChunks; ++i) {
      const double x1 = chunk_x_[i] * kScale, y1 = smooth_y_[i] * kScale;
      const double x2 = chunk_x_[i + 1] * kScale;
      const double y2 = smooth_y_[i + 1] * kScale;
      const double top = kViewportH / kScale * kScale;
      canvas.PgPolygon({ToInt(x1), ToInt(x2), ToInt(x2), ToInt(x1)},
                       {ToInt(y1), ToInt(y2), ToInt(top), ToInt(top)}, black);
      canvas.AAPolygon({ToShort(x1), ToShort(x2), ToShort(x2), ToShort(x1)},
                       {ToShort(y1), ToShort(y2), ToShort(top), ToShort(top)},
                       black);
    }
    auto draw_flags = [&]() {
      const uint32_t white = Canvas::Pack({255, 255, 255});
      const uint32_t yellow = Canvas::Pack({204, 204, 0});
      for (double hx : {helipad_x1_, helipad_x2_}) {
        const double x = hx * kScale;
        const double flagy1 = helipad_y_ * kScale;
        const double flagy2 = flagy1 + 50;
        canvas.PgLine1(ToInt(x), ToInt(flagy1), ToInt(x), ToInt(flagy2), white);
        canvas.PgPolygon({ToInt(x), ToInt(x), ToInt(x + 25)},
                         {ToInt(flagy2), ToInt(flagy2 - 10), ToInt(flagy2 - 5)},
                         yellow);
        canvas.AAPolygon(
            {ToShort(x), ToShort(x), ToShort(x + 25)},
            {ToShort(flagy2), ToShort(flagy2 - 10), ToShort(flagy2 - 5)},
            yellow);
      }
    };
    const float scale = static_cast<float>(kScale);
    auto draw_body = [&](b2Body* body, render::Rgb color1, render::Rgb color2) {
      const b2Transform& xf = body->GetTransform();
      for (b2Fixture* f = body->GetFixtureList(); f != nullptr;
           f = f->GetNext()) {
        if (f->GetType() == b2Shape::e_circle) {
          const auto* circle = static_cast<const b2CircleShape*>(f->GetShape());
          const b2Vec2 c = scale * b2Mul(xf, circle->m_p);
          const int r = ToInt(static_cast<double>(circle->m_radius) * kScale);
          canvas.PgFilledCircle(ToInt(c.x), ToInt(c.y), r,
                                Canvas::Pack(color1));
          canvas.PgFilledCircle(ToInt(c.x), ToInt(c.y), r,
                                Canvas::Pack(color2));
        } else {
          const auto* poly = static_cast<const b2PolygonShape*>(f->GetShape());
          const int n = poly->m_count;
          std::vector<int> ix(n), iy(n);
          std::vector<int16_t> sx(n), sy(n);
          std::vector<float> fx(n), fy(n);
          for (int i = 0; i < n; ++i) {
            const b2Vec2 v = scale * b2Mul(xf, poly->m_vertices[i]);
            fx[i] = v.x;
            fy[i] = v.y;
            ix[i] = ToInt(v.x);
            iy[i] = ToInt(v.y);
            sx[i] = ToShort(v.x);
            sy[i] = ToShort(v.y);
          }
          canvas.PgPolygon(ix, iy, Canvas::Pack(color1));
          canvas.AAPolygon(sx, sy, Canvas::Pack(color1));
          canvas.PgAALinesClosed(fx, fy, color2);
        }
        draw_flags();
      }
    };
    for (const Particle& p : particles_) {
      draw_body(p.body, p.color, p.color);
    }
    draw_body(lander_, {128, 102, 230}, {77, 77, 128});
    for (b2Body* leg : legs_) {
      draw_body(leg, {128, 102, 230}, {77, 77, 128});
    }
    canvas.WriteFlipped(rgb);
  }

  // The observation as gymnasium computes it, before its float32 rounding.
  const std::array<double, 8>& observation() const { return state_; }

 private:
  static constexpr double kFps = 50;
  static constexpr double kScale = 30.0;
  static constexpr double kMainEnginePower = 13.0;
  static constexpr double kSideEnginePower = 0.6;
  static constexpr double kInitialRandom = 1000.0;
  static constexpr double kLegAway = 20;
  static constexpr double kLegDown = 18;
  static constexpr double kLegW = 2;
  static constexpr double kLegH = 8;
  static constexpr double kLegSpringTorque = 40;
  static constexpr double kSideEngineHeight = 14;
  static constexpr double kSideEngineAway = 12;
  static constexpr double kMainEngineYLocation = 4;
  static constexpr double kViewportW = 600;
  static constexpr double kViewportH = 400;
  static constexpr int kChunks = 11;

  // np.clip(action, -1, +1).astype(np.float64)
  static double Clip(float a) {
    return static_cast<double>(std::min(std::max(a, -1.0F), 1.0F));
  }

  static b2Vec2 Vec(double x, double y) {
    return b2Vec2(static_cast<float>(x), static_cast<float>(y));
  }

  // A particle's colour channel: int(max(0.2, v) * 255).
  static uint8_t ParticleChannel(double v) {
    return static_cast<uint8_t>(static_cast<int>(std::max(0.2, v) * 255));
  }

  // gymnasium's _create_particle: a small ball that collides with the
  // ground only, pushed by the engine's impulse, then the dead particles at
  // the front of the list go.
  void CreateParticle(double mass, double x, double y, double ttl,
                      double impulse_x, double impulse_y) {
    b2BodyDef def;
    def.type = b2_dynamicBody;
    def.position = Vec(x, y);
    def.angle = 0.0F;
    b2Body* body = world_->CreateBody(&def);
    b2CircleShape circle;
    circle.m_radius = static_cast<float>(2 / kScale);
    circle.m_p = b2Vec2(0.0F, 0.0F);
    b2FixtureDef fd;
    fd.shape = &circle;
    fd.density = static_cast<float>(mass);
    fd.friction = 0.1F;
    fd.filter.categoryBits = 0x0100;
    fd.filter.maskBits = 0x001;
    fd.restitution = 0.3F;
    body->CreateFixture(&fd);
    particles_.push_back({body, ttl, {0, 0, 0}});
    CleanParticles(false);
    body->ApplyLinearImpulse(Vec(impulse_x, impulse_y), Vec(x, y), true);
  }

  // What render() does to the particles before drawing them.
  void AgeParticles() {
    for (Particle& p : particles_) {
      p.ttl -= 0.15;
      p.color = {ParticleChannel(0.15 + p.ttl), ParticleChannel(0.5 * p.ttl),
                 ParticleChannel(0.5 * p.ttl)};
    }
    CleanParticles(false);
  }

  // Reset: a new world, and gymnasium's first step(noop).
  void Build() {
    BuildWorld();
    Advance(0.0, 0.0, 0);
    reward_ = 0.0;
    terminated_ = false;
  }
  int ActionWidth() const { return continuous_ ? 2 : 1; }
  // A logged action: (main, lateral) or the discrete action as a float.
  void Apply(const float* a) {
    if (continuous_) {
      Advance(Clip(a[0]), Clip(a[1]), 0);
    } else {
      Advance(0.0, 0.0, static_cast<int64_t>(a[0]));
    }
  }

  void CleanParticles(bool all) {
    while (!particles_.empty() && (all || particles_.front().ttl < 0)) {
      world_->DestroyBody(particles_.front().body);
      particles_.pop_front();
    }
  }

  // gymnasium's ContactDetector: any contact of the hull ends the game; a
  // leg touching the ground sets its ground_contact.
  class ContactDetector : public b2ContactListener {
   public:
    explicit ContactDetector(LunarLanderEnv* env) : env_(env) {}
    void BeginContact(b2Contact* contact) override {
      b2Body* a = contact->GetFixtureA()->GetBody();
      b2Body* b = contact->GetFixtureB()->GetBody();
      if (env_->lander_ == a || env_->lander_ == b) {
        env_->game_over_ = true;
      }
      for (int i = 0; i < 2; ++i) {
        if (env_->legs_[i] == a || env_->legs_[i] == b) {
          env_->ground_contact_[i] = true;
        }
      }
    }
    void EndContact(b2Contact* contact) override {
      b2Body* a = contact->GetFixtureA()->GetBody();
      b2Body* b = contact->GetFixtureB()->GetBody();
      for (int i = 0; i < 2; ++i) {
        if (env_->legs_[i] == a || env_->legs_[i] == b) {
          env_->ground_contact_[i] = false;
        }
      }
    }

   private:
    LunarLanderEnv* env_;
  };

  void BuildWorld() {
    particles_.clear();
    world_.reset();  // the old world's bodies (particles too) go with it
    world_ = std::make_unique<b2World>(Vec(0, gravity_));
    world_->SetAllowSleeping(true);
    world_->SetContactListener(&listener_);
    game_over_ = false;
    has_prev_shaping_ = false;
    ground_contact_ = {false, false};
    legs_ = {nullptr, nullptr};
    lander_ = nullptr;

    const double w = kViewportW / kScale;
    const double h = kViewportH / kScale;
    std::array<double, kChunks + 1> height{};
    for (double& v : height) {
      v = np_random_.Uniform(0, h / 2);
    }
    std::array<double, kChunks> chunk_x{};
    for (int i = 0; i < kChunks; ++i) {
      chunk_x[i] = w / (kChunks - 1) * i;
    }
    helipad_x1_ = chunk_x[kChunks / 2 - 1];
    helipad_x2_ = chunk_x[kChunks / 2 + 1];
    helipad_y_ = h / 4;
    for (int i = kChunks / 2 - 2; i <= kChunks / 2 + 2; ++i) {
      height[i] = helipad_y_;
    }
    std::array<double, kChunks> smooth_y{};
    for (int i = 0; i < kChunks; ++i) {
      // height[i - 1], where height[-1] is the last of the 12 heights.
      const double prev = height[(i + kChunks) % (kChunks + 1)];
      smooth_y[i] = 0.33 * (prev + height[i] + height[i + 1]);
    }
    chunk_x_ = chunk_x;
    smooth_y_ = smooth_y;

    b2BodyDef moon_def;
    moon_def.type = b2_staticBody;
    b2Body* moon = world_->CreateBody(&moon_def);
    {
      b2EdgeShape edge;
      edge.Set(Vec(0, 0), Vec(w, 0));
      b2FixtureDef fd;
      fd.shape = &edge;
      moon->CreateFixture(&fd);
    }
    for (int i = 0; i < kChunks - 1; ++i) {
      b2EdgeShape edge;
      edge.Set(Vec(chunk_x[i], smooth_y[i]),
               Vec(chunk_x[i + 1], smooth_y[i + 1]));
      b2FixtureDef fd;
      fd.shape = &edge;
      fd.density = 0;
      fd.friction = 0.1F;
      moon->CreateFixture(&fd);
    }

    const double initial_y = kViewportH / kScale;
    const double initial_x = kViewportW / kScale / 2;
    b2BodyDef lander_def;
    lander_def.type = b2_dynamicBody;
    lander_def.position = Vec(initial_x, initial_y);
    lander_def.angle = 0.0F;
    lander_ = world_->CreateBody(&lander_def);
    {
      static constexpr std::array<std::array<double, 2>, 6> kLanderPoly{
          {{-14, 17}, {-17, 0}, {-17, -10}, {17, -10}, {17, 0}, {14, 17}}};
      std::array<b2Vec2, 6> vertices;
      for (size_t i = 0; i < kLanderPoly.size(); ++i) {
        vertices[i] =
            Vec(kLanderPoly[i][0] / kScale, kLanderPoly[i][1] / kScale);
      }
      b2PolygonShape poly;
      poly.Set(vertices.data(), static_cast<int32>(vertices.size()));
      b2FixtureDef fd;
      fd.shape = &poly;
      fd.density = 5.0F;
      fd.friction = 0.1F;
      fd.filter.categoryBits = 0x0010;
      fd.filter.maskBits = 0x001;
      fd.restitution = 0.0F;
      lander_->CreateFixture(&fd);
    }
    const double fx = np_random_.Uniform(-kInitialRandom, kInitialRandom);
    const double fy = np_random_.Uniform(-kInitialRandom, kInitialRandom);
    lander_->ApplyForceToCenter(Vec(fx, fy), true);
    if (enable_wind_) {
      wind_idx_ = np_random_.Integers<int64_t>(-9999, 9999);
      torque_idx_ = np_random_.Integers<int64_t>(-9999, 9999);
    }

    for (int k = 0; k < 2; ++k) {
      const int i = k == 0 ? -1 : 1;
      b2BodyDef leg_def;
      leg_def.type = b2_dynamicBody;
      leg_def.position = Vec(initial_x - i * kLegAway / kScale, initial_y);
      leg_def.angle = static_cast<float>(i * 0.05);
      b2Body* leg = world_->CreateBody(&leg_def);
      b2PolygonShape box;
      box.SetAsBox(static_cast<float>(kLegW / kScale),
                   static_cast<float>(kLegH / kScale));
      b2FixtureDef fd;
      fd.shape = &box;
      fd.density = 1.0F;
      fd.restitution = 0.0F;
      fd.filter.categoryBits = 0x0020;
      fd.filter.maskBits = 0x001;
      leg->CreateFixture(&fd);
      b2RevoluteJointDef rjd;
      rjd.bodyA = lander_;
      rjd.bodyB = leg;
      // pybox2d's revoluteJointDef(bodyA=..., bodyB=...) sets the reference
      // angle to bodyB.angle - bodyA.angle (in Python doubles).
      rjd.referenceAngle =
          static_cast<float>(static_cast<double>(leg->GetAngle()) -
                             static_cast<double>(lander_->GetAngle()));
      rjd.localAnchorA = Vec(0, 0);
      rjd.localAnchorB = Vec(i * kLegAway / kScale, kLegDown / kScale);
      rjd.enableMotor = true;
      rjd.enableLimit = true;
      rjd.maxMotorTorque = static_cast<float>(kLegSpringTorque);
      rjd.motorSpeed = static_cast<float>(0.3 * i);
      if (i == -1) {
        rjd.lowerAngle = static_cast<float>(0.9 - 0.5);
        rjd.upperAngle = 0.9F;
      } else {
        rjd.lowerAngle = -0.9F;
        rjd.upperAngle = static_cast<float>(-0.9 + 0.5);
      }
      world_->CreateJoint(&rjd);
      legs_[k] = leg;
    }
  }

  // One gymnasium step.  Continuous throttles are already clipped to
  // [-1, 1]; `discrete` is the discrete action (0 for continuous envs).
  void Advance(double main, double lateral, int64_t discrete) {
    if (enable_wind_ && !(ground_contact_[0] || ground_contact_[1])) {
      const double wind_mag =
          std::tanh(std::sin(0.02 * static_cast<double>(wind_idx_)) +
                    std::sin(M_PI * 0.01 * static_cast<double>(wind_idx_))) *
          wind_power_;
      wind_idx_ += 1;
      lander_->ApplyForceToCenter(Vec(wind_mag, 0.0), true);
      const double torque_mag =
          std::tanh(std::sin(0.02 * static_cast<double>(torque_idx_)) +
                    std::sin(M_PI * 0.01 * static_cast<double>(torque_idx_))) *
          turbulence_power_;
      torque_idx_ += 1;
      lander_->ApplyTorque(static_cast<float>(torque_mag), true);
    }

    const double angle = lander_->GetAngle();
    const double tip0 = std::sin(angle);
    const double tip1 = std::cos(angle);
    const double side0 = -tip1;
    const double side1 = tip0;
    const double d0 = np_random_.Uniform(-1.0, 1.0) / kScale;
    const double d1 = np_random_.Uniform(-1.0, 1.0) / kScale;

    double m_power = 0.0;
    if ((continuous_ && main > 0.0) || (!continuous_ && discrete == 2)) {
      m_power =
          continuous_ ? (std::min(std::max(main, 0.0), 1.0) + 1.0) * 0.5 : 1.0;
      const double ox =
          tip0 * (kMainEngineYLocation / kScale + 2 * d0) + side0 * d1;
      const double oy =
          -tip1 * (kMainEngineYLocation / kScale + 2 * d0) - side1 * d1;
      const b2Vec2 pos = lander_->GetPosition();
      const double px = static_cast<double>(pos.x) + ox;
      const double py = static_cast<double>(pos.y) + oy;
      if (particles_on_) {
        CreateParticle(3.5, px, py, m_power, ox * kMainEnginePower * m_power,
                       oy * kMainEnginePower * m_power);
      }
      lander_->ApplyLinearImpulse(Vec(-ox * kMainEnginePower * m_power,
                                      -oy * kMainEnginePower * m_power),
                                  Vec(px, py), true);
    }

    double s_power = 0.0;
    if ((continuous_ && std::fabs(lateral) > 0.5) ||
        (!continuous_ && (discrete == 1 || discrete == 3))) {
      double direction;
      if (continuous_) {
        direction = lateral > 0 ? 1.0 : -1.0;
        s_power = std::min(std::max(std::fabs(lateral), 0.5), 1.0);
      } else {
        direction = static_cast<double>(discrete - 2);
        s_power = 1.0;
      }
      const double away = 3 * d1 + direction * kSideEngineAway / kScale;
      const double ox = tip0 * d0 + side0 * away;
      const double oy = -tip1 * d0 - side1 * away;
      const b2Vec2 pos = lander_->GetPosition();
      const double px = static_cast<double>(pos.x) + ox - tip0 * 17 / kScale;
      const double py =
          static_cast<double>(pos.y) + oy + tip1 * kSideEngineHeight / kScale;
      if (particles_on_) {
        CreateParticle(0.7, px, py, s_power, ox * kSideEnginePower * s_power,
                       oy * kSideEnginePower * s_power);
      }
      lander_->ApplyLinearImpulse(Vec(-ox * kSideEnginePower * s_power,
                                      -oy * kSideEnginePower * s_power),
                                  Vec(px, py), true);
    }

    world_->Step(static_cast<float>(1.0 / kFps), 6 * 30, 2 * 30);

    const b2Vec2 pos = lander_->GetPosition();
    const b2Vec2 vel = lander_->GetLinearVelocity();
    const double half_w = kViewportW / kScale / 2;
    const double half_h = kViewportH / kScale / 2;
    state_[0] = (static_cast<double>(pos.x) - half_w) / half_w;
    state_[1] =
        (static_cast<double>(pos.y) - (helipad_y_ + kLegDown / kScale)) /
        half_h;
    state_[2] = static_cast<double>(vel.x) * half_w / kFps;
    state_[3] = static_cast<double>(vel.y) * half_h / kFps;
    state_[4] = lander_->GetAngle();
    state_[5] =
        20.0 * static_cast<double>(lander_->GetAngularVelocity()) / kFps;
    state_[6] = ground_contact_[0] ? 1.0 : 0.0;
    state_[7] = ground_contact_[1] ? 1.0 : 0.0;

    const double shaping =
        -100 * std::sqrt(state_[0] * state_[0] + state_[1] * state_[1]) -
        100 * std::sqrt(state_[2] * state_[2] + state_[3] * state_[3]) -
        100 * std::fabs(state_[4]) + 10 * state_[6] + 10 * state_[7];
    double reward = 0;
    if (has_prev_shaping_) {
      reward = shaping - prev_shaping_;
    }
    prev_shaping_ = shaping;
    has_prev_shaping_ = true;
    reward -= m_power * 0.30;
    reward -= s_power * 0.03;

    terminated_ = false;
    if (game_over_ || std::fabs(state_[0]) >= 1.0) {
      terminated_ = true;
      reward = -100;
    }
    if (!lander_->IsAwake()) {
      terminated_ = true;
      reward = +100;
    }
    reward_ = reward;
  }

  Fields fields_;
  bool continuous_;
  double gravity_;
  bool enable_wind_;
  double wind_power_;
  double turbulence_power_;
  bool particles_on_;

  struct Particle {
    b2Body* body;
    double ttl;
    render::Rgb color;
  };

  ContactDetector listener_{this};
  std::deque<Particle> particles_;
  std::array<double, kChunks> chunk_x_{};
  std::array<double, kChunks> smooth_y_{};
  double helipad_x1_ = 0.0;
  double helipad_x2_ = 0.0;
  std::unique_ptr<b2World> world_;
  EpisodeLog log_;
  b2Body* lander_ = nullptr;
  std::array<b2Body*, 2> legs_{};
  std::array<bool, 2> ground_contact_{};
  bool game_over_ = false;
  double helipad_y_ = 0.0;
  int64_t wind_idx_ = 0;
  int64_t torque_idx_ = 0;
  bool has_prev_shaping_ = false;
  double prev_shaping_ = 0.0;
  std::array<double, 8> state_{};
};

}  // namespace envpool::box2d

#endif  // ENVPOOL_BOX2D_LUNAR_LANDER_H_
