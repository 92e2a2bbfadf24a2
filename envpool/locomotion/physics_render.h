// render_mode="rgb_array" for the family: a frame is dm_control's
// Physics.render(height, width, camera_id) of the Composer env (320x240 by
// default, any size; camera -1 is dm_control's free camera, k the model's
// camera k; its scene budget, rangefinders hidden), drawn in a render
// context of the env's own: the family's models change from episode to
// episode (mazes, corridors, pitches, terrains), and a context follows its
// model (render::ModelRenderer).
#ifndef ENVPOOL_LOCOMOTION_PHYSICS_RENDER_H_
#define ENVPOOL_LOCOMOTION_PHYSICS_RENDER_H_

#include <mujoco/mujoco.h>

#include <cstdint>
#include <memory>
#include <string>

#include "envpool/core/env.h"
#include "envpool/render/mujoco_egl.h"

namespace envpool::locomotion {

// Physics.render's default frame size.
inline constexpr int kRenderWidth = 320;
inline constexpr int kRenderHeight = 240;

// For Declare: rgb_array at any size (320x240 by default), round(1 /
// control_timestep) frames per second, the free camera or one of the
// model's `num_cameras`.
void DeclarePhysicsRendering(const Options& options, double control_timestep,
                             int num_cameras, EnvSpec* spec);

// How many cameras the model of MJCF text `xml` has (its <camera>
// elements), for Declare where a task's model is built per episode.
int CountCameras(const std::string& xml);

// The frame of `data` of `model` (named by `model_stamp`, another for every
// model compiled anew; `hfield_stamp` another whenever a heightfield
// changes, 0 never) in `*renderer`, made at the first frame.
void RenderPhysics(std::unique_ptr<render::ModelRenderer>* renderer,
                   const mjModel* model, uint64_t model_stamp,
                   uint64_t hfield_stamp, const mjData* data, int width,
                   int height, int camera_id, uint8_t* rgb);

}  // namespace envpool::locomotion

#endif  // ENVPOOL_LOCOMOTION_PHYSICS_RENDER_H_
