// gymnasium's toy_text sprites (gymnasium/envs/toy_text/img/, found in the
// installed gymnasium as the MuJoCo family finds its models) and the pygame
// blits the envs' rgb_array frames are drawn with.
#ifndef ENVPOOL_TOY_TEXT_SPRITES_H_
#define ENVPOOL_TOY_TEXT_SPRITES_H_

#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>

#include "envpool/render/png.h"
#include "envpool/render/pygame_blit.h"

namespace envpool::toy_text {

using render::Colour;
using render::RgbaImage;
using render::Surface;

// gymnasium's toy_text/img folder (set by the Python module at import;
// empty when gymnasium is not installed).
inline std::string& ToyTextAssetDir() {
  static std::string dir;
  return dir;
}

// The sprite img/<name>.png (name may hold a subfolder, "taxi/house"),
// decoded once per process; a missing gymnasium or file is a
// std::runtime_error naming it.
inline const RgbaImage& Sprite(const std::string& name) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<RgbaImage>> cache;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = cache.find(name);
  if (it != cache.end()) {
    return *it->second;
  }
  if (ToyTextAssetDir().empty()) {
    throw std::runtime_error(
        "toy_text's rgb_array frames need gymnasium's toy_text/img/" + name +
        ".png and gymnasium is not installed (pip install gymnasium)");
  }
  auto image = std::make_unique<RgbaImage>(
      render::LoadPngRgba(ToyTextAssetDir() + "/" + name + ".png"));
  const RgbaImage& ref = *image;
  cache.emplace(name, std::move(image));
  return ref;
}

}  // namespace envpool::toy_text

#endif  // ENVPOOL_TOY_TEXT_SPRITES_H_
