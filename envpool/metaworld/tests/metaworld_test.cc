// The metaworld family's reward arithmetic and task table, which need no
// model (the Python tests align every id with Meta-World step for step).
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <stdexcept>
#include <string>

#include "envpool/metaworld/tasks.h"

namespace envpool::metaworld {
namespace {

TEST(MetaWorldTasks, LongTailToleranceIsOneInsideAndATenthAtTheMargin) {
  EXPECT_EQ(LongTailTolerance(0.03, 0.0, 0.05, 0.2), 1.0);
  EXPECT_EQ(LongTailTolerance(0.0, 0.0, 0.05, 0.2), 1.0);
  // A margin away from the bound: 1 / (3^2 + 1).
  EXPECT_NEAR(LongTailTolerance(0.25, 0.0, 0.05, 0.2), 0.1, 1e-15);
  // Below the lower bound, measured from it.
  EXPECT_NEAR(LongTailTolerance(0.0, 0.015, 0.05, 0.015), 0.1, 1e-15);
  // No margin: outside is 0.
  EXPECT_EQ(LongTailTolerance(0.06, 0.0, 0.05, 0.0), 0.0);
}

TEST(MetaWorldTasks, GaussianToleranceIsOneInsideAndATenthAtTheMargin) {
  EXPECT_EQ(GaussianTolerance(0.01, 0.0, 0.02, 0.3), 1.0);
  // A margin away from the bound: exp(-0.5 * (-2 log 0.1)) = 0.1 (libm's
  // exp and log here; the module calls numpy's).
  EXPECT_NEAR(GaussianTolerance(0.32, 0.0, 0.02, 0.3), 0.1, 1e-15);
  // Half a margin: 0.1 ** (1 / 4).
  EXPECT_NEAR(GaussianTolerance(0.17, 0.0, 0.02, 0.3), std::pow(0.1, 0.25),
              1e-15);
  EXPECT_EQ(GaussianTolerance(0.03, 0.0, 0.02, 0.0), 0.0);
}

TEST(MetaWorldTasks, NumbersFromTheFloat32ActionComputeInFloat32) {
  const Number effort = ClampedEffort(0.3F, 1.0);
  EXPECT_TRUE(effort.single);
  EXPECT_EQ(effort.value, static_cast<double>(0.3F));
  // A Python float times a float32 is a float32 (numpy's rule).
  const Number product = Py(0.1) * effort;
  EXPECT_TRUE(product.single);
  EXPECT_EQ(product.value, static_cast<double>(0.1F * 0.3F));
  // Python floats alone stay double.
  const Number sum = Py(0.1) + Py(0.2);
  EXPECT_FALSE(sum.single);
  EXPECT_EQ(sum.value, 0.1 + 0.2);
}

TEST(MetaWorldTasks, ClampedEffortReturnsPythonsMinMaxArgument) {
  // max(0, e): the Python 0 for e <= 0.
  EXPECT_FALSE(ClampedEffort(-0.5F, 1.0).single);
  EXPECT_EQ(ClampedEffort(-0.5F, 1.0).value, 0.0);
  // min(e, cap): the Python cap for e > cap, e itself at e == cap.
  EXPECT_FALSE(ClampedEffort(1.5F, 1.0).single);
  EXPECT_EQ(ClampedEffort(1.5F, 1.0).value, 1.0);
  EXPECT_TRUE(ClampedEffort(1.0F, 1.0).single);
}

TEST(MetaWorldTasks, HamacherProduct) {
  EXPECT_EQ(HamacherProduct(Py(0.0), Py(0.0)).value, 0.0);
  EXPECT_EQ(HamacherProduct(Py(1.0), Py(0.5)).value, 0.5);
  const double a = 0.3;
  const double b = 0.6;
  EXPECT_EQ(HamacherProduct(Py(a), Py(b)).value, (a * b) / (a + b - a * b));
}

TEST(MetaWorldTasks, MatrixToQuaternionIsScipysXyzw) {
  const double identity[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  double quat[4];
  MatrixToQuaternion(identity, quat);
  EXPECT_EQ(quat[0], 0.0);
  EXPECT_EQ(quat[1], 0.0);
  EXPECT_EQ(quat[2], 0.0);
  EXPECT_EQ(quat[3], 1.0);
  // Half a turn about z: (0, 0, 1, 0).
  const double half_turn[9] = {-1, 0, 0, 0, -1, 0, 0, 0, 1};
  MatrixToQuaternion(half_turn, quat);
  EXPECT_EQ(quat[2], 1.0);
  EXPECT_EQ(quat[3], 0.0);
}

TEST(MetaWorldTasks, TheTableHoldsEachTaskOnceWithItsMetaWorldIndex) {
  std::set<std::string> names;
  std::set<int> ids;
  for (const TaskConfig& task : Tasks()) {
    EXPECT_TRUE(names.insert(task.name).second) << task.name;
    EXPECT_TRUE(ids.insert(task.task_id).second) << task.name;
    EXPECT_GE(task.task_id, 0);
    EXPECT_LT(task.task_id, 50);
    EXPECT_TRUE(task.vector_size == 3 || task.vector_size == 6) << task.name;
    EXPECT_EQ(&FindTask(task.name), &task);
  }
}

TEST(MetaWorldTasks, AnUnknownTaskNamesTheImplementedOnes) {
  try {
    FindTask("pick-place-v2");
    FAIL() << "no error";
  } catch (const std::invalid_argument& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("option 'task_name'"), std::string::npos);
    EXPECT_NE(message.find("'pick-place-v3'"), std::string::npos);
  }
}

}  // namespace
}  // namespace envpool::metaworld
