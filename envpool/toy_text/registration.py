"""Ids of the toy_text family and their option overrides."""

from envpool.python.packages import gymnasium_dir
from envpool.python.registry import register

register("Catch-v0", family="toy_text", env_class="Catch", height=10, width=5)
register(
    "FrozenLake-v1",
    family="toy_text",
    env_class="FrozenLake",
    max_episode_steps=100,
    reward_threshold=0.7,
    size=4,
)
register(
    "FrozenLake8x8-v1",
    family="toy_text",
    env_class="FrozenLake",
    max_episode_steps=200,
    reward_threshold=0.85,
    size=8,
)
register(
    "Taxi-v3",
    family="toy_text",
    env_class="Taxi",
    max_episode_steps=200,
    reward_threshold=8.0,
)
register("NChain-v0", family="toy_text", env_class="NChain", max_episode_steps=1000)
# In the order of EnvPool's registry.
for task_id, is_slippery in (
    ("CliffWalking-v1", False),
    ("tabular/CliffWalking-v0", False),
    ("CliffWalkingSlippery-v1", True),
    ("CliffWalking-v0", False),
):
    register(task_id, family="toy_text", env_class="CliffWalking", is_slippery=is_slippery)
for task_id in ("Blackjack-v1", "tabular/Blackjack-v0"):
    register(task_id, family="toy_text", env_class="Blackjack", natural=False, sab=True)


# -- What this family declares (docs/adding_a_family.md) --

# The id tools/smoke_test.py makes and steps in every wheel.
SMOKE_TEST_ID = "FrozenLake-v1"
# gymnasium's toy_text sprites (the rgb_array frames), located without
# importing gymnasium; None when gymnasium is missing.
ASSET_DIR = gymnasium_dir("envs", "toy_text", "img")
# Conformance exceptions (envpool.testing.conformance), each with its reason.
# Episodes that start in one fixed state whatever the seed, as the references
# define them: a different seed gives the same reset.
SEED_INDEPENDENT_RESET = {
    "FrozenLake-v1": "starts at S, as gymnasium's",
    "FrozenLake8x8-v1": "starts at S, as gymnasium's",
    "NChain-v0": "starts in state 0, as EnvPool's",
    "CliffWalking-v0": "starts at 36, as gymnasium's",
    "CliffWalking-v1": "starts at 36, as gymnasium's",
    "tabular/CliffWalking-v0": "starts at 36, as gymnasium's",
    "CliffWalkingSlippery-v1": "starts at 36, as gymnasium's",
}
# No randomness at all: a fixed start and deterministic steps, so a different
# seed cannot give a different rollout.
SEED_INDEPENDENT = {
    task_id: "gymnasium's CliffWalking: a fixed start and deterministic steps"
    for task_id in ("CliffWalking-v0", "CliffWalking-v1", "tabular/CliffWalking-v0")
}
