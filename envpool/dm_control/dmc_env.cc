#include "envpool/dm_control/dmc_env.h"

#include <mujoco/mjxmacro.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "envpool/mujoco_common/physics.h"
#include "envpool/mujoco_common/spec.h"
#include "envpool/mujoco_common/state.h"
#include "envpool/render/mujoco_egl.h"

namespace envpool::dm_control {
namespace {

// The suite's models shipped in the wheel (registration.py's ASSET_DIR).
const mujoco_common::ModelFolder& SuiteModels() {
  static const mujoco_common::ModelFolder folder{
      "dm_control", /*accepts_paths=*/false,
      [](const std::string& name, const std::string& path) {
        return "dm_control model '" + name + "' not found" +
               (path.empty() ? std::string() : " at " + path) +
               ": envpool's wheel ships the suite's models in "
               "envpool/dm_control/assets; reinstall envpool (pip install "
               "--force-reinstall envpool)";
      }};
  return folder;
}

double SigmoidValue(double x, double value_at_1, Sigmoid sigmoid) {
  switch (sigmoid) {
    case Sigmoid::kGaussian: {
      const double scale = std::sqrt(-2.0 * std::log(value_at_1));
      const double s = x * scale;
      return std::exp(-0.5 * (s * s));
    }
    case Sigmoid::kHyperbolic: {
      const double scale = std::acosh(1.0 / value_at_1);
      return 1.0 / std::cosh(x * scale);
    }
    case Sigmoid::kLongTail: {
      const double scale = std::sqrt(1.0 / value_at_1 - 1.0);
      const double s = x * scale;
      return 1.0 / (s * s + 1.0);
    }
    case Sigmoid::kReciprocal: {
      const double scale = 1.0 / value_at_1 - 1.0;
      return 1.0 / (std::abs(x) * scale + 1.0);
    }
    case Sigmoid::kCosine: {
      const double scale = std::acos(2.0 * value_at_1 - 1.0) / M_PI;
      const double s = x * scale;
      return std::abs(s) < 1.0 ? (1.0 + std::cos(M_PI * s)) / 2.0 : 0.0;
    }
    case Sigmoid::kLinear: {
      const double s = x * (1.0 - value_at_1);
      return std::abs(s) < 1.0 ? 1.0 - s : 0.0;
    }
    case Sigmoid::kQuadratic: {
      const double s = x * std::sqrt(1.0 - value_at_1);
      return std::abs(s) < 1.0 ? 1.0 - s * s : 0.0;
    }
    case Sigmoid::kTanhSquared: {
      const double scale = std::atanh(std::sqrt(1.0 - value_at_1));
      const double t = std::tanh(x * scale);
      return 1.0 - t * t;
    }
  }
  return 0.0;
}

}  // namespace

std::shared_ptr<const mjModel> LoadModel(const std::string& name) {
  return mujoco_common::LoadModel(SuiteModels(), name);
}

std::string ReadModelFile(const std::string& name) {
  return mujoco_common::ReadModelText(SuiteModels(), name);
}

std::shared_ptr<const mjModel> LoadModelFromText(const std::string& key,
                                                 const std::string& xml) {
  return mujoco_common::LoadModelFromText(SuiteModels(), key, xml);
}

void Replace(std::string* text, const std::string& from,
             const std::string& to) {
  const std::size_t at = text->find(from);
  if (at == std::string::npos) {
    throw std::runtime_error("dm_control model text has no '" + from + "'");
  }
  text->replace(at, from.size(), to);
}

void RemoveElement(std::string* text, const std::string& tag,
                   const std::string& name) {
  const std::string open = "<" + tag;
  const std::string close = "</" + tag + ">";
  const std::string attribute = "name=\"" + name + "\"";
  std::size_t start = text->find(open);
  while (start != std::string::npos) {
    const std::size_t end_of_tag = text->find('>', start);
    const std::size_t at = text->find(attribute, start);
    const char next = (*text)[start + open.size()];
    if (at < end_of_tag && (next == ' ' || next == '\n' || next == '\t')) {
      break;
    }
    start = text->find(open, start + 1);
  }
  if (start == std::string::npos) {
    throw std::runtime_error("dm_control model text has no " + tag + " '" +
                             name + "'");
  }
  std::size_t end = text->find('>', start) + 1;
  if ((*text)[end - 2] != '/') {
    // Not self-closing: up to the matching closing tag.
    int depth = 1;
    while (depth > 0) {
      const std::size_t next_open = text->find(open, end);
      const std::size_t next_close = text->find(close, end);
      if (next_close == std::string::npos) {
        throw std::runtime_error("dm_control model text: unclosed " + tag);
      }
      if (next_open < next_close) {
        const std::size_t tag_end = text->find('>', next_open);
        if ((*text)[tag_end - 1] != '/') {
          ++depth;
        }
        end = tag_end + 1;
      } else {
        --depth;
        end = next_close + close.size();
      }
    }
  }
  text->erase(start, end - start);
}

void RemoveAll(std::string* text, const std::string& tag) {
  const std::string open = "<" + tag + " ";
  for (std::size_t start = text->find(open); start != std::string::npos;
       start = text->find(open, start)) {
    const std::size_t end = text->find("/>", start);
    if (end == std::string::npos) {
      throw std::runtime_error("dm_control model text: unclosed " + tag);
    }
    text->erase(start, end + 2 - start);
  }
}

std::string XmlNumber(double x) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.17g", x);
  return text;
}

