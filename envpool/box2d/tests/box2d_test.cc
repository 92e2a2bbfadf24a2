// Rules of the box2d envs on the env classes themselves: first observations
// that gymnasium 1.4.0 (box2d 2.3.10) gives for seed 0, how an episode of
// LunarLander without thrust ends, what BipedalWalker's lidar sees, and the
// sizes of CarRacing's score text as pygame 2.6.1 renders it.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "envpool/box2d/bipedal_walker.h"
#include "envpool/box2d/lunar_lander.h"
#include "envpool/box2d/score_text.h"
#include "envpool/core/env.h"

namespace envpool::box2d {
namespace {

// An env outside a pool: seeded, reset, stepped one action at a time, its
// observation written into a buffer of its own.
template <typename E, size_t kObs>
class Probe : public E {
 public:
  explicit Probe(const Options& options)
      : E(options, DeclareFields<E>(options)) {}

  double reward() const { return this->reward_; }

  template <typename T>
  void StepWith(const T& action) {
    std::vector<const void*> fields{&action};
    this->Step(ActionView(&fields));
  }

  std::array<float, kObs> Observe() const {
    std::array<float, kObs> obs{};
    for (size_t i = 0; i < kObs; ++i) {
      obs[i] = static_cast<float>(this->observation()[i]);
    }
    return obs;
  }
};

TEST(LunarLanderTest, FirstObservationIsGymnasiumsForSeedZero) {
  Probe<LunarLanderEnv, 8> env(LunarLanderEnv::DefaultOptions());
  env.Seed(0);
  env.Reset();
  const std::array<float, 8> want{0.005706119351089001F,
                                  1.3990336656570435F,
                                  0.5779653191566467F,
                                  -0.5282996892929077F,
                                  -0.006605303846299648F,
                                  -0.13091765344142914F,
                                  0.0F,
                                  0.0F};
  EXPECT_EQ(env.Observe(), want);
}

TEST(LunarLanderTest, WithoutThrustTheLanderCrashesAfter52Steps) {
  // gymnasium, seed 0, action 0 throughout: terminated at step 52 with -100.
  Probe<LunarLanderEnv, 8> env(LunarLanderEnv::DefaultOptions());
  env.Seed(0);
  env.Reset();
  int steps = 0;
  while (!env.terminated() && steps < 1000) {
    env.StepWith(int64_t{0});
    ++steps;
  }
  EXPECT_EQ(steps, 52);
  EXPECT_EQ(env.reward(), -100.0);
}

TEST(BipedalWalkerTest, FirstObservationIsGymnasiumsForSeedZero) {
  Options options = BipedalWalkerEnv::DefaultOptions();
  Probe<BipedalWalkerEnv, 24> env(options);
  env.Seed(0);
  env.Reset();
  const std::array<float, 24> obs = env.Observe();
  const std::array<float, 24> want{0.002747287740930915F,
                                   -2.5883757189149037e-05F,
                                   0.002013495424762368F,
                                   -0.015999827533960342F,
                                   0.09179489314556122F,
                                   -0.0026571243070065975F,
                                   0.8603634834289551F,
                                   0.0033659960608929396F,
                                   1.0F,
                                   0.032199565321207047F,
                                   -0.0026569466572254896F,
                                   0.8539148569107056F,
                                   0.0018791467882692814F,
                                   1.0F,
                                   0.44081419706344604F,
                                   0.44582030177116394F,
                                   0.46142297983169556F,
                                   0.48955038189888F,
                                   0.5341030359268188F,
                                   0.6024612784385681F,
                                   0.709149181842804F,
                                   0.885932207107544F,
                                   1.0F,
                                   1.0F};
  EXPECT_EQ(obs, want);
}

TEST(BipedalWalkerTest, LidarFractionsGrowAwayFromTheVertical) {
  Options options = BipedalWalkerEnv::DefaultOptions();
  options.Set("hardcore", true);
  Probe<BipedalWalkerEnv, 24> env(options);
  env.Seed(3);
  env.Reset();
  const std::array<float, 4> zero{};
  for (int t = 0; t < 5; ++t) {
    env.StepWith(zero);
  }
  const std::array<float, 24> obs = env.Observe();
  for (int i = 14; i < 24; ++i) {
    EXPECT_GT(obs[i], 0.0F);
    EXPECT_LE(obs[i], 1.0F);
  }
  // On the flat start pad the downward rays hit closer than slanted ones.
  EXPECT_LT(obs[14], obs[18]);
}

// pygame.font.Font(get_default_font(), 42).render(text, True, white, black)
// .get_size() in pygame 2.6.1: kerning and the pen's end decide the widths.
TEST(ScoreTextTest, SurfaceSizesArePygames) {
  ScoreText font;
  const std::vector<std::pair<std::string, int>> widths{
      {"0000", 99}, {"-012", 83}, {"0123", 94}, {"1111", 81}, {"0907", 95}};
  for (const auto& [text, width] : widths) {
    const ScoreText::Image image = font.Render(text);
    EXPECT_EQ(image.width, width) << text;
    EXPECT_EQ(image.height, 42) << text;
  }
  const ScoreText::Image zeros = font.Render("0000");
  int lit = 0;
  for (uint8_t v : zeros.shade) {
    lit += v > 0 ? 1 : 0;
  }
  EXPECT_GT(lit, 0);
}

}  // namespace
}  // namespace envpool::box2d
