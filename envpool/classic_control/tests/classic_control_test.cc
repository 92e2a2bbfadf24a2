// Dynamics of the classic_control envs: single steps checked against numbers
// computed by gymnasium 1.4.0 (numpy 2.4) from the same state and action,
// and physical properties (limits, termination, energy) that a wrong
// equation would break.  Then the envs inside a pool: bounds and seeding.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "envpool/classic_control/acrobot.h"
#include "envpool/classic_control/cartpole.h"
#include "envpool/classic_control/mountain_car.h"
#include "envpool/classic_control/mountain_car_continuous.h"
#include "envpool/classic_control/numpy_trig.h"
#include "envpool/classic_control/pendulum.h"
#include "envpool/classic_control/render.h"
#include "envpool/core/env.h"
#include "envpool/core/pool.h"

namespace envpool::classic_control {
namespace {

// The options a pool gives an env: its own and the common ones (render_mode
// and the like, which Declare reads).
Options WithCommon(Options options) {
  const Options common = CommonOptions();
  for (const auto& [name, value] : common.items()) {
    if (!options.Has(name)) {
      options.Define(name, value);
    }
  }
  return options;
}

// An env with its last reward visible and a one-call step.
template <typename E>
class Probe : public E {
 public:
  Probe() : Probe(E::DefaultOptions()) {}
  explicit Probe(const Options& options)
      : E(WithCommon(options), DeclareFields<E>(WithCommon(options))) {}

  double reward() const { return this->reward_; }

