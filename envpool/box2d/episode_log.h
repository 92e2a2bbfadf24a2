// Snapshots of the Box2D envs: Box2D 2.3 cannot write its world out (its
// contacts carry warm-start impulses and feature ids, its broad-phase tree
// hands out proxy ids from a free list whose order is the world's whole
// history, and proxy ids order the contacts), so a snapshot replays the
// episode instead: the env's generator as the episode's reset found it, the
// broad-phase's free node list as the reset found it (the only part of an
// emptied world that its history shapes) and every action since. Restoring
// rebuilds the episode's world from those and steps it again: exact, at the
// cost of one reset and one physics step per step of the episode
// (docs/snapshots.md).
#ifndef ENVPOOL_BOX2D_EPISODE_LOG_H_
#define ENVPOOL_BOX2D_EPISODE_LOG_H_

#include <Box2D/Box2D.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "envpool/core/random.h"
#include "envpool/core/snapshot.h"

namespace envpool::box2d {

// The broad-phase tree's free node list of a world without bodies, in the
// order it hands the nodes out; throws std::logic_error where the world
// still has bodies.
std::vector<int32_t> FreeTreeNodes(const b2World& world);
// Puts `nodes` (FreeTreeNodes of an empty world) back as the free node list
// of `world`, which has no bodies; throws SnapshotError where `nodes` is not
// a permutation of a node pool's ids.
void SetFreeTreeNodes(b2World* world, const std::vector<int32_t>& nodes);

// What a Box2D env's snapshot holds: the episode to replay.
struct EpisodeLog {
  bool started = false;
  random::Generator start_rng{uint64_t{0}};
  std::vector<int32_t> free_nodes;
  // The actions since the reset, `width` floats a step.
  std::vector<float> actions;
  // The number of actions taken before each frame rendered (rendering
  // changes LunarLander's particles).
  std::vector<uint32_t> renders;

  void Begin(const random::Generator& rng, std::vector<int32_t> nodes) {
    started = true;
    start_rng = rng;
    free_nodes = std::move(nodes);
    actions.clear();
    renders.clear();
  }
  void Add(const float* action, int width) {
    actions.insert(actions.end(), action, action + width);
  }
  void AddRender() { renders.push_back(static_cast<uint32_t>(actions.size())); }

  void Save(StateWriter* writer) const {
    writer->Put(started, start_rng, free_nodes, actions, renders);
  }
  // Reads a log of actions `width` floats wide; throws SnapshotError where
  // it is inconsistent.
  void Load(StateReader* reader, int width) {
    reader->Get(&started, &start_rng, &free_nodes, &actions, &renders);
    if (actions.size() % static_cast<std::size_t>(width) != 0) {
      throw SnapshotError(
          "the Box2D state is corrupt: " + std::to_string(actions.size()) +
          " action values for actions of " + std::to_string(width));
    }
    uint32_t previous = 0;
    for (uint32_t at : renders) {
      if (at < previous || at > actions.size()) {
        throw SnapshotError("the Box2D state is corrupt: a frame at " +
                            std::to_string(at));
      }
      previous = at;
    }
  }
  std::size_t NumSteps(int width) const {
    return actions.size() / static_cast<std::size_t>(width);
  }
};

}  // namespace envpool::box2d

#endif  // ENVPOOL_BOX2D_EPISODE_LOG_H_
