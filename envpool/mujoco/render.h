// MuJoCo's own offscreen renderer, headless through EGL, drawing what
// gymnasium's MujocoRenderer draws for rgb_array (its OffScreenViewer): the
// same scene (mjv_updateScene with default options, every category, up to
// 1000 geoms), mjr_render into the offscreen buffer of a context made with
// font scale 150 on the model grown to the frame size, mjr_readPixels, and
// the rows flipped.
//
// Each thread that renders has its own EGL context (and, in it, one MuJoCo
// render context per model and frame size), made on its first frame and
// freed when the thread ends. libEGL is loaded when the first frame is
// drawn, so the family imports and steps without it; the context that was
// current on the thread before a frame is current again after it.
#ifndef ENVPOOL_MUJOCO_RENDER_H_
#define ENVPOOL_MUJOCO_RENDER_H_

#include <mujoco/mujoco.h>

#include <cstdint>

namespace envpool::mujoco {

// gymnasium's free camera for a task: mjv_defaultCamera, then lookat at the
// median of the geoms' positions and distance model.stat.extent (at the
// first frame, as gymnasium's viewer is made then), then the task's
// DEFAULT_CAMERA_CONFIG: NaN (or has_lookat false) keeps the value.
struct CameraConfig {
  double distance;
  double elevation;
  double azimuth;
  bool has_lookat;
  double lookat[3];
};
CameraConfig NoCameraConfig();

// The free camera of `config` for the current state of `data`.
mjvCamera InitialCamera(const mjModel* model, const mjData* data,
                        const CameraConfig& config);

// Draws `data` seen by `camera` (camera_id -1) or by the model's fixed
// camera `camera_id`, into rgb (height x width x 3, top row first). Throws
// std::runtime_error saying what is missing when EGL cannot be used.
void RenderFrame(const mjModel* model, const mjData* data,
                 const mjvCamera& camera, int camera_id, int width, int height,
                 uint8_t* rgb);

}  // namespace envpool::mujoco

#endif  // ENVPOOL_MUJOCO_RENDER_H_
