#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <utility>

#include "envpool/core/numpy_kernels.h"
#include "envpool/locomotion/cmu_walker.h"
#include "envpool/locomotion/physics_render.h"
#include "envpool/locomotion/soccer.h"
#include "envpool/locomotion/soccer_humanoid.h"
#include "envpool/locomotion/task_options.h"
#include "envpool/mujoco_common/numpy_math.h"
#include "envpool/mujoco_common/physics.h"
#include "envpool/mujoco_common/state.h"

namespace envpool::locomotion {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
// soccer.load's pitch sizes for BoxHead and Ant walkers.
constexpr double kMinLength = 32, kMinWidth = 24;
constexpr double kMaxLength = 48, kMaxWidth = 36;
// initializers.py.
constexpr double kSpawnRatio = 0.6;
constexpr double kInitBallZ = 0.5;
constexpr int kMaxInitRetries = 100;
// task.py.
constexpr double kThrowInBallZ = 0.5;
constexpr int kSubSteps = 5;  // control 0.025 s / physics 0.005 s

using Key = ObservationKey;

// The prefixes of the other players as player 0 of the home team sees
// them (teammates, then opponents); every player has the same set.
std::vector<std::string> OtherPrefixes(int team_size) {
  std::vector<std::string> prefixes;
  for (int i = 0; i + 1 < team_size; ++i) {
    prefixes.push_back("teammate_" + std::to_string(i));
  }
  for (int i = 0; i < team_size; ++i) {
    prefixes.push_back("opponent_" + std::to_string(i));
  }
  return prefixes;
}

// dm_control's per-player observation keys and shapes (its buffer of one
// step is the leading 1), in the order of a home player's dict; the bool
// stats_teammate_spread_out is declared apart.
std::vector<Key> ObservationKeys(int team_size, WalkerType walker) {
  const WalkerInfo& info = GetWalkerInfo(walker);
  const auto effectors = static_cast<int64_t>(3 * info.end_effectors.size());
  const auto bodies = static_cast<int64_t>(info.bodies.size());
  const auto joints = static_cast<int64_t>(info.joints.size());
  const auto actions = static_cast<int64_t>(info.actuators.size());
  std::vector<Key> keys;
  if (walker == WalkerType::kHumanoid) {
    keys = {{"actuator_activation", {1, 0}}, {"appendages_pos", {1, 15}}};
  }
  if (walker == WalkerType::kAnt) {
    keys = {{"appendages_pos", {1, effectors}},
            {"bodies_pos", {1, 3 * bodies}},
            {"bodies_quats", {1, 4 * bodies}}};
  }
  const std::vector<Key> proprioception = {
      {"body_height", {1}},          {"end_effectors_pos", {1, effectors}},
      {"joints_pos", {1, joints}},   {"joints_vel", {1, joints}},
      {"prev_action", {1, actions}}, {"sensors_accelerometer", {1, 3}},
      {"sensors_gyro", {1, 3}},      {"sensors_velocimeter", {1, 3}},
      {"world_zaxis", {1, 3}},       {"ball_ego_angular_velocity", {1, 3}},
      {"ball_ego_position", {1, 3}}, {"ball_ego_linear_velocity", {1, 3}},
  };
  keys.insert(keys.end(), proprioception.begin(), proprioception.end());
  for (const std::string& prefix : OtherPrefixes(team_size)) {
    keys.push_back({prefix + "_ego_end_effectors_pos", {1, effectors}});
    keys.push_back({prefix + "_ego_linear_velocity", {1, 3}});
    keys.push_back({prefix + "_ego_position", {1, 3}});
    keys.push_back({prefix + "_ego_orientation", {1, 9}});
    keys.push_back({prefix + "_end_effectors_pos", {1, effectors}});
  }
  const std::vector<Key> tail = {
      {"team_goal_back_right", {1, 2}},
      {"team_goal_mid", {1, 3}},
      {"team_goal_front_left", {1, 2}},
      {"field_front_left", {1, 2}},
      {"opponent_goal_back_left", {1, 2}},
      {"opponent_goal_mid", {1, 3}},
      {"opponent_goal_front_right", {1, 2}},
      {"field_back_right", {1, 2}},
      {"stats_vel_to_ball", {1}},
      {"stats_closest_vel_to_ball", {1}},
      {"stats_veloc_forward", {1}},
      {"stats_vel_ball_to_goal", {1}},
      {"stats_home_avg_teammate_dist", {1}},
      {"stats_home_score", {1}},
      {"stats_away_score", {1}},
  };
  keys.insert(keys.end(), tail.begin(), tail.end());
  return keys;
}

// The walker of task_name soccer_<walker>.
WalkerType WalkerOf(const std::string& task) {
  if (task == "soccer_boxhead") {
    return WalkerType::kBoxHead;
  }
  if (task == "soccer_ant") {
    return WalkerType::kAnt;
  }
  if (task == "soccer_humanoid") {
    return WalkerType::kHumanoid;
  }
  throw std::invalid_argument(
      "option 'task_name' of the soccer envs must be 'soccer_boxhead', "
      "'soccer_ant' or 'soccer_humanoid', got '" +
      task + "'");
}

double Norm(const double* x, int n) { return mujoco_common::NumpyNorm(x, n); }

}  // namespace

