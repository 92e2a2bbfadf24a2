// The Meta-World tasks this family implements, as a table (their reference
// classes differ in constants, in how the task vector places the object
// and goal, and in the reward function), and the reward arithmetic they
// share (metaworld/utils/reward_utils.py).
#ifndef ENVPOOL_METAWORLD_TASKS_H_
#define ENVPOOL_METAWORLD_TASKS_H_

#include <array>
#include <string>
#include <vector>

namespace envpool::metaworld {

// How a task turns its task vector into positions, and which reward it has.
enum class TaskKind { kReach, kPush, kPickPlace };

struct TaskConfig {
  const char* name;  // Meta-World's, e.g. "pick-place-v3"
  const char* xml;   // below the family's asset folder
  TaskKind kind;
  // The index in Meta-World's ALL_V3_ENVIRONMENTS (its MT50 one-hot order).
  int task_id;
  std::array<double, 3> hand_low;  // also the mocap's bounds
  std::array<double, 3> hand_high;
  std::array<double, 3> hand_init_pos;
  // _random_reset_space: the object's box, then the goal's.
  std::array<double, 6> reset_low;
  std::array<double, 6> reset_high;
  // goal_space, the goal's observation bounds when it is observable.
  std::array<double, 3> goal_low;
  std::array<double, 3> goal_high;
};

// The task of Meta-World's name; throws std::invalid_argument naming the
// implemented ones when there is none.
const TaskConfig& FindTask(const std::string& name);
// Every implemented task, in Meta-World's order.
const std::vector<TaskConfig>& Tasks();

// A number as the reference's reward code holds it: a Python float (or a
// numpy float64) or, where it comes from the float32 action, a numpy
// float32. numpy computes an operation with a float32 operand in float32
// (the Python float is cast to float32 first), the others in double.
struct Number {
  double value = 0.0;
  bool single = false;
};
Number operator+(Number a, Number b);
Number operator-(Number a, Number b);
Number operator*(Number a, Number b);
Number operator/(Number a, Number b);
inline Number Py(double x) { return Number{x, false}; }

// reward_utils.tolerance(x, bounds=(lower, upper), margin,
// sigmoid="long_tail") with value_at_margin 0.1.
double LongTailTolerance(double x, double lower, double upper, double margin);
// reward_utils.hamacher_product(a, b).
Number HamacherProduct(Number a, Number b);
// min(max(0, effort), cap) of a float32 effort, as Python's min and max
// return one of their arguments: 0 and cap are Python numbers.
Number ClampedEffort(float effort, double cap);

// The reference's info values of a step.
struct TaskInfo {
  double success = 0.0;
  double near_object = 0.0;
  double grasp_success = 0.0;
  double grasp_reward = 0.0;
  double in_place_reward = 0.0;
  double obj_to_target = 0.0;
  double unscaled_reward = 0.0;
};

// scipy's Rotation.from_matrix(m).as_quat() of a row-major rotation matrix
// (x, y, z, w), as Meta-World observes an object's orientation.
void MatrixToQuaternion(const double* m, double* quat);

}  // namespace envpool::metaworld

#endif  // ENVPOOL_METAWORLD_TASKS_H_
