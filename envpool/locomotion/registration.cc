// The locomotion family's Python module: registers its env types with the
// shared core when Python imports it (the assets' folder comes from the
// core: registration.py's ASSET_DIR), and learns how this process's numpy
// rounds its dot products (envpool/core/numpy_blas.h) and finds its float64
// kernels (envpool/core/numpy_kernels.h).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <array>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envpool/core/env.h"
#include "envpool/core/numpy_blas_loader.h"
#include "envpool/core/numpy_kernels_loader.h"
#include "envpool/locomotion/bowl_terrain.h"
#include "envpool/locomotion/cmu_maze.h"
#include "envpool/locomotion/corridor.h"
#include "envpool/locomotion/go_to_target.h"
#include "envpool/locomotion/maze_arena.h"
#include "envpool/locomotion/mocap_clip.h"
#include "envpool/locomotion/rodent.h"
#include "envpool/locomotion/rodent_maze.h"
#include "envpool/locomotion/soccer.h"
#include "envpool/locomotion/soccer_humanoid.h"
#include "envpool/locomotion/soccer_model.h"
#include "envpool/mujoco_common/message_handlers.h"

namespace {

// The maze arena of each of the first `episodes` episodes of a maze task
// (`spec`: rodent_maze_forage's, cmu_humanoid_maze_forage's or
// cmu_humanoid_heterogeneous_forage's) after np.random.seed(seed) and
// RandomState(seed): the labmaze seed drawn at construction (the fixed
// maze's first regeneration), then per episode the maze, the textures and
// the targets' shuffle, then the spawn's draws that come before the next
// episode's (randint, and uniform for the heading of the random mazes'
// tasks; the fixed maze's task keeps its heading).
std::vector<envpool::locomotion::MazeArenaXml> MazeArenas(
    const envpool::locomotion::MazeArenaSpec& spec, uint32_t seed,
    int episodes) {
  namespace loco = envpool::locomotion;
  envpool::random::RandomState global_random(seed), random(seed);
  const bool fixed = !spec.fixed_layout.empty();
  std::unique_ptr<loco::LabMaze> maze;
  std::unique_ptr<loco::FixedMaze> fixed_maze;
  if (fixed) {
    fixed_maze = std::make_unique<loco::FixedMaze>(
        spec.fixed_layout, spec.fixed_spawns, spec.fixed_objects);
    fixed_maze->Regenerate(&global_random);
  } else {
    const auto maze_seed = static_cast<uint32_t>(
        global_random.Randint<int64_t>(0, int64_t{1} << 31));
    maze = std::make_unique<loco::LabMaze>(spec.maze, maze_seed);
  }
  const std::string ground_dir = spec.sky_style.empty()
                                     ? "arenas/outdoor_natural"
                                     : "labmaze/" + spec.sky_style;
  std::vector<loco::MazeArenaXml> arenas;
  std::vector<int64_t> builders;
  for (int i = 0; i < episodes; ++i) {
    const auto episode =
        fixed ? loco::DrawMazeEpisode(spec, fixed_maze.get(), &global_random,
                                      &random, builders)
              : loco::DrawMazeEpisode(spec, maze.get(), &global_random, &random,
                                      builders);
    builders = episode.builders;
    arenas.push_back(loco::WriteMazeArena(
        spec, episode, "labmaze/" + spec.wall_style, ground_dir));
    random.Randint<int64_t>(0, static_cast<int64_t>(episode.spawns.size()));
    if (!fixed) {
      random.Uniform(-1, 1);
    }
  }
  return arenas;
}

std::vector<envpool::locomotion::MazeArenaXml> RodentMazeArenas(uint32_t seed,
                                                                int episodes) {
  return MazeArenas(envpool::locomotion::RodentMazeForageArena(), seed,
                    episodes);
}

std::vector<std::vector<std::string>> ArenaParts(
    const std::vector<envpool::locomotion::MazeArenaXml>& arenas) {
  std::vector<std::vector<std::string>> parts;
  for (const auto& xml : arenas) {
    parts.push_back({xml.defaults_before, xml.defaults_after, xml.assets_before,
                     xml.assets_after, xml.worldbody_before,
                     xml.worldbody_after});
  }
  return parts;
}

}  // namespace

