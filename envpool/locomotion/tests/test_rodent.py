"""DmcRodentEscapeBowl-v1 and DmcRodentTwoTouch-v1 against dm_control 1.0.50.

Env i of a pool made with `seed=s` plays
`basic_rodent_2020.rodent_<task>(random_state=RandomState(s + i))` after
`np.random.seed(s + i)` (TwoTouch draws from the global np.random at every
reset: each reference keeps its own copy of that stream here, swapped in
around its calls); both take the same float64 actions, and every
observation entry but the camera (to 1e-6; they agree to about 1e-17), the
egocentric camera (mean |diff| <= 1 level, at most 1% of pixels off by more
than 32; the frames are equal here), the reward and how each episode ends
must agree at every step, across NEXT_STEP autoresets. The model is compared
with dm_control's compiled one array by array and the walker's skin byte for
byte; the reset state bit for bit (the rodent turns one ulp into O(1) within
a few steps); the bowl's zoom with scipy's bit for bit.
"""

from __future__ import annotations

import json
import os
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

os.environ.setdefault("MUJOCO_GL", "egl")  # dm_control renders the camera

import locomotion_common as common  # this folder's test helpers
from locomotion_common import ALL, CAMERA, TOLERANCE

import envpool
from envpool.testing.published import check_spec

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    import mujoco
    from dm_control.locomotion.examples import basic_rodent_2020
    from scipy import ndimage

TASK_ID = "DmcRodentEscapeBowl-v1"
ALIAS = "dm_control/locomotion/rodent_escape_bowl"
TWO_TOUCH_ID = "DmcRodentTwoTouch-v1"
TWO_TOUCH_ALIAS = "dm_control/locomotion/rodent_two_touch"
FACTORIES = {
    TASK_ID: basic_rodent_2020.rodent_escape_bowl,
    TWO_TOUCH_ID: basic_rodent_2020.rodent_two_touch,
}
SPECS = json.loads((Path(__file__).parent / "envpool127_rodent_specs.json").read_text())


def reference(
    seed: int, time_limit: float = 20.0, task_id: str = TASK_ID
) -> common.GlobalStreamReference:
    """The EscapeBowl reference (or `task_id`'s) of env `seed - s`."""
    return common.GlobalStreamReference(FACTORIES[task_id], seed, time_limit)


def play(
    seed: int, steps: int, num_envs: int, time_limit: float, task_id: str = TASK_ID
) -> dict[str, int]:
    """Steps a pool and its references in lockstep; counts the time limits."""
    counts = {"time_limits": 0, "rewards": 0}
    for step, ts, reward, terminated, truncated in common.play_random_actions(
        task_id,
        seed,
        steps,
        num_envs,
        lambda s: reference(s, time_limit, task_id),
        38,
        compare={"exact_keys": ("task_logic",)},
        time_limit=time_limit,
    ):
        np.testing.assert_allclose(reward, ts.reward, rtol=0, atol=TOLERANCE)
        counts["rewards"] += int(ts.reward > 0)
        # The discount is always 1: only the time limit ends an episode.
        assert not terminated, step
        assert bool(truncated) == ts.last(), step
        counts["time_limits"] += int(ts.last())
    return counts


@pytest.mark.parametrize(
    ("shape", "zoom"),
    [((60, 60), 201 / 60.0), ((7, 13), (2.5, 1.7)), ((5, 9), (0.6, 3.0)), ((1, 4), 2.0)],
)
def test_the_bowls_zoom_is_scipys_bit_for_bit(shape: tuple[int, int], zoom: Any) -> None:
    envpool.make_spec(TASK_ID)
    from envpool.locomotion import _locomotion

    rng = np.random.RandomState(sum(shape))
    for _ in range(5):
        bumps = rng.uniform(0.5, 1, shape)
        expected = ndimage.zoom(bumps, zoom)
        ours = np.array(_locomotion.spline_zoom(bumps.ravel().tolist(), *shape, *expected.shape))
        np.testing.assert_array_equal(ours.reshape(expected.shape), expected)


def test_model_is_dm_controls() -> None:
    envpool.make_spec(TASK_ID)
    from envpool.locomotion import _locomotion

    ref = reference(0).env
    ref.reset()
    # The skin as Composer writes it for the attached walker.
    skin = _locomotion.rodent_skin()
    composer_assets = ref.task.root_entity.mjcf_model.get_assets()
    assert [name for name, data in composer_assets.items() if name.endswith(".skn")] == [
        name for name, data in composer_assets.items() if data == skin
    ]
    xml = _locomotion.rodent_xml("rodent_escape_bowl")
    model = mujoco.MjModel.from_xml_string(xml, common.rodent_model_files(xml))
    # tex_pathadr points at the textures' file names (Composer's are
    # hashed); hfield_data is the episode's terrain (the lockstep test).
    common.assert_same_model(model, ref.physics.model._model, skip=("tex_pathadr", "hfield_data"))


def test_two_touch_model_is_dm_controls() -> None:
    envpool.make_spec(TWO_TOUCH_ID)
    from envpool.locomotion import _locomotion

    ref = common.GlobalStreamReference(FACTORIES[TWO_TOUCH_ID], 0)
    ref.reset()
    # The episode's model as Composer compiles it, before the task moves the
    # target and retextures it (which the lockstep test covers).
    root = ref.env.task.root_entity.mjcf_model
    expected = mujoco.MjModel.from_xml_string(root.to_xml_string(), root.get_assets())
    xml = _locomotion.rodent_xml("rodent_two_touch")
    model = mujoco.MjModel.from_xml_string(xml, common.rodent_model_files(xml))
    common.assert_same_model(model, expected, skip=("tex_pathadr",))


