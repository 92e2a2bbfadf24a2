// The benchmarks' task vectors without Meta-World (the Python tests compare
// them with metaworld's bit for bit): their table agrees with the task
// table, every vector lies in its class's reset space and keeps its
// class's distances, and the stream runs on across a split's classes.
#include "envpool/metaworld/task_sampling.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "envpool/metaworld/tasks.h"

namespace envpool::metaworld {
namespace {

TEST(MetaWorldTaskSampling, TheTableAgreesWithTheImplementedTasks) {
  const std::vector<TaskSampling>& all = AllTaskSampling();
  ASSERT_EQ(all.size(), 50U);
  for (const TaskConfig& task : Tasks()) {
    SCOPED_TRACE(task.name);
    ASSERT_GE(task.task_id, 0);
    const TaskSampling& sampling = all[task.task_id];
    EXPECT_EQ(std::string(sampling.name), task.name);
    EXPECT_EQ(sampling.vector_size, task.vector_size);
    for (int k = 0; k < task.vector_size; ++k) {
      EXPECT_EQ(sampling.low[k], task.reset_low[k]);
      EXPECT_EQ(sampling.high[k], task.reset_high[k]);
    }
    for (int k = 0; k < 3; ++k) {
      EXPECT_EQ(sampling.goal_low[k], task.goal_low[k]);
      EXPECT_EQ(sampling.goal_high[k], task.goal_high[k]);
    }
  }
}

TEST(MetaWorldTaskSampling, TheSplitsHoldMetaWorldsClassCounts) {
  EXPECT_EQ(BenchmarkClasses("MT10", "train", "").size(), 10U);
  EXPECT_EQ(BenchmarkClasses("MT50", "train", "").size(), 50U);
  EXPECT_EQ(BenchmarkClasses("ML10", "train", "").size(), 10U);
  EXPECT_EQ(BenchmarkClasses("ML10", "test", "").size(), 5U);
  EXPECT_EQ(BenchmarkClasses("ML45", "train", "").size(), 45U);
  EXPECT_EQ(BenchmarkClasses("ML45", "test", "").size(), 5U);
  EXPECT_EQ(BenchmarkClasses("ML1", "test", "push-v3"),
            std::vector<std::string>{"push-v3"});
  EXPECT_THROW(BenchmarkClasses("MT10", "test", ""), std::invalid_argument);
  EXPECT_THROW(BenchmarkClasses("MT1", "train", "push-v2"),
               std::invalid_argument);
}

TEST(MetaWorldTaskSampling, EveryVectorLiesInItsSpaceAndKeepsItsDistance) {
  const std::vector<std::string> classes =
      BenchmarkClasses("MT50", "train", "");
  const auto vectors = BenchmarkTaskVectors("MT50", "train", "", 17);
  ASSERT_EQ(vectors->size(), 50U);
  for (std::size_t c = 0; c < classes.size(); ++c) {
    const TaskSampling& task = AllTaskSampling()[c];
    SCOPED_TRACE(task.name);
    ASSERT_EQ((*vectors)[c].size(), 50U);
    for (const std::vector<double>& vec : (*vectors)[c]) {
      ASSERT_EQ(vec.size(), static_cast<std::size_t>(task.vector_size));
      for (int k = 0; k < task.vector_size; ++k) {
        EXPECT_GE(vec[k], task.low[k]);
        EXPECT_LE(vec[k], task.high[k]);
      }
      if (task.redraw == Redraw::kObjectGoal) {
        EXPECT_GE(std::hypot(vec[0] - vec[3], vec[1] - vec[4]),
                  task.min_distance - 1e-12);
      }
    }
  }
}

TEST(MetaWorldTaskSampling, TheStreamRunsOnAcrossTheSplitsClasses) {
  // MT10's second class (push) and MT1's push from the same seed: MT10's
  // push draws after reach's 50 resets.
  const auto mt10 = BenchmarkTaskVectors("MT10", "train", "", 3);
  const auto mt1 = BenchmarkTaskVectors("MT1", "train", "push-v3", 3);
  EXPECT_NE((*mt10)[1][0], (*mt1)[0][0]);
  // ML1's test vectors come from seed + 1: MT1's of the next seed.
  const auto ml1_test = BenchmarkTaskVectors("ML1", "test", "push-v3", 3);
  const auto mt1_next = BenchmarkTaskVectors("MT1", "train", "push-v3", 4);
  EXPECT_EQ(*ml1_test, *mt1_next);
  // Computed once per benchmark and seed.
  EXPECT_EQ(BenchmarkTaskVectors("MT10", "train", "", 3), mt10);
}

}  // namespace
}  // namespace envpool::metaworld
