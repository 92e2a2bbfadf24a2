"""Ids of the dm_control family: `<Domain><Task>-v1`, EnvPool's names for
dm_control.suite's (domain, task) pairs, 1000 steps each."""

from __future__ import annotations

import os

from envpool.python.registry import register

# (env class, id prefix, {task_name: id suffix}).
TASKS: list[tuple[str, str, dict[str, str]]] = [
    ("DmcAcrobot", "Acrobot", {"swingup": "Swingup", "swingup_sparse": "SwingupSparse"}),
    ("DmcBallInCup", "BallInCup", {"catch": "Catch"}),
    (
        "DmcCartpole",
        "Cartpole",
        {
            "balance": "Balance",
            "balance_sparse": "BalanceSparse",
            "swingup": "Swingup",
            "swingup_sparse": "SwingupSparse",
            "two_poles": "TwoPoles",
            "three_poles": "ThreePoles",
        },
    ),
    ("DmcCheetah", "Cheetah", {"run": "Run"}),
    (
        "DmcDog",
        "Dog",
        {"fetch": "Fetch", "run": "Run", "stand": "Stand", "trot": "Trot", "walk": "Walk"},
    ),
    ("DmcFinger", "Finger", {"spin": "Spin", "turn_easy": "TurnEasy", "turn_hard": "TurnHard"}),
    ("DmcFish", "Fish", {"upright": "Upright", "swim": "Swim"}),
    ("DmcHopper", "Hopper", {"stand": "Stand", "hop": "Hop"}),
    (
        "DmcHumanoid",
        "Humanoid",
        {"stand": "Stand", "walk": "Walk", "run": "Run", "run_pure_state": "RunPureState"},
    ),
    ("DmcHumanoidCMU", "HumanoidCMU", {"stand": "Stand", "walk": "Walk", "run": "Run"}),
    ("DmcLqr", "Lqr", {"lqr_2_1": "Lqr21", "lqr_6_2": "Lqr62"}),
    (
        "DmcManipulator",
        "Manipulator",
        {
            "bring_ball": "BringBall",
            "bring_peg": "BringPeg",
            "insert_ball": "InsertBall",
            "insert_peg": "InsertPeg",
        },
    ),
    ("DmcPendulum", "Pendulum", {"swingup": "Swingup"}),
    ("DmcPointMass", "PointMass", {"easy": "Easy", "hard": "Hard"}),
    (
        "DmcQuadruped",
        "Quadruped",
        {"walk": "Walk", "run": "Run", "escape": "Escape", "fetch": "Fetch"},
    ),
    ("DmcReacher", "Reacher", {"easy": "Easy", "hard": "Hard"}),
    ("DmcStacker", "Stacker", {"stack_2": "Stack2", "stack_4": "Stack4"}),
    ("DmcSwimmer", "Swimmer", {"swimmer6": "Swimmer6", "swimmer15": "Swimmer15"}),
    ("DmcWalker", "Walker", {"stand": "Stand", "walk": "Walk", "run": "Run"}),
]

for _env_class, _prefix, _tasks in TASKS:
    for _task, _suffix in _tasks.items():
        register(
            f"{_prefix}{_suffix}-v1",
            family="dm_control",
            env_class=_env_class,
            task_name=_task,
            max_episode_steps=1000,
        )


# -- What this family declares (docs/adding_a_family.md) --

# The id tools/smoke_test.py makes and steps in every wheel.
SMOKE_TEST_ID = "CheetahRun-v1"
# The snapshot check takes a second or more an id (big physics models).
SNAPSHOT_CHECK_SAMPLED = True
# The suite's XML files and assets, shipped in the wheel beside this file
# (taken from the pinned dm-control wheel at build time).
ASSET_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "assets")
# pip packages the family reads files from at run time (pinned in
# requirements-dev.txt): the MuJoCo library.
RUNTIME_PACKAGES = ["mujoco"]
