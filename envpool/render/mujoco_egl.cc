#include "envpool/render/mujoco_egl.h"

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

namespace envpool::render {
namespace {

constexpr char kInstallHint[] =
    "MuJoCo renders headless through EGL: install Mesa's EGL (Debian: "
    "apt-get install libegl1 libegl-mesa0 libgl1-mesa-dri) or a GPU driver's";

// The EGL entry points, from libEGL loaded at the first frame.
struct Egl {
  decltype(&eglGetProcAddress) GetProcAddress = nullptr;
  decltype(&eglGetDisplay) GetDisplay = nullptr;
  decltype(&eglInitialize) Initialize = nullptr;
  decltype(&eglChooseConfig) ChooseConfig = nullptr;
  decltype(&eglBindAPI) BindAPI = nullptr;
  decltype(&eglCreateContext) CreateContext = nullptr;
  decltype(&eglDestroyContext) DestroyContext = nullptr;
  decltype(&eglMakeCurrent) MakeCurrent = nullptr;
  decltype(&eglGetCurrentContext) GetCurrentContext = nullptr;
  decltype(&eglGetCurrentDisplay) GetCurrentDisplay = nullptr;
  decltype(&eglGetCurrentSurface) GetCurrentSurface = nullptr;
  decltype(&eglGetError) GetError = nullptr;
  EGLDisplay display = EGL_NO_DISPLAY;
  std::string error;  // why EGL cannot be used, when it cannot
};

template <typename F>
bool Load(void* lib, const char* name, F* f) {
  *f = reinterpret_cast<F>(dlsym(lib, name));
  return *f != nullptr;
}

// A display on the first EGL device that initializes (as mujoco.egl picks
// one), else the default display.
EGLDisplay OpenDisplay(const Egl& egl) {
  auto query_devices = reinterpret_cast<PFNEGLQUERYDEVICESEXTPROC>(
      egl.GetProcAddress("eglQueryDevicesEXT"));
  auto platform_display = reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(
      egl.GetProcAddress("eglGetPlatformDisplayEXT"));
  if (query_devices != nullptr && platform_display != nullptr) {
    EGLDeviceEXT devices[16];
    EGLint count = 0;
    if (query_devices(16, devices, &count) == EGL_TRUE) {
      for (EGLint i = 0; i < count; ++i) {
        EGLDisplay display =
            platform_display(EGL_PLATFORM_DEVICE_EXT, devices[i], nullptr);
        if (display != EGL_NO_DISPLAY &&
            egl.Initialize(display, nullptr, nullptr) == EGL_TRUE) {
          return display;
        }
      }
    }
  }
  EGLDisplay display = egl.GetDisplay(EGL_DEFAULT_DISPLAY);
  if (display != EGL_NO_DISPLAY &&
      egl.Initialize(display, nullptr, nullptr) == EGL_TRUE) {
    return display;
  }
  return EGL_NO_DISPLAY;
}

const Egl& GetEgl() {
  static Egl egl;
  static std::once_flag once;
  std::call_once(once, [] {
    void* lib = dlopen("libEGL.so.1", RTLD_NOW | RTLD_GLOBAL);
    if (lib == nullptr) {
      egl.error = std::string("libEGL.so.1 could not be loaded (") + dlerror() +
                  "); " + kInstallHint;
      return;
    }
    bool ok = Load(lib, "eglGetProcAddress", &egl.GetProcAddress) &&
              Load(lib, "eglGetDisplay", &egl.GetDisplay) &&
              Load(lib, "eglInitialize", &egl.Initialize) &&
              Load(lib, "eglChooseConfig", &egl.ChooseConfig) &&
              Load(lib, "eglBindAPI", &egl.BindAPI) &&
              Load(lib, "eglCreateContext", &egl.CreateContext) &&
              Load(lib, "eglDestroyContext", &egl.DestroyContext) &&
              Load(lib, "eglMakeCurrent", &egl.MakeCurrent) &&
              Load(lib, "eglGetCurrentContext", &egl.GetCurrentContext) &&
              Load(lib, "eglGetCurrentDisplay", &egl.GetCurrentDisplay) &&
              Load(lib, "eglGetCurrentSurface", &egl.GetCurrentSurface) &&
              Load(lib, "eglGetError", &egl.GetError);
    if (!ok) {
      egl.error =
          std::string("libEGL.so.1 lacks EGL 1.4 functions; ") + kInstallHint;
      return;
    }
    egl.display = OpenDisplay(egl);
    if (egl.display == EGL_NO_DISPLAY) {
      egl.error =
          std::string("no EGL display could be initialized; ") + kInstallHint;
    }
  });
  if (!egl.error.empty()) {
    throw std::runtime_error(egl.error);
  }
  return egl;
}

// One MuJoCo render context: the model grown to the frame size (as
// gymnasium grows vis.global.offwidth/offheight), its GPU resources and a
// scene.
struct ModelGl {
  mjModel* model = nullptr;
  mjrContext context;
  mjvScene scene;
  uint64_t hfield_stamp = 0;  // of the heightfields last uploaded
};

// Frees what MakeModelGl made (its EGL context current).
void FreeModelGl(ModelGl* gl) {
  mjr_freeContext(&gl->context);
  mjv_freeScene(&gl->scene);
  mj_deleteModel(gl->model);
  gl->model = nullptr;
}

// Makes `context` current on this thread for its lifetime, then whatever
// context the thread had (mujoco.egl's, say) current again.
class CurrentEglContext {
 public:
  explicit CurrentEglContext(EGLContext context)
      : egl_(GetEgl()),
        old_display_(egl_.GetCurrentDisplay()),
        old_context_(egl_.GetCurrentContext()),
        old_draw_(egl_.GetCurrentSurface(EGL_DRAW)),
        old_read_(egl_.GetCurrentSurface(EGL_READ)) {
    if (egl_.MakeCurrent(egl_.display, EGL_NO_SURFACE, EGL_NO_SURFACE,
                         context) != EGL_TRUE) {
      throw std::runtime_error(
          "EGL could not make its context current (error " +
          std::to_string(egl_.GetError()) + ")");
    }
  }
  ~CurrentEglContext() {
    if (old_context_ != EGL_NO_CONTEXT) {
      egl_.MakeCurrent(old_display_, old_draw_, old_read_, old_context_);
    } else {
      egl_.MakeCurrent(egl_.display, EGL_NO_SURFACE, EGL_NO_SURFACE,
                       EGL_NO_CONTEXT);
    }
  }
  CurrentEglContext(const CurrentEglContext&) = delete;
  CurrentEglContext& operator=(const CurrentEglContext&) = delete;