PYBIND11_MODULE(_locomotion, m) {
  envpool::mujoco_common::InstallMessageHandlers();
  envpool::numpy_blas::LearnNumpyBlasFor(m);
  envpool::numpy_kernels::LoadNumpyKernels();
  envpool::RegisterEnv<envpool::locomotion::SoccerEnv>("DmcSoccer");
  envpool::RegisterEnv<envpool::locomotion::GoToTargetEnv>(
      "DmcCmuHumanoidGoToTarget");
  envpool::RegisterEnv<envpool::locomotion::CorridorEnv>("DmcCmuHumanoidRun");
  envpool::RegisterEnv<envpool::locomotion::CmuMazeForageEnv>(
      "DmcCmuHumanoidMazeForage");
  envpool::RegisterEnv<envpool::locomotion::CmuHeterogeneousForageEnv>(
      "DmcCmuHumanoidHeterogeneousForage");
  envpool::RegisterEnv<envpool::locomotion::RodentEscapeBowlEnv>(
      "DmcRodentEscapeBowl");
  envpool::RegisterEnv<envpool::locomotion::RodentTwoTouchEnv>(
      "DmcRodentTwoTouch");
  envpool::RegisterEnv<envpool::locomotion::RodentRunGapsEnv>(
      "DmcRodentRunGaps");
  envpool::RegisterEnv<envpool::locomotion::RodentMazeForageEnv>(
      "DmcRodentMazeForage");
  // The numpy loops the envs call, and what they compute, for the tests.
  m.def("numpy_kernels", &envpool::numpy_kernels::LoadedNumpyKernels);
  m.def("_numpy_kernel", &envpool::numpy_kernels::EvaluateUnaryKernel);
  // For the tests: the MJCF text of a soccer episode and its compiled
  // textures, to compare with what dm_control compiles.
  namespace loco = envpool::locomotion;
  m.def(
      "soccer_xml",
      [](int team_size, bool disable_walker_contacts, bool enable_field_box,
         double length, double width, bool ant) {
        loco::SoccerConfig config{team_size, disable_walker_contacts,
                                  enable_field_box};
        config.walker =
            ant ? loco::WalkerType::kAnt : loco::WalkerType::kBoxHead;
        return loco::SoccerXml(config, loco::MakePitchLayout(length, width));
      },
      pybind11::arg("team_size"), pybind11::arg("disable_walker_contacts"),
      pybind11::arg("enable_field_box"), pybind11::arg("length"),
      pybind11::arg("width"), pybind11::arg("ant") = false);
  m.def(
      "soccer_humanoid_xml",
      [](int team_size, bool disable_walker_contacts, bool enable_field_box,
         double length, double width) {
        loco::SoccerConfig config{team_size, disable_walker_contacts,
                                  enable_field_box,
                                  loco::WalkerType::kHumanoid};
        return loco::SoccerXml(
            config,
            loco::MakePitchLayout(length, width, loco::kMiniFootballGoalSize));
      },
      pybind11::arg("team_size"), pybind11::arg("disable_walker_contacts"),
      pybind11::arg("enable_field_box"), pybind11::arg("length"),
      pybind11::arg("width"));
  // The float32 values of a field of the family's mocap clip, as doubles.
  m.def("mocap_clip_field",
        [](const std::string& name, const std::string& field) {
          const loco::MocapClip& clip = loco::FamilyMocapClip(name);
          const auto found = clip.fields.find(field);
          if (found == clip.fields.end()) {
            throw std::invalid_argument("mocap clip " + name +
                                        " has no field " + field);
          }
          return pybind11::make_tuple(
              clip.frames, clip.dt, found->second.dim,
              std::vector<double>(found->second.values.begin(),
                                  found->second.values.end()));
        });
  m.def("go_to_target_xml", &loco::GoToTargetXml);
  m.def(
      "rodent_xml",
      [](const std::string& task, const std::vector<double>& gaps) {
        if (task == "rodent_escape_bowl") {
          return loco::RodentXml(loco::RodentTask::kEscapeBowl);
        }
        if (task == "rodent_two_touch") {
          return loco::RodentXml(loco::RodentTask::kTwoTouch);
        }
        if (task == "rodent_run_gaps") {
          return loco::RodentXml(loco::RodentTask::kRunGaps, gaps);
        }
        throw std::invalid_argument("no rodent task '" + task + "'");
      },
      pybind11::arg("task"), pybind11::arg("gaps") = std::vector<double>{});
  m.def("rodent_skin", [] { return pybind11::bytes(loco::RodentSkin()); });
  // scipy.ndimage.zoom(input, zoom, order=3) of a 2-d array, flattened.
  m.def("spline_zoom", &loco::SplineZoom);
  m.def("corridor_xml", [](bool gaps, std::vector<double> draws) {
    loco::CorridorLayout layout;
    layout.kind = gaps ? loco::CorridorKind::kGaps : loco::CorridorKind::kWalls;
    layout.draws = std::move(draws);
    return loco::CorridorXml(layout);
  });
  m.def("soccer_tex_data", [](int team_size, double length, double width) {
    loco::SoccerConfig config;
    config.team_size = team_size;
    auto model =
        loco::SoccerModel(config, loco::MakePitchLayout(length, width));
    return pybind11::bytes(reinterpret_cast<const char*>(model->tex_data),
                           model->ntexdata);
  });
  // The mazes: labmaze's layers after `generations` mazes from `seed`, and
  // covering.make_walls's cover of a text grid, to compare with labmaze and
  // dm_control.
  m.def("labmaze_layers", [](int height, int width, int max_rooms,
                             int room_min_size, int room_max_size,
                             int spawns_per_room, int objects_per_room,
                             int max_variations, bool simplify, uint32_t seed,
                             int64_t generations) {
    loco::MazeParams params{height,           width,          max_rooms,
                            room_min_size,    room_max_size,  spawns_per_room,
                            objects_per_room, max_variations, simplify};
    loco::LabMaze maze(params, seed);
    maze.Restore(seed, generations);
    return std::make_pair(maze.entity_layer(), maze.variations_layer());
  });
  m.def("maze_cover", [](const std::string& text, char wall_char) {
    std::vector<std::array<int, 4>> walls;
    for (const auto& wall :
         loco::CoverCells(loco::GridRows(text), wall_char, true)) {
      walls.push_back({wall.start_y, wall.start_x, wall.end_y, wall.end_x});
    }
    return walls;
  });
  // The arena's MJCF parts of the first `episodes` episodes of
  // rodent_maze_forage after np.random.seed(seed) and RandomState(seed)
  // (RodentMazeArenas), and the whole model's text of the last one.
  m.def("rodent_maze_arena_xml", [](uint32_t seed, int episodes) {
    return ArenaParts(RodentMazeArenas(seed, episodes));
  });
  // The same for cmu_humanoid_maze_forage (labmaze's sky_03 and style_01
  // floors, cells of 3 m).
  m.def("cmu_maze_arena_xml", [](uint32_t seed, int episodes) {
    return ArenaParts(
        MazeArenas(loco::CmuHumanoidMazeForageArena(), seed, episodes));
  });
  m.def("cmu_maze_xml", [](uint32_t seed, int episodes) {
    return loco::CmuMazeXml(
        MazeArenas(loco::CmuHumanoidMazeForageArena(), seed, episodes).back(),
        loco::CmuMazeForageTask().physics_timestep);
  });
  // The same for cmu_humanoid_heterogeneous_forage (the fixed room, two
  // target types).
  m.def("cmu_heterogeneous_arena_xml", [](uint32_t seed, int episodes) {
    return ArenaParts(MazeArenas(loco::CmuHumanoidHeterogeneousForageArena(),
                                 seed, episodes));
  });
  m.def("cmu_heterogeneous_xml", [](uint32_t seed, int episodes) {
    return loco::CmuMazeXml(
        MazeArenas(loco::CmuHumanoidHeterogeneousForageArena(), seed, episodes)
            .back(),
        loco::CmuHeterogeneousForageTask().physics_timestep);
  });
  m.def("rodent_maze_xml", [](uint32_t seed, int episodes) {
    return loco::RodentMazeXml(RodentMazeArenas(seed, episodes).back());
  });
}
