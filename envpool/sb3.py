"""Stable-Baselines3 adapter: `envpool.sb3.VecEnv(pool)` (see envpool.python.sb3_api)."""

from envpool.python.sb3_api import VecEnv

__all__ = ["VecEnv"]
