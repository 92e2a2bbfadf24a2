#include "envpool/core/per_env_options.h"

#include <gtest/gtest.h>

#include <memory>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "envpool/core/pool.h"
#include "envpool/core/testing/test_envs.h"

namespace envpool {
namespace {

using testing::CounterEnv;

// CounterEnv whose render size depends on an option: its spaces (the
// rendered frame) do.
class SizedEnv : public CounterEnv {
 public:
  using CounterEnv::CounterEnv;
  static Options DefaultOptions() {
    Options options = CounterEnv::DefaultOptions();
    options.Define("frame_width", int64_t{4});
    return options;
  }
  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    CounterEnv::Declare(options, spec, fields);
    spec->render_width = static_cast<int>(options.Get<int64_t>("frame_width"));
  }
};

class PerEnvOptionsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    RegisterEnv<CounterEnv>("Counter");
    RegisterEnv<SizedEnv>("Sized");
  }
};

TEST_F(PerEnvOptionsTest, EachEnvEndsItsEpisodeAtItsOwnLength) {
  const EnvClass& counter = FindEnvClass("Counter");
  const std::vector<int64_t> lengths = {2, 5, 3};
  PerEnvOptions per_env;
  for (int64_t n : lengths) {
    per_env["episode_length"].push_back(n);
  }
  PoolConfig config;
  config.task_id = "Counter-v0";
  config.num_envs = 3;
  config.seeds = {1, 2, 3};
  config.autoreset_mode = AutoresetMode::kDisabled;
  Pool pool(PrepareEnvs(counter, counter.defaults, per_env, 3), config);
  std::vector<int> ids(3);
  std::iota(ids.begin(), ids.end(), 0);
  pool.Send(ids.data(), 3, true, nullptr);
  pool.Release(pool.Recv()->id());
  std::vector<int64_t> ended_at(3, -1);
  for (int step = 1; step <= 5; ++step) {
    std::vector<int> live;
    for (int i = 0; i < 3; ++i) {
      if (ended_at[i] < 0) {
        *static_cast<int64_t*>(pool.ActionRow(i, 0)) = 1;
        live.push_back(i);
      }
    }
    pool.Send(live.data(), static_cast<int>(live.size()), false, nullptr);
    auto block = pool.Recv();
    for (int k = 0; k < static_cast<int>(live.size()); ++k) {
      const auto* terminated =
          static_cast<const bool*>(block->Column(pool.layout().terminated));
      if (terminated[k]) {
        ended_at[live[k]] = step;
      }
    }
    pool.Release(block->id());
    if (live.empty()) {
      break;
    }
  }
  EXPECT_EQ(ended_at, lengths);
}

TEST_F(PerEnvOptionsTest, RefusalsNameTheOption) {
  const EnvClass& counter = FindEnvClass("Counter");
  auto expect_refused = [&](const EnvClass& type, const PerEnvOptions& per_env,
                            int num_envs, const std::string& says) {
    try {
      PrepareEnvs(type, type.defaults, per_env, num_envs);
      ADD_FAILURE() << "not refused: " << says;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(says), std::string::npos)
          << e.what();
    }
  };
  expect_refused(counter, {{"episode_length", {int64_t{2}}}}, 3,
                 "option 'episode_length' has 1 values");
  expect_refused(counter, {{"max_episode_steps", {int64_t{2}, int64_t{3}}}}, 2,
                 "option 'max_episode_steps' cannot vary per env");
  expect_refused(counter,
                 {{"render_mode", {std::string("ansi"), std::string("")}}}, 2,
                 "option 'render_mode' cannot vary per env");
  expect_refused(counter, {{"no_such", {int64_t{2}, int64_t{3}}}}, 2,
                 "unknown option 'no_such'");
  expect_refused(FindEnvClass("Sized"),
                 {{"frame_width", {int64_t{4}, int64_t{4}, int64_t{8}}}}, 3,
                 "option 'frame_width' cannot vary per env: the env's spaces "
                 "depend on it (env 0 with 4 and env 2 with 8 differ)");
}

TEST_F(PerEnvOptionsTest, OptionsOfEnvTakeTheirOwnValue) {
  const EnvClass& counter = FindEnvClass("Counter");
  PerEnvOptions per_env = {{"episode_length", {int64_t{7}, int64_t{9}}}};
  EXPECT_EQ(
      OptionsOfEnv(counter.defaults, per_env, 1).Get<int64_t>("episode_length"),
      9);
  EXPECT_EQ(
      OptionsOfEnv(counter.defaults, per_env, 0).Get<int64_t>("episode_length"),
      7);
}

}  // namespace
}  // namespace envpool
