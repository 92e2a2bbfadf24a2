#include "envpool/mujoco_common/state.h"

#include <string>

#include "envpool/core/snapshot.h"

namespace envpool::mujoco_common {

void GetIntegrationState(const mjModel* m, const mjData* d,
                         std::vector<mjtNum>* state) {
  state->resize(mj_stateSize(m, kIntegrationState));
  mj_getState(m, d, state->data(), kIntegrationState);
}

void SetIntegrationState(const mjModel* m, mjData* d,
                         const std::vector<mjtNum>& state) {
  const int size = mj_stateSize(m, kIntegrationState);
  if (static_cast<int>(state.size()) != size) {
    throw SnapshotError("the MuJoCo state holds " +
                        std::to_string(state.size()) +
                        " numbers; this model's holds " + std::to_string(size));
  }
  mj_setState(m, d, state.data(), kIntegrationState);
}

std::vector<double> SimulationState(const mjModel* m, const mjData* d) {
  if (m == nullptr || d == nullptr) {
    return {};
  }
  std::vector<double> state(d->qpos, d->qpos + m->nq);
  state.insert(state.end(), d->qvel, d->qvel + m->nv);
  state.insert(state.end(), d->act, d->act + m->na);
  state.insert(state.end(), d->qacc_warmstart, d->qacc_warmstart + m->nv);
  return state;
}

}  // namespace envpool::mujoco_common
