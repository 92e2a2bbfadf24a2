// gymnasium-robotics' PointMaze (envs/maze/point_maze.py on maze_v4.py's
// MazeEnv): a force-actuated ball in a maze of box walls, goal-conditioned.
//
// The model is assets/point/point.xml with one box per wall cell and the
// goal marker site appended to its worldbody, as Maze.make_maze writes it.
// A reset draws, from np_random_ in the reference's order: the goal cell
// (integers), its noise (two uniforms), reset cells until one is farther
// than 0.5 x scaling from the goal, and that cell's noise. A step clips the
// action to [-1, 1], clips the ball's velocity to [-5, 5] (then mj_forward,
// as set_state does), steps frame_skip times; the reward is exp(-d)
// (dense) or d <= 0.45 (sparse) against the goal before update_goal, which
// (continuing_task and reset_target) draws a new goal once reached.
#ifndef ENVPOOL_ROBOTICS_POINT_MAZE_H_
#define ENVPOOL_ROBOTICS_POINT_MAZE_H_

#include <mujoco/mujoco.h>

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "envpool/core/env.h"
#include "envpool/mujoco_common/model.h"
#include "envpool/mujoco_common/model_view.h"
#include "envpool/robotics/goal_env.h"

namespace envpool::robotics {

// A maze of maps.py: its cells and the model built from it.
struct Maze {
  // One string per row: '1' wall, '0' free, 'r' reset, 'g' goal, 'c' both.
  std::vector<std::string> rows;
  double scaling = 1.0;
  double height = 0.4;
  // Cell centres (x, y) a goal or a reset may be drawn from, in the
  // reference's order (row by row; combined cells last).
  std::vector<std::array<double, 2>> goal_locations;
  std::vector<std::array<double, 2>> reset_locations;
  // point.xml with the walls and the target site.
  std::string xml;
};

// The maze of the option maze_map (a name of maps.py: U_MAZE, OPEN,
// OPEN_DIVERSE_G, ..., LARGE_MAZE_DIVERSE_GR) at the given scaling and
// height; throws std::invalid_argument naming the valid maps.
Maze MakeMaze(const std::string& maze_map, double scaling, double height);

class PointMazeEnv : public Env {
 public:
  struct Fields {
    GoalFields goal;
    Field<bool> success;     // the reference's info["success"]
    Field<bool> is_success;  // the same, under the goal envs' usual name
  };
  static Options DefaultOptions();
  static void Declare(const Options& options, EnvSpec* spec, Fields* fields);
  PointMazeEnv(const Options& options, const Fields& fields);

  void Reset() override;
  void Step(const ActionView& action) override;
  void Write(const Output& out) override;
  void Render(int width, int height, int camera_id, uint8_t* rgb) override;

  void SaveState(StateWriter* writer) const override;
  void LoadState(StateReader* reader) override;

  // Test hooks: qpos (2), qvel (2), qacc_warmstart (2), then the goal (2).
  std::vector<double> GetState() const override;
  void SetState(const std::vector<double>& state) override;

 private:
  std::array<double, 2> GenerateTargetGoal();
  std::array<double, 2> GenerateResetPos();
  void AddPositionNoise(std::array<double, 2>* xy);
  void UpdateTargetSitePos();
  double GoalDistance() const;  // np.linalg.norm(achieved - goal)
  void Observe();

  Fields fields_;
  Maze maze_;
  // Shared by the process's envs of this maze but for site_pos (the goal
  // marker moves), which this env writes.
  mujoco_common::ModelView model_;
  mujoco_common::DataPtr data_;
  int target_site_ = -1;
  int frame_skip_;
  bool dense_;
  bool continuing_task_;
  bool reset_target_;
  double position_noise_range_;
  std::array<double, 2> goal_{};
  std::array<double, 4> observation_{};
  std::array<double, 2> desired_goal_{};  // the goal the last step was paid for
  bool success_ = false;
  bool has_camera_ = false;
  mjvCamera camera_{};
};

}  // namespace envpool::robotics

#endif  // ENVPOOL_ROBOTICS_POINT_MAZE_H_
