// What every DeepMind Control Suite task shares, as dm_control 1.0.50
// computes it (dm_control/rl/control.py, suite/base.py, mujoco/engine.py):
//
// - a per-env copy of the task's MuJoCo model (tasks move targets, resize
//   sites and change gains in the model at each reset);
// - reset: mj_resetData and a forward pass with actuation disabled, the
//   task's initialization, then the same forward pass again
//   (Physics.reset_context);
// - step: ctrl = action, then dm_control's "legacy" step of n_sub_steps
//   physics steps (mj_step2, n_sub_steps - 1 mj_steps, mj_step1), so that
//   positions and velocities are up to date when the observation is read;
// - randomness from numpy's legacy RandomState, seeded with the env's seed,
//   as suite.load(domain, task, task_kwargs={"random": seed}) seeds its task.
#ifndef ENVPOOL_DM_CONTROL_DMC_ENV_H_
#define ENVPOOL_DM_CONTROL_DMC_ENV_H_

#include <mujoco/mujoco.h>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "envpool/core/env.h"
#include "envpool/mujoco_common/model.h"
#include "envpool/mujoco_common/numpy_math.h"

namespace envpool::dm_control {

// The compiled model of the suite file `name` ("cheetah.xml"), loaded once
// per process (envpool/mujoco_common/model.h); envs copy it.
std::shared_ptr<const mjModel> LoadModel(const std::string& name);
// The text of the suite file `name`, for tasks that build their model from
// it as dm_control does (more poles, more links, fewer boxes).
std::string ReadModelFile(const std::string& name);
// The model compiled from `xml` (which includes the suite's common files as
// the suite's own models do), loaded once per process under `key`.
std::shared_ptr<const mjModel> LoadModelFromText(const std::string& key,
                                                 const std::string& xml);
// Replaces the first `from` in `text` by `to`; throws when there is none.
void Replace(std::string* text, const std::string& from, const std::string& to);
// Removes the element <tag ... name="name" ...> with its children.
void RemoveElement(std::string* text, const std::string& tag,
                   const std::string& name);
// Removes every self-closing <tag .../> element.
void RemoveAll(std::string* text, const std::string& tag);
// A double as XML text that parses back to the same double.
std::string XmlNumber(double x);

// dm_control.utils.rewards.tolerance(x, bounds, margin, sigmoid,
// value_at_margin) for a scalar x.
enum class Sigmoid {
  kGaussian,
  kHyperbolic,
  kLongTail,
  kReciprocal,
  kCosine,
  kLinear,
  kQuadratic,
  kTanhSquared,
};
double Tolerance(double x, double lower, double upper, double margin = 0.0,
                 Sigmoid sigmoid = Sigmoid::kGaussian,
                 double value_at_margin = 0.1);

// numpy's float64 sum (pairwise, eight partial sums per block of 128) and
// mean; np.linalg.norm of a short vector: the sqrt of a dot product
// accumulated in order, by fused multiply-adds or by products and sums,
// whichever the numpy of this process does (its OpenBLAS picks its dot
// kernel by CPU: the FMA one on most x86-64 CPUs, a plain one on others;
// the module asks numpy at import: envpool/core/numpy_blas.h).
using mujoco_common::NumpyMean;
using mujoco_common::NumpySum;
inline double Norm(const double* x, int n) {
  return mujoco_common::NumpyNorm(x, n);
}

// One observation entry: its name (dm_control's key) and shape.
struct ObsKey {
  std::string name;
  std::vector<int64_t> shape;
};

struct DmcFields {
  std::vector<Field<double>> obs;  // in the order of the task's keys
  Field<double> action;
};

// The options of every task: the task, the physics steps per control step
// (frame_skip, dm_control's n_sub_steps: control_timestep / timestep) and
// the 1000-step limit.
Options DmcOptions(const std::string& task_name, int64_t frame_skip);

// Declares obs:<key> arrays (float64, unbounded) and the action, bounded by
// the actuators' ctrlrange as dm_control's action_spec is.
void DeclareDmc(const Options& options, const std::string& model_file,
                const std::vector<ObsKey>& keys, EnvSpec* spec,
                DmcFields* fields);
void DeclareDmc(const Options& options, const mjModel& model,
                const std::vector<ObsKey>& keys, EnvSpec* spec,
                DmcFields* fields);

// Throws std::invalid_argument naming the valid tasks when `task` is not
// one of them.
void CheckTask(const std::string& domain, const std::string& task,
               const std::vector<std::string>& tasks);

// The 64-byte blocks of `model`'s buffer that hold its arrays, but for the
// big static ones (textures, meshes, skins, flexes, bounding volumes,
// octrees, names, paths), ascending: what snapshots compare.
std::vector<uint64_t> WatchedModelBlocks(const mjModel& model);
// The byte ranges [begin, end) of the model's buffer that hold int arrays
// (ids, addresses, counts, types), ascending: MuJoCo indexes with them
// unchecked, and no task changes them, so a state may not.
std::vector<std::pair<std::size_t, std::size_t>> IndexArrayRanges(
    const mjModel& model);

class DmcEnv : public Env {
 public:
  void Reset() final;
  void Step(const ActionView& action) final;
  void Write(const Output& out) final;

