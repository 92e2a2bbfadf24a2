// Loading MuJoCo models, as every MuJoCo-based family does it: a family's
// model files are in its asset folder (envpool::FamilyAssetDir), each is
// compiled once per process and shared read-only by every env that uses it
// (an env that changes its model copies it), and a missing file is an error
// worded by the family, naming the file and the package that provides it.
#ifndef ENVPOOL_MUJOCO_COMMON_MODEL_H_
#define ENVPOOL_MUJOCO_COMMON_MODEL_H_

#include <mujoco/mujoco.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace envpool::mujoco_common {

// Owning pointers that free with MuJoCo's own functions.
struct ModelDeleter {
  void operator()(mjModel* model) const { mj_deleteModel(model); }
};
struct DataDeleter {
  void operator()(mjData* data) const { mj_deleteData(data); }
};
using ModelPtr = std::unique_ptr<mjModel, ModelDeleter>;
using DataPtr = std::unique_ptr<mjData, DataDeleter>;

// A compiled model shared by the envs of every pool in the process.
using SharedModel = std::shared_ptr<const mjModel>;

// What differs between the families' model files.
struct ModelFolder {
  // The family whose asset folder (envpool::FamilyAssetDir) holds the files
  // named without a folder.
  std::string family;
  // Whether a name starting with '/' or '.' is a path (absolute, or relative
  // to the working directory) and one starting with '~' a path under $HOME,
  // as a family whose model is an option (mujoco's xml_file) accepts; else
  // every name is a file of the asset folder.
  bool accepts_paths = false;
  // The message of the std::invalid_argument thrown when the file does not
  // exist, given the name asked for and the path looked at: "" when the
  // name is a file of the asset folder and the family has none (its
  // registration.py found no ASSET_DIR: the package providing the files is
  // missing). It names the file and says how to provide it.
  std::function<std::string(const std::string& name, const std::string& path)>
      not_found;
};

// The path of the model file `name` of `folder`; throws
// std::invalid_argument with folder.not_found's message when it does not
// exist.
std::string ResolveModelPath(const ModelFolder& folder,
                             const std::string& name);

// The model compiled from the file `name` of `folder`, compiled once per
// process and path. A file MuJoCo cannot compile is a std::invalid_argument
// "cannot load MuJoCo model <path>: <MuJoCo's message>".
SharedModel LoadModel(const ModelFolder& folder, const std::string& name);

// The text of the file `name` of `folder`, for a family that builds a model
// from it (dm_control's tasks add poles and links, remove props).
std::string ReadModelText(const ModelFolder& folder, const std::string& name);

// The model compiled from `xml` as if it were the file `<key>.xml` of
// `folder`'s asset folder, so that its includes, meshes and textures are
// found there; compiled once per process, folder and key (a key names one
// text). A text MuJoCo cannot compile is a std::invalid_argument "cannot
// build MuJoCo model <key>: <MuJoCo's message>".
SharedModel LoadModelFromText(const ModelFolder& folder, const std::string& key,
                              const std::string& xml);

// A file MuJoCo reads from memory before the disk: its path and contents.
struct MemoryFile {
  std::string path;
  std::string contents;
};

// The model compiled from the MJCF text `xml` at `path` (its includes,
// meshes and textures found beside it), with `files` read from memory
// first (a family's generated skins); not cached: each call compiles. A
// text MuJoCo cannot compile is a std::invalid_argument "cannot build
// <what>: <MuJoCo's message>".
ModelPtr CompileText(const std::string& path, const std::string& xml,
                     const std::string& what,
                     const std::vector<MemoryFile>& files = {});

// The id of the element `name` of `type` (mjOBJ_BODY, mjOBJ_JOINT, ...);
// throws std::invalid_argument "the MuJoCo model has no body 'torso'" when
// the model has none.
int ObjectId(const mjModel* model, mjtObj type, const char* name);

// The actuators' control bounds, as the action space bounds them: their
// ctrlrange, or +-`unlimited` for an actuator without one.
void ControlBounds(const mjModel& model, double unlimited,
                   std::vector<double>* low, std::vector<double>* high);

}  // namespace envpool::mujoco_common

#endif  // ENVPOOL_MUJOCO_COMMON_MODEL_H_