double Tolerance(double x, double lower, double upper, double margin,
                 Sigmoid sigmoid, double value_at_margin) {
  const bool in_bounds = lower <= x && x <= upper;
  if (margin == 0.0) {
    return in_bounds ? 1.0 : 0.0;
  }
  if (in_bounds) {
    return 1.0;
  }
  const double d = (x < lower ? lower - x : x - upper) / margin;
  return SigmoidValue(d, value_at_margin, sigmoid);
}

Options DmcOptions(const std::string& task_name, int64_t frame_skip) {
  return Options{
      {"max_episode_steps", int64_t{1000}},
      {"task_name", task_name},
      {"frame_skip", frame_skip},
      // Kept for EnvPool's config; only 1 (no stacking) is supported.
      {"frame_stack", int64_t{1}},
  };
}

void CheckTask(const std::string& domain, const std::string& task,
               const std::vector<std::string>& tasks) {
  if (std::find(tasks.begin(), tasks.end(), task) != tasks.end()) {
    return;
  }
  std::string names;
  for (const std::string& t : tasks) {
    names += (names.empty() ? "'" : ", '") + t + "'";
  }
  throw std::invalid_argument("option 'task_name' of the " + domain +
                              " domain must be one of " + names + ", got '" +
                              task + "'");
}

void DeclareDmc(const Options& options, const mjModel& model_ref,
                const std::vector<ObsKey>& keys, EnvSpec* spec,
                DmcFields* fields) {
  const mjModel* model = &model_ref;
  mujoco_common::FrameSkip(options);
  if (options.Get<int64_t>("frame_stack") != 1) {
    throw std::invalid_argument(
        "option 'frame_stack' must be 1 (dm_control tasks are not stacked), "
        "got " +
        std::to_string(options.Get<int64_t>("frame_stack")));
  }
  fields->obs.clear();
  for (const ObsKey& key : keys) {
    fields->obs.push_back(
        spec->state.Add<double>("obs:" + key.name, key.shape, {-kInf}, {kInf}));
  }
  // dm_control bounds an unlimited actuator by +-mjMAXVAL.
  std::vector<double> low;
  std::vector<double> high;
  mujoco_common::ControlBounds(*model, mjMAXVAL, &low, &high);
  fields->action = spec->action.Add<double>("action", {model->nu}, low, high);
  spec->snapshots = true;
  // dm_control's Physics.render: 320x240 by default (any size), from the
  // free camera or a model camera; round(1 / control timestep) frames per
  // second.
  mujoco_common::DeclareModelRendering(options, *model, 320, 240, spec);
}

void DeclareDmc(const Options& options, const std::string& model_file,
                const std::vector<ObsKey>& keys, EnvSpec* spec,
                DmcFields* fields) {
  DeclareDmc(options, *LoadModel(model_file), keys, spec, fields);
}

namespace {

// The model's arrays are compared with the loaded model's in blocks of
// this many bytes.
constexpr std::size_t kModelBlock = 64;

// Arrays no task changes and too big to compare at each save (Dog's
// bounding volumes, meshes and textures are 72 MB): textures, meshes,
// skins, flexes, bounding volume hierarchies, octrees, names and paths.
bool StaticArray(const char* name) {
  for (const char* prefix : {"tex_data", "mesh_", "skin_", "flex", "bvh_",
                             "oct_", "names", "paths"}) {
    if (std::strncmp(name, prefix, std::strlen(prefix)) == 0) {
      return true;
    }
  }
  return false;
}

}  // namespace

