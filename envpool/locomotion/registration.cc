// The locomotion family's Python module: registers its env types with the
// shared core when Python imports it (the assets' folder comes from the
// core: registration.py's ASSET_DIR), and learns how this process's numpy
// sums a norm, and its float64 kernels (envpool/core/numpy_kernels.h).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envpool/core/env.h"
#include "envpool/core/numpy_kernels_loader.h"
#include "envpool/locomotion/bowl_terrain.h"
#include "envpool/locomotion/corridor.h"
#include "envpool/locomotion/go_to_target.h"
#include "envpool/locomotion/mocap_clip.h"
#include "envpool/locomotion/rodent.h"
#include "envpool/locomotion/soccer.h"
#include "envpool/locomotion/soccer_humanoid.h"
#include "envpool/locomotion/soccer_model.h"
#include "envpool/mujoco_common/message_handlers.h"
#include "envpool/mujoco_common/numpy_probe.h"

PYBIND11_MODULE(_locomotion, m) {
  envpool::mujoco_common::InstallMessageHandlers();
  envpool::mujoco_common::LearnNumpyNorm();
  envpool::numpy_kernels::LoadNumpyKernels();
  envpool::RegisterEnv<envpool::locomotion::SoccerEnv>("DmcSoccer");
  envpool::RegisterEnv<envpool::locomotion::GoToTargetEnv>(
      "DmcCmuHumanoidGoToTarget");
  envpool::RegisterEnv<envpool::locomotion::CorridorEnv>("DmcCmuHumanoidRun");
  envpool::RegisterEnv<envpool::locomotion::RodentEscapeBowlEnv>(
      "DmcRodentEscapeBowl");
  envpool::RegisterEnv<envpool::locomotion::RodentTwoTouchEnv>(
      "DmcRodentTwoTouch");
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
  m.def("rodent_xml", [](const std::string& task) {
    if (task == "rodent_escape_bowl") {
      return loco::RodentXml(loco::RodentTask::kEscapeBowl);
    }
    if (task == "rodent_two_touch") {
      return loco::RodentXml(loco::RodentTask::kTwoTouch);
    }
    throw std::invalid_argument("no rodent task '" + task + "'");
  });
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
}
