#include "envpool/vizdoom/scenario_info.h"

#include <exception>
#include <filesystem>
#include <set>
#include <stdexcept>

#include "envpool/vizdoom/game_variables.h"

namespace envpool::vizdoom {
namespace {

void RequireFile(const std::string& option, const std::string& path,
                 const std::string& what) {
  if (path.empty()) {
    throw std::invalid_argument(
        "option '" + option + "' is empty: pass the path of " + what +
        " (the scenarios, the engine and its IWADs ship with the vizdoom "
        "wheel: `pip install vizdoom==1.3.2`)");
  }
  if (!std::filesystem::is_regular_file(path)) {
    throw std::invalid_argument(
        "option '" + option + "': " + what + " " + path +
        " not found; it ships with the vizdoom wheel: `pip install "
        "vizdoom==1.3.2` (or pass " +
        option + "=<its path>)");
  }
}

}  // namespace

ScenarioInfo::ScenarioInfo(const Options& options) {
  const std::string cfg = options.Get<std::string>("cfg_path");
  RequireFile("cfg_path", cfg, "the scenario's cfg");
  RequireFile("wad_path", options.Get<std::string>("wad_path"),
              "the scenario's wad");
  RequireFile("iwad_path", options.Get<std::string>("iwad_path"), "the IWAD");
  RequireFile("vzd_path", options.Get<std::string>("vzd_path"),
              "the ViZDoom engine");
  ::vizdoom::DoomGame game;
  try {
    game.loadConfig(cfg);
  } catch (const std::exception& e) {
    throw std::invalid_argument("cfg_path " + cfg +
                                " is not a ViZDoom cfg: " + e.what());
  }
  buttons = game.getAvailableButtons();
  if (buttons.empty()) {
    throw std::invalid_argument("cfg_path " + cfg +
                                " lists no available_buttons");
  }
  std::set<std::string> names(CommonGameVariables().begin(),
                              CommonGameVariables().end());
  for (::vizdoom::GameVariable v : game.getAvailableGameVariables()) {
    names.insert(GameVariableName(v));
  }
  info_variables.assign(names.begin(), names.end());
  screen_height = game.getScreenHeight();
  screen_width = game.getScreenWidth();
  channels = game.getScreenChannels();
  format = game.getScreenFormat();
  planar = format == ::vizdoom::CRCGCB || format == ::vizdoom::CBCGCR;
  depth = game.isDepthBufferEnabled();
  labels = game.isLabelsBufferEnabled();
  automap = game.isAutomapBufferEnabled();
}

}  // namespace envpool::vizdoom
