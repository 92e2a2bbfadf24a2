"""ViZDoom scenarios on the ViZDoom 1.3.2 engine (its wheel provides the engine and scenarios)."""

from envpool.vizdoom.shaping import (
    ENVPOOL_REWARD_CONFIG,
    ENVPOOL_SELECTED_WEAPON_REWARD_CONFIG,
)

__all__ = ["ENVPOOL_REWARD_CONFIG", "ENVPOOL_SELECTED_WEAPON_REWARD_CONFIG"]