Options SoccerEnv::DefaultOptions() {
  return LocomotionOptions("soccer_boxhead", 45.0);
}

void SoccerEnv::Declare(const Options& options, EnvSpec* spec, Fields* fields) {
  const WalkerType walker = WalkerOf(options.Get<std::string>("task_name"));
  const int64_t team_size = options.Get<int64_t>("team_size");
  if (team_size < 1 || team_size > 11) {
    throw std::invalid_argument(
        "option 'team_size' must be between 1 and 11 (players per team), "
        "got " +
        std::to_string(team_size));
  }
  CheckedTimeLimit(options);
  spec->max_num_players = static_cast<int>(2 * team_size);
  spec->snapshots = true;
  fields->obs = AddFloatObservations(
      ObservationKeys(static_cast<int>(team_size), walker), spec,
      /*per_player=*/true);
  ArraySpec spread;
  spread.name = "obs:stats_teammate_spread_out";
  spread.dtype = DType::kBool;
  spread.shape = {1};
  spread.low = {0.0};
  spread.high = {1.0};
  spread.per_player = true;
  fields->teammate_spread_out = spec->state.Add<bool>(spread);
  ArraySpec action;
  action.name = "action";
  action.dtype = DType::kFloat64;
  action.shape = {static_cast<int64_t>(GetWalkerInfo(walker).actuators.size())};
  action.low = {-1.0};
  action.high = {1.0};
  action.per_player = true;
  fields->action = spec->action.Add<double>(action);
  // The frames: the cameras of an episode's model (the pitch's size does not
  // change them).
  SoccerConfig config;
  config.team_size = static_cast<int>(team_size);
  config.walker = walker;
  CheckSoccerAssets(config);
  DeclarePhysicsRendering(
      options, kSubSteps * 0.005,
      CountCameras(SoccerXml(config, MakePitchLayout(kMinLength, kMinWidth))),
      spec);
}

SoccerEnv::SoccerEnv(const Options& options, const Fields& fields)
    : time_limit_(options.Get<double>("time_limit")),
      terminate_on_goal_(options.Get<bool>("terminate_on_goal")),
      keep_aspect_ratio_(options.Get<bool>("keep_aspect_ratio")),
      fields_(fields) {
  config_.team_size = options.Get<int>("team_size");
  config_.disable_walker_contacts =
      options.Get<bool>("disable_walker_contacts");
  config_.enable_field_box = options.Get<bool>("enable_field_box");
  config_.walker = WalkerOf(options.Get<std::string>("task_name"));
  num_players_ = 2 * config_.team_size;
  CheckSoccerAssets(config_);
  action_dim_ =
      static_cast<int>(GetWalkerInfo(config_.walker).actuators.size());
  prev_action_.assign(static_cast<std::size_t>(num_players_) * action_dim_,
                      0.0);
  const std::vector<Key> keys =
      ObservationKeys(config_.team_size, config_.walker);
  for (std::size_t i = 0; i < keys.size(); ++i) {
    obs_index_[keys[i].name] = static_cast<int>(i);
  }
}

void SoccerEnv::OnSeed(uint64_t seed) {
  random_ = random::RandomState::FromSeed(seed);
}