 private:
  const Egl& egl_;
  EGLDisplay old_display_;
  EGLContext old_context_;
  EGLSurface old_draw_, old_read_;
};

// A new OpenGL context on the display (RGBA8, depth 24, stencil 8).
EGLContext NewEglContext() {
  const Egl& egl = GetEgl();
  const EGLint attributes[] = {EGL_RED_SIZE,
                               8,
                               EGL_GREEN_SIZE,
                               8,
                               EGL_BLUE_SIZE,
                               8,
                               EGL_ALPHA_SIZE,
                               8,
                               EGL_DEPTH_SIZE,
                               24,
                               EGL_STENCIL_SIZE,
                               8,
                               EGL_COLOR_BUFFER_TYPE,
                               EGL_RGB_BUFFER,
                               EGL_SURFACE_TYPE,
                               EGL_PBUFFER_BIT,
                               EGL_RENDERABLE_TYPE,
                               EGL_OPENGL_BIT,
                               EGL_NONE};
  EGLConfig config;
  EGLint count = 0;
  if (egl.ChooseConfig(egl.display, attributes, &config, 1, &count) !=
          EGL_TRUE ||
      count < 1) {
    throw std::runtime_error(
        "EGL has no RGBA8/depth24/stencil8 OpenGL configuration; " +
        std::string(kInstallHint));
  }
  egl.BindAPI(EGL_OPENGL_API);
  EGLContext context =
      egl.CreateContext(egl.display, config, EGL_NO_CONTEXT, nullptr);
  if (context == EGL_NO_CONTEXT) {
    throw std::runtime_error("EGL could not create an OpenGL context (error " +
                             std::to_string(egl.GetError()) + ")");
  }
  return context;
}

// A MuJoCo render context and scene made from `model` (copied, grown to the
// frame size), in the current EGL context.
std::unique_ptr<ModelGl> MakeModelGl(const mjModel* model, int width,
                                     int height, int max_geom) {
  auto gl = std::make_unique<ModelGl>();
  gl->model = mj_copyModel(nullptr, model);
  if (gl->model == nullptr) {
    throw std::runtime_error("cannot copy the MuJoCo model for rendering");
  }
  gl->model->vis.global.offwidth =
      std::max(gl->model->vis.global.offwidth, width);
  gl->model->vis.global.offheight =
      std::max(gl->model->vis.global.offheight, height);
  mjv_defaultScene(&gl->scene);
  mjv_makeScene(gl->model, &gl->scene, max_geom);
  mjr_defaultContext(&gl->context);
  mjr_makeContext(gl->model, &gl->context, mjFONTSCALE_150);
  mjr_setBuffer(mjFB_OFFSCREEN, &gl->context);
  if (gl->context.currentBuffer != mjFB_OFFSCREEN) {
    FreeModelGl(gl.get());
    throw std::runtime_error("MuJoCo's offscreen buffer is not available");
  }
  return gl;
}

// The EGL context of one thread, with its MuJoCo render contexts.
class ThreadGl {
 public:
  ThreadGl() : context_(NewEglContext()) {}