@pytest.mark.parametrize("task_id", [TASK_ID, TWO_TOUCH_ID])
def test_reset_states_are_dm_controls_bit_for_bit(task_id: str) -> None:
    common.assert_reset_states_match(
        task_id,
        range(1000, 1002),
        lambda seed: common.GlobalStreamReference(FACTORIES[task_id], seed),
        whole_state=True,
    )


def test_episodes_play_dm_controls_across_autoresets() -> None:
    # 5 steps of 20 ms an episode: 2 autoresets within 12 steps (more with
    # ENVPOOL_TEST_ALL).
    steps = 60 if ALL else 12
    counts = play(0, steps, 2, time_limit=0.1)
    assert counts["time_limits"] >= 4, counts
    assert counts["rewards"] > 0, counts
    if ALL:
        for seed in (3, 11):
            play(seed, 150, 1, time_limit=1.0)


def test_two_touch_episodes_play_dm_controls_across_autoresets() -> None:
    # Random actions do not reach the target (0.14 m up, up to 2 m away):
    # the reward is the hands' closeness and task_logic stays PRE_TOUCH.
    steps = 60 if ALL else 12
    counts = play(5, steps, 2, time_limit=0.1, task_id=TWO_TOUCH_ID)
    assert counts["time_limits"] >= 4 and counts["rewards"] > 0, counts


@pytest.mark.parametrize(
    ("canonical", "alias"), [(TASK_ID, ALIAS), (TWO_TOUCH_ID, TWO_TOUCH_ALIAS)]
)
def test_spaces_and_options_are_envpool_127s(canonical: str, alias: str) -> None:
    # (task_logic is int64 over the whole range: check_spec checks its bounds.)
    for task_id in (canonical, alias):
        check_spec(task_id, SPECS[canonical])


def test_snapshots_restore_exactly() -> None:
    # The conformance check (test_conformance.py) saves mid-episode and
    # across autoresets; here right after a reset, into a pool of another
    # seed (another terrain, which the state carries).
    common.check_restore_after_reset(TASK_ID, 38, (CAMERA, "walker/joints_pos", "walker/origin"))


def test_two_touches_play_dm_controls() -> None:
    # Random actions never bring a hand up to the target: right after the
    # reset, both envs get the target moved onto the left hand (dm_control
    # through its binding, this env through its snapshot, whose bytes hold
    # the target's position once), then step with zero actions: a first
    # touch (25), the second, the timeout and, with ENVPOOL_TEST_ALL, the
    # target placed anew from the global stream.
    seed = 2
    env = envpool.make(TWO_TOUCH_ID, num_envs=1, seed=seed)
    ref = common.GlobalStreamReference(FACTORIES[TWO_TOUCH_ID], seed)
    obs, _ = env.reset()
    ref.reset()
    physics = ref.physics
    geom = ref.env.task._targets[0][0].geom
    old = np.array(physics.bind(geom).pos, dtype=np.float64)
    new = np.array(physics.named.data.xpos["walker/hand_L"], dtype=np.float64)
    physics.bind(geom).pos = new
    [state] = env.get_state()
    env.set_state([common.rewritten(state, old.tobytes(), new.tobytes())])
    logic = []
    total = 0.0
    for step in range(1, (100 if ALL else 14) + 1):
        action = np.zeros(38)
        obs, reward, _, _, _ = env.step(action[None])
        ts = ref.step(action)
        common.compare_first_env(step, ts, obs)
        np.testing.assert_allclose(reward[0], ts.reward, rtol=0, atol=TOLERANCE)
        logic.append(int(ts.observation["task_logic"][0]))
        total += float(ts.reward)
    assert 1 in logic and total > 25, (logic, total)
    if ALL:  # a timeout ended, then the target moved (PRE_TOUCH again)
        assert logic[-1] == 0 and max(logic) >= 3, logic
    env.close()


def test_two_touch_snapshots_carry_the_global_stream() -> None:
    # Restored into a pool of another seed: the autoreset after the time
    # limit draws the spawn rotation and target from the restored stream.
    env = envpool.make(TWO_TOUCH_ID, num_envs=1, seed=0, time_limit=0.04)
    twin = envpool.make(TWO_TOUCH_ID, num_envs=1, seed=9, time_limit=0.04)
    env.reset()
    twin.reset()
    env.step(np.zeros((1, 38)))
    state = env.get_state()
    actions = [np.random.RandomState(t).uniform(-1, 1, (1, 38)) for t in range(4)]
    later = [env.step(a)[0] for a in actions]
    twin.set_state(state)
    for action, want in zip(actions, later, strict=True):
        got = twin.step(action)[0]
        for key in (CAMERA, "walker/joints_pos", "walker/world_zaxis", "task_logic"):
            np.testing.assert_array_equal(got[key], want[key], err_msg=key)
    env.close()
    twin.close()


def test_a_missing_walker_model_names_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    common.assert_missing_model_named(
        monkeypatch, tmp_path, TASK_ID, r"rodent\.xml.*reinstall envpool"
    )


def test_dm_env_type_names_the_keys_as_python_names() -> None:
    env = envpool.make(ALIAS, env_type="dm", num_envs=2, seed=0)
    ts = env.reset()
    assert ts.observation.walker_joints_pos.shape == (2, 30)
    assert ts.observation.walker_egocentric_camera.shape == (2, 64, 64, 3)
    ts = env.step(np.zeros((2, 38)))
    assert ts.reward.shape == (2,)
    env.close()
