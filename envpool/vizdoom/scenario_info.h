// What a ViZDoom scenario's cfg tells before any engine starts: its
// buttons, the game variables the env reports and the screen layout.  Read
// once per pool, when it is made, so that a missing file or a bad cfg is an
// error at make that says how to fix it.
#ifndef ENVPOOL_VIZDOOM_SCENARIO_INFO_H_
#define ENVPOOL_VIZDOOM_SCENARIO_INFO_H_

#include <string>
#include <vector>

#include "ViZDoom.h"
#include "envpool/core/options.h"

namespace envpool::vizdoom {

struct ScenarioInfo {
  std::vector<::vizdoom::Button> buttons;
  // The info's game variables: the cfg's and CommonGameVariables(), sorted
  // by name.
  std::vector<std::string> info_variables;
  int screen_height = 0, screen_width = 0, channels = 0;
  bool planar = false;  // CRCGCB/CBCGCR: channel planes, else interleaved
  ::vizdoom::ScreenFormat format = ::vizdoom::CRCGCB;
  bool depth = false, labels = false, automap = false;  // extra buffers

  // From the options cfg_path, wad_path, iwad_path and vzd_path (each file
  // must exist); std::invalid_argument naming the option otherwise.
  explicit ScenarioInfo(const Options& options);

  // The render frame: vizdoom's gymnasium wrapper puts the screen and then
  // the depth, labels and automap buffers the cfg enables side by side.
  int RenderWidth() const {
    return screen_width *
           (1 + static_cast<int>(depth) + static_cast<int>(labels) +
            static_cast<int>(automap));
  }
};

}  // namespace envpool::vizdoom

#endif  // ENVPOOL_VIZDOOM_SCENARIO_INFO_H_
