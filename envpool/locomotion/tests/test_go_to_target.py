"""DmcCmuHumanoidGoToTarget-v1 against dm_control 1.0.50 on the same mujoco.

Env i of a pool made with `seed=s` plays
`basic_cmu_2019.cmu_humanoid_go_to_target(random_state=RandomState(s + i))`
after `np.random.seed(s + i)`; both take the same float64 actions, and every
observation entry (to 1e-6; they agree to about 1e-15), reward and how each
episode ends (a fall: terminated, discount 0; the time limit: truncated)
must agree at every step, across NEXT_STEP autoresets. The model is compared
with dm_control's compiled one array by array, names included.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import locomotion_common as common  # this folder's test helpers
import numpy as np
import pytest

import envpool
from envpool.testing.published import check_spec
from envpool.testing.snapshots import check_snapshots

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    import mujoco
    from dm_control.locomotion.examples import basic_cmu_2019

TASK_ID = "DmcCmuHumanoidGoToTarget-v1"
ALIAS = "dm_control/locomotion/cmu_humanoid_go_to_target"
SPECS = json.loads((Path(__file__).parent / "envpool127_go_to_target_specs.json").read_text())


def reference(seed: int, time_limit: float = 30.0) -> Any:
    """The dm_control env that env `seed - s` of a pool seeded `s` plays
    (the time_limit option: 30 s by default)."""
    return common.seeded_reference(basic_cmu_2019.cmu_humanoid_go_to_target, seed, time_limit)


def play(seed: int, steps: int, num_envs: int, time_limit: float) -> dict[str, int]:
    """Steps a pool and its references in lockstep; counts how episodes end."""
    counts = {"falls": 0, "time_limits": 0, "rewards": 0}
    for step, ts, reward, terminated, truncated in common.play_random_actions(
        TASK_ID,
        seed,
        steps,
        num_envs,
        lambda s: reference(s, time_limit),
        56,
        time_limit=time_limit,
    ):
        assert reward == ts.reward, step
        counts["rewards"] += int(ts.reward > 0)
        common.count_fall_or_time_limit(step, ts, terminated, truncated, counts)
    return counts


@pytest.mark.parametrize("seed", [0, 5])
def test_model_is_dm_controls(seed: int) -> None:
    envpool.make_spec(TASK_ID)
    from envpool.locomotion import _locomotion

    ref = reference(seed)
    ref.reset()
    target_x, target_y, _ = ref.task.target_position(ref.physics)
    model = mujoco.MjModel.from_xml_string(_locomotion.go_to_target_xml(target_x, target_y))
    common.assert_same_model(model, ref.physics.model._model)


def test_episodes_play_dm_controls_across_autoresets() -> None:
    # Random actions: the humanoid falls within a few steps (terminated).
    counts = play(0, 30, 2, time_limit=30.0)
    assert counts["falls"] >= 4, counts


def test_the_time_limit_truncates_as_dm_controls() -> None:
    counts = play(1, 12, 1, time_limit=0.09)  # 3 steps of 30 ms
    assert counts["time_limits"] >= 2, counts


def test_the_reward_is_dm_controls() -> None:
    # Seed 5: the target is drawn within 1 m of the walker.
    counts = play(5, 4, 1, time_limit=0.09)
    assert counts["rewards"] >= 1, counts


def test_reset_states_are_dm_controls_bit_for_bit() -> None:
    common.assert_reset_states_match(TASK_ID, range(1000, 1003), reference)


def test_spaces_and_options_are_envpool_127s() -> None:
    for task_id in (TASK_ID, ALIAS):
        check_spec(task_id, SPECS[TASK_ID])


def test_snapshots_restore_exactly() -> None:
    # Saved mid-episode (the conformance check saves with the defaults too)
    # and right after a reset, into a pool of another seed: another target.
    check_snapshots(TASK_ID, num_envs=2, before=4, after=10, time_limit=0.15)
    common.check_restore_after_reset(TASK_ID, 56, ("walker/target",), steps=4)


def test_a_missing_walker_model_names_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    common.assert_missing_model_named(
        monkeypatch, tmp_path, TASK_ID, r"humanoid_CMU_V2019\.xml.*reinstall envpool"
    )


def test_dm_env_type_names_the_keys_as_python_names() -> None:
    # dm_control's keys hold "/", which a namedtuple field cannot: the dm
    # State has them with "_" (envpool.python.keys.dm_field).
    env = envpool.make(ALIAS, env_type="dm", num_envs=2, seed=0)
    ts = env.reset()
    assert ts.observation.walker_joints_pos.shape == (2, 56)
    assert ts.observation.walker_body_height.shape == (2,)
    assert env.observation_spec().walker_target.shape == (3,)
    ts = env.step(np.zeros((2, 56)))
    assert ts.reward.shape == (2,)
    env.close()
