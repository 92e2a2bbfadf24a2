// dm_control 1.0.50's multi-player soccer (dm_control.locomotion.soccer.load)
// with BoxHead walkers, as Composer runs it:
//
// - each reset draws the pitch size (RandomizedPitch, whose
//   initialize_episode_mjcf Composer calls twice: the task's own call and
//   the arena's entity hook, so the second pair of draws is the size), then
//   compiles that episode's model (soccer_model.h) and places the ball and
//   the walkers (UniformInitializer, redrawn while any of them touch);
// - a step sets every player's controls, throws the ball in when it left
//   the field at the previous step, and runs 5 physics steps of 5 ms
//   (dm_control's legacy step), the goal and field detectors looking at the
//   ball after each;
// - one row per player in dm_control's order (home0, home1, away0, away1),
//   each with dm_control's per-player observation dict and reward (+1 when
//   the player's team scored, -1 when it conceded); a goal ends the episode
//   with discount 0 (terminated) unless terminate_on_goal is false, and the
//   time limit ends it with discount 1 (truncated);
// - randomness from numpy's RandomState(seed), the env's random_state.
#ifndef ENVPOOL_LOCOMOTION_SOCCER_H_
#define ENVPOOL_LOCOMOTION_SOCCER_H_

#include <mujoco/mujoco.h>

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "envpool/core/env.h"
#include "envpool/core/random.h"
#include "envpool/core/snapshot.h"
#include "envpool/locomotion/soccer_model.h"
#include "envpool/mujoco_common/model.h"
#include "envpool/render/mujoco_egl.h"

namespace envpool::locomotion {

class SoccerEnv : public Env {
 public:
  struct Fields {
    // In the order of SoccerObservationKeys.
    std::vector<Field<double>> obs;
    Field<bool> teammate_spread_out;
    Field<double> action;
  };

  static Options DefaultOptions();
  static void Declare(const Options& options, EnvSpec* spec, Fields* fields);
  SoccerEnv(const Options& options, const Fields& fields);

  void Reset() override;
  void Step(const ActionView& action) override;
  void Write(const Output& out) override;
  // render_mode="rgb_array": dm_control's Physics.render
  // (physics_render.h).
  void Render(int width, int height, int camera_id, uint8_t* rgb) override;
  void WriteReward(const Output& out) const override;
  int NumPlayers() const override { return num_players_; }

  // Test hooks: qpos, qvel, act and qacc_warmstart of this episode's model.
  std::vector<double> GetState() const override;

  // Snapshots: the env's RandomState, the episode's pitch (its model is
  // rebuilt from it when the target env plays another pitch), MuJoCo's
  // integration state (mujoco_common/state.h), the sensor readings (the
  // accelerometer and touch sensors are what the last mj_step2 computed,
  // before its integration), the detectors and the last actions. LoadState
  // runs mj_step1 to derive positions and velocities (what the observation,
  // a throw-in and the next mj_step2 read); the rest the next mj_step2
  // recomputes before anything reads it, also after a reset's forward
  // pass.
  void SaveState(StateWriter* writer) const override;
  void LoadState(StateReader* reader) override;

 private:
  // The frames of render(): the env's own render context, and a stamp for
  // each model it compiles.
  std::unique_ptr<render::ModelRenderer> frame_renderer_;
  uint64_t model_stamp_ = 0;
  // A player's element ids and addresses in the episode's model.
  struct Player {
    bool home = true;
    int root_body = -1;  // the egocentric frame (head_body, torso)
    // BoxHead: root slide joints (x, y, z), steer, kick and roll.
    int root_qpos = -1;
    int root_qvel = -1;
    int steer_qpos = -1, steer_qvel = -1;
    int kick_qpos = -1, kick_qvel = -1;
    int roll_qpos = -1, roll_qvel = -1;
    // Ant and humanoid: the attachment frame's free joint.
    int free_qpos = -1, free_qvel = -1;
    // Humanoid: the joints the mocap clip poses (in its order), and the
    // bodies of appendages_pos (the end effectors, then the head).
    std::vector<int> mocap_qpos, mocap_qvel;
    std::vector<int> appendage_bodies;
    // The observable joints (joints_pos, joints_vel), their qpos0.
    std::vector<int> joint_qpos, joint_qvel;
    int ctrl = -1;  // the first actuator; the walker's are consecutive
    std::vector<int> geoms;
    int velocimeter = -1, gyro = -1, accelerometer = -1;
    std::vector<int> end_effectors;  // sensors, 3 each
    // The Ant's appendages_pos, bodies_pos (3 each), bodies_quats (4 each).
    std::vector<int> appendages, body_pos, body_quat;
    int ball_angvel = -1, ball_pos = -1, ball_linvel = -1;
    // Per other player, in dm_control's order: its end effectors, linear
    // velocity, position, orientation x, y, z in this player's frame.
    struct Other {
      std::vector<int> end_effectors;
      int linvel = -1, pos = -1, x = -1, y = -1, z = -1;
    };
    std::vector<Other> others;
    std::vector<int> other_index;
  };
  enum class Team { kNone, kHome, kAway };

  void OnSeed(uint64_t seed) override;
  void BindModel();
  void AfterReset();          // mj_forward with actuation disabled
  void InitializeEntities();  // UniformInitializer
  void InitializeWalker(const Player& pl, double x, double y, double rotation);
  // CMUMocapInitializer.initialize_pose of a humanoid: upright, then the
  // joints and the root's velocity of a random frame of the clip.
  void PoseFromMocap(const Player& pl);
  void UpdateDetectors();
  // The posts of goal `goal` (0 home, 1 away) in its detected colour or
  // its own.
  void ColourGoalPosts(int goal, bool detected);
  Team DetectedGoal() const;
  void WritePlayer(const Output& out, int p) const;
  double* Obs(const Output& out, const char* key, int p) const;
  const double* Sensor(int adr) const { return data_->sensordata + adr; }

  SoccerConfig config_;
  double time_limit_;
  bool terminate_on_goal_;
  bool keep_aspect_ratio_;
  int num_players_;
  Fields fields_;
  // obs key -> index in fields_.obs.
  std::map<std::string, int> obs_index_;
  random::RandomState random_{uint32_t{0}};

  PitchLayout layout_;
  mujoco_common::ModelPtr model_;
  mujoco_common::DataPtr data_;
  std::vector<Player> players_;
  int ball_qpos_ = -1, ball_qvel_ = -1, ball_geom_ = -1;
  int ball_linvel_sensor_ = -1;
  // Detection of the ball by the goals (kept through the substeps of a
  // step, and, as dm_control keeps them, into the next episode's reset) and
  // by the inverted field detector (ball off the field).
  bool home_goal_detected_ = false;
  bool away_goal_detected_ = false;
  bool off_field_ = false;
  // Each goal's detector (home, away) as its last substep left it: whether
  // the ball was in its zone. Goal._update_detection recolours the goal's
  // posts when that changes (seen in frames only).
  std::array<bool, 2> ball_in_goal_{};
  std::array<std::vector<int>, 2> goal_posts_;
  // Each player's last action (action_dim_ values per player).
  std::vector<double> prev_action_;
  int action_dim_ = 3;
  Team scored_ = Team::kNone;
};

}  // namespace envpool::locomotion

#endif  // ENVPOOL_LOCOMOTION_SOCCER_H_
