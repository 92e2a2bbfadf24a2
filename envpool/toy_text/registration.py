"""Ids of the toy_text family and their option overrides."""

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
