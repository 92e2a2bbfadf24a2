#include "envpool/metaworld/tasks.h"

#include <math.h>

#include <cmath>
#include <stdexcept>

namespace envpool::metaworld {
namespace {

// The reach, push and pick-place tasks share the hand's bounds and initial
// position and the object's box (envs/sawyer_{reach,push,pick_place}_v3.py).
constexpr std::array<double, 3> kWideHandLow{-0.5, 0.40, 0.05};
constexpr std::array<double, 3> kWideHandHigh{0.5, 1.0, 0.5};
constexpr std::array<double, 3> kHandInit{0.0, 0.6, 0.2};

std::vector<TaskConfig> MakeTasks() {
  return {
      {"pick-place-v3",
       "sawyer_xyz/sawyer_pick_place_v3.xml",
       TaskKind::kPickPlace,
       30,
       kWideHandLow,
       kWideHandHigh,
       kHandInit,
       {-0.1, 0.6, 0.02, -0.1, 0.8, 0.05},
       {0.1, 0.7, 0.02, 0.1, 0.9, 0.3},
       {-0.1, 0.8, 0.05},
       {0.1, 0.9, 0.3}},
      {"push-v3",
       "sawyer_xyz/sawyer_push_v3.xml",
       TaskKind::kPush,
       40,
       kWideHandLow,
       kWideHandHigh,
       kHandInit,
       {-0.1, 0.6, 0.02, -0.1, 0.8, 0.01},
       {0.1, 0.7, 0.02, 0.1, 0.9, 0.02},
       {-0.1, 0.8, 0.01},
       {0.1, 0.9, 0.02}},
      {"reach-v3",
       "sawyer_xyz/sawyer_reach_v3.xml",
       TaskKind::kReach,
       43,
       kWideHandLow,
       kWideHandHigh,
       kHandInit,
       {-0.1, 0.6, 0.02, -0.1, 0.8, 0.05},
       {0.1, 0.7, 0.02, 0.1, 0.9, 0.3},
       {-0.1, 0.8, 0.05},
       {0.1, 0.9, 0.3}},
  };
}

// numpy's float64 scalar `x ** 2` calls libm's pow, which now and then
// rounds otherwise than x * x; called through a pointer the compiler cannot
// see through, so that it does not turn pow(x, 2) into x * x.
double ScalarSquare(double x) {
  static double (*volatile const libm_pow)(double, double) = &::pow;
  return libm_pow(x, 2.0);
}

Number Combine(Number a, Number b, double (*op)(double, double),
               float (*op32)(float, float)) {
  if (a.single || b.single) {
    return Number{static_cast<double>(op32(static_cast<float>(a.value),
                                           static_cast<float>(b.value))),
                  true};
  }
  return Number{op(a.value, b.value), false};
}

}  // namespace

const std::vector<TaskConfig>& Tasks() {
  static const std::vector<TaskConfig> tasks = MakeTasks();
  return tasks;
}

const TaskConfig& FindTask(const std::string& name) {
  std::string names;
  for (const TaskConfig& task : Tasks()) {
    if (name == task.name) {
      return task;
    }
    names += names.empty() ? "" : ", ";
    names += std::string("'") + task.name + "'";
  }
  throw std::invalid_argument("option 'task_name' must be one of " + names +
                              " (the Meta-World tasks implemented), got '" +
                              name + "'");
}

Number operator+(Number a, Number b) {
  return Combine(
      a, b, [](double x, double y) { return x + y; },
      [](float x, float y) { return x + y; });
}
Number operator-(Number a, Number b) {
  return Combine(
      a, b, [](double x, double y) { return x - y; },
      [](float x, float y) { return x - y; });
}
Number operator*(Number a, Number b) {
  return Combine(
      a, b, [](double x, double y) { return x * y; },
      [](float x, float y) { return x * y; });
}
Number operator/(Number a, Number b) {
  return Combine(
      a, b, [](double x, double y) { return x / y; },
      [](float x, float y) { return x / y; });
}

double LongTailTolerance(double x, double lower, double upper, double margin) {
  if (lower <= x && x <= upper) {
    return 1.0;
  }
  if (margin == 0.0) {
    return 0.0;
  }
  // _sigmoids' scale: np.sqrt(1 / 0.1 - 1), which is 3 exactly.
  const double scale = std::sqrt(1.0 / 0.1 - 1.0);
  const double d = (x < lower ? lower - x : x - upper) / margin;
  return 1.0 / (ScalarSquare(d * scale) + 1.0);
}

Number HamacherProduct(Number a, Number b) {
  const Number denominator = a + b - a * b;
  if (denominator.value > 0.0) {
    return a * b / denominator;
  }
  return Py(0.0);
}

Number ClampedEffort(float effort, double cap) {
  // max(0, effort): effort when effort > 0, else the Python 0.
  if (!(effort > 0.0F)) {
    return Py(0.0);
  }
  // min(that, cap): the cap when cap < effort.
  if (cap < static_cast<double>(effort)) {
    return Py(cap);
  }
  return Number{static_cast<double>(effort), true};
}

void MatrixToQuaternion(const double* m, double* quat) {
  // Markley's method as scipy applies it to an orthogonal matrix: the
  // largest of the diagonal and the trace picks the formula (the first of
  // equals).
  const double trace = m[0] + m[4] + m[8];
  const double decision[4] = {m[0], m[4], m[8], trace};
  int choice = 0;
  for (int k = 1; k < 4; ++k) {
    if (decision[k] > decision[choice]) {
      choice = k;
    }
  }
  if (choice == 3) {
    quat[0] = m[7] - m[5];
    quat[1] = m[2] - m[6];
    quat[2] = m[3] - m[1];
    quat[3] = 1.0 + trace;
  } else {
    const int i = choice;
    const int j = (i + 1) % 3;
    const int k = (j + 1) % 3;
    quat[i] = 1.0 - trace + 2.0 * m[4 * i];
    quat[j] = m[3 * j + i] + m[3 * i + j];
    quat[k] = m[3 * k + i] + m[3 * i + k];
    quat[3] = m[3 * k + j] - m[3 * j + k];
  }
  const double norm = std::sqrt(quat[0] * quat[0] + quat[1] * quat[1] +
                                quat[2] * quat[2] + quat[3] * quat[3]);
  for (int n = 0; n < 4; ++n) {
    quat[n] /= norm;
  }
}

}  // namespace envpool::metaworld
