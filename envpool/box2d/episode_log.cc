#include "envpool/box2d/episode_log.h"

#include <stdexcept>

namespace envpool::box2d {
namespace {

// Box2D keeps the broad-phase tree and its node pool private. An explicit
// instantiation may name private members (the standard exempts it from
// access checks); these hand out pointers to the few members a snapshot
// reads and writes.
template <typename Tag, typename Tag::Type kMember>
struct MemberOf {
  friend typename Tag::Type Member(Tag /*tag*/) { return kMember; }
};

struct BroadPhaseTree {
  using Type = b2DynamicTree b2BroadPhase::*;
  friend Type Member(BroadPhaseTree);
};
struct TreeRoot {
  using Type = int32 b2DynamicTree::*;
  friend Type Member(TreeRoot);
};
struct TreeNodes {
  using Type = b2TreeNode* b2DynamicTree::*;
  friend Type Member(TreeNodes);
};
struct TreeNodeCount {
  using Type = int32 b2DynamicTree::*;
  friend Type Member(TreeNodeCount);
};
struct TreeNodeCapacity {
  using Type = int32 b2DynamicTree::*;
  friend Type Member(TreeNodeCapacity);
};
struct TreeFreeList {
  using Type = int32 b2DynamicTree::*;
  friend Type Member(TreeFreeList);
};

template struct MemberOf<BroadPhaseTree, &b2BroadPhase::m_tree>;
template struct MemberOf<TreeRoot, &b2DynamicTree::m_root>;
template struct MemberOf<TreeNodes, &b2DynamicTree::m_nodes>;
template struct MemberOf<TreeNodeCount, &b2DynamicTree::m_nodeCount>;
template struct MemberOf<TreeNodeCapacity, &b2DynamicTree::m_nodeCapacity>;
template struct MemberOf<TreeFreeList, &b2DynamicTree::m_freeList>;

b2DynamicTree& TreeOf(const b2World& world) {
  // The world hands out its contact manager as const only; the tree is
  // changed where the world has no bodies and nothing refers to it.
  auto& broad_phase =
      const_cast<b2BroadPhase&>(world.GetContactManager().m_broadPhase);
  return broad_phase.*Member(BroadPhaseTree{});
}

}  // namespace

std::vector<int32_t> FreeTreeNodes(const b2World& world) {
  const b2DynamicTree& tree = TreeOf(world);
  if (world.GetBodyCount() != 0 || tree.*Member(TreeNodeCount{}) != 0) {
    throw std::logic_error("the world's free tree nodes are read empty");
  }
  const b2TreeNode* nodes = tree.*Member(TreeNodes{});
  const int32 capacity = tree.*Member(TreeNodeCapacity{});
  std::vector<int32_t> out;
  out.reserve(capacity);
  for (int32 node = tree.*Member(TreeFreeList{}); node != b2_nullNode;
       node = nodes[node].next) {
    out.push_back(node);
  }
  return out;
}

void SetFreeTreeNodes(b2World* world, const std::vector<int32_t>& nodes) {
  b2DynamicTree& tree = TreeOf(*world);
  if (world->GetBodyCount() != 0 || tree.*Member(TreeNodeCount{}) != 0) {
    throw std::logic_error("the world's free tree nodes are set empty");
  }
  const auto capacity = static_cast<int32>(nodes.size());
  // A pool starts at 16 nodes and doubles.
  if (capacity < 16 || (capacity & (capacity - 1)) != 0 ||
      capacity > (1 << 24)) {
    throw SnapshotError("the Box2D state is corrupt: a node pool of " +
                        std::to_string(capacity));
  }
  std::vector<uint8_t> seen(capacity, 0);
  for (int32_t node : nodes) {
    if (node < 0 || node >= capacity || seen[node]) {
      throw SnapshotError("the Box2D state is corrupt: free tree node " +
                          std::to_string(node));
    }
    seen[node] = 1;
  }
  b2TreeNode*& pool = tree.*Member(TreeNodes{});
  if (tree.*Member(TreeNodeCapacity{}) != capacity) {
    b2Free(pool);
    pool = static_cast<b2TreeNode*>(b2Alloc(capacity * sizeof(b2TreeNode)));
    tree.*Member(TreeNodeCapacity{}) = capacity;
  }
  for (int32 i = 0; i < capacity; ++i) {
    pool[nodes[i]].next = i + 1 < capacity ? nodes[i + 1] : b2_nullNode;
    pool[nodes[i]].height = -1;
  }
  tree.*Member(TreeFreeList{}) = nodes[0];
  tree.*Member(TreeRoot{}) = b2_nullNode;
}

}  // namespace envpool::box2d