std::vector<uint64_t> WatchedModelBlocks(const mjModel& model) {
  const mjModel* m = &model;
  const auto* buffer = static_cast<const uint8_t*>(m->buffer);
  std::vector<uint64_t> blocks;
  auto watch = [&](const char* name, const void* array, std::size_t bytes) {
    if (bytes == 0 || StaticArray(name)) {
      return;
    }
    const auto begin =
        static_cast<std::size_t>(static_cast<const uint8_t*>(array) - buffer);
    for (std::size_t b = begin / kModelBlock; b * kModelBlock < begin + bytes;
         ++b) {
      blocks.push_back(b);
    }
  };
  MJMODEL_POINTERS_PREAMBLE(m)
#define X(type, name, nr, nc) \
  watch(#name, m->name, sizeof(type) * static_cast<std::size_t>(m->nr) * (nc));
#define XNV X
  MJMODEL_POINTERS
#undef XNV
#undef X
  std::sort(blocks.begin(), blocks.end());
  blocks.erase(std::unique(blocks.begin(), blocks.end()), blocks.end());
  return blocks;
}

std::vector<std::pair<std::size_t, std::size_t>> IndexArrayRanges(
    const mjModel& model) {
  const mjModel* m = &model;
  const auto* buffer = static_cast<const uint8_t*>(m->buffer);
  std::vector<std::pair<std::size_t, std::size_t>> ranges;
  auto add = [&](const void* array, std::size_t bytes) {
    if (bytes == 0) {
      return;
    }
    const auto begin =
        static_cast<std::size_t>(static_cast<const uint8_t*>(array) - buffer);
    ranges.emplace_back(begin, begin + bytes);
  };
  MJMODEL_POINTERS_PREAMBLE(m)
#define X(type, name, nr, nc)                                            \
  if (std::is_same_v<type, int>) {                                       \
    add(m->name, sizeof(type) * static_cast<std::size_t>(m->nr) * (nc)); \
  }
#define XNV X
  MJMODEL_POINTERS
#undef XNV
#undef X
  std::sort(ranges.begin(), ranges.end());
  return ranges;
}

DmcEnv::DmcEnv(const Options& options, const DmcFields& fields,
               const std::string& model_file)
    : DmcEnv(options, fields, LoadModel(model_file)) {}

DmcEnv::DmcEnv(const Options& options, const DmcFields& fields,
               std::shared_ptr<const mjModel> model)
    : model_(mj_copyModel(nullptr, model.get())),
      base_model_(std::move(model)),
      fields_(fields),
      n_sub_steps_(options.Get<int>("frame_skip")) {
  if (model_ == nullptr) {
    throw std::runtime_error("cannot copy a MuJoCo model");
  }
  data_.reset(mj_makeData(model_.get()));
  if (data_ == nullptr) {
    throw std::runtime_error("cannot allocate MuJoCo data");
  }
  obs_ptrs_.resize(fields_.obs.size());
  model_blocks_ = WatchedModelBlocks(*model_);
  index_ranges_ = IndexArrayRanges(*model_);
}

uint64_t DmcEnv::NewHfieldStamp() { return render::NewStamp(); }

void DmcEnv::Render(int width, int height, int camera_id, uint8_t* rgb) {
  mjvCamera camera;
  mjv_defaultCamera(&camera);
  camera.type = mjCAMERA_FREE;
  mjv_defaultFreeCamera(model_.get(), &camera);
  render::SceneSettings settings;
  settings.max_geom = render::DmControlMaxGeom(model_.get());
  settings.rangefinders = false;
  settings.hfield_stamp = hfield_stamp_;
  render::RenderFrame(base_model_.get(), model_.get(), data_.get(), camera,
                      camera_id, width, height, settings, rgb);
}

void DmcEnv::OnSeed(uint64_t seed) {
  random_ = random::RandomState::FromSeed(seed);
  OnSeeded();
}

void DmcEnv::AfterReset() {
  mujoco_common::ForwardWithoutActuation(model_.get(), data_.get());
}

void DmcEnv::PhysicsStep(int nstep) {
  if (model_->opt.integrator != mjINT_RK4) {
    mj_step2(model_.get(), data_.get());
    for (int i = 1; i < nstep; ++i) {
      mj_step(model_.get(), data_.get());
    }
  } else {
    for (int i = 0; i < nstep; ++i) {
      mj_step(model_.get(), data_.get());
    }
  }
  mj_step1(model_.get(), data_.get());
}

void DmcEnv::Reset() {
  mj_resetData(model_.get(), data_.get());
  AfterReset();
  InitializeEpisode();
  AfterReset();
  after_reset_ = true;
  reward_ = 0.0;
  terminated_ = false;
}

void DmcEnv::Step(const ActionView& action) {
  const double* act = action.Get(fields_.action);
  std::copy(act, act + model_->nu, data_->ctrl);
  PhysicsStep(n_sub_steps_);
  after_reset_ = false;
  reward_ = GetReward();
  terminated_ = GetTermination();
}

void DmcEnv::Write(const Output& out) {
  for (std::size_t k = 0; k < fields_.obs.size(); ++k) {
    obs_ptrs_[k] = out.Get(fields_.obs[k]);
  }
  Observe(obs_ptrs_);
}

std::vector<double> DmcEnv::GetState() const {
  const int nq = model_->nq;
  const int nv = model_->nv;
  const int na = model_->na;
  std::vector<double> state(data_->qpos, data_->qpos + nq);
  state.insert(state.end(), data_->qvel, data_->qvel + nv);
  state.insert(state.end(), data_->act, data_->act + na);
  state.insert(state.end(), data_->qacc_warmstart, data_->qacc_warmstart + nv);
  return state;
}

void DmcEnv::SetState(const std::vector<double>& state) {
  const int nq = model_->nq;
  const int nv = model_->nv;
  const int na = model_->na;
  const auto n = static_cast<int>(state.size());
  if (n != nq + nv && n != nq + 2 * nv + na) {
    throw std::invalid_argument(
        "the state of this dm_control env is qpos (" + std::to_string(nq) +
        "), qvel (" + std::to_string(nv) + ") and optionally act (" +
        std::to_string(na) + ") and qacc_warmstart (" + std::to_string(nv) +
        "), got " + std::to_string(n) + " numbers");
  }
  auto it = state.begin();
  std::copy(it, it + nq, data_->qpos);
  std::copy(it + nq, it + nq + nv, data_->qvel);
  if (n > nq + nv) {
    std::copy(it + nq + nv, it + nq + nv + na, data_->act);
    std::copy(it + nq + nv + na, state.end(), data_->qacc_warmstart);
  }
  AfterReset();
  after_reset_ = true;
}

void DmcEnv::SaveState(StateWriter* writer) const {
  std::vector<mjtNum> state;
  mujoco_common::GetIntegrationState(model_.get(), data_.get(), &state);
  const auto* base = static_cast<const uint8_t*>(base_model_->buffer);
  const auto* own = static_cast<const uint8_t*>(model_->buffer);
  const auto size = static_cast<std::size_t>(model_->nbuffer);
  std::vector<uint64_t> blocks;
  std::vector<uint8_t> bytes;
  for (uint64_t block : model_blocks_) {
    const std::size_t at = block * kModelBlock;
    const std::size_t n = std::min(kModelBlock, size - at);
    if (std::memcmp(base + at, own + at, n) != 0) {
      blocks.push_back(block);
      bytes.insert(bytes.end(), own + at, own + at + n);
    }
  }
  writer->Put(random_, state, after_reset_, model_->opt, blocks, bytes,
              hfield_stamp_ != 0);
}

void DmcEnv::LoadState(StateReader* reader) {
  random::RandomState random{uint32_t{0}};
  std::vector<mjtNum> state;
  bool after_reset = true;
  mjOption opt;
  std::vector<uint64_t> blocks;
  std::vector<uint8_t> bytes;
  bool hfield_changed = false;
  reader->Get(&random, &state, &after_reset, &opt, &blocks, &bytes,
              &hfield_changed);
  const auto size = static_cast<std::size_t>(model_->nbuffer);
  if (static_cast<int>(state.size()) !=
      mj_stateSize(model_.get(), mujoco_common::kIntegrationState)) {
    throw SnapshotError("the dm_control state is not of this model");
  }
  // The saved blocks are watched blocks, ascending.
  std::size_t expected = 0;
  auto watched = model_blocks_.begin();
  for (uint64_t block : blocks) {
    watched = std::lower_bound(watched, model_blocks_.end(), block);
    if (watched == model_blocks_.end() || *watched != block) {
      throw SnapshotError("the dm_control state's model blocks are corrupt");
    }
    ++watched;
    expected += std::min(kModelBlock, size - block * kModelBlock);
  }
  if (bytes.size() != expected) {
    throw SnapshotError("the dm_control state's model blocks are corrupt");
  }
  // The discrete options (integrator, cone, solver, iteration counts,
  // flags: MuJoCo indexes and loops with them) must be the loaded model's;
  // no task changes them.
  constexpr std::size_t kDiscreteOptions = offsetof(mjOption, integrator);
  if (std::memcmp(
          reinterpret_cast<const char*>(&opt) + kDiscreteOptions,
          reinterpret_cast<const char*>(&base_model_->opt) + kDiscreteOptions,
          sizeof(mjOption) - kDiscreteOptions) != 0) {
    throw SnapshotError(
        "the dm_control state changes the model's integrator, solver or "
        "flags; no task does");
  }
  auto* own = static_cast<uint8_t*>(model_->buffer);
  const auto* base = static_cast<const uint8_t*>(base_model_->buffer);
  // The int arrays (ids, addresses, types) must be the loaded model's:
  // MuJoCo indexes with them unchecked.
  {
    const uint8_t* saved = bytes.data();
    for (uint64_t block : blocks) {
      const std::size_t at = block * kModelBlock;
      const std::size_t n = std::min(kModelBlock, size - at);
      auto range = std::upper_bound(
          index_ranges_.begin(), index_ranges_.end(),
          std::make_pair(at, std::numeric_limits<std::size_t>::max()));
      if (range != index_ranges_.begin()) {
        --range;
      }
      for (; range != index_ranges_.end() && range->first < at + n; ++range) {
        const std::size_t from = std::max(range->first, at);
        const std::size_t to = std::min(range->second, at + n);
        if (from < to &&
            std::memcmp(saved + (from - at), base + from, to - from) != 0) {
          throw SnapshotError(
              "the dm_control state changes the model's ids, addresses or "
              "types; no task does");
        }
      }
      saved += n;
    }
  }
  for (uint64_t block : model_blocks_) {
    const std::size_t at = block * kModelBlock;
    std::memcpy(own + at, base + at, std::min(kModelBlock, size - at));
  }
  const uint8_t* next = bytes.data();
  for (uint64_t block : blocks) {
    const std::size_t at = block * kModelBlock;
    const std::size_t n = std::min(kModelBlock, size - at);
    std::memcpy(own + at, next, n);
    next += n;
  }
  model_->opt = opt;
  hfield_stamp_ = hfield_changed ? NewHfieldStamp() : 0;
  random_ = random;
  mujoco_common::SetIntegrationState(model_.get(), data_.get(), state);
  if (after_reset) {
    AfterReset();
  } else {
    mj_step1(model_.get(), data_.get());
  }
  after_reset_ = after_reset;
}

void DmcEnv::RandomizeLimitedAndRotationalJoints() {
  for (int j = 0; j < model_->njnt; ++j) {
    const int type = model_->jnt_type[j];
    const bool limited = model_->jnt_limited[j] != 0;
    const double range_min = model_->jnt_range[2 * j];
    const double range_max = model_->jnt_range[2 * j + 1];
    double* qpos = data_->qpos + model_->jnt_qposadr[j];
    if (limited) {
      if (type == mjJNT_HINGE || type == mjJNT_SLIDE) {
        qpos[0] = random_.Uniform(range_min, range_max);
      } else if (type == mjJNT_BALL) {
        double axis[3];
        for (double& a : axis) {
          a = random_.StandardNormal();
        }
        const double norm = Norm(axis, 3);
        for (double& a : axis) {
          a /= norm;
        }
        const double angle = random_.RandomSample() * range_max;
        mju_axisAngle2Quat(qpos, axis, angle);
      }
    } else if (type == mjJNT_HINGE) {
      qpos[0] = random_.Uniform(-M_PI, M_PI);
    } else if (type == mjJNT_BALL || type == mjJNT_FREE) {
      double quat[4];
      for (double& q : quat) {
        q = type == mjJNT_BALL ? random_.StandardNormal()
                               : random_.RandomSample();
      }
      const double norm = Norm(quat, 4);
      double* target = type == mjJNT_BALL ? qpos : qpos + 3;
      for (int i = 0; i < 4; ++i) {
        target[i] = quat[i] / norm;
      }
    }
  }
}

int DmcEnv::Id(mjtObj type, const char* name) const {
  return mujoco_common::ObjectId(model_.get(), type, name);
}

int DmcEnv::QposAdr(const char* joint) const {
  return model_->jnt_qposadr[Id(mjOBJ_JOINT, joint)];
}

int DmcEnv::QvelAdr(const char* joint) const {
  return model_->jnt_dofadr[Id(mjOBJ_JOINT, joint)];
}

const double* DmcEnv::Sensor(const char* name) const {
  return data_->sensordata + model_->sensor_adr[Id(mjOBJ_SENSOR, name)];
}

}  // namespace envpool::dm_control
