// The shared MuJoCo base on a small model of our own, and a few tasks on
// gymnasium's models when gymnasium is installed (the Python tests align
// every task with gymnasium).
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envpool/core/numpy_blas.h"
#include "envpool/mujoco/half_cheetah.h"
#include "envpool/mujoco/hopper.h"
#include "envpool/mujoco/inverted_pendulum.h"
#include "envpool/mujoco/mujoco_env.h"

namespace envpool::mujoco {
namespace {

// A pole on a hinge driven by one motor with ctrlrange [-1, 1].
constexpr char kPoleModel[] = R"(<mujoco>
  <option timestep="0.01"/>
  <worldbody>
    <body name="pole" pos="0 0 1">
      <joint name="hinge" type="hinge" axis="0 1 0" damping="0.1"/>
      <geom type="capsule" fromto="0 0 0 0 0 0.5" size="0.05" mass="1"/>
    </body>
  </worldbody>
  <actuator>
    <motor joint="hinge" ctrlrange="-1 1" ctrllimited="true" gear="1"/>
  </actuator>
</mujoco>)";

std::string WritePoleModel() {
  const char* dir = std::getenv("TEST_TMPDIR");
  std::string path = std::string(dir == nullptr ? "/tmp" : dir) + "/pole.xml";
  std::ofstream(path) << kPoleModel;
  return path;
}

// The smallest task on the base: observes [angle, angular velocity].
class PoleEnv : public MujocoEnv {
 public:
  using Fields = MujocoFields;

  static Options DefaultOptions() {
    return CommonOptions(WritePoleModel(), 3, 100);
  }
  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    auto model = LoadModel(options.Get<std::string>("xml_file"));
    DeclareSpec(options, *model, 2, {"angle"}, false, spec, fields);
  }
  PoleEnv(const Options& options, const Fields& fields)
      : MujocoEnv(options, fields) {}

  void Reset() override {
    ResetData();
    data_->qpos[0] += Uniform(-0.5, 0.5);
    Forward();
    FinishReset();
  }
  void Step(const ActionView& action) override {
    DoSimulation(action.Get(fields_.action));
    reward_ = data_->qpos[0];
    info_ = {data_->qpos[0]};
    FinishStep();
  }
  double time() const { return data_->time; }
  double ctrl() const { return data_->ctrl[0]; }

 protected:
  void Observe(double* obs) const override {
    obs[0] = data_->qpos[0];
    obs[1] = data_->qvel[0];
  }
};

// One action row, as the pool hands it to an env.
class Action {
 public:
  explicit Action(std::vector<double> values)
      : values_(std::move(values)), fields_{values_.data()} {}
  ActionView view() const { return ActionView(&fields_); }

 private:
  std::vector<double> values_;
  std::vector<const void*> fields_;
};

TEST(MujocoBaseTest, ActionSpaceIsTheControlRangeAndRewardIsFloat32) {
  Options options = PoleEnv::DefaultOptions();
  EnvSpec spec;
  MujocoFields fields;
  PoleEnv::Declare(options, &spec, &fields);
  const ArraySpec& action = spec.action.specs()[fields.action.index];
  EXPECT_EQ(action.dtype, DType::kFloat64);
  EXPECT_EQ(action.shape, std::vector<int64_t>{1});
  EXPECT_EQ(action.low, std::vector<double>{-1.0});
  EXPECT_EQ(action.high, std::vector<double>{1.0});
  EXPECT_EQ(spec.reward_dtype, DType::kFloat32);
  EXPECT_EQ(spec.state.specs()[fields.obs.index].shape,
            std::vector<int64_t>{2});
}

TEST(MujocoBaseTest, ModelsAreLoadedOncePerFile) {
  const std::string path = WritePoleModel();
  EXPECT_EQ(LoadModel(path).get(), LoadModel(path).get());
}

TEST(MujocoBaseTest, MissingModelIsAnErrorNamingTheFile) {
  try {
    LoadModel("/nowhere/missing_model.xml");
    FAIL() << "expected an error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("missing_model.xml"),
              std::string::npos);
  }
}

TEST(MujocoBaseTest, StepRunsFrameSkipSubstepsWithTheRawAction) {
  const Options options = PoleEnv::DefaultOptions();
  PoleEnv env(options, DeclareFields<PoleEnv>(options));
  env.Seed(1);
  env.Reset();
  EXPECT_EQ(env.time(), 0.0);
  Action action({2.5});  // outside the range: MuJoCo clamps, ctrl keeps it
  env.Step(action.view());
  EXPECT_NEAR(env.time(), 0.03, 1e-12);
  EXPECT_EQ(env.ctrl(), 2.5);
}