  template <typename T>
  void StepWith(T action) {
    std::vector<const void*> fields{&action};
    this->Step(ActionView(&fields));
  }
};

// Pendulum ------------------------------------------------------------------

Options PendulumVersion(int64_t version) {
  Options options = PendulumEnv::DefaultOptions();
  options.Set("version", version);
  return options;
}

TEST(PendulumTest, StepsMatchGymnasium) {
  struct Case {
    std::vector<double> state;
    float action;
    std::vector<double> next;
    double reward;
  };
  const std::vector<Case> cases = {
      {{2.5, -0.7},
       1.3F,
       {2.4971927050462703, -0.05614589907458989},
       -6.3006899999463934},
      {{-3.0, 7.9},
       -2.0F,
       {-2.625292000302245, 7.4941599939551},
       -15.24500000018999},
      {{0.3, 0.2},
       0.77F,
       {0.3268570076067491, 0.5371401521349817},
       -0.09459290003264313},
  };
  Probe<PendulumEnv> env;
  for (const Case& c : cases) {
    env.SetState(c.state);
    env.StepWith(c.action);
    EXPECT_EQ(env.GetState(), c.next);
    EXPECT_EQ(env.reward(), c.reward);
    EXPECT_FALSE(env.terminated());
  }
}

TEST(PendulumTest, HangingDownCostsPiSquaredAndUprightIsFree) {
  Probe<PendulumEnv> env;
  env.SetState({M_PI, 0.0});
  env.StepWith(0.0F);
  EXPECT_DOUBLE_EQ(env.reward(), -M_PI * M_PI);
  // Upright and still is an equilibrium with zero cost.
  env.SetState({0.0, 0.0});
  env.StepWith(0.0F);
  EXPECT_EQ(env.reward(), 0.0);
  EXPECT_EQ(env.GetState(), (std::vector<double>{0.0, 0.0}));
  // The angle is normalized before it is penalized: a full turn costs nothing.
  env.SetState({2 * M_PI + 0.5, 0.0});
  env.StepWith(0.0F);
  const double turned = env.reward();
  env.SetState({0.5, 0.0});
  env.StepWith(0.0F);
  EXPECT_NEAR(turned, env.reward(), 1e-12);
  EXPECT_NEAR(env.reward(), -0.25, 1e-12);
}

TEST(PendulumTest, TorqueIsClippedToTwo) {
  Probe<PendulumEnv> clipped;
  Probe<PendulumEnv> limit;
  clipped.SetState({1.0, 0.5});
  limit.SetState({1.0, 0.5});
  clipped.StepWith(5.0F);
  limit.StepWith(2.0F);
  EXPECT_EQ(clipped.GetState(), limit.GetState());
  EXPECT_EQ(clipped.reward(), limit.reward());
  // ... and the torque does act: 3 u dt on the angular velocity.
  Probe<PendulumEnv> free;
  free.SetState({1.0, 0.5});
  free.StepWith(0.0F);
  EXPECT_NEAR(limit.GetState()[1] - free.GetState()[1], 3 * 2.0 * 0.05, 1e-12);
}

TEST(PendulumTest, Version0AdvancesTheAngleBeforeClippingTheSpeed) {
  Probe<PendulumEnv> v0(PendulumVersion(0));
  Probe<PendulumEnv> v1(PendulumVersion(1));
  // Below the speed limit both versions move alike.
  v0.SetState({1.0, 0.5});
  v1.SetState({1.0, 0.5});
  v0.StepWith(0.5F);
  v1.StepWith(0.5F);
  EXPECT_NEAR(v0.GetState()[0], v1.GetState()[0], 1e-14);
  EXPECT_NEAR(v0.GetState()[1], v1.GetState()[1], 1e-14);
  EXPECT_EQ(v0.reward(), v1.reward());
  // Gravity pushes 7.9 rad/s to 7.9 + 15 * 0.05 = 8.65, clipped to 8.
  v0.SetState({M_PI / 2, 7.9});
  v1.SetState({M_PI / 2, 7.9});
  v0.StepWith(0.0F);
  v1.StepWith(0.0F);
  EXPECT_EQ(v0.GetState()[1], 8.0);
  EXPECT_EQ(v1.GetState()[1], 8.0);
  EXPECT_NEAR(v1.GetState()[0], M_PI / 2 + 8.0 * 0.05, 1e-12);
  EXPECT_NEAR(v0.GetState()[0], M_PI / 2 + 8.65 * 0.05, 1e-12);
}

TEST(PendulumTest, RejectsUnknownVersion) {
  EnvSpec spec;
  PendulumEnv::Fields fields;
  EXPECT_THROW(PendulumEnv::Declare(PendulumVersion(2), &spec, &fields),
               std::invalid_argument);
}

TEST(PendulumTest, ResetIsUniformOverTheCircleAndSlow) {
  Probe<PendulumEnv> env;
  env.Seed(7);
  double min_theta = 10;
  double max_theta = -10;
  double min_speed = 10;
  double max_speed = -10;
  for (int i = 0; i < 2000; ++i) {
    env.Reset();
    const std::vector<double> s = env.GetState();
    min_theta = std::min(min_theta, s[0]);
    max_theta = std::max(max_theta, s[0]);
    min_speed = std::min(min_speed, s[1]);
    max_speed = std::max(max_speed, s[1]);
  }
  EXPECT_GE(min_theta, -M_PI);
  EXPECT_LT(max_theta, M_PI);
  EXPECT_GE(min_speed, -1.0);
  EXPECT_LT(max_speed, 1.0);
  EXPECT_LT(min_theta, -3.0);
  EXPECT_GT(max_theta, 3.0);
  EXPECT_LT(min_speed, -0.95);
  EXPECT_GT(max_speed, 0.95);
}

// MountainCar ---------------------------------------------------------------

TEST(MountainCarTest, StepsMatchGymnasium) {
  struct Case {
    std::vector<double> state;
    int64_t action;
    std::vector<double> next;
    bool terminated;
  };
  const std::vector<Case> cases = {
      {{-0.5, 0.0}, 2, {-0.49917684300416926, 0.0008231569958307428}, false},
      {{-0.3, 0.03}, 0, {-0.27255402492067665, 0.027445975079323337}, false},
      {{0.49, 0.02}, 2, {0.5107484356665326, 0.020748435666532672}, true},
  };
  Probe<MountainCarEnv> env;
  for (const Case& c : cases) {
    env.SetState(c.state);
    env.StepWith(c.action);
    EXPECT_EQ(env.GetState(), c.next);
    EXPECT_EQ(env.terminated(), c.terminated);
    EXPECT_EQ(env.reward(), -1.0);
  }
}

TEST(MountainCarTest, ReachingTheFlagNeedsPositionAndForwardSpeed) {
  Probe<MountainCarEnv> env;
  env.SetState({0.499, 0.002});
  env.StepWith(int64_t{1});
  EXPECT_TRUE(env.terminated());
  // Past the flag but rolling back: not done.
  env.SetState({0.55, -0.04});
  env.StepWith(int64_t{0});
  EXPECT_GE(env.GetState()[0], 0.5);
  EXPECT_LT(env.GetState()[1], 0.0);
  EXPECT_FALSE(env.terminated());
}

TEST(MountainCarTest, LeftWallStopsTheCarAndSpeedIsCapped) {
  Probe<MountainCarEnv> env;
  env.SetState({-1.19, -0.05});
  env.StepWith(int64_t{0});
  EXPECT_EQ(env.GetState(), (std::vector<double>{-1.2, 0.0}));
  env.SetState({-0.5, 0.0699});
  env.StepWith(int64_t{2});
  EXPECT_EQ(env.GetState()[1], 0.07);
  EXPECT_DOUBLE_EQ(env.GetState()[0], -0.5 + 0.07);
}

// MountainCarContinuous -----------------------------------------------------

TEST(MountainCarContinuousTest, StepsMatchGymnasiumIncludingFloat32State) {
  // From gymnasium's float64 reset state; every later state is float32.
  Probe<MountainCarContinuousEnv> env;
  env.SetState({-0.5, 0.0});
  struct Case {
    float action;
    double position;
    double velocity;
    double reward;
  };
  const std::vector<Case> cases = {
      {0.6F, -0.4992768466472626, 0.0007231570198200643, -0.036000002861023006},
      {-0.3F, -0.4991859495639801, 9.090424282476306e-05,
       -0.009000000715255752},
      {1.7F, -0.4977779686450958, 0.0014079718384891748, -0.28900001621246363},
  };
  for (const Case& c : cases) {
    env.StepWith(c.action);
    EXPECT_EQ(env.GetState(),
              (std::vector<double>{c.position, c.velocity, 1.0}));
    EXPECT_EQ(env.reward(), c.reward);
    EXPECT_FALSE(env.terminated());
  }
}

TEST(MountainCarContinuousTest, ForceIsClippedButPenaltyIsNot) {
  Probe<MountainCarContinuousEnv> over;
  Probe<MountainCarContinuousEnv> limit;
  over.SetState({-0.5, 0.01, 1.0});
  limit.SetState({-0.5, 0.01, 1.0});
  over.StepWith(3.0F);
  limit.StepWith(1.0F);
  EXPECT_EQ(over.GetState(), limit.GetState());
  EXPECT_DOUBLE_EQ(over.reward(), -0.9);
  EXPECT_DOUBLE_EQ(limit.reward(), -0.1);
}

TEST(MountainCarContinuousTest, GoalPaysOneHundred) {
  Probe<MountainCarContinuousEnv> env;
  env.SetState({0.44, 0.02, 1.0});
  env.StepWith(0.5F);
  EXPECT_TRUE(env.terminated());
  EXPECT_DOUBLE_EQ(env.reward(), 100.0 - 0.025);
  env.SetState({0.3, 0.02, 1.0});
  env.StepWith(0.5F);
  EXPECT_FALSE(env.terminated());
  EXPECT_DOUBLE_EQ(env.reward(), -0.025);
}

// Acrobot -------------------------------------------------------------------

double AcrobotEnergy(const std::vector<double>& s) {
  // Links of mass 1, length 1, centre of mass 0.5, moment of inertia 1.
  const double d11 = 0.25 + (1.0 + 0.25 + std::cos(s[1])) + 2.0;
  const double d12 = 0.25 + 0.5 * std::cos(s[1]) + 1.0;
  const double d22 = 0.25 + 1.0;
  const double kinetic =
      0.5 * d11 * s[2] * s[2] + d12 * s[2] * s[3] + 0.5 * d22 * s[3] * s[3];
  const double potential =
      -1.5 * 9.8 * std::cos(s[0]) - 0.5 * 9.8 * std::cos(s[0] + s[1]);
  return kinetic + potential;
}

TEST(AcrobotTest, StepsMatchGymnasium) {
  Probe<AcrobotEnv> env;
  env.SetState({0.1, -0.2, 0.3, -0.4});
  env.StepWith(int64_t{2});
  EXPECT_EQ(env.GetState(),
            (std::vector<double>{0.1282116312891261, -0.211840321026976,
                                 -0.023484731535001357, 0.28679521459777013}));
  EXPECT_FALSE(env.terminated());
  EXPECT_EQ(env.reward(), -1.0);
  env.SetState({3.0, 0.5, -2.0, 6.0});
  env.StepWith(int64_t{0});
  EXPECT_EQ(env.GetState(),
            (std::vector<double>{2.6275923496928453, 1.6731644838655793,
                                 -1.738555181239377, 5.8250238323256}));
  EXPECT_TRUE(env.terminated());
  EXPECT_EQ(env.reward(), 0.0);
}

TEST(AcrobotTest, UnactuatedSwingKeepsItsEnergy) {
  Probe<AcrobotEnv> env;
  env.SetState({1.0, -0.5, 0.0, 0.0});
  const double start = AcrobotEnergy(env.GetState());
  for (int i = 0; i < 20; ++i) {
    env.StepWith(int64_t{1});
    // RK4 over dt = 0.2 drifts by about 0.03 of 12.2 here; the "nips"
    // equations or a wrong sign drift by several units.
    EXPECT_NEAR(AcrobotEnergy(env.GetState()), start, 0.1) << "step " << i;
  }
  // Torque in the direction of motion pumps energy in.
  env.SetState({1.0, -0.5, 0.0, 0.0});
  for (int i = 0; i < 20; ++i) {
    env.StepWith(int64_t{2});
  }
  EXPECT_GT(AcrobotEnergy(env.GetState()), start + 1.0);
}

TEST(AcrobotTest, MirroredStateAndTorqueGiveMirroredMotion) {
  Probe<AcrobotEnv> env;
  Probe<AcrobotEnv> mirror;
  env.SetState({0.4, -0.7, 1.1, -0.3});
  mirror.SetState({-0.4, 0.7, -1.1, 0.3});
  env.StepWith(int64_t{2});
  mirror.StepWith(int64_t{0});
  const std::vector<double> a = env.GetState();
  const std::vector<double> b = mirror.GetState();
  for (int i = 0; i < 4; ++i) {
    EXPECT_NEAR(a[i], -b[i], 1e-12) << i;
  }
}

TEST(AcrobotTest, AnglesWrapAndSpeedsAreBounded) {
  Probe<AcrobotEnv> env;
  env.SetState({3.1, -3.1, 40.0, -90.0});
  env.StepWith(int64_t{1});
  const std::vector<double> s = env.GetState();
  EXPECT_GE(s[0], -M_PI);
  EXPECT_LE(s[0], M_PI);
  EXPECT_GE(s[1], -M_PI);
  EXPECT_LE(s[1], M_PI);
  EXPECT_LE(std::abs(s[2]), 4 * M_PI);
  EXPECT_LE(std::abs(s[3]), 9 * M_PI);
  EXPECT_TRUE(std::abs(s[2]) == 4 * M_PI || std::abs(s[3]) == 9 * M_PI);
}

TEST(AcrobotTest, ResetIsNearlyHangingStillInFloat32) {
  Probe<AcrobotEnv> env;
  env.Seed(3);
  for (int i = 0; i < 200; ++i) {
    env.Reset();
    for (double v : env.GetState()) {
      EXPECT_GE(v, -0.1);
      EXPECT_LT(v, 0.1);
      EXPECT_EQ(v, static_cast<float>(v));
    }
  }
}

// Seeding -------------------------------------------------------------------

// The states gymnasium 1.4 (numpy 2.4) resets to with reset(seed=42) and then
// reset() without a seed, which continues the generator.
template <typename E>
void ExpectResets(const std::vector<double>& first,
                  const std::vector<double>& second) {
  Probe<E> env;
  env.Seed(42);
  env.Reset();
  EXPECT_EQ(env.GetState(), first);
  env.Reset();
  EXPECT_EQ(env.GetState(), second);
}

TEST(SeedingTest, ResetsDrawWhatGymnasiumDraws) {
  ExpectResets<CartPoleEnv>({0.027395604855596334, -0.006112156024794771,
                             0.03585979199113824, 0.019736802905936393},
                            {-0.04058226521123505, 0.047562235163675595,
                             0.026113970199035302, 0.02860643052769539});
  ExpectResets<PendulumEnv>({1.721316619099806, -0.12224312049589536},
                            {2.2531371815723604, 0.3947360581187278});
  ExpectResets<MountainCarEnv>({-0.44520879028880733, 0.0},
                               {-0.5122243120495895, 0.0});
  ExpectResets<MountainCarContinuousEnv>({-0.44520879028880733, 0.0, 0.0},
                                         {-0.5122243120495895, 0.0, 0.0});
  // Rounded to float32.
  ExpectResets<AcrobotEnv>({0.05479120835661888, -0.01222431194037199,
                            0.07171958684921265, 0.039473604410886765},
                           {-0.08116453140974045, 0.09512446820735931,
                            0.052227940410375595, 0.05721285939216614});
}

TEST(NumpyTrigTest, Float32SinAndCosAreNumpys) {
  // Acrobot's reset state for seed 835: numpy's cos of theta1 is one ulp
  // below the correctly rounded 0x1.feb4d6p-1.
  EXPECT_EQ(numpy_f32::Cos(0x1.233accp-4F), 0x1.feb4d4p-1F);
  EXPECT_EQ(numpy_f32::Sin(0x1.233accp-4F), 0x1.22fbfep-4F);
  EXPECT_EQ(numpy_f32::Cos(0x1.44b7p-5F), 0x1.ff990cp-1F);
  EXPECT_EQ(numpy_f32::Sin(0x1.44b7p-5F), 0x1.44a13cp-5F);
  // Large arguments, where the quadrant (x * 2/pi rounded, one fused
  // multiply-add in numpy's build) decides the last bit.
  EXPECT_EQ(numpy_f32::Sin(0x1.b5536p+15F), 0x1.6b8e5ep-1F);
  EXPECT_EQ(numpy_f32::Cos(0x1.3f90a6p+15F), 0x1.69249ep-1F);
  EXPECT_EQ(numpy_f32::Sin(0.0F), 0.0F);
  EXPECT_EQ(numpy_f32::Cos(0.0F), 1.0F);
  EXPECT_TRUE(std::isnan(numpy_f32::Sin(NAN)));
}

// In a pool -----------------------------------------------------------------

class ClassicControlPoolTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    RegisterEnv<CartPoleEnv>("CartPole");
    RegisterEnv<PendulumEnv>("Pendulum");
    RegisterEnv<MountainCarEnv>("MountainCar");
    RegisterEnv<MountainCarContinuousEnv>("MountainCarContinuous");
    RegisterEnv<AcrobotEnv>("Acrobot");
  }