void SoccerEnv::BindModel() {
  const mjModel* m = model_.get();
  auto id = [m](mjtObj type, const std::string& name) {
    return mujoco_common::ObjectId(m, type, name.c_str());
  };
  auto sensor = [m, &id](const std::string& name) {
    return m->sensor_adr[id(mjOBJ_SENSOR, name)];
  };
  const int ball_joint = id(mjOBJ_JOINT, "soccer_ball/");
  ball_qpos_ = m->jnt_qposadr[ball_joint];
  ball_qvel_ = m->jnt_dofadr[ball_joint];
  ball_geom_ = id(mjOBJ_GEOM, "soccer_ball/geom");
  // pitch.py's _GOALPOSTS, each goal's ten capsules; a fresh model has them
  // in the goal's own colour.
  for (int goal = 0; goal < 2; ++goal) {
    goal_posts_[goal].clear();
    for (const char* post :
         {"right_post", "left_post", "top_post", "right_base", "left_base",
          "back_base", "right_support", "right_top_support", "left_support",
          "left_top_support"}) {
      goal_posts_[goal].push_back(
          id(mjOBJ_GEOM,
             std::string(goal == 0 ? "home_goal/" : "away_goal/") + post));
    }
  }
  ball_in_goal_ = {false, false};
  ball_linvel_sensor_ = sensor("soccer_ball/linear_velocity");
  const std::vector<std::string> names = PlayerNames(config_.team_size);
  const WalkerInfo& info = GetWalkerInfo(config_.walker);
  const bool ant = config_.walker == WalkerType::kAnt;
  const bool humanoid = config_.walker == WalkerType::kHumanoid;
  players_.assign(names.size(), Player{});
  for (std::size_t i = 0; i < names.size(); ++i) {
    Player& pl = players_[i];
    const std::string p = names[i] + "/";
    pl.home = names[i].rfind("home", 0) == 0;
    pl.root_body = id(mjOBJ_BODY, p + info.root_body);
    if (ant || humanoid) {
      const int free = id(mjOBJ_JOINT, p);
      pl.free_qpos = m->jnt_qposadr[free];
      pl.free_qvel = m->jnt_dofadr[free];
    }
    if (humanoid) {
      pl.mocap_qpos.clear();
      pl.mocap_qvel.clear();
      for (const std::string& joint : HumanoidMocapJoints()) {
        const int j = id(mjOBJ_JOINT, p + joint);
        pl.mocap_qpos.push_back(m->jnt_qposadr[j]);
        pl.mocap_qvel.push_back(m->jnt_dofadr[j]);
      }
      pl.appendage_bodies.clear();
      for (const std::string& body : info.end_effectors) {
        pl.appendage_bodies.push_back(id(mjOBJ_BODY, p + body));
      }
      pl.appendage_bodies.push_back(id(mjOBJ_BODY, p + "head"));
    } else if (!ant) {
      const int root_x = id(mjOBJ_JOINT, p + "root_x/");
      pl.root_qpos = m->jnt_qposadr[root_x];
      pl.root_qvel = m->jnt_dofadr[root_x];
      const int steer = id(mjOBJ_JOINT, p + "steer");
      const int kick = id(mjOBJ_JOINT, p + "kick");
      const int roll = id(mjOBJ_JOINT, p + "roll");
      pl.steer_qpos = m->jnt_qposadr[steer];
      pl.steer_qvel = m->jnt_dofadr[steer];
      pl.kick_qpos = m->jnt_qposadr[kick];
      pl.kick_qvel = m->jnt_dofadr[kick];
      pl.roll_qpos = m->jnt_qposadr[roll];
      pl.roll_qvel = m->jnt_dofadr[roll];
    }
    pl.joint_qpos.clear();
    pl.joint_qvel.clear();
    for (const std::string& joint : info.joints) {
      const int j = id(mjOBJ_JOINT, p + joint);
      pl.joint_qpos.push_back(m->jnt_qposadr[j]);
      pl.joint_qvel.push_back(m->jnt_dofadr[j]);
    }
    pl.ctrl = id(mjOBJ_ACTUATOR, p + info.actuators[0]);
    for (std::size_t a = 0; a < info.actuators.size(); ++a) {
      if (id(mjOBJ_ACTUATOR, p + info.actuators[a]) !=
          pl.ctrl + static_cast<int>(a)) {
        throw std::runtime_error("soccer model: the actuators of " + p +
                                 " are not consecutive");
      }
    }
    // The walker's geoms: those of its bodies (the attachment frame and
    // below).
    const int frame = id(mjOBJ_BODY, p);
    pl.geoms.clear();
    for (int g = 0; g < m->ngeom; ++g) {
      int body = m->geom_bodyid[g];
      while (body > 0 && body != frame) {
        body = m->body_parentid[body];
      }
      if (body == frame) {
        pl.geoms.push_back(g);
      }
    }
    pl.velocimeter = sensor(p + info.velocimeter);
    pl.gyro = sensor(p + info.gyro);
    pl.accelerometer = sensor(p + info.accelerometer);
    pl.end_effectors.clear();
    pl.appendages.clear();
    for (const std::string& effector : info.end_effectors) {
      pl.end_effectors.push_back(sensor(p + effector + "_end_effector"));
      if (ant) {
        pl.appendages.push_back(sensor(p + effector + "_appendage"));
      }
    }
    pl.body_pos.clear();
    pl.body_quat.clear();
    if (ant) {
      for (const std::string& body : info.bodies) {
        pl.body_pos.push_back(sensor(p + body + "_ego_body_pos"));
        pl.body_quat.push_back(sensor(p + body + "_ego_body_quat"));
      }
    }
    pl.ball_angvel = sensor(p + "ball_ego_angvel");
    pl.ball_pos = sensor(p + "ball_ego_pos");
    pl.ball_linvel = sensor(p + "ball_ego_linvel");
    pl.others.clear();
    pl.other_index.clear();
    int teammate = 0;
    int opponent = 0;
    const bool home = pl.home;
    for (std::size_t j = 0; j < names.size(); ++j) {
      if (j == i) {
        continue;
      }
      const bool other_home = names[j].rfind("home", 0) == 0;
      const std::string prefix = other_home != home
                                     ? "opponent_" + std::to_string(opponent++)
                                     : "teammate_" + std::to_string(teammate++);
      Player::Other other;
      for (const std::string& effector : info.end_effectors) {
        other.end_effectors.push_back(
            sensor(p + effector + "_" + prefix + "_end_effector"));
      }
      other.linvel = sensor(p + prefix + "_ego_linear_velocity");
      other.pos = sensor(p + prefix + "_ego_position");
      other.x = sensor(p + prefix + "_ego_orientation_x");
      other.y = sensor(p + prefix + "_ego_orientation_y");
      other.z = sensor(p + prefix + "_ego_orientation_z");
      pl.others.push_back(std::move(other));
      pl.other_index.push_back(static_cast<int>(j));
    }
  }
}

void SoccerEnv::AfterReset() {
  mujoco_common::ForwardWithoutActuation(model_.get(), data_.get());
}

