"""Toy text envs: Catch, FrozenLake, Taxi, NChain, CliffWalking, Blackjack."""

from __future__ import annotations

import importlib.util
import os


def gymnasium_asset_dir() -> str | None:
    """gymnasium's toy_text sprites (the rgb_array frames), without importing
    gymnasium; None when gymnasium is missing."""
    try:
        spec = importlib.util.find_spec("gymnasium")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    root = next(iter(spec.submodule_search_locations))
    return os.path.join(root, "envs", "toy_text", "img")
