// An env's view of a model that every env using it in the process shares
// (mujoco_common::LoadModel's): MuJoCo's struct copied, its arrays the shared
// model's but for the few the env writes (a goal marker's site, a body a
// reset moves, the mocap welds), which are the env's own. A full copy per
// env (mj_copyModel: 18.7 MB for Meta-World's pick-place, its meshes and
// textures) gave each env its own collision meshes in the cache: 8 models
// stepped in turn on one core cost about 5% more per step as 8 copies than
// as one shared model (benchmark/results/metaworld/README.md).
#ifndef ENVPOOL_MUJOCO_COMMON_MODEL_VIEW_H_
#define ENVPOOL_MUJOCO_COMMON_MODEL_VIEW_H_

#include <mujoco/mujoco.h>

#include <initializer_list>
#include <vector>

#include "envpool/mujoco_common/model.h"

namespace envpool::mujoco_common {

// One array of mjModel that an env writes: the member, and its size as
// `rows` (a count of the model: nbody, nsite, neq, nu, ...) times
// `columns` (3 for body_pos, mjNEQDATA for eq_data, ...).
struct WrittenArray {
  mjtNum* mjModel::*array;
  mjtSize mjModel::*rows;
  int columns;
};

class ModelView {
 public:
  // The view of `shared` whose `written` arrays are this env's copies of the
  // shared model's; every other array is the shared model's and must not be
  // written (it would change every env's model).
  ModelView(SharedModel shared, std::initializer_list<WrittenArray> written);
  ModelView(const ModelView&) = delete;
  ModelView& operator=(const ModelView&) = delete;

  mjModel* get() { return &model_; }
  const mjModel* get() const { return &model_; }
  mjModel* operator->() { return &model_; }
  const mjModel* operator->() const { return &model_; }
  // The model shared by the envs (the renderer's context is made from it).
  const mjModel* shared() const { return shared_.get(); }

 private:
  SharedModel shared_;  // owns the arrays not copied
  mjModel model_;
  std::vector<std::vector<mjtNum>> own_arrays_;
};

}  // namespace envpool::mujoco_common

#endif  // ENVPOOL_MUJOCO_COMMON_MODEL_VIEW_H_
