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

#include "envpool/core/env.h"
#include "envpool/render/png.h"
#include "envpool/render/pygame_blit.h"

namespace envpool::toy_text {

using render::Colour;
using render::RgbaImage;
using render::Surface;

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
  // gymnasium's toy_text/img (registration.py's ASSET_DIR).
  const std::string dir = envpool::FamilyAssetDir("toy_text");
  if (dir.empty()) {
    throw std::runtime_error(
        "toy_text's rgb_array frames need gymnasium's toy_text/img/" + name +
        ".png and gymnasium is not installed (pip install gymnasium)");
  }
  auto image = std::make_unique<RgbaImage>(
      render::LoadPngRgba(dir + "/" + name + ".png"));
  const RgbaImage& ref = *image;
  cache.emplace(name, std::move(image));
  return ref;
}

}  // namespace envpool::toy_text

#endif  // ENVPOOL_TOY_TEXT_SPRITES_H_