void SoccerEnv::InitializeEntities() {
  const mjModel* m = model_.get();
  mjData* d = data_.get();
  const double spawn[2] = {layout_.size[0] * kSpawnRatio,
                           layout_.size[1] * kSpawnRatio};
  for (int attempt = 0;; ++attempt) {
    // The ball, at rest.
    const double bx = random_.Uniform(-spawn[0], spawn[0]);
    const double by = random_.Uniform(-spawn[1], spawn[1]);
    d->qpos[ball_qpos_] = bx;
    d->qpos[ball_qpos_ + 1] = by;
    d->qpos[ball_qpos_ + 2] = kInitBallZ;
    std::fill(d->qvel + ball_qvel_, d->qvel + ball_qvel_ + 6, 0.0);
    for (const Player& pl : players_) {
      // reinitialize_pose, then a uniform position and a uniform heading.
      if (config_.walker == WalkerType::kHumanoid) {
        PoseFromMocap(pl);
      }
      const double x = random_.Uniform(-spawn[0], spawn[0]);
      const double y = random_.Uniform(-spawn[1], spawn[1]);
      const double rotation = random_.Uniform(-M_PI, M_PI);
      InitializeWalker(pl, x, y, rotation);
    }
    mj_forward(m, d);
    // Retry while the ball or a walker touches another of them.
    auto owner = [this](int geom) {
      if (geom == ball_geom_) {
        return 0;
      }
      for (std::size_t i = 0; i < players_.size(); ++i) {
        const auto& geoms = players_[i].geoms;
        if (std::find(geoms.begin(), geoms.end(), geom) != geoms.end()) {
          return static_cast<int>(i) + 1;
        }
      }
      return -1;
    };
    bool touching = false;
    for (int c = 0; c < d->ncon && !touching; ++c) {
      const int a = owner(d->contact[c].geom[0]);
      const int b = owner(d->contact[c].geom[1]);
      touching = a >= 0 && b >= 0 && a != b;
    }
    if (!touching) {
      return;
    }
    if (attempt + 1 > kMaxInitRetries) {
      throw std::runtime_error(
          "UniformInitializer: `max_retries` (100) exceeded.");
    }
  }
}

void SoccerEnv::InitializeWalker(const Player& pl, double x, double y,
                                 double rotation) {
  const mjModel* m = model_.get();
  mjData* d = data_.get();
  const double turn[4] = {numpy_kernels::Cos(rotation / 2), 0, 0,
                          numpy_kernels::Sin(rotation / 2)};
  if (config_.walker != WalkerType::kBoxHead) {
    double* root = d->qpos + pl.free_qpos;
    if (config_.walker == WalkerType::kAnt) {
      // UprightInitializer: the joints at qpos0, the free joint at the
      // origin, upright, at rest (the joints keep their velocities).
      for (int adr : pl.joint_qpos) {
        d->qpos[adr] = m->qpos0[adr];
      }
      std::fill(root, root + 7, 0.0);
      root[3] = 1.0;
      std::fill(d->qvel + pl.free_qvel, d->qvel + pl.free_qvel + 6, 0.0);
    }  // the humanoid's pose is PoseFromMocap's
    // set_pose([x, y, z], quat) with get_pose's z and quat, then
    // shift_pose: the heading premultiplied, divided by its norm.
    root[0] = x;
    root[1] = y;
    const double current[4] = {root[3], root[4], root[5], root[6]};
    const double current_norm = mujoco_common::NumpyNorm(current, 4);
    for (int k = 0; k < 4; ++k) {
      root[3 + k] = current[k] / current_norm;
    }
    const double from[4] = {root[3], root[4], root[5], root[6]};
    double quat[4];
    mju_mulQuat(quat, turn, from);
    const double norm = mujoco_common::NumpyNorm(quat, 4);
    for (int k = 0; k < 4; ++k) {
      root[3 + k] = quat[k] / norm;
    }
    std::fill(d->qvel + pl.free_qvel, d->qvel + pl.free_qvel + 6, 0.0);
    return;
  }
  // BoxHead: reinitialize_pose (the upright pose: every joint at 0).
  std::fill(d->qpos + pl.root_qpos, d->qpos + pl.root_qpos + 3, 0.0);
  d->qpos[pl.steer_qpos] = 0.0;
  d->qpos[pl.kick_qpos] = 0.0;
  d->qpos[pl.roll_qpos] = 0.0;
  std::fill(d->qvel + pl.root_qvel, d->qvel + pl.root_qvel + 3, 0.0);
  d->qvel[pl.steer_qvel] = 0.0;
  // get_pose: the attachment frame's pos and quat in the model.
  const int frame = m->body_parentid[pl.root_body];
  const double z = m->body_pos[3 * frame + 2];
  d->qpos[pl.root_qpos] = x;
  d->qpos[pl.root_qpos + 1] = y;
  d->qpos[pl.root_qpos + 2] = z;
  const double* frame_quat = m->body_quat + 4 * frame;
  double quat[4];
  mju_mulQuat(quat, turn, frame_quat);
  // BoxHead.set_pose: joints to 0, the heading to the steer joint.
  d->qpos[pl.kick_qpos] = 0.0;
  d->qpos[pl.roll_qpos] = 0.0;
  d->qpos[pl.steer_qpos] =
      numpy_kernels::Arctan2(2 * (quat[0] * quat[3] + quat[1] * quat[2]),
                             1 - 2 * (quat[2] * quat[2] + quat[3] * quat[3]));
  std::fill(d->qvel + pl.root_qvel, d->qvel + pl.root_qvel + 3, 0.0);
  d->qvel[pl.steer_qvel] = 0.0;
}

