#include "envpool/core/action_check.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace envpool {
namespace {

// The message CheckAction throws, or "" when it accepts the values.
template <typename T>
std::string Refusal(const ArraySpec& spec, const std::vector<T>& data,
                    ElementType type, std::vector<int64_t> shape,
                    std::vector<int> ids, int rows_per_env = 1) {
  ActionValues values;
  values.type = type;
  values.data = data.data();
  values.shape = std::move(shape);
  try {
    CheckAction(spec, "Task-v0", ids.data(), static_cast<int>(ids.size()),
                values, rows_per_env);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

ArraySpec Discrete(int64_t num_values) {
  ArraySpec spec;
  spec.name = "action";
  spec.dtype = DType::kInt64;
  spec.num_values = num_values;
  return spec;
}

ArraySpec Continuous(std::vector<int64_t> shape) {
  ArraySpec spec;
  spec.name = "action";
  spec.dtype = DType::kFloat32;
  spec.shape = std::move(shape);
  return spec;
}

TEST(PythonFloatRepr, WritesFloatsAsPythonsReprDoes) {
  // Each right-hand side is Python's repr of the left.
  EXPECT_EQ(PythonFloatRepr(0.5), "0.5");
  EXPECT_EQ(PythonFloatRepr(1.9), "1.9");
  EXPECT_EQ(PythonFloatRepr(static_cast<float>(1.9)), "1.899999976158142");
  EXPECT_EQ(PythonFloatRepr(1e16), "1e+16");
  EXPECT_EQ(PythonFloatRepr(1e15), "1000000000000000.0");
  EXPECT_EQ(PythonFloatRepr(1e-5), "1e-05");
  EXPECT_EQ(PythonFloatRepr(0.0001), "0.0001");
  EXPECT_EQ(PythonFloatRepr(-0.0), "-0.0");
  EXPECT_EQ(PythonFloatRepr(2.0), "2.0");
  EXPECT_EQ(PythonFloatRepr(123.456), "123.456");
  EXPECT_EQ(PythonFloatRepr(1e100), "1e+100");
  EXPECT_EQ(PythonFloatRepr(5e-324), "5e-324");
  EXPECT_EQ(PythonFloatRepr(1.7976931348623157e308), "1.7976931348623157e+308");
  EXPECT_EQ(PythonFloatRepr(-2.5e-7), "-2.5e-07");
  EXPECT_EQ(PythonFloatRepr(12345678901234567.0), "1.2345678901234568e+16");
  EXPECT_EQ(PythonFloatRepr(std::numeric_limits<double>::quiet_NaN()), "nan");
  EXPECT_EQ(PythonFloatRepr(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(PythonFloatRepr(-std::numeric_limits<double>::infinity()), "-inf");
}

TEST(CheckAction, DiscreteActionsTakeWholeNumbersInRange) {
  const ArraySpec spec = Discrete(2);
  const ElementType f64{'f', 8};
  const ElementType i64{'i', 8};
  const ElementType i32{'i', 4};
  EXPECT_EQ(Refusal(spec, std::vector<double>{0, 1, 1}, f64, {3}, {0, 1, 2}),
            "");
  EXPECT_EQ(Refusal(spec, std::vector<int64_t>{0, 1}, i64, {2}, {4, 7}), "");
  EXPECT_EQ(Refusal(spec, std::vector<double>{0, 0.5}, f64, {2}, {0, 1}),
            "action for env 1 is 0.5, but Task-v0 takes whole numbers in 0..1");
  EXPECT_EQ(Refusal(spec, std::vector<double>{1.9, 0}, f64, {2}, {3, 1}),
            "action for env 3 is 1.9, but Task-v0 takes whole numbers in 0..1");
  EXPECT_EQ(
      Refusal(spec, std::vector<double>{0, std::nan("")}, f64, {2}, {0, 1}),
      "action for env 1 is nan, but Task-v0 takes whole numbers in 0..1");
  EXPECT_EQ(Refusal(spec, std::vector<double>{-1.0, 0}, f64, {2}, {0, 1}),
            "action for env 0 is -1, but Task-v0 takes 0..1");
  EXPECT_EQ(Refusal(spec, std::vector<int64_t>{0, 5}, i64, {2}, {0, 1}),
            "action for env 1 is 5, but Task-v0 takes 0..1");
  EXPECT_EQ(Refusal(spec, std::vector<int32_t>{-1, 0}, i32, {2}, {0, 1}),
            "action for env 0 is -1, but Task-v0 takes 0..1");
  // The largest uint64 is not read as -1.
  EXPECT_EQ(Refusal(spec, std::vector<uint64_t>{0, ~uint64_t{0}},
                    ElementType{'u', 8}, {2}, {0, 1}),
            "action for env 1 is 18446744073709551615, but Task-v0 takes "
            "0..1");
  // float16 0.5 (0x3800) and 1.0 (0x3c00).
  EXPECT_EQ(Refusal(spec, std::vector<uint16_t>{0x3c00, 0x3800},
                    ElementType{'f', 2}, {2}, {0, 1}),
            "action for env 1 is 0.5, but Task-v0 takes whole numbers in 0..1");
  EXPECT_EQ(Refusal(spec, std::vector<uint16_t>{0x3c00, 0}, ElementType{'f', 2},
                    {2}, {0, 1}),
            "");
}

TEST(CheckAction, ContinuousActionsTakeFiniteValues) {
  const ArraySpec spec = Continuous({2});
  const ElementType f32{'f', 4};
  EXPECT_EQ(
      Refusal(spec, std::vector<float>{0, 1e30f, -3, 2}, f32, {2, 2}, {0, 1}),
      "");
  EXPECT_EQ(
      Refusal(spec, std::vector<float>{0, 1, NAN, 2}, f32, {2, 2}, {5, 6}),
      "action for env 6 contains NaN at index 0: Task-v0 takes finite "
      "values");
  EXPECT_EQ(Refusal(spec, std::vector<float>{0, -INFINITY, 0, 2}, f32, {2, 2},
                    {5, 6}),
            "action for env 5 contains -inf at index 1: Task-v0 takes finite "
            "values");
  // Integers are finite.
  EXPECT_EQ(Refusal(spec, std::vector<int32_t>{0, 1, 2, 3}, ElementType{'i', 4},
                    {2, 2}, {0, 1}),
            "");
}

TEST(CheckAction, ShapeIsOnePerEnvOrTheFieldsShape) {
  // What a user of EnvPool's single-env spaces needs to read.
  const std::string hint =
      ": send one row per env (the action_space of envpool.make's pools is one "
      "env's space, as in EnvPool; gymnasium.make_vec('envpool/Task-v0') has "
      "batched spaces)";
  const std::vector<double> six(6, 0.0);
  const ElementType f64{'f', 8};
  EXPECT_EQ(Refusal(Discrete(2), six, f64, {3, 1}, {0, 1, 2}),
            "action 'action' of Task-v0 must have shape (3,) for 3 envs, got "
            "(3, 1)" +
                hint);
  EXPECT_EQ(Refusal(Discrete(2), six, f64, {}, {0}),
            "action 'action' of Task-v0 must have shape (1,) for 1 envs, got "
            "()" +
                hint);
  // A one-element field takes (n,) as well as (n, 1).
  EXPECT_EQ(Refusal(Continuous({1}), six, f64, {3}, {0, 1, 2}), "");
  EXPECT_EQ(Refusal(Continuous({1}), six, f64, {3, 1}, {0, 1, 2}), "");
  EXPECT_EQ(Refusal(Continuous({2}), six, f64, {6}, {0, 1, 2}),
            "action 'action' of Task-v0 must have shape (3, 2) for 3 envs, "
            "got (6,)" +
                hint);
}

TEST(CheckAction, IntegerNonDiscreteActionsTakeWholeNumbers) {
  ArraySpec spec;
  spec.name = "buttons";
  spec.dtype = DType::kInt32;
  spec.shape = {2};
  const ElementType f64{'f', 8};
  EXPECT_EQ(Refusal(spec, std::vector<double>{1, -7}, f64, {1, 2}, {0}), "");
  EXPECT_EQ(Refusal(spec, std::vector<double>{1, 2.25}, f64, {1, 2}, {0}),
            "action for env 0 is 2.25, but Task-v0 takes whole numbers");
}

TEST(CheckAction, PerPlayerActionsTakeOneRowPerPlayer) {
  ArraySpec spec = Discrete(3);
  spec.per_player = true;
  const ElementType i64{'i', 8};
  // Two envs of two players: four rows, env by env in player order, or
  // grouped by env.
  const std::vector<int64_t> four{0, 1, 2, 0};
  EXPECT_EQ(Refusal(spec, four, i64, {4}, {5, 7}, 2), "");
  EXPECT_EQ(Refusal(spec, four, i64, {2, 2}, {5, 7}, 2), "");
  // One action per env is the mistake a user of a one-action env makes.
  EXPECT_EQ(Refusal(spec, four, i64, {2}, {5, 7}, 2),
            "action 'action' of Task-v0 takes one row per player: shape (4,) "
            "for 2 envs of 2 players (the actions of an env consecutive, in "
            "player order), or (2, 2), got (2,)");
  // A bad value names the env and the player.
  EXPECT_EQ(
      Refusal(spec, std::vector<int64_t>{0, 1, 2, 3}, i64, {4}, {5, 7}, 2),
      "action for env 7 player 1 is 3, but Task-v0 takes 0..2");
  ArraySpec box = Continuous({2});
  box.per_player = true;
  const std::vector<double> nan_at_player_1{0, 0, 0.5, std::nan("")};
  EXPECT_EQ(Refusal(box, nan_at_player_1, ElementType{'f', 8}, {2, 2}, {4}, 2),
            "action for env 4 player 1 contains NaN at index 1: Task-v0 takes "
            "finite values");
  EXPECT_EQ(
      Refusal(box, nan_at_player_1, ElementType{'f', 8}, {1, 2, 2}, {4}, 2),
      "action for env 4 player 1 contains NaN at index 1: Task-v0 takes "
      "finite values");
}

}  // namespace
}  // namespace envpool
