// What every MuJoCo task shares: the model, loaded once per file and shared
// read-only by all envs; one mjData per env; stepping with frame_skip; reset
// noise drawn from the env's np_random_ (numpy's Generator, seeded as
// gymnasium seeds its env's np_random); the observation (optionally stacked)
// and the info scalars written to the output batch.
//
// The tasks follow gymnasium's MuJoCo envs (gymnasium/envs/mujoco/*_v4.py,
// *_v5.py, and gym's *_v3.py) on the same engine.  Actions go to data->ctrl
// unclipped, as gymnasium's do_simulation does; MuJoCo itself clamps them to
// the actuators' ctrlrange, and the control costs see the raw action.
#ifndef ENVPOOL_MUJOCO_MUJOCO_ENV_H_
#define ENVPOOL_MUJOCO_MUJOCO_ENV_H_

#include <mujoco/mujoco.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "envpool/core/env.h"
#include "envpool/mujoco_common/model.h"
#include "envpool/mujoco_common/numpy_math.h"
#include "envpool/render/mujoco_egl.h"

namespace envpool::mujoco {

// gymnasium's camera and frames (envpool/render/mujoco_egl.h).
using render::CameraConfig;
using render::InitialCamera;
using render::NoCameraConfig;
using render::RenderFrame;

// The path `xml_file` names: absolute, relative to the working directory
// when it starts with '.', under $HOME when it starts with '~', otherwise in
// gymnasium's MuJoCo asset folder (registration.py's ASSET_DIR), where
// EnvPool's name "<model>_envpool.xml" is gymnasium's "<model>.xml".  Throws
// std::invalid_argument naming the file when it does not exist.
std::string ResolveModelPath(const std::string& xml_file);

// The compiled model of `xml_file`, loaded once per process and shared
// (envpool/mujoco_common/model.h).
std::shared_ptr<const mjModel> LoadModel(const std::string& xml_file);

// numpy's float64 np.sum (pairwise summation) and np.sum(np.square(x)), so
// that reward terms agree with gymnasium's to the last bit.
using mujoco_common::NumpySum;
using mujoco_common::SumOfSquares;
// np.linalg.norm(x) of a short vector (under 32 numbers), as this process's
// numpy computes it (its OpenBLAS sums the squares in order, by fused
// multiply-adds on most x86-64 CPUs; the module asks numpy at import).
inline double Norm(const double* x, int n) {
  return mujoco_common::NumpyNorm(x, n);
}
// x ** 2 of a numpy float64 scalar: libm's pow(x, 2.0), which now and then
// is an ulp away from x * x (glibc's pow is not correctly rounded).
double NumpyScalarSquare(double x);
// np.clip(x, low, high): NaN stays NaN.
inline double Clip(double x, double low, double high) {
  return std::min(std::max(x, low), high);
}

// The survival term of the locomotion tasks. v3/v4 (legacy) pay it on every
// step while terminate_when_unhealthy is set, v5 only while healthy.
inline double HealthyReward(double healthy_reward, bool healthy,
                            bool terminate_when_unhealthy, bool legacy) {
  bool paid = legacy ? healthy || terminate_when_unhealthy : healthy;
  return paid ? healthy_reward : 0.0;
}

// The handles every MuJoCo task declares.
struct MujocoFields {
  Field<double> obs;
  Field<double> action;
  std::vector<Field<double>> info;  // one scalar per info name
  // Humanoid and HumanoidStandup report the tendons as gymnasium v5 does.
  Field<double> tendon_length;
  Field<double> tendon_velocity;
  int obs_dim = 0;  // numbers in one (unstacked) observation
  // from_pixels: the observation is frame_stack rendered frames instead,
  // channel-first, (3 * frame_stack, render_height, render_width) uint8.
  Field<uint8_t> pixels;
  int pixel_width = 0;
  int pixel_height = 0;
};

// The options of every task, with the task's own defaults.
Options CommonOptions(const std::string& xml_file, int64_t frame_skip,
                      int64_t max_episode_steps);

// Declares the observation (obs_dim numbers, or frame_stack x obs_dim), the
// action (one per actuator, bounded by its ctrlrange) and the scalar infos;
// the reward is float64.  With `tendons`, also info:tendon_length and
// info:tendon_velocity.
void DeclareSpec(const Options& options, const mjModel& model, int obs_dim,
                 const std::vector<std::string>& info_names, bool tendons,
                 EnvSpec* spec, MujocoFields* fields);

class MujocoEnv : public Env {
 public:
  void Write(const Output& out) override;

