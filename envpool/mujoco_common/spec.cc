#include "envpool/mujoco_common/spec.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace envpool::mujoco_common {

int64_t FrameSkip(const Options& options) {
  const auto frame_skip = options.Get<int64_t>("frame_skip");
  if (frame_skip < 1) {
    throw std::invalid_argument("option 'frame_skip' must be at least 1, got " +
                                std::to_string(frame_skip));
  }
  return frame_skip;
}

void DeclareModelRendering(const Options& options, const mjModel& model,
                           int width, int height, EnvSpec* spec) {
  const double dt =
      model.opt.timestep * static_cast<double>(FrameSkip(options));
  DeclareRendering(options, spec, {"rgb_array"}, width, height,
                   static_cast<int>(std::lround(1.0 / dt)), /*any_size=*/true,
                   model.ncam);
}

}  // namespace envpool::mujoco_common
