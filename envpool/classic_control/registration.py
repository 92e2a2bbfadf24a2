"""Ids of the classic_control family and their option overrides."""

from envpool.python.packages import gymnasium_dir
from envpool.python.registry import register

for task_id in ("CartPole-v0", "phys2d/CartPole-v0"):
    register(
        task_id,
        family="classic_control",
        env_class="CartPole",
        max_episode_steps=200,
        reward_threshold=195.0,
    )
for task_id in ("CartPole-v1", "phys2d/CartPole-v1"):
    register(
        task_id,
        family="classic_control",
        env_class="CartPole",
        max_episode_steps=500,
        reward_threshold=475.0,
    )
for task_id, version in (("Pendulum-v0", 0), ("phys2d/Pendulum-v0", 0), ("Pendulum-v1", 1)):
    register(
        task_id,
        family="classic_control",
        env_class="Pendulum",
        max_episode_steps=200,
        version=version,
    )
register(
    "MountainCar-v0",
    family="classic_control",
    env_class="MountainCar",
    max_episode_steps=200,
    reward_threshold=-110.0,
)
register(
    "MountainCarContinuous-v0",
    family="classic_control",
    env_class="MountainCarContinuous",
    max_episode_steps=999,
    reward_threshold=90.0,
)
register(
    "Acrobot-v1",
    family="classic_control",
    env_class="Acrobot",
    max_episode_steps=500,
    reward_threshold=-100.0,
)


# -- What this family declares (docs/adding_a_family.md) --

# The id tools/smoke_test.py makes and steps in every wheel.
SMOKE_TEST_ID = "CartPole-v1"
# gymnasium's classic_control assets (Pendulum's arrow), located without
# importing gymnasium; None when gymnasium is missing.
ASSET_DIR = gymnasium_dir("envs", "classic_control", "assets")
