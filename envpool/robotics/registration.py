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


# -- The Shadow Hand (envs/shadow_dexterous_hand) --
# HandReach*-v0 are the reference's mujoco-py versions of HandReach*-v3, and
# HandManipulate*-v0 of HandManipulate*-v1: here each pair is one env. The
# *Full ids (EnvPool's; the reference has none) are the plain ids' task.

for _suffix, _reward_type in (("", "sparse"), ("Dense", "dense")):
    for _version in (0, 3):
        register(
            f"HandReach{_suffix}-v{_version}",
            family="robotics",
            env_class="Hand",
            max_episode_steps=50,
            reward_type=_reward_type,
        )

# object -> (xml stem, its options: manipulate_<object>.py's constructors)
_HAND_OBJECTS: dict[str, tuple[str, dict[str, Any]]] = {
    "Block": ("block", {}),
    "Egg": ("egg", {}),
    "Pen": (
        "pen",
        {
            "randomize_initial_rotation": False,
            "ignore_z_target_rotation": True,
            "distance_threshold": 0.05,
        },
    ),
}
# (object, variant, target_position, target_rotation, has touch-sensor ids)
_HAND_VARIANTS = [
    ("Block", "", "random", "xyz", True),
    ("Block", "Full", "random", "xyz", False),
    ("Block", "RotateZ", "ignore", "z", True),
    ("Block", "RotateParallel", "ignore", "parallel", True),
    ("Block", "RotateXYZ", "ignore", "xyz", True),
    ("Egg", "", "random", "xyz", True),
    ("Egg", "Full", "random", "xyz", False),
    ("Egg", "Rotate", "ignore", "xyz", True),
    ("Pen", "", "random", "xyz", True),
    ("Pen", "Full", "random", "xyz", False),
    ("Pen", "Rotate", "ignore", "xyz", True),
]
# touch suffix -> touch_get_obs
_HAND_TOUCH = {"_BooleanTouchSensors": "boolean", "_ContinuousTouchSensors": "sensordata"}

for _object, _variant, _position, _rotation, _has_touch in _HAND_VARIANTS:
    _stem, _object_options = _HAND_OBJECTS[_object]
    _touches: list[tuple[str, str]] = [("", "off")]
    if _has_touch:
        _touches += list(_HAND_TOUCH.items())
    for _touch_suffix, _touch in _touches:
        _touch_options: dict[str, Any] = (
            {}
            if _touch == "off"
            else {
                "touch_get_obs": _touch,
                "touch_visualisation": "on_touch",
                "obs_dim": 153,
            }
        )
        for _suffix, _reward_type in (("", "sparse"), ("Dense", "dense")):
            for _version in (0, 1):
                _options: dict[str, Any] = {
                    "randomize_initial_position": True,
                    "randomize_initial_rotation": True,
                    "obs_dim": 61,
                    "goal_dim": 7,
                    "qpos_dim": 38,
                    "qvel_dim": 36,
                    **_object_options,
                    **_touch_options,
                }
                register(
                    f"HandManipulate{_object}{_variant}{_touch_suffix}{_suffix}-v{_version}",
                    family="robotics",
                    env_class="Hand",
                    max_episode_steps=100,
                    reward_type=_reward_type,
                    hand_task="manipulate",
                    xml_file=f"hand/manipulate_{_stem}"
                    + ("" if _touch == "off" else "_touch_sensors")
                    + ".xml",
                    target_position=_position,
                    target_rotation=_rotation,
                    **_options,
                )


# -- What this family declares (docs/adding_a_family.md) --

# The id tools/smoke_test.py makes and steps in every wheel.
SMOKE_TEST_ID = "FetchPickAndPlace-v4"
# The snapshot check takes a second or more an id (the Shadow Hand's resets
# settle the object for 200 physics steps).
SNAPSHOT_CHECK_SAMPLED = True
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

# -- Franka Kitchen (envs/franka_kitchen): seven tasks; the observation nests
# one dict per goal (obs["achieved_goal"]["kettle"]) --

register(
    "FrankaKitchen-v1",
    family="robotics",
    env_class="FrankaKitchen",
    max_episode_steps=280,
)