void SoccerEnv::PoseFromMocap(const Player& pl) {
  const mjModel* m = model_.get();
  mjData* d = data_.get();
  // UprightInitializer: the joints at qpos0 (the clip sets each of them
  // below), the free joint at the upright pose, its quaternion divided by
  // numpy's norm, at rest.
  for (int adr : pl.mocap_qpos) {
    d->qpos[adr] = m->qpos0[adr];
  }
  double* root = d->qpos + pl.free_qpos;
  double* root_vel = d->qvel + pl.free_qvel;
  PlaceCmuRootUpright(root, root_vel);
  // A random frame of the whole clip (randint(num_steps)); the last one's
  // velocities are zero (trajectory.py's zero_out_velocities).
  const MocapClip& clip = HumanoidMocapClip();
  const auto frame = static_cast<int>(random_.Randint<int64_t>(0, clip.frames));
  const bool last = frame == clip.frames - 1;
  const int joints = static_cast<int>(pl.mocap_qpos.size());
  const float* qpos = clip.At("joints", frame, joints);
  const float* qvel = clip.At("joints_velocity", frame, joints);
  for (int j = 0; j < joints; ++j) {
    d->qpos[pl.mocap_qpos[j]] = static_cast<double>(qpos[j]);
    d->qvel[pl.mocap_qvel[j]] = last ? 0.0 : static_cast<double>(qvel[j]);
  }
  const float* velocity = clip.At("velocity", frame, 3);
  const float* angular = clip.At("angular_velocity", frame, 3);
  for (int k = 0; k < 3; ++k) {
    root_vel[k] = last ? 0.0 : static_cast<double>(velocity[k]);
    root_vel[3 + k] = last ? 0.0 : static_cast<double>(angular[k]);
  }
}

void SoccerEnv::UpdateDetectors() {
  const double* xpos = data_->geom_xpos + 3 * ball_geom_;
  auto in_goal = [xpos](const std::array<double, 3>& lower,
                        const std::array<double, 3>& upper) {
    for (int i = 0; i < 3; ++i) {
      if (!(lower[i] < xpos[i]) || !(upper[i] > xpos[i])) {
        return false;
      }
    }
    return true;
  };
  // The goals keep a detection through the substeps of a step; their
  // posts change colour when the ball enters or leaves the zone.
  const bool in_home = in_goal(layout_.home_lower, layout_.home_upper);
  const bool in_away = in_goal(layout_.away_lower, layout_.away_upper);
  home_goal_detected_ = home_goal_detected_ || in_home;
  away_goal_detected_ = away_goal_detected_ || in_away;
  for (int goal = 0; goal < 2; ++goal) {
    const bool in = goal == 0 ? in_home : in_away;
    if (in != ball_in_goal_[goal]) {
      ColourGoalPosts(goal, in);
      ball_in_goal_[goal] = in;
    }
  }
  if (!config_.enable_field_box) {
    bool in_field = true;
    for (int i = 0; i < 2; ++i) {
      if (!(layout_.field_lower[i] < xpos[i]) ||
          !(layout_.field_upper[i] > xpos[i])) {
        in_field = false;
      }
    }
    off_field_ = !in_field;
  }
}

void SoccerEnv::ColourGoalPosts(int goal, bool detected) {
  // Goal.goalpost_rgba and goalpost_detected_rgba: the detector's rgba
  // (home (.2, .2, 1), away (1, .2, .2)) or PositionDetector's default
  // detected_rgba (0, 1, 0), opaque.
  static constexpr float kOwn[2][4] = {{.2f, .2f, 1.f, 1.f},
                                       {1.f, .2f, .2f, 1.f}};
  static constexpr float kDetected[4] = {0.f, 1.f, 0.f, 1.f};
  const float* rgba = detected ? kDetected : kOwn[goal];
  for (int geom : goal_posts_[goal]) {
    std::copy(rgba, rgba + 4, model_->geom_rgba + 4 * geom);
  }
}

SoccerEnv::Team SoccerEnv::DetectedGoal() const {
  if (home_goal_detected_) {
    return Team::kAway;
  }
  if (away_goal_detected_) {
    return Team::kHome;
  }
  return Team::kNone;
}

void SoccerEnv::Reset() {
  // RandomizedPitch.initialize_episode_mjcf, called twice (see the header).
  double len_ratio = 0.0;
  double wid_ratio = 0.0;
  for (int call = 0; call < 2; ++call) {
    len_ratio = random_.Uniform(0.0, 1.0);
    wid_ratio = keep_aspect_ratio_ ? len_ratio : random_.Uniform(0.0, 1.0);
  }
  if (config_.walker == WalkerType::kHumanoid) {
    const auto min = HumanoidPitchSize(config_.team_size, false);
    const auto max = HumanoidPitchSize(config_.team_size, true);
    layout_ = MakePitchLayout(min[0] + len_ratio * (max[0] - min[0]),
                              min[1] + wid_ratio * (max[1] - min[1]),
                              kMiniFootballGoalSize);
  } else {
    layout_ =
        MakePitchLayout(kMinLength + len_ratio * (kMaxLength - kMinLength),
                        kMinWidth + wid_ratio * (kMaxWidth - kMinWidth));
  }
  model_ = SoccerModel(config_, layout_);
  model_stamp_ = render::NewStamp();
  data_.reset(mj_makeData(model_.get()));
  if (data_ == nullptr) {
    throw std::runtime_error("cannot allocate MuJoCo data");
  }
  BindModel();
  // Physics.reset_context: reset and forward, initialize_episode, forward.
  mj_resetData(model_.get(), data_.get());
  AfterReset();
  if (config_.walker == WalkerType::kHumanoid) {
    // Task.initialize_episode reinitializes every walker's pose before the
    // initializer does it again.
    for (const Player& pl : players_) {
      PoseFromMocap(pl);
    }
  }
  InitializeEntities();
  off_field_ = false;
  UpdateDetectors();
  std::fill(prev_action_.begin(), prev_action_.end(), 0.0);
  AfterReset();
  scored_ = Team::kNone;
  reward_ = 0.0;
  terminated_ = false;
  truncated_ = false;
}

