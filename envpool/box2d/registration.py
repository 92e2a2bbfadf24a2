"""Ids of the box2d family and their option overrides."""

from envpool.python.registry import register

for version in ("v2", "v3"):
    register(
        f"LunarLander-{version}",
        family="box2d",
        env_class="LunarLander",
        max_episode_steps=1000,
        reward_threshold=200.0,
    )
    register(
        f"LunarLanderContinuous-{version}",
        family="box2d",
        env_class="LunarLander",
        max_episode_steps=1000,
        reward_threshold=200.0,
        continuous=True,
    )
register(
    "BipedalWalker-v3",
    family="box2d",
    env_class="BipedalWalker",
    max_episode_steps=1600,
    reward_threshold=300.0,
    hardcore=False,
)
register(
    "BipedalWalkerHardcore-v3",
    family="box2d",
    env_class="BipedalWalker",
    max_episode_steps=2000,
    reward_threshold=300.0,
    hardcore=True,
)
for version in ("v2", "v3"):
    register(
        f"CarRacing-{version}",
        family="box2d",
        env_class="CarRacing",
        max_episode_steps=1000,
        reward_threshold=900.0,
    )
