"""Classic control envs: CartPole, Pendulum, MountainCar, Acrobot."""

from __future__ import annotations

from envpool.python.packages import gymnasium_dir


def gymnasium_asset_dir() -> str | None:
    """gymnasium's classic_control assets (Pendulum's arrow), without importing
    gymnasium; None when gymnasium is missing."""
    return gymnasium_dir("envs", "classic_control", "assets")