  // Test hooks.  The state is qpos (nq numbers), qvel (nv), then
  // qacc_warmstart (nv), the constraint solver's starting point, which
  // together determine every later step.  SetState takes qpos and qvel, or
  // all three, and recomputes the derived quantities with mj_forward, as
  // gymnasium's set_state does.
  std::vector<double> GetState() const override;
  void SetState(const std::vector<double>& state) override;

  // Snapshots: the integration state (mujoco_common/state.h), and, after a
  // step, the state its last mj_step started from, which LoadState steps
  // again so that the quantities MuJoCo derived (and tasks read before
  // their next step: xipos, xpos, cfrc_ext) are the saved env's, bit for
  // bit; after a reset, mj_forward recomputes them. Then the observation
  // stack, the info values and the render camera.
  void SaveState(StateWriter* writer) const override;
  void LoadState(StateReader* reader) override;

  // gymnasium's rgb_array frame (see envpool/render/mujoco_egl.h): its free
  // camera, placed at this env's first frame, or the model's fixed camera
  // camera_id.
  void Render(int width, int height, int camera_id, uint8_t* rgb) override;

 protected:
  // The task's DEFAULT_CAMERA_CONFIG in gymnasium (distance, elevation,
  // azimuth, lookat; its trackbodyid has no effect on a free camera).
  virtual CameraConfig DefaultCamera() const { return NoCameraConfig(); }

  MujocoEnv(const Options& options, const MujocoFields& fields);

  // The current observation, obs_dim numbers.
  virtual void Observe(double* obs) const = 0;
  // The info values right after a reset (reward terms are zero).
  virtual void ResetInfo() {}

  // mj_resetData: the model's initial state.
  void ResetData();
  // gymnasium's usual reset_model: the initial state with
  // qpos + uniform(-scale, scale, size=nq), then qvel +
  // uniform(-scale, scale, size=nv) or scale * standard_normal(nv), then
  // mj_forward and FinishReset.
  enum class VelocityNoise { kUniform, kNormal };
  void ResetWithNoise(double scale, VelocityNoise velocity_noise);
  // Recomputes positions, velocities and forces from qpos and qvel.
  void Forward();
  // data->ctrl = action, frame_skip mj_steps, then (post_constraint)
  // mj_rnePostConstraint so that cfrc_ext holds the contact forces.
  void DoSimulation(const double* action);
  // Ends a reset or a step: records the new observation.
  void FinishReset();
  void FinishStep();

  // np_random.uniform(low, high) and np_random.standard_normal(): one draw
  // each from the env's np_random_, numpy's own arithmetic, so that a task
  // making gymnasium's calls in gymnasium's order starts where it does.
  double Uniform(double low, double high);
  double StandardNormal();
  // The id of the body `name`; throws when the model has none.
  int BodyId(const char* name) const;
  // Seconds per env step: timestep x frame_skip.
  double dt() const { return model_->opt.timestep * frame_skip_; }
  // qpos and qvel are all finite (gymnasium's np.isfinite(state_vector())).
  bool StateIsFinite() const;

  std::shared_ptr<const mjModel> shared_model_;
  const mjModel* model_;
  mujoco_common::DataPtr data_;
  MujocoFields fields_;
  std::vector<double> info_;  // values of fields_.info, in order

 private:
  int frame_skip_;
  bool post_constraint_;
  int obs_dim_;
  int frame_stack_;
  // from_pixels: the newest frame drawn into the stack (channel-first).
  void ObservePixels(uint8_t* stack_end);
  void ResetFrames();
  void AdvanceFrames();

  std::vector<double> frames_;  // frame_stack observations, oldest first
  bool from_pixels_;
  int camera_id_;
  std::vector<uint8_t> pixel_frames_;   // frame_stack frames, oldest first
  std::vector<uint8_t> pixel_scratch_;  // one height x width x 3 frame
  bool has_camera_ = false;             // placed at the first frame
  mjvCamera camera_;
  // Whether the derived quantities come from a step (else from mj_forward),
  // and the integration state that step's last mj_step started from.
  bool stepped_ = false;
  std::vector<mjtNum> pre_step_;
};

}  // namespace envpool::mujoco

#endif  // ENVPOOL_MUJOCO_MUJOCO_ENV_H_
