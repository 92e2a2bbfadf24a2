// LunarLander: gymnasium 1.4's box2d/lunar_lander.py on the same Box2D 2.3
// engine, discrete (4 actions) or continuous (2 throttles), with gymnasium's
// options gravity, enable_wind, wind_power and turbulence_power.
//
// The reference computes in Python doubles and hands float32 values to
// Box2D at each call (forces, impulses, points); every value here is
// computed in the same order in double and rounded where pybox2d rounds it.
// Without rendering gymnasium creates no exhaust particles, and neither do
// we.
#ifndef ENVPOOL_BOX2D_LUNAR_LANDER_H_
#define ENVPOOL_BOX2D_LUNAR_LANDER_H_

#include <Box2D/Box2D.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "envpool/core/env.h"

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
  }

  LunarLanderEnv(const Options& options, const Fields& fields)
      : fields_(fields),
        continuous_(options.Get<bool>("continuous")),
        gravity_(options.Get<double>("gravity")),
        enable_wind_(options.Get<bool>("enable_wind")),
        wind_power_(options.Get<double>("wind_power")),
        turbulence_power_(options.Get<double>("turbulence_power")) {}

  void Reset() override {
    BuildWorld();
    // gymnasium's reset ends with step(noop) and returns its observation.
    Advance(0.0, 0.0, 0);
    reward_ = 0.0;
    terminated_ = false;
  }

  void Step(const ActionView& action) override {
    if (continuous_) {
      const float* a = action.Get(fields_.continuous_action);
      Advance(Clip(a[0]), Clip(a[1]), 0);
    } else {
      Advance(0.0, 0.0, action.Scalar(fields_.discrete_action));
    }
  }

  void Write(const Output& out) override {
    float* obs = out.Get(fields_.obs);
    for (int i = 0; i < 8; ++i) {
      obs[i] = static_cast<float>(state_[i]);
    }
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
    world_.reset();  // the old world's bodies go with it
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

  ContactDetector listener_{this};
  std::unique_ptr<b2World> world_;
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