  ~ThreadGl() {
    const Egl& egl = GetEgl();
    if (egl.MakeCurrent(egl.display, EGL_NO_SURFACE, EGL_NO_SURFACE,
                        context_) == EGL_TRUE) {
      for (auto& [key, gl] : models_) {
        FreeModelGl(gl.get());
      }
    }
    egl.MakeCurrent(egl.display, EGL_NO_SURFACE, EGL_NO_SURFACE,
                    EGL_NO_CONTEXT);
    egl.DestroyContext(egl.display, context_);
  }

  EGLContext context() const { return context_; }

  // Requires the context to be current.
  ModelGl* For(const mjModel* model, int width, int height, int max_geom) {
    auto key = std::make_tuple(model, width, height, max_geom);
    auto it = models_.find(key);
    if (it != models_.end()) {
      return it->second.get();
    }
    auto gl = MakeModelGl(model, width, height, max_geom);
    ModelGl* raw = gl.get();
    models_.emplace(key, std::move(gl));
    return raw;
  }

 private:
  EGLContext context_ = EGL_NO_CONTEXT;
  std::map<std::tuple<const mjModel*, int, int, int>, std::unique_ptr<ModelGl>>
      models_;
};

ThreadGl& ThisThreadGl() {
  thread_local std::unique_ptr<ThreadGl> gl;
  if (!gl) {
    gl = std::make_unique<ThreadGl>();
  }
  return *gl;
}

// np.median of one column of an n x 3 array.
double Median(const double* xyz, int n, int axis) {
  std::vector<double> v(n);
  for (int i = 0; i < n; ++i) {
    v[i] = xyz[3 * i + axis];
  }
  std::sort(v.begin(), v.end());
  if (n == 0) {
    return std::numeric_limits<double>::quiet_NaN();
  }
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

std::atomic<uint64_t> hfield_uploads{0};

// Draws the frame of `model` and `data` with `gl`'s render context and
// scene (its EGL context current).
void DrawFrame(ModelGl* gl, const mjModel* model, const mjData* data,
               const mjvCamera& camera, int camera_id, int width, int height,
               const SceneSettings& settings, uint8_t* rgb) {
  if (settings.hfield_stamp != gl->hfield_stamp) {
    for (int i = 0; i < model->nhfield; ++i) {
      mjr_uploadHField(model, &gl->context, i);
      hfield_uploads.fetch_add(1, std::memory_order_relaxed);
    }
    gl->hfield_stamp = settings.hfield_stamp;
  }
  mjvCamera cam = camera;
  if (camera_id >= 0) {
    cam.type = mjCAMERA_FIXED;
    cam.fixedcamid = camera_id;
  } else {
    cam.type = mjCAMERA_FREE;
    cam.fixedcamid = -1;
  }
  mjvOption option;
  mjv_defaultOption(&option);
  option.flags[mjVIS_RANGEFINDER] = settings.rangefinders ? 1 : 0;
  for (int g = 0; g < mjNGROUP; ++g) {
    if ((settings.hidden_geom_groups >> g) & 1U) {
      option.geomgroup[g] = 0;
    }
  }
  mjvPerturb perturb;
  mjv_defaultPerturb(&perturb);
  mjv_updateScene(model, const_cast<mjData*>(data), &option, &perturb, &cam,
                  mjCAT_ALL, &gl->scene);
  mjrRect viewport{0, 0, width, height};
  mjr_setBuffer(mjFB_OFFSCREEN, &gl->context);
  mjr_render(viewport, &gl->scene, &gl->context);
  std::vector<uint8_t> upside_down(static_cast<std::size_t>(width) * height *
                                   3);
  std::vector<float> depth(static_cast<std::size_t>(width) * height);
  mjr_readPixels(upside_down.data(), depth.data(), viewport, &gl->context);
  const std::size_t row = static_cast<std::size_t>(width) * 3;
  for (int y = 0; y < height; ++y) {
    std::memcpy(rgb + y * row, upside_down.data() + (height - 1 - y) * row,
                row);
  }
}

}  // namespace

CameraConfig NoCameraConfig() {
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  return CameraConfig{kNaN, kNaN, kNaN, false, {0.0, 0.0, 0.0}};
}

mjvCamera InitialCamera(const mjModel* model, const mjData* data,
                        const CameraConfig& config) {
  mjvCamera camera;
  mjv_defaultCamera(&camera);
  camera.type = mjCAMERA_FREE;
  camera.fixedcamid = -1;
  for (int axis = 0; axis < 3; ++axis) {
    camera.lookat[axis] = Median(data->geom_xpos, model->ngeom, axis);
  }
  camera.distance = model->stat.extent;
  if (!std::isnan(config.distance)) {
    camera.distance = config.distance;
  }
  if (!std::isnan(config.elevation)) {
    camera.elevation = config.elevation;
  }
  if (!std::isnan(config.azimuth)) {
    camera.azimuth = config.azimuth;
  }
  if (config.has_lookat) {
    std::memcpy(camera.lookat, config.lookat, sizeof(config.lookat));
  }
  return camera;
}

uint64_t NewStamp() {
  static std::atomic<uint64_t> next{1};
  return next.fetch_add(1);
}

uint64_t HFieldUploads() {
  return hfield_uploads.load(std::memory_order_relaxed);
}

int DmControlMaxGeom(const mjModel* m) {
  const int frames =
      std::max({m->nbody, m->ngeom, m->nsite, m->ncam, m->nlight});
  const int estimate = 3 * frames + 4 * m->ngeom + 3 * m->nbody + m->nsite +
                       m->ntendon + m->njnt + m->nu + m->nskin + m->ncam +
                       m->nlight;
  return std::max(1000, estimate);
}

void RenderFrame(const mjModel* context_model, const mjModel* model,
                 const mjData* data, const mjvCamera& camera, int camera_id,
                 int width, int height, const SceneSettings& settings,
                 uint8_t* rgb) {
  ThreadGl& thread_gl = ThisThreadGl();
  CurrentEglContext current(thread_gl.context());
  ModelGl* gl = thread_gl.For(context_model, width, height, settings.max_geom);
  DrawFrame(gl, model, data, camera, camera_id, width, height, settings, rgb);
}

struct ModelRenderer::State {
  EGLContext context = EGL_NO_CONTEXT;
  std::unique_ptr<ModelGl> gl;
  uint64_t model_stamp = 0;
  int width = 0, height = 0, max_geom = 0;
};

ModelRenderer::ModelRenderer() : state_(std::make_unique<State>()) {}

ModelRenderer::~ModelRenderer() {
  if (state_->context == EGL_NO_CONTEXT) {
    return;
  }
  const Egl& egl = GetEgl();
  if (state_->gl != nullptr) {
    try {
      CurrentEglContext current(state_->context);
      FreeModelGl(state_->gl.get());
    } catch (const std::runtime_error&) {
      // The context cannot be made current: its objects go with it.
    }
  }
  egl.DestroyContext(egl.display, state_->context);
}

void ModelRenderer::Render(const mjModel* model, uint64_t model_stamp,
                           const mjData* data, const mjvCamera& camera,
                           int camera_id, int width, int height,
                           const SceneSettings& settings, uint8_t* rgb) {
  State& s = *state_;
  if (s.context == EGL_NO_CONTEXT) {
    s.context = NewEglContext();
  }
  CurrentEglContext current(s.context);
  if (s.gl == nullptr || s.model_stamp != model_stamp || s.width != width ||
      s.height != height || s.max_geom != settings.max_geom) {
    if (s.gl != nullptr) {
      FreeModelGl(s.gl.get());
      s.gl.reset();
    }
    s.gl = MakeModelGl(model, width, height, settings.max_geom);
    s.model_stamp = model_stamp;
    s.width = width;
    s.height = height;
    s.max_geom = settings.max_geom;
  }
  DrawFrame(s.gl.get(), model, data, camera, camera_id, width, height, settings,
            rgb);
}

}  // namespace envpool::render
