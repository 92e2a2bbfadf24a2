"""Ids of the vizdoom family: the scenarios that ship with vizdoom 1.3.2.

The engine binary, its IWAD and the scenario cfg/wad files are found in the
installed `vizdoom` package (located, not imported); where it is missing the
paths are empty and making an env names the missing file and the
`pip install vizdoom==1.3.2` that provides it. The scenarios of
D1Basic-v1 .. D4Battle2-v1 are not vizdoom's: this package ships them
(`scenarios/`, from the envpool-assets wheel pinned in WORKSPACE).
"""

from __future__ import annotations

import os

from envpool.python.packages import package_dir as located
from envpool.python.registry import register

# Deathmatch maps without a single-player start: ViZDoom 1.3.2's client (and
# its Python DoomGame) crashes on them unless the game is hosted as one.
HOSTED = "-host 1 -deathmatch"

# (id without "-v1", scenario file name without extension).
SCENARIOS = (
    ("Basic", "basic"),
    ("BasicAudio", "basic_audio"),
    ("BasicNotifications", "basic_notifications"),
    ("Cig", "cig"),
    ("DeadlyCorridor", "deadly_corridor"),
    ("Deathmatch", "deathmatch"),
    ("DefendTheCenter", "defend_the_center"),
    ("DefendTheLine", "defend_the_line"),
    ("HealthGathering", "health_gathering"),
    ("HealthGatheringSupreme", "health_gathering_supreme"),
    ("MultiDuel", "multi_duel"),
    ("MyWayHome", "my_way_home"),
    ("PredictPosition", "predict_position"),
    ("RocketBasic", "rocket_basic"),
    ("SimplerBasic", "simpler_basic"),
    ("TakeCover", "take_cover"),
)


def package_dir() -> str:
    """The folder of the installed vizdoom package ("" when it is missing)."""
    return located("vizdoom") or ""


def _path(*parts: str) -> str:
    return os.path.join(_PACKAGE, *parts) if _PACKAGE else ""


_PACKAGE = package_dir()

for _name, _scenario in SCENARIOS:
    register(
        f"{_name}-v1",
        family="vizdoom",
        env_class="Vizdoom",
        cfg_path=_path("scenarios", f"{_scenario}.cfg"),
        wad_path=_path("scenarios", f"{_scenario}.wad"),
        iwad_path=_path("freedoom2.wad"),
        vzd_path=_path("vizdoom"),
        max_episode_steps=525,
        **({"game_args": HOSTED} if _scenario in ("cig", "multi_duel") else {}),
    )

# (id without "-v1", scenario file name without extension) of the scenarios
# shipped in this package's scenarios/ folder.
D_SCENARIOS = (
    ("D1Basic", "D1_basic"),
    ("D2Navigation", "D2_navigation"),
    ("D3Battle", "D3_battle"),
    ("D4Battle2", "D4_battle2"),
)

_OWN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "scenarios")

for _name, _scenario in D_SCENARIOS:
    register(
        f"{_name}-v1",
        family="vizdoom",
        env_class="Vizdoom",
        cfg_path=os.path.join(_OWN, f"{_scenario}.cfg"),
        wad_path=os.path.join(_OWN, f"{_scenario}.wad"),
        iwad_path=_path("freedoom2.wad"),
        vzd_path=_path("vizdoom"),
        max_episode_steps=525,
    )

# Any scenario through cfg_path and wad_path; basic's until they are given.
register(
    "VizdoomCustom-v1",
    family="vizdoom",
    env_class="Vizdoom",
    cfg_path=_path("scenarios", "basic.cfg"),
    wad_path=_path("scenarios", "basic.wad"),
    iwad_path=_path("freedoom2.wad"),
    vzd_path=_path("vizdoom"),
    max_episode_steps=525,
)


# -- What this family declares (docs/adding_a_family.md) --

# The id tools/smoke_test.py makes and steps in every wheel.
SMOKE_TEST_ID = "Basic-v1"
# The installed vizdoom package: the engine, its IWAD and the scenarios the
# ids' path options default to.
ASSET_DIR = _PACKAGE or None
# pip packages the family reads files from at run time (pinned in
# requirements-nodeps.txt).
RUNTIME_PACKAGES = ["vizdoom"]
# Conformance exceptions (envpool.testing.conformance), each with its reason.
SEED_INDEPENDENT_RESET = {
    _task_id: "the map starts the same whatever the seed (the engine's randomness shows later)"
    for _task_id in (
        "BasicAudio-v1",
        "DeadlyCorridor-v1",
        "DefendTheCenter-v1",
        "DefendTheLine-v1",
        "TakeCover-v1",
    )
}
SEED_INDEPENDENT = {
    "TakeCover-v1": "the seed decides where fireballs come from, which shows only after the "
    "few steps check_env takes",
}
