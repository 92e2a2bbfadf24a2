"""Ids of the procgen family: `<Game><Mode>-v0` for each game and each
distribution mode it supports."""

from __future__ import annotations

import os
from collections.abc import Mapping, Set
from typing import Any

from envpool.python.registry import register

# procgen's library and assets lie beside this file in the wheel.
DATA_DIR = os.path.dirname(os.path.abspath(__file__))

MODES = {"Easy": 0, "Hard": 1, "Extreme": 2, "Memory": 10, "Exploration": 20}

# (game, episode timeout of procgen, modes beyond easy and hard)
GAMES = (
    ("bigfish", 6000, ()),
    ("bossfight", 4000, ()),
    ("caveflyer", 1000, ("Memory", "Exploration")),
    ("chaser", 1000, ("Extreme",)),
    ("climber", 1000, ("Exploration",)),
    ("coinrun", 1000, ("Exploration",)),
    ("dodgeball", 1000, ("Extreme", "Memory")),
    ("fruitbot", 1000, ()),
    ("heist", 1000, ("Memory", "Exploration")),
    ("jumper", 1000, ("Memory", "Exploration")),
    ("leaper", 500, ("Extreme", "Exploration")),
    ("maze", 500, ("Memory", "Exploration")),
    ("miner", 1000, ("Memory",)),
    ("ninja", 1000, ("Exploration",)),
    ("plunder", 4000, ()),
    ("starpilot", 1000, ("Extreme",)),
)


def check_exploration_options(values: Mapping[str, Any], given: Set[str]) -> None:
    """Refuse `num_levels` and `start_level` passed with exploration mode.

    As procgen's ProcgenGym3Env: the mode plays the game's one exploration
    level, so it refuses either option when passed, at any value (its default
    included), rather than ignore it.
    """
    if values["distribution_mode"] != MODES["Exploration"]:
        return
    for name in ("num_levels", "start_level"):
        if name in given:
            raise ValueError(
                f"exploration mode overrides {name} (it plays the game's one "
                f"exploration level): leave {name} out, or use another distribution_mode"
            )


for _game, _timeout, _extra in GAMES:
    for _mode in ("Easy", "Hard", *_extra):
        register(
            f"{_game.capitalize()}{_mode}-v0",
            family="procgen",
            env_class="Procgen",
            env_name=_game,
            distribution_mode=MODES[_mode],
            data_dir=DATA_DIR,
            max_episode_steps=_timeout,
            check_options=check_exploration_options,
        )


# -- What this family declares (docs/adding_a_family.md) --

# The id tools/smoke_test.py makes and steps in every wheel.
SMOKE_TEST_ID = "CoinrunEasy-v0"
# The snapshot check takes a second or more an id (procedurally generated levels).
SNAPSHOT_CHECK_SAMPLED = True
# procgen's library (libenv.so) and assets/, shipped beside this file: every
# id's data_dir option defaults to it.
ASSET_DIR = DATA_DIR
# Conformance exceptions (envpool.testing.conformance), each with its reason.
_ONE_LEVEL = (
    "exploration mode plays one fixed level, whose randomness comes from the level "
    "alone: every seed gives the same episodes"
)
_EXPLORATION_IDS = tuple(
    f"{game}Exploration-v0"
    for game in ("Caveflyer", "Climber", "Coinrun", "Heist", "Jumper", "Leaper", "Maze", "Ninja")
)
SEED_INDEPENDENT_RESET = dict.fromkeys(_EXPLORATION_IDS, _ONE_LEVEL)
SEED_INDEPENDENT = dict.fromkeys(_EXPLORATION_IDS, _ONE_LEVEL)