  // Test hooks: qpos, qvel, act, then qacc_warmstart (MuJoCo's full
  // physics state for these models); SetState takes qpos and qvel and
  // optionally the rest, and runs dm_control's after_reset forward pass.
  std::vector<double> GetState() const override;
  void SetState(const std::vector<double>& state) override;

  // Snapshots: the task's RandomState, the integration state
  // (mujoco_common/state.h), what the task changed in its copy of the model
  // (the 64-byte blocks of the model's arrays that differ from the loaded
  // model, and its options: targets, sizes, gains, heightfields; the big
  // static arrays, textures, meshes, skins and bounding volumes, are
  // neither compared nor saved), and
  // whether the derived quantities come from a reset's forward pass or a
  // step's mj_step1, which LoadState runs again. The quantities mj_step2
  // derives are not restored: the next step computes them before anything
  // reads them.
  void SaveState(StateWriter* writer) const override;
  void LoadState(StateReader* reader) override;

  // dm_control's Physics.render(height, width, camera_id): the free camera
  // (mjv_defaultFreeCamera: the model's own view) for -1, else the model's
  // camera; the scene sized as dm_control sizes it, rangefinders hidden.
  void Render(int width, int height, int camera_id, uint8_t* rgb) override;

 protected:
  DmcEnv(const Options& options, const DmcFields& fields,
         const std::string& model_file);
  DmcEnv(const Options& options, const DmcFields& fields,
         std::shared_ptr<const mjModel> model);

  // Task hooks, as dm_control's Task: initialize_episode (inside the reset
  // context), get_reward, get_termination (true: the episode ends with
  // discount 0) and get_observation (one pointer per key of the task).
  virtual void InitializeEpisode() = 0;
  virtual double GetReward() = 0;
  virtual bool GetTermination() { return false; }
  virtual void Observe(const std::vector<double*>& obs) const = 0;
  // Right after the env's RandomState is (re)seeded: draws a task makes
  // when dm_control builds it (LQR's stiffness).
  virtual void OnSeeded() {}

  // dm_control's Physics methods.
  void AfterReset();            // mj_forward with actuation disabled
  void PhysicsStep(int nstep);  // the legacy step described above
  void RandomizeLimitedAndRotationalJoints();

  // Name lookups; throw when the model has no such element.
  int Id(mjtObj type, const char* name) const;
  int QposAdr(const char* joint) const;
  int QvelAdr(const char* joint) const;
  const double* Sensor(const char* name) const;
  // Row-major 3x3 body orientation entry: xx=0 ... zz=8.
  double Xmat(int body, int entry) const {
    return data_->xmat[9 * body + entry];
  }

  // numpy.random.RandomState(seed): the task's `random`.
  random::RandomState random_{uint32_t{0}};
  mujoco_common::ModelPtr model_;
  mujoco_common::DataPtr data_;
  // A task that rewrites the model's heightfields (Quadruped's escape
  // terrain) sets a new stamp (NewHfieldStamp) so that the next frame
  // uploads them again.
  uint64_t hfield_stamp_ = 0;
  static uint64_t NewHfieldStamp();

 private:
  void OnSeed(uint64_t seed) override;

  // The loaded model model_ was copied from: it lives as long as the
  // process, and the render contexts are made from it.
  std::shared_ptr<const mjModel> base_model_;
  DmcFields fields_;
  int n_sub_steps_;
  std::vector<double*> obs_ptrs_;
  // Whether the derived quantities come from AfterReset (else mj_step1).
  bool after_reset_ = true;
  // The 64-byte blocks of the model's buffer that snapshots compare with
  // the loaded model's (every array but the big static ones), ascending.
  std::vector<uint64_t> model_blocks_;
  // IndexArrayRanges of the model.
  std::vector<std::pair<std::size_t, std::size_t>> index_ranges_;
};

}  // namespace envpool::dm_control

#endif  // ENVPOOL_DM_CONTROL_DMC_ENV_H_
