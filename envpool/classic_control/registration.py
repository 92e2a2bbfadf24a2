"""Ids of the classic_control family and their option overrides."""

from envpool.python.registry import register

for task_id in ("CartPole-v0", "phys2d/CartPole-v0"):
    register(
        task_id,
        family="classic_control",
        env_type="CartPole",
        max_episode_steps=200,
        reward_threshold=195.0,
    )
for task_id in ("CartPole-v1", "phys2d/CartPole-v1"):
    register(
        task_id,
        family="classic_control",
        env_type="CartPole",
        max_episode_steps=500,
        reward_threshold=475.0,
    )
