"""Ids of the locomotion family: dm_control 1.0.50's locomotion tasks and
multi-player soccer (dm_control.locomotion), EnvPool 1.2.7's names, each
also under its `dm_control/locomotion/<task_name>` alias."""

from __future__ import annotations

import os

from envpool.python.registry import register

# (id, env class, task_name). DmcCmuHumanoidTracking-v1 is not here
# (docs/locomotion.md, "What is left").
TASKS: list[tuple[str, str, str]] = [
    ("DmcSoccerBoxhead-v1", "DmcSoccer", "soccer_boxhead"),
    ("DmcSoccerAnt-v1", "DmcSoccer", "soccer_ant"),
    ("DmcSoccerHumanoid-v1", "DmcSoccer", "soccer_humanoid"),
    ("DmcCmuHumanoidGoToTarget-v1", "DmcCmuHumanoidGoToTarget", "cmu_humanoid_go_to_target"),
    ("DmcCmuHumanoidRunWalls-v1", "DmcCmuHumanoidRun", "cmu_humanoid_run_walls"),
    ("DmcCmuHumanoidRunGaps-v1", "DmcCmuHumanoidRun", "cmu_humanoid_run_gaps"),
    ("DmcCmuHumanoidMazeForage-v1", "DmcCmuHumanoidMazeForage", "cmu_humanoid_maze_forage"),
    (
        "DmcCmuHumanoidHeterogeneousForage-v1",
        "DmcCmuHumanoidHeterogeneousForage",
        "cmu_humanoid_heterogeneous_forage",
    ),
    ("DmcRodentEscapeBowl-v1", "DmcRodentEscapeBowl", "rodent_escape_bowl"),
    ("DmcRodentTwoTouch-v1", "DmcRodentTwoTouch", "rodent_two_touch"),
    ("DmcRodentRunGaps-v1", "DmcRodentRunGaps", "rodent_run_gaps"),
    ("DmcRodentMazeForage-v1", "DmcRodentMazeForage", "rodent_maze_forage"),
]

for _task_id, _env_class, _task_name in TASKS:
    for _name in (_task_id, f"dm_control/locomotion/{_task_name}"):
        register(_name, family="locomotion", env_class=_env_class, task_name=_task_name)


# -- What this family declares (docs/adding_a_family.md) --

# The id tools/smoke_test.py makes and steps in every wheel.
SMOKE_TEST_ID = "DmcSoccerBoxhead-v1"
# dm_control's soccer textures (pitch, ball, the walkers' digits) and the
# Ant walker's ant.xml, shipped in the wheel beside this file (taken from the
# pinned dm-control wheel at build time).
ASSET_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "assets")
# pip packages the family reads files from at run time (pinned in
# requirements-dev.txt): the MuJoCo library.
RUNTIME_PACKAGES = ["mujoco"]
# The tasks with the egocentric camera render a 64x64 frame at every reset and
# step, and MuJoCo draws the spot light's 4096x4096 shadow map for each (as
# dm_control does; the rodent's light a 2048x2048 one): about 0.3 s a step on
# a CPU, minutes for the project-wide checks of one id. tests/test_corridor.py
# and tests/test_rodent.py check them against dm_control.
_CAMERA = "renders its egocentric camera at every step (about 0.3 s on a CPU)"
SLOW_TEST_IDS = {
    name: _CAMERA
    for task_id, env_class, task_name in TASKS
    if env_class
    in (
        "DmcCmuHumanoidRun",
        "DmcCmuHumanoidMazeForage",
        "DmcCmuHumanoidHeterogeneousForage",
        "DmcRodentEscapeBowl",
        "DmcRodentTwoTouch",
        "DmcRodentRunGaps",
        "DmcRodentMazeForage",
    )
    for name in (task_id, f"dm_control/locomotion/{task_name}")
}
# Soccer with four CMU humanoids: a reset compiles the pitch and the four
# walkers with their skins, and the project-wide checks take 70 to 85 s per
# name here; tests/test_soccer_humanoid.py checks the id against dm_control
# (snapshots and PettingZoo's parallel_api_test included).
SLOW_TEST_IDS.update(
    dict.fromkeys(
        ("DmcSoccerHumanoid-v1", "dm_control/locomotion/soccer_humanoid"),
        "compiles four CMU humanoids at every reset (70-85 s of whole-id checks on a CPU)",
    )
)
