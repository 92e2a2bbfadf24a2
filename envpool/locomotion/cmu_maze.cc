#include "envpool/locomotion/cmu_maze.h"

#include <mujoco/mujoco.h>

#include <stdexcept>
#include <string>
#include <utility>

#include "envpool/core/env.h"
#include "envpool/locomotion/cmu_walker.h"
#include "envpool/locomotion/go_to_target.h"
#include "envpool/locomotion/maze_task.h"
#include "envpool/locomotion/soccer_model.h"
#include "envpool/mujoco_common/physics.h"

namespace envpool::locomotion {

std::string CmuMazeXml(const MazeArenaXml& arena) {
  CmuArenaXml cmu;
  cmu.model = "random_maze";
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

mujoco_common::ModelPtr CompileCmuMaze(const MazeArenaXml& arena) {
  const std::string xml = CmuMazeXml(arena);
  // The text as a file of the asset folder: its texture files are read from
  // there.
  const std::string path = envpool::FamilyAssetDir(LocomotionAssets().family) +
                           "/cmu_humanoid_maze_forage.xml";
  mjVFS vfs;
  mj_defaultVFS(&vfs);
  mj_addBufferVFS(&vfs, path.c_str(), xml.data(), static_cast<int>(xml.size()));
  char error[1000] = "";
  mujoco_common::ModelPtr model(
      mj_loadXML(path.c_str(), &vfs, error, sizeof(error)));
  mj_deleteVFS(&vfs);
  if (model == nullptr) {
    throw std::invalid_argument(
        std::string("cannot build the CMU humanoid maze's MuJoCo model: ") +
        error);
  }
  return model;
}

std::vector<std::vector<double>> CmuMazeResetStates(uint32_t seed,
                                                    int episodes) {
  const MazeArenaSpec& spec = CmuHumanoidMazeForageArena();
  random::RandomState global_random(seed), random(seed);
  const auto maze_seed = static_cast<uint32_t>(
      global_random.Randint<int64_t>(0, int64_t{1} << 31));
  LabMaze maze(spec.maze, maze_seed);
  std::vector<std::vector<double>> states;
  for (int i = 0; i < episodes; ++i) {
    const MazeEpisode episode =
        DrawMazeEpisode(spec, &maze, &global_random, &random);
    mujoco_common::ModelPtr model = CompileCmuMaze(
        WriteMazeArena(spec, episode, "labmaze/" + spec.wall_style,
                       "labmaze/" + spec.sky_style));
    mujoco_common::DataPtr data(mj_makeData(model.get()));
    mjModel* m = model.get();
    mjData* d = data.get();
    mj_resetData(m, d);
    mujoco_common::ForwardWithoutActuation(m, d);
    const CmuWalker walker(m);
    walker.PlaceUpright(m, d, 0.0, 0.0);
    // The free joint of the walker's attachment frame (Composer's
    // freejoint, named by its prefix).
    const int root_joint = mj_name2id(m, mjOBJ_JOINT, "walker/");
    RespawnWalkerInMaze(m, d, m->jnt_qposadr[root_joint],
                        m->jnt_dofadr[root_joint], episode.spawns, &random);
    mujoco_common::ForwardWithoutActuation(m, d);
    std::vector<double> state(d->qpos, d->qpos + m->nq);
    state.insert(state.end(), d->qvel, d->qvel + m->nv);
    states.push_back(std::move(state));
  }
  return states;
}

}  // namespace envpool::locomotion
