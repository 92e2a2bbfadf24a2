#include "envpool/locomotion/cmu_maze.h"

#include <mujoco/mujoco.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include "envpool/locomotion/go_to_target.h"
#include "envpool/locomotion/maze_task.h"
#include "envpool/locomotion/physics_render.h"
#include "envpool/locomotion/soccer_model.h"
#include "envpool/locomotion/task_options.h"
#include "envpool/mujoco_common/physics.h"
#include "envpool/mujoco_common/state.h"

namespace envpool::locomotion {
namespace {

const char* const kWalkerModel = "walkers/humanoid_CMU_V2019.xml";

// The files an episode's model reads from the asset folder: the walker's,
// labmaze's skybox, a wall texture and a floor texture (each style's
// others are beside them).
std::vector<std::string> ModelFiles(const MazeArenaSpec& spec) {
  return {kWalkerModel, "labmaze/" + spec.sky_style + "/up.png",
          "labmaze/" + spec.wall_style + "/wall_" + spec.wall_textures[0] +
              "_d.png",
          "labmaze/" + spec.floor_style + "/floor_" + spec.floor_textures[0] +
              "_d.png"};
}

mujoco_common::ModelPtr EpisodeModel(const CmuMazeTask& task,
                                     const MazeEpisode& episode) {
  const MazeArenaSpec& spec = task.arena();
  return CompileCmuMaze(
      WriteMazeArena(spec, episode, "labmaze/" + spec.wall_style,
                     "labmaze/" + spec.sky_style),
      task.physics_timestep);
}

mujoco_common::DataPtr MakeData(const mjModel* model) {
  mujoco_common::DataPtr data(mj_makeData(model));
  if (data == nullptr) {
    throw std::runtime_error("cannot allocate the MuJoCo data");
  }
  return data;
}

// How many targets of each type `model` has (target_<type>_<i>/geom).
std::vector<int> TargetsPerType(const mjModel* model) {
  std::vector<int> counts;
  for (int type = 0;; ++type) {
    int count = 0;
    while (mj_name2id(model, mjOBJ_GEOM,
                      ("target_" + std::to_string(type) + "_" +
                       std::to_string(count) + "/geom")
                          .c_str()) >= 0) {
      ++count;
    }
    if (count == 0) {
      return counts;
    }
    counts.push_back(count);
  }
}

}  // namespace

const CmuMazeTask& CmuMazeForageTask() {
  // ManyGoalsMaze(target_reward_scale=50, physics_timestep=0.005,
  // control_timestep=0.03), composer.Environment(time_limit=30).
  static const CmuMazeTask task{"cmu_humanoid_maze_forage",
                                30.0,
                                &CmuHumanoidMazeForageArena,
                                {50.0},
                                0.0,
                                true,
                                0.005,
                                6};
  return task;
}

const CmuMazeTask& CmuHeterogeneousForageTask() {
  // ManyHeterogeneousGoalsMaze(target_type_rewards=[30, -10],
  // randomize_spawn_rotation=False, aliveness_reward=0.01,
  // control_timestep=0.03; the default physics_timestep of 0.001),
  // composer.Environment(time_limit=25).
  static const CmuMazeTask task{"cmu_humanoid_heterogeneous_forage",
                                25.0,
                                &CmuHumanoidHeterogeneousForageArena,
                                {30.0, -10.0},
                                0.01,
                                false,
                                0.001,
                                30};
  return task;
}

std::string CmuMazeXml(const MazeArenaXml& arena, double physics_timestep) {
  CmuArenaXml cmu;
  cmu.model = arena.model;
  cmu.timestep = physics_timestep;
  // MazeWithTargets sets the headlight and the near clip plane.
  cmu.headlight =
      "ambient=\"0.29999999999999999 0.29999999999999999 "
      "0.29999999999999999\" diffuse=\"0.59999999999999998 "
      "0.59999999999999998 0.59999999999999998\" specular=\"0 0 0\"";
  cmu.map = "znear=\"0.00050000000000000001\"";
  cmu.defaults_before = arena.defaults_before;
  cmu.defaults_after = arena.defaults_after;
  cmu.assets = arena.assets_before;
  cmu.assets_after = arena.assets_after;
  cmu.before_walker = arena.worldbody_before;
  cmu.after_walker = arena.worldbody_after;
  return CmuHumanoidTaskXml(cmu);
}

mujoco_common::ModelPtr CompileCmuMaze(const MazeArenaXml& arena,
                                       double physics_timestep) {
  // The text as a file of the asset folder: its texture files are read from
  // there.
  return mujoco_common::CompileText(
      envpool::FamilyAssetDir(LocomotionAssets().family) +
          "/cmu_humanoid_maze.xml",
      CmuMazeXml(arena, physics_timestep),
      "the CMU humanoid maze's MuJoCo model");
}

namespace {

// How many cameras the task's models have (those of its first episode of
// seed 0: every episode's model has the walker's and the arena's).
int TaskCameras(const CmuMazeTask& task) {
  const MazeArenaSpec& spec = task.arena();
  random::RandomState global_random{uint32_t{0}}, random{uint32_t{0}};
  MazeEpisode episode;
  if (!spec.fixed_layout.empty()) {
    FixedMaze maze(spec.fixed_layout, spec.fixed_spawns, spec.fixed_objects);
    maze.Regenerate(&global_random);
    episode = DrawMazeEpisode(spec, &maze, &global_random, &random);
  } else {
    LabMaze maze(spec.maze, 0);
    episode = DrawMazeEpisode(spec, &maze, &global_random, &random);
  }
  return CountCameras(
      CmuMazeXml(WriteMazeArena(spec, episode, "labmaze/" + spec.wall_style,
                                "labmaze/" + spec.sky_style),
                 task.physics_timestep));
}

}  // namespace

Options CmuMazeEnv::TaskOptions(const CmuMazeTask& task) {
  return LocomotionOptions(task.name, task.time_limit);
}

void CmuMazeEnv::DeclareTask(const CmuMazeTask& task, const Options& options,
                             EnvSpec* spec, Fields* fields) {
  const std::string name = options.Get<std::string>("task_name");
  if (name != task.name) {
    throw std::invalid_argument("option 'task_name' of this id must be '" +
                                task.name + "', got '" + name + "'");
  }
  CheckedTimeLimit(options);
  RequireSoccerDefaults(options, name);
  DeclareCmuTask(CmuWalkerObservationKeys(), true, spec, fields);
  DeclarePhysicsRendering(options, task.substeps * task.physics_timestep,
                          TaskCameras(task), spec);
}

namespace {

const CmuMazeTask& TaskNamed(const std::string& name) {
  for (const CmuMazeTask* task :
       {&CmuMazeForageTask(), &CmuHeterogeneousForageTask()}) {
    if (task->name == name) {
      return *task;
    }
  }
  throw std::invalid_argument("no CMU humanoid maze task '" + name + "'");
}

}  // namespace

CmuMazeEnv::CmuMazeEnv(const Options& options, const Fields& fields)
    : task_(TaskNamed(options.Get<std::string>("task_name"))),
      arena_(task_.arena()),
      time_limit_(options.Get<double>("time_limit")),
      fields_(fields) {
  const std::vector<ObservationKey> keys = CmuWalkerObservationKeys();
  for (std::size_t i = 0; i < keys.size(); ++i) {
    obs_index_[keys[i].name] = static_cast<int>(i);
  }
  // The files are there in this asset folder (an option of the family);
  // the first episode's model is built at the first reset.
  for (const std::string& file : ModelFiles(arena_)) {
    mujoco_common::ResolveModelPath(LocomotionAssets(), file.c_str());
  }
}

void CmuMazeEnv::OnSeed(uint64_t seed) {
  // The env's random_state and dm_control's global np.random, both seeded
  // with the env's seed. The factory builds the maze after np.random.seed:
  // RandomMazeWithTargets seeds labmaze with np.random.randint(2**31), and
  // labmaze makes its first maze; FixedMazeWithRandomGoals regenerates
  // once, drawing from the global stream.
  random_ = random::RandomState::FromSeed(seed);
  global_random_ = random_;
  if (!arena_.fixed_layout.empty()) {
    fixed_maze_ = std::make_unique<FixedMaze>(
        arena_.fixed_layout, arena_.fixed_spawns, arena_.fixed_objects);
    fixed_maze_->Regenerate(&global_random_);
    return;
  }
  const auto maze_seed = static_cast<uint32_t>(
      global_random_.Randint<int64_t>(0, int64_t{1} << 31));
  maze_ = std::make_unique<LabMaze>(arena_.maze, maze_seed);
}

void CmuMazeEnv::UseModel(MazeEpisode episode) {
  mujoco_common::ModelPtr model = EpisodeModel(task_, episode);
  mujoco_common::DataPtr data = MakeData(model.get());
  Adopt(std::move(model), std::move(data), std::move(episode));
}

void CmuMazeEnv::Adopt(mujoco_common::ModelPtr model,
                       mujoco_common::DataPtr data, MazeEpisode episode) {
  model_ = std::move(model);
  data_ = std::move(data);
  model_stamp_ = render::NewStamp();
  episode_ = std::move(episode);
  const mjModel* m = model_.get();
  walker_ = std::make_unique<CmuWalker>(m);
  auto id = [m](mjtObj type, const std::string& name) {
    return mujoco_common::ObjectId(m, type, name.c_str());
  };
  camera_ = id(mjOBJ_CAMERA, "walker/egocentric");
  const int root_joint = id(mjOBJ_JOINT, "walker/");
  free_qpos_ = m->jnt_qposadr[root_joint];
  free_qvel_ = m->jnt_dofadr[root_joint];
  ground_geom_.assign(m->ngeom, false);
  for (int g = 0; g < m->ngeom; ++g) {
    const char* name = mj_id2name(m, mjOBJ_GEOM, g);
    ground_geom_[g] = name != nullptr &&
                      std::string(name).find("ground") != std::string::npos;
  }
  target_geoms_.clear();
  target_materials_.clear();
  target_types_.clear();
  const std::vector<int> counts = TargetsPerType(m);
  if (counts.size() > task_.target_rewards.size()) {
    throw std::runtime_error("the CMU humanoid maze has targets of no type");
  }
  for (std::size_t type = 0; type < counts.size(); ++type) {
    for (int i = 0; i < counts[type]; ++i) {
      const std::string target =
          "target_" + std::to_string(type) + "_" + std::to_string(i) + "/";
      target_geoms_.push_back(id(mjOBJ_GEOM, target + "geom"));
      target_materials_.push_back(id(mjOBJ_MATERIAL, target + "target_sphere"));
      target_types_.push_back(static_cast<int>(type));
    }
  }
}

void CmuMazeEnv::UpdateTargets() {
  ActivateTouchedTargets(model_.get(), data_.get(), target_geoms_,
                         target_materials_, &target_activated_);
}

void CmuMazeEnv::Reset() {
  // initialize_episode_mjcf: the arena regenerated (the maze, its textures
  // from the global np.random), the targets shuffled with random_state and
  // attached; Composer compiles the episode's model.
  UseModel(fixed_maze_ != nullptr
               ? DrawMazeEpisode(arena_, fixed_maze_.get(), &global_random_,
                                 &random_, episode_.builders)
               : DrawMazeEpisode(arena_, maze_.get(), &global_random_, &random_,
                                 episode_.builders));
  if (episode_.spawns.empty()) {
    throw std::runtime_error("the CMU humanoid's maze has no spawn cell");
  }
  target_activated_.assign(target_geoms_.size(), false);
  target_rewarded_.assign(target_geoms_.size(), false);
  mjModel* m = model_.get();
  mjData* d = data_.get();
  // Physics.reset: mj_resetData and a forward pass without actuation, whose
  // kinematics and contacts the task's and the targets' initialize_episode
  // read; the walker upright (UprightInitializer), respawned
  // (NullGoalMaze._respawn), the targets' activation from the stale
  // contacts, and after_reset's forward pass.
  mj_resetData(m, d);
  mujoco_common::ForwardWithoutActuation(m, d);
  walker_->PlaceUpright(m, d, 0.0, 0.0);
  RespawnWalkerInMaze(m, d, free_qpos_, free_qvel_, episode_.spawns, &random_,
                      task_.randomize_spawn_rotation);
  UpdateTargets();
  mujoco_common::ForwardWithoutActuation(m, d);
  has_episode_ = true;
  reward_ = 0.0;
  terminated_ = false;
  truncated_ = false;
}

void CmuMazeEnv::Step(const ActionView& action) {
  mjData* d = data_.get();
  const double* a = action.Get(fields_.action);
  std::copy(a, a + kCmuWalkerActions, d->ctrl);
  for (int i = 0; i < task_.substeps; ++i) {
    mj_step2(model_.get(), d);
    mj_step1(model_.get(), d);
    UpdateTargets();
  }
  // No forward pass after the substeps: nothing marks dm_control's Physics
  // dirty in these tasks, and the observations read the last mj_step1's
  // state (and the sensors of the last mj_step2).
  // NullGoalMaze.after_step: the contacts of the last substep.
  const bool failed = walker_->NonFootContact(d, ground_geom_);
  // ManyHeterogeneousGoalsMaze.get_reward and should_terminate_episode: the
  // aliveness reward, plus its type's reward for each target activated since
  // the last reward; done when all are.
  double reward = task_.aliveness_reward;
  bool all_activated = true;
  for (std::size_t i = 0; i < target_activated_.size(); ++i) {
    if (target_activated_[i] && !target_rewarded_[i]) {
      reward += task_.target_rewards[target_types_[i]];
      target_rewarded_[i] = true;
    }
    all_activated = all_activated && target_activated_[i];
  }
  reward_ = reward;
  // A failure ends the episode as a fall (dm_control's LAST step still has
  // discount 1: get_discount is asked before should_terminate_episode sets
  // it to 0); all targets touched ends it as done.
  terminated_ = failed || all_activated;
  truncated_ = !terminated_ && d->time >= time_limit_;
}

double* CmuMazeEnv::Obs(const Output& out, const char* key) const {
  return out.Get(fields_.obs[obs_index_.at(key)]);
}

void CmuMazeEnv::Write(const Output& out) {
  const mjData* d = data_.get();
  walker_->Write(d, [&](const char* key) { return Obs(out, key); });
  // The egocentric camera: dm_control's Physics.render(64, 64, camera), in
  // the env's own render context, remade for each episode's model.
  render::SceneSettings settings;
  settings.max_geom = render::DmControlMaxGeom(model_.get());
  settings.rangefinders = false;
  mjvCamera camera;
  mjv_defaultCamera(&camera);
  if (renderer_ == nullptr) {
    renderer_ = std::make_unique<render::ModelRenderer>();
  }
  renderer_->Render(model_.get(), model_stamp_, d, camera, camera_,
                    kCmuCameraSize, kCmuCameraSize, settings,
                    out.Get(fields_.camera));
}

void CmuMazeEnv::Render(int width, int height, int camera_id, uint8_t* rgb) {
  RenderPhysics(&frame_renderer_, model_.get(), model_stamp_, 0, data_.get(),
                width, height, camera_id, rgb);
}

std::vector<double> CmuMazeEnv::GetState() const {
  return mujoco_common::SimulationState(model_.get(), data_.get());
}

void CmuMazeEnv::SaveState(StateWriter* writer) const {
  std::vector<mjtNum> state, sensors;
  if (model_ != nullptr) {
    mujoco_common::GetIntegrationState(model_.get(), data_.get(), &state);
    sensors.assign(data_->sensordata, data_->sensordata + model_->nsensordata);
  }
  const MazeEpisode& e = episode_;
  const uint32_t maze_seed = maze_ != nullptr ? maze_->seed() : 0;
  const int64_t maze_generations = maze_ != nullptr ? maze_->generations() : 0;
  writer->Put(task_.name, random_, global_random_, has_episode_, maze_seed,
              maze_generations, e.entity_layer, e.variations_layer,
              e.textures.wall, e.textures.floor, e.textures.variations,
              e.targets, e.spawns, e.builders, target_activated_,
              target_rewarded_, state, sensors);
}

void CmuMazeEnv::LoadState(StateReader* reader) {
  std::string task;
  random::RandomState random{uint32_t{0}}, global_random{uint32_t{0}};
  bool has_episode = false;
  uint32_t maze_seed = 0;
  int64_t maze_generations = 0;
  MazeEpisode e;
  std::vector<bool> activated, rewarded;
  std::vector<mjtNum> state, sensors;
  reader->Get(&task, &random, &global_random, &has_episode, &maze_seed,
              &maze_generations, &e.entity_layer, &e.variations_layer,
              &e.textures.wall, &e.textures.floor, &e.textures.variations,
              &e.targets, &e.spawns, &e.builders, &activated, &rewarded, &state,
              &sensors);
  if (task != task_.name) {
    throw SnapshotError("the state is not of " + task_.name);
  }
  const bool fixed = fixed_maze_ != nullptr;
  if ((fixed ? maze_generations != 0 : maze_generations < 1) ||
      has_episode != !state.empty() ||
      (has_episode && e.builders.size() != arena_.target_builders.size())) {
    throw SnapshotError("the CMU humanoid maze's state is not whole");
  }
  for (int64_t builder : e.builders) {
    if (builder < 0 ||
        builder >= static_cast<int64_t>(arena_.target_builders.size())) {
      throw SnapshotError("the CMU humanoid maze's state is not whole");
    }
  }
  // The snapshot's episode, where it is not the env's.
  mujoco_common::ModelPtr model;
  mujoco_common::DataPtr data;
  if (has_episode && !(model_ != nullptr && SameMazeEpisode(e, episode_))) {
    model = EpisodeModel(task_, e);
    data = MakeData(model.get());
  }
  if (has_episode) {
    const mjModel* m = model != nullptr ? model.get() : model_.get();
    std::size_t targets = 0;
    for (int count : TargetsPerType(m)) {
      targets += static_cast<std::size_t>(count);
    }
    if (static_cast<int>(state.size()) !=
            mj_stateSize(m, mujoco_common::kIntegrationState) ||
        static_cast<int>(sensors.size()) != m->nsensordata ||
        activated.size() != targets || rewarded.size() != targets) {
      throw SnapshotError("the CMU humanoid maze's state is not of its model");
    }
  }
  if (!fixed && (maze_ == nullptr || maze_->seed() != maze_seed ||
                 maze_->generations() != maze_generations)) {
    auto maze = std::make_unique<LabMaze>(arena_.maze, maze_seed);
    maze->Restore(maze_seed, maze_generations);
    maze_ = std::move(maze);
  }
  random_ = random;
  global_random_ = global_random;
  has_episode_ = has_episode;
  if (!has_episode) {
    // Saved before the first reset: no episode (the next reset's builders
    // start from the spec's order); the model is the next reset's to make.
    episode_ = MazeEpisode{};
    return;
  }
  if (model != nullptr) {
    Adopt(std::move(model), std::move(data), std::move(e));
  }
  target_activated_ = std::move(activated);
  target_rewarded_ = std::move(rewarded);
  // An activated target's material is transparent, the others opaque (as
  // the episode's freshly compiled model has them).
  for (std::size_t i = 0; i < target_materials_.size(); ++i) {
    model_->mat_rgba[4 * target_materials_[i] + 3] =
        target_activated_[i] ? 0.0f : 1.0f;
  }
  mujoco_common::SetIntegrationState(model_.get(), data_.get(), state);
  mj_step1(model_.get(), data_.get());
  std::copy(sensors.begin(), sensors.end(), data_->sensordata);
}

}  // namespace envpool::locomotion
