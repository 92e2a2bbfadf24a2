// MuJoCo's own offscreen renderer, headless through EGL, shared by the
// MuJoCo-based families. A frame is what gymnasium's MujocoRenderer
// (rgb_array, its OffScreenViewer) and dm_control's Physics.render draw:
// mjv_updateScene (every category; the scene's geom budget and the
// rangefinder flag are the caller's: gymnasium keeps 1000 geoms and the
// default options, dm_control sizes the scene from the model and hides
// rangefinders), mjr_render into the offscreen buffer of a context made with
// font scale 150 on the model grown to the frame size, mjr_readPixels, and
// the rows flipped.
//
// Each thread that renders has its own EGL context (and, in it, one MuJoCo
// render context per model and frame size), made on its first frame and
// freed when the thread ends. libEGL is loaded when the first frame is
// drawn, so the family imports and steps without it; the context that was
// current on the thread before a frame is current again after it.
#ifndef ENVPOOL_RENDER_MUJOCO_EGL_H_
#define ENVPOOL_RENDER_MUJOCO_EGL_H_

#include <mujoco/mujoco.h>

#include <cstdint>
#include <memory>

namespace envpool::render {

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

// What differs between the references' scenes.
struct SceneSettings {
  // The scene's geom budget (mjv_makeScene's maxgeom).
  int max_geom = 1000;
  // mjVIS_RANGEFINDER of the scene's options.
  bool rangefinders = true;
  // Heightfields: the render context holds the ones of the model it was
  // made from; a stamp other than the one of the last upload into this
  // thread's context uploads `model`'s again (mjr_uploadHField), as
  // dm_control does after changing a terrain. 0: never.
  uint64_t hfield_stamp = 0;
  // Geom groups the scene leaves out, bit g for group g (dm_control's
  // scene_option.geomgroup[g] = 0): a walker's egocentric camera hides its
  // own collision and cosmetic geoms. 0: every group is drawn.
  unsigned hidden_geom_groups = 0;
};

// dm_control's scene budget for `model`: max(1000, its estimate of the
// renderable geoms).
int DmControlMaxGeom(const mjModel* model);

// Draws `data` of `model` seen by `camera` (camera_id -1) or by the model's
// fixed camera `camera_id`, into rgb (height x width x 3, top row first).
// The GPU resources (meshes, textures, heightfields) come from a render
// context made, once per thread, frame size and budget, from
// `context_model`: a model that lives as long as the process (the family's
// loaded one, of which `model` may be a copy with other positions, sizes or
// colours). Throws std::runtime_error saying what is missing when EGL cannot
// be used.
void RenderFrame(const mjModel* context_model, const mjModel* model,
                 const mjData* data, const mjvCamera& camera, int camera_id,
                 int width, int height, const SceneSettings& settings,
                 uint8_t* rgb);
// The same with `model` as its own context model and gymnasium's scene.
inline void RenderFrame(const mjModel* model, const mjData* data,
                        const mjvCamera& camera, int camera_id, int width,
                        int height, uint8_t* rgb) {
  RenderFrame(model, model, data, camera, camera_id, width, height,
              SceneSettings{}, rgb);
}

// A stamp no model or heightfield of this process had before (1, 2, ...),
// for SceneSettings' hfield_stamp and ModelRenderer's model_stamp.
uint64_t NewStamp();

// How many heightfields this process has uploaded (mjr_uploadHField calls),
// for tests.
uint64_t HFieldUploads();

// A render context of one owner's own (an EGL context and, in it, one
// MuJoCo render context and scene), for models that change in what a
// render context keeps: MuJoCo's bakes the model's textures, its materials'
// textures and its planes (their sizes) when it is made. An env whose
// episodes compile models of their own (a maze's walls and floor tiles are
// planes of each maze's sizes) draws with a context remade from each
// episode's model, as dm_control remakes its contexts at every recompile;
// a context made once per thread from a family's loaded model
// (RenderFrame) cannot follow that. An env whose heightfield is its own
// (SceneSettings' hfield_stamp) draws with one too: a thread's context,
// shared by the envs it steps, re-uploads the heightfield at every frame of
// an env other than its last, and the pool moves envs between threads. The
// owner renders from one thread at a time (which thread may change from frame
// to frame); the context is made at the first frame and freed with the owner.
class ModelRenderer {
 public:
  ModelRenderer();
  ~ModelRenderer();
  ModelRenderer(const ModelRenderer&) = delete;
  ModelRenderer& operator=(const ModelRenderer&) = delete;

  // RenderFrame's frame of `model` (its own context model): `model_stamp`
  // names the model, another for every model compiled anew; a stamp other
  // than the last frame's remakes the render context from `model`.
  void Render(const mjModel* model, uint64_t model_stamp, const mjData* data,
              const mjvCamera& camera, int camera_id, int width, int height,
              const SceneSettings& settings, uint8_t* rgb);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace envpool::render

#endif  // ENVPOOL_RENDER_MUJOCO_EGL_H_