  // Observations of `steps` random steps of `num_envs` envs.
  static std::vector<float> Rollout(const std::string& type_name, uint64_t seed,
                                    int num_envs, int steps) {
    const EnvClass& type = FindEnvClass(type_name);
    PoolConfig config;
    config.task_id = type_name;
    config.num_envs = num_envs;
    config.max_episode_steps = 50;
    for (int i = 0; i < num_envs; ++i) {
      config.seeds.push_back(seed + i);
    }
    Pool pool(type, type.defaults, config);
    const ArraySpec& obs_spec = pool.spec().state.specs()[0];
    const ArraySpec& action_spec = pool.spec().action.specs()[0];
    const int64_t obs_size = obs_spec.NumElements();
    std::vector<int> ids(num_envs);
    std::iota(ids.begin(), ids.end(), 0);
    std::mt19937 rng(1);
    std::vector<float> seen;
    for (int t = 0; t <= steps; ++t) {
      if (t > 0) {
        for (int id : ids) {
          if (action_spec.num_values > 0) {
            *static_cast<int64_t*>(pool.ActionRow(id, 0)) =
                std::uniform_int_distribution<int64_t>(
                    0, action_spec.num_values - 1)(rng);
          } else {
            *static_cast<float*>(pool.ActionRow(id, 0)) =
                std::uniform_real_distribution<float>(
                    static_cast<float>(action_spec.low[0]),
                    static_cast<float>(action_spec.high[0]))(rng);
          }
        }
      }
      pool.Send(ids.data(), num_envs, t == 0, nullptr);
      std::shared_ptr<Block> block = pool.Recv();
      const auto* obs = static_cast<const float*>(block->Column(0));
      for (int k = 0; k < num_envs; ++k) {
        for (int64_t j = 0; j < obs_size; ++j) {
          const float v = obs[k * obs_size + j];
          const std::size_t b = obs_spec.low.size() == 1 ? 0 : j;
          EXPECT_GE(v, obs_spec.low.at(b)) << type_name << " obs " << j;
          EXPECT_LE(v, obs_spec.high.at(b)) << type_name << " obs " << j;
          seen.push_back(v);
        }
      }
      pool.Release(block->id());
    }
    return seen;
  }
};

