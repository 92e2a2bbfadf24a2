#include "envpool/mujoco_common/model.h"

#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <stdexcept>

#include "envpool/core/env.h"

namespace envpool::mujoco_common {
namespace {

// The models compiled in this process, of every family. One mutex is held
// across a compile, so that envs made at once compile a model once.
struct ModelCache {
  std::mutex mu;
  std::map<std::string, SharedModel> files;  // by path
  std::map<std::string, SharedModel> texts;  // by the path they pose as
};

ModelCache& Cache() {
  static ModelCache cache;
  return cache;
}

SharedModel Share(mjModel* model) { return SharedModel(model, ModelDeleter()); }

}  // namespace

std::string ResolveModelPath(const ModelFolder& folder,
                             const std::string& name) {
  const bool is_path = folder.accepts_paths && !name.empty() &&
                       (name[0] == '/' || name[0] == '.' || name[0] == '~');
  std::string path;
  if (is_path && name[0] == '~') {
    const char* home = std::getenv("HOME");
    path = std::string(home == nullptr ? "" : home) + name.substr(1);
  } else if (is_path) {
    path = name;
  } else {
    const std::string dir = envpool::FamilyAssetDir(folder.family);
    if (dir.empty()) {
      throw std::invalid_argument(folder.not_found(name, ""));
    }
    path = dir + "/" + name;
  }
  if (!std::ifstream(path).good()) {
    throw std::invalid_argument(folder.not_found(name, path));
  }
  return path;
}

SharedModel LoadModel(const ModelFolder& folder, const std::string& name) {
  const std::string path = ResolveModelPath(folder, name);
  ModelCache& cache = Cache();
  std::lock_guard<std::mutex> lock(cache.mu);
  auto it = cache.files.find(path);
  if (it != cache.files.end()) {
    return it->second;
  }
  char error[1000] = "";
  mjModel* model = mj_loadXML(path.c_str(), nullptr, error, sizeof(error));
  if (model == nullptr) {
    throw std::invalid_argument("cannot load MuJoCo model " + path + ": " +
                                error);
  }
  return cache.files.emplace(path, Share(model)).first->second;
}

std::string ReadModelText(const ModelFolder& folder, const std::string& name) {
  std::ifstream file(ResolveModelPath(folder, name));
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

SharedModel LoadModelFromText(const ModelFolder& folder, const std::string& key,
                              const std::string& xml) {
  const std::string path =
      envpool::FamilyAssetDir(folder.family) + "/" + key + ".xml";
  ModelCache& cache = Cache();
  std::lock_guard<std::mutex> lock(cache.mu);
  auto it = cache.texts.find(path);
  if (it != cache.texts.end()) {
    return it->second;
  }
  ModelPtr model = CompileText(path, xml, "MuJoCo model " + key);
  return cache.texts.emplace(path, Share(model.release())).first->second;
}

ModelPtr CompileText(const std::string& path, const std::string& xml,
                     const std::string& what,
                     const std::vector<MemoryFile>& files) {
  // The text is that file in a virtual file system, which MuJoCo reads
  // before the disk: its includes and assets are found beside it.
  mjVFS vfs;
  mj_defaultVFS(&vfs);
  mj_addBufferVFS(&vfs, path.c_str(), xml.data(), static_cast<int>(xml.size()));
  for (const MemoryFile& file : files) {
    mj_addBufferVFS(&vfs, file.path.c_str(), file.contents.data(),
                    static_cast<int>(file.contents.size()));
  }
  char error[1000] = "";
  ModelPtr model(mj_loadXML(path.c_str(), &vfs, error, sizeof(error)));
  mj_deleteVFS(&vfs);
  if (model == nullptr) {
    throw std::invalid_argument("cannot build " + what + ": " + error);
  }
  return model;
}

int ObjectId(const mjModel* model, mjtObj type, const char* name) {
  const int id = mj_name2id(model, type, name);
  if (id < 0) {
    throw std::invalid_argument(std::string("the MuJoCo model has no ") +
                                mju_type2Str(type) + " '" + name + "'");
  }
  return id;
}

void ControlBounds(const mjModel& model, double unlimited,
                   std::vector<double>* low, std::vector<double>* high) {
  low->assign(model.nu, -unlimited);
  high->assign(model.nu, unlimited);
  for (int i = 0; i < model.nu; ++i) {
    if (model.actuator_ctrllimited[i] != 0) {
      (*low)[i] = model.actuator_ctrlrange[2 * i];
      (*high)[i] = model.actuator_ctrlrange[2 * i + 1];
    }
  }
}

}  // namespace envpool::mujoco_common