TEST(MujocoBaseTest, SetStateRestoresTheWholeTrajectory) {
  const Options options = PoleEnv::DefaultOptions();
  PoleEnv env(options, DeclareFields<PoleEnv>(options));
  env.Seed(2);
  env.Reset();
  Action push({0.7});
  env.Step(push.view());
  const std::vector<double> saved = env.GetState();
  ASSERT_EQ(saved.size(), 3U);  // qpos, qvel, qacc_warmstart
  std::vector<double> first;
  for (int i = 0; i < 5; ++i) {
    env.Step(push.view());
    first.push_back(env.reward());
  }
  env.SetState(saved);
  for (int i = 0; i < 5; ++i) {
    env.Step(push.view());
    EXPECT_EQ(env.reward(), first[i]) << i;
  }
  EXPECT_THROW(env.SetState({1.0}), std::invalid_argument);
}

TEST(MujocoBaseTest, SameSeedSameResetOtherSeedDiffers) {
  const Options options = PoleEnv::DefaultOptions();
  PoleEnv a(options, DeclareFields<PoleEnv>(options));
  PoleEnv b(options, DeclareFields<PoleEnv>(options));
  a.Seed(7);
  b.Seed(7);
  a.Reset();
  b.Reset();
  EXPECT_EQ(a.GetState(), b.GetState());
  b.Seed(8);
  b.Reset();
  EXPECT_NE(a.GetState(), b.GetState());
}

TEST(MujocoBaseTest, ResetNoiseIsNumpysDrawFromTheSeed) {
  // numpy.random.default_rng(7).uniform(-0.5, 0.5), gymnasium's
  // np_random after reset(seed=7).
  const Options options = PoleEnv::DefaultOptions();
  PoleEnv env(options, DeclareFields<PoleEnv>(options));
  env.Seed(7);
  env.Reset();
  EXPECT_EQ(env.GetState()[0], 0.12509546660466697);
  // Later resets continue the stream; reseeding starts it again.
  env.Reset();
  EXPECT_NE(env.GetState()[0], 0.12509546660466697);
  env.Seed(7);
  env.Reset();
  EXPECT_EQ(env.GetState()[0], 0.12509546660466697);
}

TEST(MujocoBaseTest, SumsAsNumpyDoes) {
  // Pairwise: eight interleaved partial sums, then the rest in order.
  // Here that gives 5.75 where a running sum would give 6.75.
  std::vector<double> x{1e16, 1.0, -1e16, 1.0, 0.5, 0.25, 3.0, 1.0, 1.0};
  double expected =
      ((x[0] + x[1]) + (x[2] + x[3])) + ((x[4] + x[5]) + (x[6] + x[7]));
  expected += x[8];
  EXPECT_EQ(expected, 5.75);
  EXPECT_EQ(NumpySum(x.data(), 9), expected);
  std::vector<double> small{0.1, 0.2, 0.3};
  EXPECT_EQ(NumpySum(small.data(), 3), (0.1 + 0.2) + 0.3);
  EXPECT_EQ(SumOfSquares(small.data(), 3), (0.1 * 0.1 + 0.2 * 0.2) + 0.09);
  // np.linalg.norm([0.612, -0.367]) by FMAs; sqrt(a * a + b * b) is one ulp
  // more, as numpy's norm is where its OpenBLAS sums so.
  const double v[2] = {0.612, -0.367};
  EXPECT_EQ(Norm(v, 2), 0.7136056333858358);
  numpy_blas::Blas().dot2 = numpy_blas::Rounding::kPlain;
  EXPECT_EQ(Norm(v, 2), 0.7136056333858359);
  numpy_blas::Blas().dot2 = numpy_blas::Rounding::kFuseSecond;
}

// gymnasium's model folder, found through python3; empty when missing.
std::string GymnasiumAssets() {
  if (const char* dir = std::getenv("ENVPOOL_MUJOCO_ASSETS")) {
    return dir;
  }
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(
      popen("python3 -c 'import importlib.util as u, os; "
            "s = u.find_spec(\"gymnasium\"); "
            "print(os.path.join(list(s.submodule_search_locations)[0], "
            "\"envs\", \"mujoco\", \"assets\") if s else \"\")' 2>/dev/null",
            "r"),
      pclose);
  if (!pipe) {
    return "";
  }
  std::array<char, 4096> buffer{};
  std::string out;
  while (fgets(buffer.data(), buffer.size(), pipe.get()) != nullptr) {
    out += buffer.data();
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) {
    out.pop_back();
  }
  return out;
}

