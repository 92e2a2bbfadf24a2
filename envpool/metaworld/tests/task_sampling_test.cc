// The benchmarks' task vectors without Meta-World (the Python tests compare
// them with metaworld's bit for bit): MT50's classes are the task table's in
// task_id order, every vector lies in its class's reset space and keeps its
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

TEST(MetaWorldTaskSampling, Mt50IsTheTaskTableInTaskIdOrder) {
  const std::vector<std::string> classes =
      BenchmarkClasses("MT50", "train", "");
  ASSERT_EQ(classes.size(), 50U);
  ASSERT_EQ(Tasks().size(), 50U);
  for (int id = 0; id < 50; ++id) {
    EXPECT_EQ(classes[id], TaskById(id).name);
    EXPECT_EQ(TaskById(id).task_id, id);
  }
  EXPECT_THROW(TaskById(50), std::out_of_range);
}

TEST(MetaWorldTaskSampling, TheRedrawRulesCompareAnObjectWithAGoal) {
  for (const TaskConfig& task : Tasks()) {
    SCOPED_TRACE(task.name);
    if (task.redraw == Redraw::kObjectGoal) {
      EXPECT_EQ(task.vector_size, 6);  // the goal is vec[3:6]
    }
    EXPECT_EQ(task.redraw == Redraw::kNone, task.min_distance == 0.0);
  }
  EXPECT_EQ(FindTask("pick-place-v3").min_distance, 0.15);
  EXPECT_EQ(FindTask("box-close-v3").min_distance, 0.25);
  EXPECT_EQ(FindTask("sweep-into-v3").redraw, Redraw::kFixedGoal);
  EXPECT_EQ(FindTask("bin-picking-v3").redraw, Redraw::kNone);
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
    const TaskConfig& task = TaskById(static_cast<int>(c));
    SCOPED_TRACE(task.name);
    ASSERT_EQ((*vectors)[c].size(), 50U);
    for (const std::vector<double>& vec : (*vectors)[c]) {
      ASSERT_EQ(vec.size(), static_cast<std::size_t>(task.vector_size));
      for (int k = 0; k < task.vector_size; ++k) {
        EXPECT_GE(vec[k], task.reset_low[k]);
        EXPECT_LE(vec[k], task.reset_high[k]);
      }
      if (task.redraw == Redraw::kObjectGoal) {
        EXPECT_GE(std::hypot(vec[0] - vec[3], vec[1] - vec[4]),
                  task.min_distance - 1e-12);
      } else if (task.redraw == Redraw::kFixedGoal) {
        EXPECT_GE(std::hypot(vec[0] - task.fixed_goal[0],
                             vec[1] - task.fixed_goal[1]),
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

TEST(MetaWorldTaskSampling, NumGoalsMovesWhereTheStreamEntersLaterClasses) {
  // _N_GOALS = 7: reach's first 7 vectors are the default's, push's are
  // drawn after reach's 7 resets instead of 50.
  const auto mt10 = BenchmarkTaskVectors("MT10", "train", "", 3);
  const auto seven = BenchmarkTaskVectors("MT10", "train", "", 3, 7);
  ASSERT_EQ(seven->size(), 10U);
  for (const auto& of_class : *seven) {
    EXPECT_EQ(of_class.size(), 7U);
  }
  for (int j = 0; j < 7; ++j) {
    EXPECT_EQ((*seven)[0][j], (*mt10)[0][j]);
  }
  EXPECT_NE((*seven)[1][0], (*mt10)[1][0]);
  EXPECT_NE(seven, mt10);
  EXPECT_EQ(BenchmarkTaskVectors("MT10", "train", "", 3, 7), seven);
  EXPECT_THROW(BenchmarkTaskVectors("MT10", "train", "", 3, 0),
               std::invalid_argument);
  EXPECT_THROW(
      BenchmarkTaskVectors("MT10", "train", "", 3, kMaxTaskVariations + 1),
      std::invalid_argument);
}

}  // namespace
}  // namespace envpool::metaworld
