"""Toy text envs: Catch, FrozenLake, Taxi, NChain, CliffWalking, Blackjack."""

from __future__ import annotations

from envpool.python.packages import gymnasium_dir


def gymnasium_asset_dir() -> str | None:
    """gymnasium's toy_text sprites (the rgb_array frames), without importing
    gymnasium; None when gymnasium is missing."""
    return gymnasium_dir("envs", "toy_text", "img")