void SoccerEnv::Step(const ActionView& action) {
  if (data_ == nullptr) {
    throw std::runtime_error("the soccer env has no episode: its reset failed");
  }
  mjData* d = data_.get();
  for (int p = 0; p < num_players_; ++p) {
    const double* a = action.Get(fields_.action, p);
    std::copy(a, a + action_dim_, d->ctrl + players_[p].ctrl);
    std::copy(
        a, a + action_dim_,
        prev_action_.begin() + static_cast<std::ptrdiff_t>(p) * action_dim_);
  }
  if (off_field_) {
    // Task._throw_in: the ball back in, nearer the centre, at rest.
    const double x = d->geom_xpos[3 * ball_geom_];
    const double y = d->geom_xpos[3 * ball_geom_ + 1];
    const double shrink_x = random_.Uniform(0.7, 0.9);
    const double shrink_y = random_.Uniform(0.7, 0.9);
    d->qpos[ball_qpos_] = x * shrink_x;
    d->qpos[ball_qpos_ + 1] = y * shrink_y;
    d->qpos[ball_qpos_ + 2] = kThrowInBallZ;
    std::fill(d->qvel + ball_qvel_, d->qvel + ball_qvel_ + 6, 0.0);
  }
  home_goal_detected_ = false;
  away_goal_detected_ = false;
  off_field_ = false;
  for (int i = 0; i < kSubSteps; ++i) {
    mj_step2(model_.get(), d);
    mj_step1(model_.get(), d);
    UpdateDetectors();
  }
  scored_ = DetectedGoal();
  if (!terminate_on_goal_ && scored_ != Team::kNone) {
    // MultiturnTask.after_step: a new kick-off, the game goes on.
    InitializeEntities();
  }
  const bool goal_ends = terminate_on_goal_ && scored_ != Team::kNone;
  const bool time_up = d->time >= time_limit_;
  terminated_ = goal_ends;
  truncated_ = time_up && !goal_ends;
}

void SoccerEnv::WriteReward(const Output& out) const {
  if (data_ == nullptr) {
    return;
  }
  for (int p = 0; p < num_players_; ++p) {
    double r = 0.0;
    if (scored_ != Team::kNone) {
      const bool home_scored = scored_ == Team::kHome;
      r = players_[p].home == home_scored ? 1.0 : -1.0;
    }
    out.SetReward(r, p);
  }
}

double* SoccerEnv::Obs(const Output& out, const char* key, int p) const {
  return out.Get(fields_.obs[obs_index_.at(key)], p);
}

void SoccerEnv::Render(int width, int height, int camera_id, uint8_t* rgb) {
  RenderPhysics(&frame_renderer_, model_.get(), model_stamp_, 0, data_.get(),
                width, height, camera_id, rgb);
}

void SoccerEnv::Write(const Output& out) {
  if (data_ == nullptr) {
    return;  // a reset that failed: its error is what the caller sees
  }
  for (int p = 0; p < num_players_; ++p) {
    WritePlayer(out, p);
  }
}

