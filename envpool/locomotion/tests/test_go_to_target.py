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
import os
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import envpool
from envpool.locomotion.registration import ASSET_DIR
from envpool.testing.published import check_spec
from envpool.testing.snapshots import check_snapshots

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    import mujoco
    from dm_control.locomotion.examples import basic_cmu_2019

TASK_ID = "DmcCmuHumanoidGoToTarget-v1"
ALIAS = "dm_control/locomotion/cmu_humanoid_go_to_target"
SPECS = json.loads((Path(__file__).parent / "envpool127_go_to_target_specs.json").read_text())
TOLERANCE = 1e-6


def reference(seed: int, time_limit: float = 30.0) -> Any:
    """The dm_control env that env `seed - s` of a pool seeded `s` plays."""
    np.random.seed(seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env = basic_cmu_2019.cmu_humanoid_go_to_target(random_state=np.random.RandomState(seed))
    env._time_limit = time_limit  # the time_limit option (30 s by default)
    return env


def play(seed: int, steps: int, num_envs: int, time_limit: float) -> dict[str, int]:
    """Steps a pool and its references in lockstep; counts how episodes end."""
    env = envpool.make(TASK_ID, num_envs=num_envs, seed=seed, time_limit=time_limit)
    refs = [reference(seed + i, time_limit) for i in range(num_envs)]
    obs, info = env.reset()
    steps_ref = [ref.reset() for ref in refs]
    rng = np.random.RandomState(seed)
    counts = {"falls": 0, "time_limits": 0, "rewards": 0}

    def compare(step: int) -> None:
        for i, ts in enumerate(steps_ref):
            row = int(np.flatnonzero(info["env_id"] == i)[0])
            assert set(ts.observation) == set(obs)
            for key, expected in ts.observation.items():
                ours = obs[key][row]
                assert ours.shape == np.shape(expected), key
                np.testing.assert_allclose(
                    ours, expected, rtol=0, atol=TOLERANCE, err_msg=f"step {step} env {i} {key}"
                )

    compare(0)
    for step in range(1, steps + 1):
        action = rng.uniform(-1, 1, size=(num_envs, 56))
        obs, reward, terminated, truncated, info = env.step(action)
        steps_ref = [ref.step(action[i]) for i, ref in enumerate(refs)]
        compare(step)
        for i, ts in enumerate(steps_ref):
            row = int(np.flatnonzero(info["env_id"] == i)[0])
            if ts.first():
                assert reward[row] == 0 and not terminated[row] and not truncated[row]
                continue
            assert reward[row] == ts.reward, step
            counts["rewards"] += int(ts.reward > 0)
            if ts.last():
                fall = float(ts.discount) == 0.0
                counts["falls" if fall else "time_limits"] += 1
                assert bool(terminated[row]) == fall and bool(truncated[row]) != fall, step
            else:
                assert not terminated[row] and not truncated[row], step
    env.close()
    return counts


@pytest.mark.parametrize("seed", [0, 5])
def test_model_is_dm_controls(seed: int) -> None:
    envpool.make_spec(TASK_ID)
    from envpool.locomotion import _locomotion

    ref = reference(seed)
    ref.reset()
    target_x, target_y, _ = ref.task.target_position(ref.physics)
    model = mujoco.MjModel.from_xml_string(_locomotion.go_to_target_xml(target_x, target_y))
    expected = ref.physics.model._model
    compared = 0
    for name in dir(expected):
        value = getattr(expected, name, None)
        if name.startswith("_") or not isinstance(value, np.ndarray):
            continue
        np.testing.assert_array_equal(getattr(model, name), value, err_msg=name)
        compared += 1
    assert compared > 200


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
    seeds = range(1000, 1003)
    env = envpool.make(TASK_ID, num_envs=len(seeds), seed=seeds[0])
    env.reset()
    for i, seed in enumerate(seeds):
        ref = reference(seed)
        ref.reset()
        state = np.array(env._pool.get_state(i))
        qpos, qvel = ref.physics.data.qpos, ref.physics.data.qvel
        np.testing.assert_array_equal(state[: qpos.size], qpos, err_msg=f"seed {seed}")
        np.testing.assert_array_equal(
            state[qpos.size : qpos.size + qvel.size], qvel, err_msg=f"seed {seed}"
        )
    env.close()


def test_spaces_and_options_are_envpool_127s() -> None:
    for task_id in (TASK_ID, ALIAS):
        check_spec(task_id, SPECS[TASK_ID])


def test_snapshots_restore_exactly() -> None:
    # Saved mid-episode (the conformance check saves with the defaults too)
    # and right after a reset, into a pool of another seed: another target.
    check_snapshots(TASK_ID, num_envs=2, before=4, after=10, time_limit=0.15)
    env = envpool.make(TASK_ID, num_envs=1, seed=0)
    twin = envpool.make(TASK_ID, num_envs=1, seed=9)
    env.reset()
    twin.reset()
    state = env.get_state()
    actions = [np.random.RandomState(t).uniform(-1, 1, (1, 56)) for t in range(4)]
    later = [env.step(a)[0]["walker/target"] for a in actions]
    twin.set_state(state)
    for action, want in zip(actions, later, strict=True):
        np.testing.assert_array_equal(twin.step(action)[0]["walker/target"], want)
    env.close()
    twin.close()


def test_a_missing_walker_model_names_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from envpool.locomotion import registration

    (tmp_path / "soccer").symlink_to(Path(ASSET_DIR) / "soccer")
    monkeypatch.setattr(registration, "ASSET_DIR", str(tmp_path))
    with pytest.raises(ValueError, match=r"humanoid_CMU_V2019\.xml.*reinstall envpool"):
        envpool.make(TASK_ID, seed=0)
    assert os.path.isdir(ASSET_DIR)


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