TEST_F(ClassicControlPoolTest, ObservationsStayInBoundsAndFollowTheSeed) {
  for (const char* name : {"CartPole", "Pendulum", "MountainCar",
                           "MountainCarContinuous", "Acrobot"}) {
    const std::vector<float> first = Rollout(name, 10, 3, 120);
    const std::vector<float> again = Rollout(name, 10, 3, 120);
    const std::vector<float> other = Rollout(name, 20, 3, 120);
    EXPECT_EQ(first, again) << name;
    EXPECT_NE(first, other) << name;
  }
}

}  // namespace
}  // namespace envpool::classic_control

// Pendulum's frame after a step needs gymnasium's clockwise.png: a missing
// or broken file is a clear error naming it, not a crash.
TEST(RenderTest, MissingOrBrokenArrowImageIsAnErrorNamingTheFile) {
  using envpool::classic_control::DrawPendulum;
  using envpool::render::LoadPngAlpha;
  const std::string saved = envpool::FamilyAssetDir("classic_control");
  std::vector<uint8_t> frame(500 * 500 * 3);
  envpool::SetFamilyAssetDir("classic_control", "/nonexistent/assets");
  try {
    DrawPendulum(0.5, true, 1.5F, 500, 500, frame.data());
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/assets/clockwise.png"),
              std::string::npos)
        << e.what();
  }
  // Without a torque yet (right after a reset) no image is needed.
  DrawPendulum(0.5, false, 0.0F, 500, 500, frame.data());
  EXPECT_THROW(LoadPngAlpha("/proc/self/status"), std::runtime_error);
  envpool::SetFamilyAssetDir("classic_control", saved);
}

// The rasterizer's frames are deterministic and start white.
TEST(RenderTest, CartPoleFrameHasTheTrackAndTheCart) {
  std::vector<uint8_t> frame(400 * 600 * 3);
  const double state[4] = {0.0, 0.0, 0.0, 0.0};
  envpool::classic_control::DrawCartPole(state, 600, 400, frame.data());
  auto at = [&](int y, int x, int c) { return frame[(y * 600 + x) * 3 + c]; };
  EXPECT_EQ(at(0, 0, 0), 255);            // background
  EXPECT_EQ(at(399 - 100, 0, 0), 0);      // the track line at y = 100
  EXPECT_EQ(at(399 - 110, 290, 0), 0);    // inside the cart
  EXPECT_EQ(at(399 - 160, 300, 0), 202);  // the pole, straight up
}
