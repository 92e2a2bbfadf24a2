"""Classic control envs: CartPole, Pendulum, MountainCar, Acrobot."""

from __future__ import annotations

import importlib.util
import os


def gymnasium_asset_dir() -> str | None:
    """gymnasium's classic_control assets (Pendulum's arrow), without importing
    gymnasium; None when gymnasium is missing."""
    try:
        spec = importlib.util.find_spec("gymnasium")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    root = next(iter(spec.submodule_search_locations))
    return os.path.join(root, "envs", "classic_control", "assets")