void SoccerEnv::WritePlayer(const Output& out, int p) const {
  const mjData* d = data_.get();
  const Player& pl = players_[p];
  const double* xpos = d->xpos + 3 * pl.root_body;
  const double* xmat = d->xmat + 9 * pl.root_body;
  auto copy = [&](const char* key, const double* from, int n) {
    std::copy(from, from + n, Obs(out, key, p));
  };
  // Sensors of `n` values each, one after another into the key's row.
  auto copy_sensors = [&](const std::string& key, const std::vector<int>& adrs,
                          int n) {
    double* to = Obs(out, key.c_str(), p);
    for (int adr : adrs) {
      to = std::copy(Sensor(adr), Sensor(adr) + n, to);
    }
  };
  if (config_.walker == WalkerType::kHumanoid) {
    // appendages_pos: the end effectors and the head in the root's frame.
    double* to = Obs(out, "appendages_pos", p);
    for (int body : pl.appendage_bodies) {
      const double* at = d->xpos + 3 * body;
      const double delta[3] = {at[0] - xpos[0], at[1] - xpos[1],
                               at[2] - xpos[2]};
      for (int j = 0; j < 3; ++j) {
        *to++ = delta[0] * xmat[j] + delta[1] * xmat[3 + j] +
                delta[2] * xmat[6 + j];
      }
    }
  }
  if (config_.walker == WalkerType::kAnt) {
    copy_sensors("appendages_pos", pl.appendages, 3);
    copy_sensors("bodies_pos", pl.body_pos, 3);
    copy_sensors("bodies_quats", pl.body_quat, 4);
  }
  Obs(out, "body_height", p)[0] = xpos[2];
  copy_sensors("end_effectors_pos", pl.end_effectors, 3);
  {
    double* qpos = Obs(out, "joints_pos", p);
    double* qvel = Obs(out, "joints_vel", p);
    for (std::size_t j = 0; j < pl.joint_qpos.size(); ++j) {
      qpos[j] = d->qpos[pl.joint_qpos[j]];
      qvel[j] = d->qvel[pl.joint_qvel[j]];
    }
  }
  copy("prev_action",
       prev_action_.data() + static_cast<std::ptrdiff_t>(p) * action_dim_,
       action_dim_);
  copy("sensors_accelerometer", Sensor(pl.accelerometer), 3);
  copy("sensors_gyro", Sensor(pl.gyro), 3);
  copy("sensors_velocimeter", Sensor(pl.velocimeter), 3);
  copy("world_zaxis", xmat + 6, 3);
  copy("ball_ego_angular_velocity", Sensor(pl.ball_angvel), 3);
  copy("ball_ego_position", Sensor(pl.ball_pos), 3);
  copy("ball_ego_linear_velocity", Sensor(pl.ball_linvel), 3);
  int teammate = 0;
  int opponent = 0;
  for (std::size_t k = 0; k < pl.others.size(); ++k) {
    const Player& other = players_[pl.other_index[k]];
    const std::string prefix = other.home != pl.home
                                   ? "opponent_" + std::to_string(opponent++)
                                   : "teammate_" + std::to_string(teammate++);
    const Player::Other& s = pl.others[k];
    copy_sensors(prefix + "_ego_end_effectors_pos", s.end_effectors, 3);
    copy((prefix + "_ego_linear_velocity").c_str(), Sensor(s.linvel), 3);
    copy((prefix + "_ego_position").c_str(), Sensor(s.pos), 3);
    double* orientation = Obs(out, (prefix + "_ego_orientation").c_str(), p);
    int a = 0;
    for (int axis : {s.x, s.y, s.z}) {
      std::copy(Sensor(axis), Sensor(axis) + 3, orientation + 3 * a++);
    }
    copy_sensors(prefix + "_end_effectors_pos", other.end_effectors, 3);
  }
  // The goals and the field's corners, egocentric (walker frame), named as
  // the player faces the opponent goal.
  std::array<double, 3> home_mid, away_mid;
  for (int i = 0; i < 3; ++i) {
    home_mid[i] = (layout_.home_lower[i] + layout_.home_upper[i]) / 2.;
    away_mid[i] = (layout_.away_lower[i] + layout_.away_upper[i]) / 2.;
  }
  struct Feature {
    const double* vec;
    int n;
  };
  std::array<Feature, 8> features{{
      {layout_.home_lower.data(), 2},
      {home_mid.data(), 3},
      {layout_.home_upper.data(), 2},
      {layout_.field_upper.data(), 2},
      {layout_.away_upper.data(), 2},
      {away_mid.data(), 3},
      {layout_.away_lower.data(), 2},
      {layout_.field_lower.data(), 2},
  }};
  if (!pl.home) {
    std::rotate(features.begin(), features.begin() + 4, features.end());
  }
  static const char* const kArenaKeys[8] = {
      "team_goal_back_right",      "team_goal_mid",
      "team_goal_front_left",      "field_front_left",
      "opponent_goal_back_left",   "opponent_goal_mid",
      "opponent_goal_front_right", "field_back_right"};
  for (int f = 0; f < 8; ++f) {
    const int n = features[f].n;
    double delta[3];
    for (int i = 0; i < n; ++i) {
      delta[i] = features[f].vec[i] - xpos[i];
    }
    double* o = Obs(out, kArenaKeys[f], p);
    for (int j = 0; j < n; ++j) {
      double v = 0.0;
      for (int i = 0; i < n; ++i) {
        v += delta[i] * xmat[3 * i + j];
      }
      o[j] = v;
    }
  }
  // Statistics.
  const double* ball = d->geom_xpos + 3 * ball_geom_;
  auto vel_to_ball = [&](const Player& who) {
    const double* at = d->xpos + 3 * who.root_body;
    const double dir[2] = {ball[0] - at[0], ball[1] - at[1]};
    const double norm = Norm(dir, 2) + 1e-7;
    const double* cvel = d->cvel + 6 * who.root_body;
    return dir[0] / norm * cvel[3] + dir[1] / norm * cvel[4];
  };
  auto dist = [&](const double* a, const double* b) {
    const double diff[3] = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
    return Norm(diff, 3);
  };
  Obs(out, "stats_vel_to_ball", p)[0] = vel_to_ball(pl);
  int closest = -1;
  double min_dist = kInf;
  for (int q = 0; q < num_players_; ++q) {
    if (players_[q].home != pl.home) {
      continue;
    }
    const double to_ball = dist(ball, d->xpos + 3 * players_[q].root_body);
    if (to_ball < min_dist) {
      min_dist = to_ball;
      closest = q;
    }
  }
  Obs(out, "stats_closest_vel_to_ball", p)[0] =
      closest == p ? vel_to_ball(pl) : 0.0;
  Obs(out, "stats_veloc_forward", p)[0] = Sensor(pl.velocimeter)[0];
  {
    const auto& lower = pl.home ? layout_.away_lower : layout_.home_lower;
    const auto& upper = pl.home ? layout_.away_upper : layout_.home_upper;
    double direction[3];
    for (int i = 0; i < 3; ++i) {
      direction[i] = (upper[i] + lower[i]) / 2. - ball[i];
    }
    const double norm = Norm(direction, 3);
    const double* ball_vel = Sensor(ball_linvel_sensor_);
    double v = 0.0;
    for (int i = 0; i < 3; ++i) {
      v += (norm != 0.0 ? direction[i] / norm : direction[i]) * ball_vel[i];
    }
    Obs(out, "stats_vel_ball_to_goal", p)[0] = v;
  }
  double dist_sum = 0.0;
  int teammates = 0;
  for (int q = 0; q < num_players_; ++q) {
    if (q == p || players_[q].home != pl.home) {
      continue;
    }
    dist_sum += dist(xpos, d->xpos + 3 * players_[q].root_body);
    ++teammates;
  }
  const double avg = teammates > 0 ? dist_sum / teammates : 0.0;
  Obs(out, "stats_home_avg_teammate_dist", p)[0] = avg;
  out.Get(fields_.teammate_spread_out, p)[0] = avg > 5.;
  const Team goal = DetectedGoal();
  const Team mine = pl.home ? Team::kHome : Team::kAway;
  Obs(out, "stats_home_score", p)[0] =
      goal != Team::kNone && goal == mine ? 1.0 : 0.0;
  Obs(out, "stats_away_score", p)[0] =
      goal != Team::kNone && goal != mine ? 1.0 : 0.0;
}

