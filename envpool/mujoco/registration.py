"""Ids of the mujoco family and their option overrides.

v2/v3 are gym's mujoco-py tasks, v4 and v5 gymnasium's; all run on the
same MuJoCo here.  `post_constraint` (mj_rnePostConstraint after each step)
is off for v2-v4 as in EnvPool 1.2.5, so cfrc_ext reads zero there as it
did under mujoco-py; gymnasium 1.x's v4 classes call it (see docs/mujoco.md).
"""

from typing import Any

from envpool.python.packages import gymnasium_dir
from envpool.python.registry import register

# (task, reward_threshold, {version: overrides}); every id also sets
# max_episode_steps and post_constraint = (version == 5).
_V5 = {"gymnasium_v5_render_camera": True}
_TASKS: list[tuple[str, float | None, int, dict[int, dict[str, Any]]]] = [
    (
        "Ant",
        6000.0,
        1000,
        {
            3: {"use_contact_force": True},
            4: {},
            5: {
                **_V5,
                "use_contact_force": True,
                "exclude_worldbody_contact_forces": True,
                "legacy_healthy_reward": False,
                "position_info_from_qpos": True,
            },
        },
    ),
    ("HalfCheetah", 4800.0, 1000, {3: {}, 4: {}, 5: _V5}),
    ("Hopper", 6000.0, 1000, {3: {}, 4: {}, 5: {**_V5, "legacy_healthy_reward": False}}),
    (
        "Humanoid",
        None,
        1000,
        {
            3: {"use_contact_force": True},
            4: {},
            5: {
                **_V5,
                "use_contact_force": True,
                "exclude_root_actuator_forces": True,
                "exclude_worldbody_observations": True,
                "legacy_healthy_reward": False,
                "position_info_from_qpos": True,
            },
        },
    ),
    (
        "HumanoidStandup",
        None,
        1000,
        {
            2: {},
            4: {},
            5: {
                **_V5,
                "exclude_root_actuator_forces": True,
                "exclude_worldbody_observations": True,
            },
        },
    ),
    (
        "InvertedDoublePendulum",
        9100.0,
        1000,
        {
            2: {},
            4: {},
            5: {**_V5, "constraint_obs_dim": 1, "reward_if_not_terminated": True},
        },
    ),
    (
        "InvertedPendulum",
        950.0,
        1000,
        {2: {}, 4: {}, 5: {**_V5, "reward_if_not_terminated": True}},
    ),
    (
        "Pusher",
        0.0,
        100,
        {
            2: {},
            4: {},
            5: {
                **_V5,
                "reward_after_step": True,
                "weighted_reward_info": True,
                "xml_file": "pusher_v5.xml",
            },
        },
    ),
    (
        "Reacher",
        -3.75,
        50,
        {
            2: {},
            4: {},
            5: {**_V5, "obs_include_z_distance": False, "reward_after_step": True},
        },
    ),
    ("Swimmer", 360.0, 1000, {3: {}, 4: {}, 5: _V5}),
    (
        "Walker2d",
        None,
        1000,
        {
            3: {},
            4: {},
            5: {**_V5, "legacy_healthy_reward": False, "xml_file": "walker2d_v5.xml"},
        },
    ),
]

for _task, _threshold, _max_steps, _versions in _TASKS:
    for _version, _overrides in _versions.items():
        _extra: dict[str, Any] = {} if _threshold is None else {"reward_threshold": _threshold}
        register(
            f"{_task}-v{_version}",
            family="mujoco",
            env_class=_task,
            max_episode_steps=_max_steps,
            post_constraint=_version == 5,
            **_overrides,
            **_extra,
        )


# -- What this family declares (docs/adding_a_family.md) --

# The id tools/smoke_test.py makes and steps in every wheel.
SMOKE_TEST_ID = "Ant-v5"
# gymnasium's MuJoCo models, located without importing gymnasium; None when
# gymnasium is missing (an xml_file given as a path needs none).
ASSET_DIR = gymnasium_dir("envs", "mujoco", "assets")
# pip packages the family reads files from at run time (pinned in
# requirements-dev.txt): the MuJoCo library.
RUNTIME_PACKAGES = ["mujoco"]
