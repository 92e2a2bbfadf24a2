#include "envpool/locomotion/physics_render.h"

#include <cmath>
#include <string>

namespace envpool::locomotion {

void DeclarePhysicsRendering(const Options& options, double control_timestep,
                             int num_cameras, EnvSpec* spec) {
  DeclareRendering(options, spec, {"rgb_array"}, kRenderWidth, kRenderHeight,
                   static_cast<int>(std::lround(1.0 / control_timestep)),
                   /*any_size=*/true, num_cameras);
}

int CountCameras(const std::string& xml) {
  int count = 0;
  for (std::size_t at = xml.find("<camera "); at != std::string::npos;
       at = xml.find("<camera ", at + 1)) {
    ++count;
  }
  return count;
}

void RenderPhysics(std::unique_ptr<render::ModelRenderer>* renderer,
                   const mjModel* model, uint64_t model_stamp,
                   uint64_t hfield_stamp, const mjData* data, int width,
                   int height, int camera_id, uint8_t* rgb) {
  // Physics.render's Camera: for camera_id -1 mjv_defaultFreeCamera, else
  // the model's fixed camera.
  mjvCamera camera;
  mjv_defaultCamera(&camera);
  if (camera_id < 0) {
    mjv_defaultFreeCamera(model, &camera);
  }
  render::SceneSettings settings;
  settings.max_geom = render::DmControlMaxGeom(model);
  settings.rangefinders = false;
  settings.hfield_stamp = hfield_stamp;
  if (*renderer == nullptr) {
    *renderer = std::make_unique<render::ModelRenderer>();
  }
  (*renderer)->Render(model, model_stamp, data, camera, camera_id, width,
                      height, settings, rgb);
}

}  // namespace envpool::locomotion