std::vector<double> SoccerEnv::GetState() const {
  return mujoco_common::SimulationState(model_.get(), data_.get());
}

void SoccerEnv::SaveState(StateWriter* writer) const {
  const bool has_episode = data_ != nullptr;
  writer->Put(random_, has_episode);
  if (!has_episode) {
    return;
  }
  std::vector<mjtNum> state;
  mujoco_common::GetIntegrationState(model_.get(), data_.get(), &state);
  const std::vector<mjtNum> sensors(data_->sensordata,
                                    data_->sensordata + model_->nsensordata);
  writer->Put(layout_, state, sensors, home_goal_detected_, away_goal_detected_,
              off_field_, scored_, prev_action_, ball_in_goal_[0],
              ball_in_goal_[1]);
}

void SoccerEnv::LoadState(StateReader* reader) {
  random::RandomState random{uint32_t{0}};
  bool has_episode = false;
  reader->Get(&random, &has_episode);
  if (!has_episode) {
    random_ = random;
    model_.reset();
    data_.reset();
    return;
  }
  PitchLayout layout;
  std::vector<mjtNum> state, sensors, prev_action;
  bool home_goal = false, away_goal = false, off_field = false;
  Team scored = Team::kNone;
  bool in_home = false, in_away = false;
  reader->Get(&layout, &state, &sensors, &home_goal, &away_goal, &off_field,
              &scored, &prev_action, &in_home, &in_away);
  if (prev_action.size() != prev_action_.size() ||
      (scored != Team::kNone && scored != Team::kHome &&
       scored != Team::kAway)) {
    throw SnapshotError("the soccer state is not of these options");
  }
  // The episode's model: this env's when it plays the same pitch, else
  // built from the saved one (the model is the options' and the pitch's).
  const bool same_pitch =
      model_ != nullptr &&
      std::memcmp(&layout, &layout_, sizeof(PitchLayout)) == 0;
  mujoco_common::ModelPtr model;
  mujoco_common::DataPtr data;
  if (!same_pitch) {
    model = SoccerModel(config_, layout);
    data.reset(mj_makeData(model.get()));
    if (data == nullptr) {
      throw std::runtime_error("cannot allocate MuJoCo data");
    }
  }
  const mjModel* m = same_pitch ? model_.get() : model.get();
  if (static_cast<int>(state.size()) !=
          mj_stateSize(m, mujoco_common::kIntegrationState) ||
      static_cast<int>(sensors.size()) != m->nsensordata) {
    throw SnapshotError("the soccer state is not of this model");
  }
  if (!same_pitch) {
    model_ = std::move(model);
    model_stamp_ = render::NewStamp();
    data_ = std::move(data);
    layout_ = layout;
    BindModel();
  }
  random_ = random;
  home_goal_detected_ = home_goal;
  away_goal_detected_ = away_goal;
  off_field_ = off_field;
  scored_ = scored;
  prev_action_ = prev_action;
  ball_in_goal_ = {in_home, in_away};
  ColourGoalPosts(0, in_home);
  ColourGoalPosts(1, in_away);
  mujoco_common::SetIntegrationState(model_.get(), data_.get(), state);
  mj_step1(model_.get(), data_.get());
  // The accelerometer and touch sensors as the last mj_step2 (or the
  // forward pass of a reset or a kick-off) left them; the others are what
  // mj_step1 recomputed.
  std::copy(sensors.begin(), sensors.end(), data_->sensordata);
}

}  // namespace envpool::locomotion
