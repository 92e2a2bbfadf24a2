"""EnvPool 1.2.5's reward shaping for the vizdoom ids, to pass as options.

By default a vizdoom id's reward is the scenario's, as ViZDoom's DoomGame
computes it. EnvPool 1.2.5 instead rewards changes of game variables by
default; these are its default tables (its values are float32), so

    envpool.make("D3Battle-v1", reward_config=ENVPOOL_REWARD_CONFIG,
                 selected_weapon_reward_config=ENVPOOL_SELECTED_WEAPON_REWARD_CONFIG)

adds its shaping to the scenario's reward (docs/vizdoom.md says how each
term is computed, and how this differs from EnvPool, whose reward is the
shaping alone).
"""

from __future__ import annotations

import numpy as np


def _f32(x: float) -> float:
    return float(np.float32(x))


def _rows(table: dict[str, tuple[float, float]]) -> dict[str, list[float]]:
    return {k: [_f32(v[0]), _f32(v[1])] for k, v in table.items()}


# {game variable: [reward per unit of increase, reward per unit of decrease]}
ENVPOOL_REWARD_CONFIG: dict[str, list[float]] = _rows(
    {
        "FRAGCOUNT": (1.0, -1.5),
        "KILLCOUNT": (1.0, 0.0),
        "DEATHCOUNT": (-0.75, 0.75),
        "HITCOUNT": (0.01, -0.01),
        "DAMAGECOUNT": (0.003, -0.003),
        "HEALTH": (0.005, -0.003),
        "ARMOR": (0.005, -0.001),
        **{f"WEAPON{k}": (0.02, -0.01) for k in (0, 1, 2)},
        **{f"WEAPON{k}": (0.1, -0.05) for k in (3, 4, 5)},
        **{f"WEAPON{k}": (0.2, -0.1) for k in (6, 7)},
        **{f"AMMO{k}": (0.0002, -0.0001) for k in (0, 1, 2)},
        **{f"AMMO{k}": (0.001, -0.0005) for k in (3, 4, 5)},
        **{f"AMMO{k}": (0.002, -0.001) for k in (6, 7)},
    }
)

# {weapon slot: reward per step while it is selected (with ammo)}
ENVPOOL_SELECTED_WEAPON_REWARD_CONFIG: dict[int, float] = {
    **{k: _f32(0.0002) for k in (0, 1, 2)},
    **{k: _f32(0.001) for k in (3, 4, 5)},
    **{k: _f32(0.002) for k in (6, 7)},
}
