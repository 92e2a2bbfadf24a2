#include "envpool/mujoco/mujoco_env.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

#include "envpool/mujoco_common/spec.h"
#include "envpool/mujoco_common/state.h"

namespace envpool::mujoco {
namespace {

// gymnasium's models: xml_file is a path or a file of its asset folder.
const mujoco_common::ModelFolder& GymnasiumModels() {
  static const mujoco_common::ModelFolder folder{
      "mujoco", /*accepts_paths=*/true,
      [](const std::string& xml_file, const std::string& path) {
        if (path.empty()) {
          return "MuJoCo model '" + xml_file +
                 "' not found: the models come from gymnasium's MuJoCo "
                 "assets, and gymnasium is not installed (pip install "
                 "gymnasium), or pass xml_file=<absolute path>";
        }
        return "MuJoCo model '" + xml_file + "' not found at " + path +
               " (the models come from gymnasium's MuJoCo assets: pip "
               "install gymnasium, or pass xml_file=<absolute path>)";
      }};
  return folder;
}

// The file xml_file names: EnvPool names its copies of gymnasium's models
// "<model>_envpool.xml", gymnasium "<model>.xml".
std::string GymnasiumName(const std::string& xml_file) {
  if (xml_file.empty()) {
    throw std::invalid_argument("option 'xml_file' is empty");
  }
  const std::string envpool_suffix = "_envpool.xml";
  if (xml_file.find('/') == std::string::npos &&
      xml_file.size() > envpool_suffix.size() &&
      xml_file.compare(xml_file.size() - envpool_suffix.size(),
                       envpool_suffix.size(), envpool_suffix) == 0) {
    return xml_file.substr(0, xml_file.size() - envpool_suffix.size()) + ".xml";
  }
  return xml_file;
}

}  // namespace

std::string ResolveModelPath(const std::string& xml_file) {
  return mujoco_common::ResolveModelPath(GymnasiumModels(),
                                         GymnasiumName(xml_file));
}

std::shared_ptr<const mjModel> LoadModel(const std::string& xml_file) {
  return mujoco_common::LoadModel(GymnasiumModels(), GymnasiumName(xml_file));
}

double NumpyScalarSquare(double x) {
  // A compiler turns pow(x, 2.0) into x * x; the exponent is read at run
  // time so that libm's pow runs, as it does for numpy.
  volatile double two = 2.0;
  return std::pow(x, two);
}

Options CommonOptions(const std::string& xml_file, int64_t frame_skip,
                      int64_t max_episode_steps) {
  return Options{
      {"max_episode_steps", max_episode_steps},
      {"frame_stack", int64_t{1}},
      {"xml_file", xml_file},
      {"frame_skip", frame_skip},
      // mj_rnePostConstraint after each step, so that cfrc_ext holds the
      // contact forces (gymnasium 1.x always does it; gym's v2/v3 on
      // mujoco-py and EnvPool's v4 do not, and see zeros).
      {"post_constraint", true},
      // The observation is the rendered frame (render_width x
      // render_height from render_camera_id), channel-first and stacked by
      // frame_stack, instead of the state vector.
      {"from_pixels", false},
      // EnvPool's option: the v5 ids set it, and render with gymnasium
      // v5's camera defaults (InvertedDoublePendulum-v5 has none).
      {"gymnasium_v5_render_camera", false},
  };
}

void DeclareSpec(const Options& options, const mjModel& model, int obs_dim,
                 const std::vector<std::string>& info_names, bool tendons,
                 EnvSpec* spec, MujocoFields* fields) {
  spec->snapshots = true;
  const auto frame_stack = options.Get<int64_t>("frame_stack");
  if (frame_stack < 1) {
    throw std::invalid_argument(
        "option 'frame_stack' must be at least 1, got " +
        std::to_string(frame_stack));
  }
  // gymnasium's MuJoCo frames: 480x480 by default (any size), at
  // round(1 / dt) frames per second, from the free camera or a model camera.
  mujoco_common::DeclareModelRendering(options, model, 480, 480, spec);
  fields->obs_dim = obs_dim;
  fields->obs = Field<double>{};
  fields->pixels = Field<uint8_t>{};
  if (options.Get<bool>("from_pixels")) {
    fields->pixel_width = spec->render_width;
    fields->pixel_height = spec->render_height;
    fields->pixels = spec->state.Add<uint8_t>(
        "obs", {3 * frame_stack, spec->render_height, spec->render_width},
        {0.0}, {255.0});
  } else {
    std::vector<int64_t> obs_shape{obs_dim};
    if (frame_stack > 1) {
      obs_shape.insert(obs_shape.begin(), frame_stack);
    }
    fields->obs = spec->state.Add<double>("obs", obs_shape, {-kInf}, {kInf});
  }
  fields->info.clear();
  for (const std::string& name : info_names) {
    fields->info.push_back(spec->state.Add<double>("info:" + name, {}));
  }
  if (tendons) {
    fields->tendon_length =
        spec->state.Add<double>("info:tendon_length", {model.ntendon});
    fields->tendon_velocity =
        spec->state.Add<double>("info:tendon_velocity", {model.ntendon});
  }
  std::vector<double> low;
  std::vector<double> high;
  mujoco_common::ControlBounds(model, kInf, &low, &high);
  fields->action = spec->action.Add<double>("action", {model.nu}, low, high);
  // The reward is float32, as EnvPool's (the reward terms in info stay
  // float64).
}

MujocoEnv::MujocoEnv(const Options& options, const MujocoFields& fields)
    : shared_model_(LoadModel(options.Get<std::string>("xml_file"))),
      model_(shared_model_.get()),
      data_(mj_makeData(model_)),
      fields_(fields),
      frame_skip_(options.Get<int>("frame_skip")),
      post_constraint_(options.Get<bool>("post_constraint")),
      obs_dim_(fields.obs_dim),
      frame_stack_(options.Get<int>("frame_stack")),
      from_pixels_(options.Get<bool>("from_pixels")),
      camera_id_(options.Has("render_camera_id")
                     ? options.Get<int>("render_camera_id")
                     : -1) {
  if (data_ == nullptr) {
    throw std::runtime_error("cannot allocate MuJoCo data for " +
                             options.Get<std::string>("xml_file"));
  }
  info_.assign(fields_.info.size(), 0.0);
  frames_.assign(static_cast<std::size_t>(frame_stack_) * obs_dim_, 0.0);
  if (from_pixels_) {
    const std::size_t frame =
        static_cast<std::size_t>(fields.pixel_width) * fields.pixel_height * 3;
    pixel_frames_.assign(frame * frame_stack_, 0);
    pixel_scratch_.assign(frame, 0);
  }
}

void MujocoEnv::ObservePixels(uint8_t* stack_end) {
  const int w = fields_.pixel_width;
  const int h = fields_.pixel_height;
  Render(w, h, camera_id_, pixel_scratch_.data());
  const std::size_t plane = static_cast<std::size_t>(w) * h;
  uint8_t* frame = stack_end - 3 * plane;
  for (std::size_t i = 0; i < plane; ++i) {
    for (int c = 0; c < 3; ++c) {
      frame[c * plane + i] = pixel_scratch_[3 * i + c];
    }
  }
}

void MujocoEnv::ResetFrames() {
  if (from_pixels_) {
    ObservePixels(pixel_frames_.data() + pixel_frames_.size());
    const std::size_t frame = pixel_scratch_.size();
    for (int k = 0; k + 1 < frame_stack_; ++k) {
      std::copy(pixel_frames_.end() - static_cast<std::ptrdiff_t>(frame),
                pixel_frames_.end(),
                pixel_frames_.begin() + static_cast<std::ptrdiff_t>(k * frame));
    }
    return;
  }
  Observe(frames_.data());
  for (int k = 1; k < frame_stack_; ++k) {
    std::copy(frames_.begin(), frames_.begin() + obs_dim_,
              frames_.begin() + static_cast<std::ptrdiff_t>(k) * obs_dim_);
  }
}

void MujocoEnv::AdvanceFrames() {
  if (from_pixels_) {
    const auto frame = static_cast<std::ptrdiff_t>(pixel_scratch_.size());
    std::copy(pixel_frames_.begin() + frame, pixel_frames_.end(),
              pixel_frames_.begin());
    ObservePixels(pixel_frames_.data() + pixel_frames_.size());
    return;
  }
  std::copy(frames_.begin() + obs_dim_, frames_.end(), frames_.begin());
  Observe(frames_.data() + frames_.size() - obs_dim_);
}

void MujocoEnv::Render(int width, int height, int camera_id, uint8_t* rgb) {
  if (!has_camera_) {
    camera_ = InitialCamera(model_, data_.get(), DefaultCamera());
    has_camera_ = true;
  }
  RenderFrame(model_, data_.get(), camera_, camera_id, width, height, rgb);
}

void MujocoEnv::ResetData() { mj_resetData(model_, data_.get()); }

void MujocoEnv::ResetWithNoise(double scale, VelocityNoise velocity_noise) {
  ResetData();
  for (int i = 0; i < model_->nq; ++i) {
    data_->qpos[i] += Uniform(-scale, scale);
  }
  for (int i = 0; i < model_->nv; ++i) {
    data_->qvel[i] += velocity_noise == VelocityNoise::kNormal
                          ? scale * StandardNormal()
                          : Uniform(-scale, scale);
  }
  Forward();
  FinishReset();
}

void MujocoEnv::Forward() {
  mj_forward(model_, data_.get());
  stepped_ = false;
}

void MujocoEnv::DoSimulation(const double* action) {
  std::copy(action, action + model_->nu, data_->ctrl);
  for (int i = 0; i < frame_skip_; ++i) {
    if (i + 1 == frame_skip_) {
      mujoco_common::GetIntegrationState(model_, data_.get(), &pre_step_);
    }
    mj_step(model_, data_.get());
  }
  stepped_ = true;
  if (post_constraint_) {
    mj_rnePostConstraint(model_, data_.get());
  }
}

void MujocoEnv::FinishReset() {
  ResetFrames();
  std::fill(info_.begin(), info_.end(), 0.0);
  ResetInfo();
}

void MujocoEnv::FinishStep() { AdvanceFrames(); }

void MujocoEnv::Write(const Output& out) {
  if (from_pixels_) {
    std::copy(pixel_frames_.begin(), pixel_frames_.end(),
              out.Get(fields_.pixels));
  } else {
    std::copy(frames_.begin(), frames_.end(), out.Get(fields_.obs));
  }
  for (std::size_t i = 0; i < fields_.info.size(); ++i) {
    *out.Get(fields_.info[i]) = info_[i];
  }
  if (fields_.tendon_length.index >= 0) {
    std::copy(data_->ten_length, data_->ten_length + model_->ntendon,
              out.Get(fields_.tendon_length));
    std::copy(data_->ten_velocity, data_->ten_velocity + model_->ntendon,
              out.Get(fields_.tendon_velocity));
  }
}

std::vector<double> MujocoEnv::GetState() const {
  const int nq = model_->nq;
  const int nv = model_->nv;
  std::vector<double> state(data_->qpos, data_->qpos + nq);
  state.insert(state.end(), data_->qvel, data_->qvel + nv);
  state.insert(state.end(), data_->qacc_warmstart, data_->qacc_warmstart + nv);
  return state;
}

void MujocoEnv::SetState(const std::vector<double>& state) {
  const int nq = model_->nq;
  const int nv = model_->nv;
  const auto n = static_cast<int>(state.size());
  if (n != nq + nv && n != nq + 2 * nv) {
    throw std::invalid_argument(
        "the state of this MuJoCo env is qpos (" + std::to_string(nq) +
        "), qvel (" + std::to_string(nv) + ") and optionally qacc_warmstart (" +
        std::to_string(nv) + "), got " + std::to_string(n) + " numbers");
  }
  std::copy(state.begin(), state.begin() + nq, data_->qpos);
  std::copy(state.begin() + nq, state.begin() + nq + nv, data_->qvel);
  if (n == nq + 2 * nv) {
    std::copy(state.begin() + nq + nv, state.end(), data_->qacc_warmstart);
  }
  Forward();
  if (from_pixels_) {
    ObservePixels(pixel_frames_.data() + pixel_frames_.size());
  } else {
    Observe(frames_.data() + frames_.size() - obs_dim_);
  }
}

void MujocoEnv::SaveState(StateWriter* writer) const {
  std::vector<mjtNum> state;
  mujoco_common::GetIntegrationState(model_, data_.get(), &state);
  writer->Put(state, stepped_);
  if (stepped_) {
    writer->Put(pre_step_);
  }
  writer->Put(frames_, pixel_frames_, info_, has_camera_, camera_);
}

void MujocoEnv::LoadState(StateReader* reader) {
  std::vector<mjtNum> state;
  bool stepped = false;
  std::vector<mjtNum> pre_step;
  reader->Get(&state, &stepped);
  if (stepped) {
    reader->Get(&pre_step);
  }
  std::vector<double> frames;
  std::vector<uint8_t> pixel_frames;
  std::vector<double> info;
  bool has_camera = false;
  mjvCamera camera;
  reader->Get(&frames, &pixel_frames, &info, &has_camera, &camera);
  if (frames.size() != frames_.size() ||
      pixel_frames.size() != pixel_frames_.size() ||
      info.size() != info_.size()) {
    throw SnapshotError(
        "the MuJoCo state's observation or info sizes are not this env's");
  }
  const int size = mj_stateSize(model_, mujoco_common::kIntegrationState);
  if (static_cast<int>(state.size()) != size ||
      (stepped && static_cast<int>(pre_step.size()) != size)) {
    throw SnapshotError("the MuJoCo state is not of this model");
  }
  if (stepped) {
    mujoco_common::SetIntegrationState(model_, data_.get(), pre_step);
    mj_step(model_, data_.get());
    if (post_constraint_) {
      mj_rnePostConstraint(model_, data_.get());
    }
    mujoco_common::SetIntegrationState(model_, data_.get(), state);
  } else {
    mujoco_common::SetIntegrationState(model_, data_.get(), state);
    mj_forward(model_, data_.get());
  }
  stepped_ = stepped;
  pre_step_ = std::move(pre_step);
  frames_ = std::move(frames);
  pixel_frames_ = std::move(pixel_frames);
  info_ = std::move(info);
  has_camera_ = has_camera;
  camera_ = camera;
}

double MujocoEnv::Uniform(double low, double high) {
  return np_random_.Uniform(low, high);
}

double MujocoEnv::StandardNormal() { return np_random_.StandardNormal(); }

int MujocoEnv::BodyId(const char* name) const {
  return mujoco_common::ObjectId(model_, mjOBJ_BODY, name);
}

bool MujocoEnv::StateIsFinite() const {
  for (int i = 0; i < model_->nq; ++i) {
    if (!std::isfinite(data_->qpos[i])) {
      return false;
    }
  }
  for (int i = 0; i < model_->nv; ++i) {
    if (!std::isfinite(data_->qvel[i])) {
      return false;
    }
  }
  return true;
}

}  // namespace envpool::mujoco
