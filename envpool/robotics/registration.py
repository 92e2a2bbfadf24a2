"""Ids of the robotics family (gymnasium-robotics) and their option overrides.

EnvPool 1.2.7's ids of these tasks, with its option names; where its
defaults differ from gymnasium-robotics 1.4.2 the reference's values are
registered (the Fetch arm's initial_slide0: 0.405 for Push and
PickAndPlace, 0.05 for Slide; see docs/robotics.md). Fetch*-v1 (the
reference's mujoco-py versions) are the same tasks as Fetch*-v4 here.
"""

from __future__ import annotations

import os
from typing import Any

from envpool.python.registry import register

# (id stem, maps.py name, max_episode_steps)
_MAZES = [
    ("UMaze", "U_MAZE", 300),
    ("Open", "OPEN", 300),
    ("Open_Diverse_G", "OPEN_DIVERSE_G", 300),
    ("Open_Diverse_GR", "OPEN_DIVERSE_GR", 300),
    ("Medium", "MEDIUM_MAZE", 600),
    ("Medium_Diverse_G", "MEDIUM_MAZE_DIVERSE_G", 600),
    ("Medium_Diverse_GR", "MEDIUM_MAZE_DIVERSE_GR", 600),
    ("Large", "LARGE_MAZE", 800),
    ("Large_Diverse_G", "LARGE_MAZE_DIVERSE_G", 800),
    ("Large_Diverse_GR", "LARGE_MAZE_DIVERSE_GR", 800),
]

for _stem, _maze_map, _max_steps in _MAZES:
    for _suffix, _reward_type in (("", "sparse"), ("Dense", "dense")):
        register(
            f"PointMaze_{_stem}{_suffix}-v3",
            family="robotics",
            env_class="PointMaze",
            max_episode_steps=_max_steps,
            maze_map=_maze_map,
            reward_type=_reward_type,
        )

# The Fetch tasks' constructor arguments (envs/fetch/<task>.py).
_FETCH: dict[str, dict[str, Any]] = {
    "Reach": {
        "xml_file": "fetch/reach.xml",
        "has_object": False,
        "block_gripper": True,
        "gripper_extra_height": 0.2,
        "target_in_the_air": True,
        "initial_slide0": 0.4049,
    },
    "Push": {
        "xml_file": "fetch/push.xml",
        "has_object": True,
        "block_gripper": True,
        "gripper_extra_height": 0.0,
        "target_in_the_air": False,
        "initial_slide0": 0.405,
    },
    "Slide": {
        "xml_file": "fetch/slide.xml",
        "has_object": True,
        "block_gripper": True,
        "gripper_extra_height": -0.02,
        "target_in_the_air": False,
        "target_offset_x": 0.4,
        "obj_range": 0.1,
        "target_range": 0.3,
        "initial_slide0": 0.05,
        "initial_object_x": 1.7,
        "initial_object_y": 1.1,
        "initial_object_z": 0.41,
    },
    "PickAndPlace": {
        "xml_file": "fetch/pick_and_place.xml",
        "has_object": True,
        "block_gripper": False,
        "gripper_extra_height": 0.2,
        "target_in_the_air": True,
        "initial_slide0": 0.405,
    },
}

for _task, _overrides in _FETCH.items():
    for _suffix, _reward_type in (("", "sparse"), ("Dense", "dense")):
        for _version in (1, 4):
            register(
                f"Fetch{_task}{_suffix}-v{_version}",
                family="robotics",
                env_class="Fetch",
                max_episode_steps=50,
                reward_type=_reward_type,
                **_overrides,
            )


# -- What this family declares (docs/adding_a_family.md) --

# The id tools/smoke_test.py makes and steps in every wheel.
SMOKE_TEST_ID = "FetchPickAndPlace-v4"
# gymnasium-robotics' models, shipped in the wheel beside this file (taken
# from the pinned gymnasium-robotics wheel at build time).
ASSET_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "assets")
# pip packages the family reads files from at run time (pinned in
# requirements-dev.txt): the MuJoCo library.
RUNTIME_PACKAGES = ["mujoco"]

# -- AdroitHand (envs/adroit_hand): dense ids and their Sparse variants --

# (task, EnvPool 1.2.7's declared sizes: obs_dim, action_dim, qpos_dim = qvel_dim, reset_dim)
_ADROIT = [
    ("Door", "door", 39, 28, 30, 3),
    ("Hammer", "hammer", 46, 26, 33, 3),
    ("Pen", "pen", 45, 24, 30, 4),
    ("Relocate", "relocate", 39, 30, 36, 6),
]

for _task, _adroit_task, _obs_dim, _action_dim, _qpos_dim, _reset_dim in _ADROIT:
    for _suffix, _reward_type in (("", "dense"), ("Sparse", "sparse")):
        register(
            f"AdroitHand{_task}{_suffix}-v1",
            family="robotics",
            env_class="AdroitHand",
            max_episode_steps=200,
            adroit_task=_adroit_task,
            xml_file=f"adroit_hand/adroit_{_adroit_task}.xml",
            reward_type=_reward_type,
            obs_dim=_obs_dim,
            action_dim=_action_dim,
            qpos_dim=_qpos_dim,
            qvel_dim=_qpos_dim,
            reset_dim=_reset_dim,
        )
