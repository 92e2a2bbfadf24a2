// The Meta-World tasks this family implements, as a table (their reference
// classes differ in constants, in how the task vector places the object
// and goal, and in the reward function), and the reward arithmetic they
// share (metaworld/utils/reward_utils.py).
#ifndef ENVPOOL_METAWORLD_TASKS_H_
#define ENVPOOL_METAWORLD_TASKS_H_

#include <array>
#include <string>
#include <vector>

#include "envpool/mujoco_common/numpy_math.h"

namespace envpool::metaworld {

// How a task turns its task vector into positions, and which reward it has.
enum class TaskKind {
  kReach,
  kReachWall,  // reach's reward, other info
  kPush,
  kPushWall,   // push around a wall: via a midpoint, then to the goal
  kPushBack,   // push toward the hand: its own caging reward
  kSweepInto,  // push-back's kind of caging, a fixed goal
  kSweep,      // sweep-into's reward, the goal off the table's edge
  kSoccer,     // the ball kicked into a goal box
  kPickPlace,
  kPickPlaceWall,
  kShelfPlace,      // pick-place onto a shelf, the shelf's front penalised   //
                    // over a wall: via a midpoint, then to the goal
  kPlateSlide,      // plate-slide: the Hamacher product of reach and place
  kPlateSlideSide,  // its -side, -back and -back-side variants' reward
  kButtonPress,
  kButtonPressWall,
  kButtonPressTopdown,
  kButtonPressTopdownWall,
  kHandlePress,  // and -side: the handle pressed down to a site
  kWindowOpen,
  kDrawerOpen,
  kCoffeeButton,  // button-press's reward, the coffee machine's placement
  kCoffeePush,    // the mug pushed to below the machine's spout
  kCoffeePull,    // and pulled away from it: coffee-push's reward
  kDoorLock,
  kDoorUnlock,
  kLeverPull,
  kHandlePull,  // handle-press's placement, a grasping reward
  kHandlePullSide,
  kHandInsert,
  // The tool tasks: two objects observed (a body's position and MuJoCo
  // quaternion, or a site's), grasped with GripperCaging.
  kHammer,         // the hammer's head to the nail, weighted by its pose
  kDisassemble,    // the wrench lifted off the peg, weighted by its pose
  kPegUnplugSide,  // the plug pulled out of the wall
  kBasketball,     // the ball to the hoop, whose goal site drifts
  kPegInsertSide,  // the peg into the box's hole, past its collision boxes
  kStickPush,      // the stick grasped, the thermos pushed with it
  kStickPull,      // the stick hooked into the thermos's handle, pulled
  kAssembly,       // disassemble's model, the wrench put onto the peg (np.log)
  // A body's position and quaternion observed, a funnel's floor (np.log).
  kBinPicking,  // the object carried from one bin into the other
  kBoxClose,    // the lid lifted onto the box
  // The tasks whose reach reward is the "gaussian" tolerance.
  kWindowClose,  // window-open's placement, the window pushed shut
  kDrawerClose,  // drawer-open's model, the drawer pulled out at reset
  kFaucetOpen,   // the handle turned to a goal beside the faucet
  kFaucetClose,
  kDoorClose,  // the door opened at reset, swung shut
  kDialTurn,
  // The tasks whose reward calls np.log (a funnel's floor).
  kDoorOpen,       // door-close's model, the door pulled open
  kPickOutOfHole,  // a grasping reward, the hand kept above the hole's edge
};

// Where a plate-slide task moves its goal marker body, puck_goal: to the
// goal, to the object's start, or nowhere (the reference writes the body's
// xpos, which the next mj_forward recomputes).
enum class PuckGoal { kNone, kTarget, kObjectStart };

// When a task's reset_model() redraws its task vector (its
// `while np.linalg.norm(...) < d` loop).
enum class Redraw {
  kNone,        // never: one draw
  kObjectGoal,  // while |vec[0:2] - vec[3:5]| < min_distance
  kFixedGoal,   // while |vec[0:2] - fixed_goal| < min_distance
};

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
  // The observed object: the geom whose orientation is observed, and
  // whether its position is the geom's (else the body "obj"'s).
  const char* object_geom = "objGeom";
  bool position_from_geom = false;
  // Plate-slide tasks: the puck's two slide joints at reset, the marker.
  std::array<double, 2> puck_qpos{};
  PuckGoal puck_goal = PuckGoal::kNone;
  // The task vector's length: 6 (object, goal) or 3 (the object only).
  int vector_size = 6;
  // Button tasks: the axis the button moves along (1: y, 2: z), the
  // observed point's offset from the body "button", success's threshold.
  int button_axis = 1;
  std::array<double, 3> button_offset{};
  double success_threshold = 0.0;
  // Handle tasks: the observed site, the target radius.
  const char* object_site = "";
  double target_radius = 0.05;
  // reset_model()'s redraw rule (tasks.cc's kRedrawRules).
  Redraw redraw = Redraw::kNone;
  double min_distance = 0.0;
  std::array<double, 2> fixed_goal{};
};

// The task of Meta-World's name; throws std::invalid_argument naming the
// implemented ones when there is none.
const TaskConfig& FindTask(const std::string& name);
// Every implemented task (the env's and the benchmarks' one source of a
// task's spaces and redraw rule).
const std::vector<TaskConfig>& Tasks();
// The task of Meta-World's ALL_V3_ENVIRONMENTS index (its task_id); throws
// std::out_of_range outside [0, 50).
const TaskConfig& TaskById(int task_id);

// One reset_model()'s task vector: _get_state_rand_vec's
// uniform(reset_low, reset_high), element by element, redrawn as the task's
// rule says. `rng` is the env's np_random (seeded_rand_vec, a
// random::Generator) or the global np.random of a benchmark's _make_tasks
// (a random::RandomState).
template <typename Rng>
std::vector<double> DrawPlacement(const TaskConfig& task, Rng* rng) {
  for (;;) {
    std::vector<double> vec(task.vector_size);
    for (int k = 0; k < task.vector_size; ++k) {
      vec[k] = rng->Uniform(task.reset_low[k], task.reset_high[k]);
    }
    if (task.redraw == Redraw::kNone) {
      return vec;
    }
    const bool fixed = task.redraw == Redraw::kFixedGoal;
    const double diff[2] = {vec[0] - (fixed ? task.fixed_goal[0] : vec[3]),
                            vec[1] - (fixed ? task.fixed_goal[1] : vec[4])};
    if (!(mujoco_common::NumpyNorm(diff, 2) < task.min_distance)) {
      return vec;
    }
  }
}

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
// reward_utils.tolerance(x, bounds=(lower, upper), margin,
// sigmoid="gaussian") with value_at_margin 0.1: numpy's np.exp and np.log
// (envpool/core/numpy_kernels.h) where the module has loaded them.
double GaussianTolerance(double x, double lower, double upper, double margin);
// `x ** 2` of a Python float or numpy float64 scalar: libm's pow (which
// now and then rounds otherwise than x * x).
double ScalarSquare(double x);
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