class MujocoTaskTest : public ::testing::Test {
 protected:
  void SetUp() override {
    static const std::string assets = GymnasiumAssets();
    if (assets.empty() || !std::ifstream(assets + "/hopper.xml").good()) {
      GTEST_SKIP() << "gymnasium's MuJoCo models not found (set "
                      "ENVPOOL_MUJOCO_ASSETS or install gymnasium)";
    }
    envpool::SetFamilyAssetDir("mujoco", assets);
  }
};

TEST_F(MujocoTaskTest, HopperTerminatesWhenItFallsAndPaysV5HealthOnlyAlive) {
  for (bool legacy : {true, false}) {
    Options options = HopperEnv::DefaultOptions();
    options.Set("legacy_healthy_reward", legacy);
    HopperEnv env(options, DeclareFields<HopperEnv>(options));
    env.Seed(0);
    env.Reset();
    std::vector<double> state = env.GetState();
    ASSERT_EQ(state.size(), 6U + 6U + 6U);
    state[1] = 0.3;  // the torso far below healthy_z_min (0.7)
    env.SetState(state);
    Action still({0.0, 0.0, 0.0});
    env.Step(still.view());
    EXPECT_TRUE(env.terminated());
    // reward = forward + healthy - ctrl; ctrl is zero here.
    const double x_velocity = env.reward() - (legacy ? 1.0 : 0.0);
    EXPECT_LT(std::abs(x_velocity), 5.0);
  }
}

TEST_F(MujocoTaskTest, InvertedPendulumV5PaysNothingOnTheLastStep) {
  for (bool v5 : {false, true}) {
    Options options = InvertedPendulumEnv::DefaultOptions();
    options.Set("reward_if_not_terminated", v5);
    InvertedPendulumEnv env(options,
                            DeclareFields<InvertedPendulumEnv>(options));
    env.Seed(0);
    env.Reset();
    Action still({0.0});
    env.Step(still.view());
    EXPECT_FALSE(env.terminated());
    EXPECT_EQ(env.reward(), 1.0);
    std::vector<double> state = env.GetState();
    state[1] = 0.5;  // the pole leans past 0.2 rad
    env.SetState(state);
    env.Step(still.view());
    EXPECT_TRUE(env.terminated());
    EXPECT_EQ(env.reward(), v5 ? 0.0 : 1.0);
  }
}

TEST_F(MujocoTaskTest, HalfCheetahResetDrawsUniformQposThenNormalQvel) {
  // gymnasium's HalfCheetah after reset(seed=3): qpos (zero at rest) +
  // uniform(-0.1, 0.1, size=9), then qvel = 0.1 * standard_normal(9).
  const Options options = HalfCheetahEnv::DefaultOptions();
  HalfCheetahEnv env(options, DeclareFields<HalfCheetahEnv>(options));
  env.Seed(3);
  env.Reset();
  const std::vector<double> state = env.GetState();
  ASSERT_EQ(state.size(), 9U + 9U + 9U);
  EXPECT_EQ(state[0], -0.08287016657127513);
  EXPECT_EQ(state[1], -0.05263789868078006);
  EXPECT_EQ(state[9], 0.3322999516644883);
  EXPECT_EQ(state[10], 0.02257866132279218);
  EXPECT_EQ(state[17], -0.02385536065733667);
}

TEST_F(MujocoTaskTest, HalfCheetahRewardIsForwardSpeedMinusControlCost) {
  Options options = HalfCheetahEnv::DefaultOptions();
  options.Set("reset_noise_scale", 0.0);
  HalfCheetahEnv env(options, DeclareFields<HalfCheetahEnv>(options));
  env.Seed(0);
  env.Reset();
  Action action({0.5, -0.5, 0.5, -0.5, 0.5, -0.5});
  const double x_before = env.GetState()[0];
  env.Step(action.view());
  const double x_after = env.GetState()[0];
  const double dt = 0.01 * 5;
  EXPECT_DOUBLE_EQ(env.reward(), (x_after - x_before) / dt - 0.1 * 1.5);
  EXPECT_FALSE(env.terminated());
}

}  // namespace
}  // namespace envpool::mujoco
