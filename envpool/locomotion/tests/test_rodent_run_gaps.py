"""DmcRodentRunGaps-v1 against dm_control 1.0.50.

Env i of a pool made with `seed=s` plays
`basic_rodent_2020.rodent_run_gaps(random_state=RandomState(s + i))` after
`np.random.seed(s + i)`: the rodent of DmcRodentEscapeBowl-v1 (its walker,
skin and egocentric camera) in a GapsCorridor of 2 m by 40 m, each episode
in a corridor drawn anew. Both take the same float64 actions, and every
observation entry but the camera (to 1e-6), the camera (mean |diff| <= 1
level, at most 1% of pixels off by more than 32), the reward and how each
episode ends (an end effector below -0.3 m: terminated, discount 0; the time
limit: truncated) must agree at every step, across NEXT_STEP autoresets. The
arena's text is compared with Composer's line for line and the compiled
model array by array; the reset state bit for bit (the rodent turns one ulp
into O(1) within a few steps). `ENVPOOL_TEST_ALL=1` plays more seeds and
longer episodes.
"""

from __future__ import annotations

import json
import os
import re
import struct
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
from envpool.testing.snapshots import check_snapshots

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    import mujoco
    from dm_control.locomotion.examples import basic_rodent_2020

TASK_ID = "DmcRodentRunGaps-v1"
ALIAS = "dm_control/locomotion/rodent_run_gaps"
SPECS = json.loads((Path(__file__).parent / "envpool127_rodent_run_gaps_specs.json").read_text())


def reference(seed: int, time_limit: float = 30.0) -> Any:
    """The dm_control env that env `seed - s` of a pool seeded `s` plays
    (the time_limit option: 30 s by default)."""
    return common.seeded_reference(basic_rodent_2020.rodent_run_gaps, seed, time_limit)


def gaps_draws(seed: int) -> list[float]:
    """What the arena's regenerate draws at the first reset of `seed`."""
    rs = np.random.RandomState(seed)
    draws, x = [], 6.0
    while x < 40:
        platform, gap = rs.uniform(0.4, 0.8), rs.uniform(0.05, 0.2)
        draws += [platform, gap]
        x += platform + gap
    return draws


def play(seed: int, steps: int, num_envs: int, time_limit: float) -> dict[str, int]:
    """Steps a pool and its references in lockstep; counts how episodes end."""
    counts = {"time_limits": 0, "rewards": 0, "corridors": 0}
    seen_corridors: set[bytes] = set()

    def watch(refs: list[Any]) -> None:
        seen_corridors.update(ref.physics.model.geom_size.tobytes() for ref in refs)

    for step, ts, reward, terminated, truncated in common.play_random_actions(
        TASK_ID,
        seed,
        steps,
        num_envs,
        lambda s: reference(s, time_limit),
        38,
        watch=watch,
        time_limit=time_limit,
    ):
        np.testing.assert_allclose(reward, ts.reward, rtol=0, atol=TOLERANCE)
        counts["rewards"] += int(ts.reward > 0)
        if ts.last():
            # Random actions keep the rodent on its 6 m starting platform:
            # the time limit ends these episodes.
            assert float(ts.discount) == 1.0, step
            assert truncated and not terminated, step
            counts["time_limits"] += 1
        else:
            assert not terminated and not truncated, step
    counts["corridors"] = len(seen_corridors)
    return counts


def arena_lines(xml: str) -> list[str]:
    """The arena's lines: the model's name, the map, the ground and sky
    textures (their file names aside: Composer's are hashed) and the world
    body's elements before the walker."""
    lines = [re.sub(r'file="[^"]*"', 'file=""', line) for line in xml.splitlines()]
    first = lines.index("  <worldbody>")
    walker = lines.index('    <body name="walker/">')
    picked = [line for line in lines[:first] if "<map" in line or "aesthetic" in line]
    return [lines[0], *picked, *lines[first:walker]]


@pytest.mark.parametrize("seed", [0, 7])
def test_model_is_dm_controls(seed: int) -> None:
    envpool.make_spec(TASK_ID)
    from envpool.locomotion import _locomotion

    ref = reference(seed)
    ref.reset()
    xml = _locomotion.rodent_xml("rodent_run_gaps", gaps_draws(seed))
    assert arena_lines(xml) == arena_lines(ref.task.root_entity.mjcf_model.to_xml_string())
    model = mujoco.MjModel.from_xml_string(xml, common.rodent_model_files(xml))
    # tex_pathadr points at the textures' file names (Composer's are hashed).
    common.assert_same_model(model, ref.physics.model._model, skip=("tex_pathadr",))


def test_reset_states_are_dm_controls_bit_for_bit() -> None:
    common.assert_reset_states_match(TASK_ID, range(1000, 1003), reference, whole_state=True)


# (seed, steps, envs, time limit): 5 steps of 20 ms an episode, each new
# episode in a new corridor; longer and more seeds with ENVPOOL_TEST_ALL.
EPISODES = [(0, 12, 2, 0.1)]
if ALL:
    EPISODES += [(3, 60, 2, 0.4), (11, 100, 1, 1.0)]


@pytest.mark.parametrize(("seed", "steps", "num_envs", "time_limit"), EPISODES)
def test_episodes_play_dm_controls_across_autoresets(
    seed: int, steps: int, num_envs: int, time_limit: float
) -> None:
    counts = play(seed, steps, num_envs, time_limit)
    episodes = steps * num_envs // round(time_limit / 0.02)
    assert counts["time_limits"] >= episodes - num_envs, counts
    assert counts["corridors"] >= episodes, counts
    assert counts["rewards"] > 0, counts


def test_a_fall_terminates_as_dm_controls() -> None:
    # Random actions keep the rodent on its starting platform: right after
    # the reset, both envs get the rodent 1 m below it (dm_control through
    # its data, then mj_step1 as a restore runs it; this env through its
    # snapshot, whose bytes hold the free joint's pose once), so that its
    # end effectors are below -0.3 m after the first step: terminated
    # (discount 0), then the autoreset into a new corridor, in lockstep.
    seed = 4
    env = envpool.make(TASK_ID, num_envs=1, seed=seed)
    ref = reference(seed)
    env.reset()
    ref.reset()
    data = ref.physics.data
    pose = np.array(data.qpos[:4])
    fallen = pose.copy()
    fallen[2] = -1.0
    data.qpos[:4] = fallen
    mujoco.mj_step1(ref.physics.model._model, data._data)
    [state] = env.get_state()
    env.set_state([common.rewritten(state, struct.pack("<4d", *pose), struct.pack("<4d", *fallen))])
    ended = []
    for step in range(1, 4):
        action = np.zeros(38)
        obs, reward, terminated, truncated, _ = env.step(action[None])
        ts = ref.step(action)
        common.compare_first_env(step, ts, obs)
        if ts.first():
            ended.append("reset")
            continue
        np.testing.assert_allclose(reward[0], ts.reward, rtol=0, atol=TOLERANCE)
        if ts.last():
            assert float(ts.discount) == 0.0 and terminated[0] and not truncated[0], step
            ended.append("fall")
        else:
            assert not terminated[0] and not truncated[0], step
            ended.append("step")
    assert ended == ["fall", "reset", "step"], ended
    env.close()


def test_spaces_and_options_are_envpool_127s() -> None:
    for task_id in (TASK_ID, ALIAS):
        spaces = check_spec(task_id, SPECS[TASK_ID]).observation_space.spaces
        assert spaces[CAMERA].low.min() == 0 and spaces[CAMERA].high.max() == 255


def test_snapshots_restore_exactly() -> None:
    # Saved mid-episode and across autoresets (the time limit), into a pool
    # of another seed; then right after a reset, into a pool playing another
    # corridor, whose model the restore compiles.
    check_snapshots(TASK_ID, num_envs=2, before=3, after=6, time_limit=0.06)
    common.check_restore_after_reset(
        TASK_ID, 38, (CAMERA, "walker/joints_pos", "walker/sensors_accelerometer")
    )


def test_a_snapshot_of_another_rodent_task_is_refused() -> None:
    bowl = envpool.make("DmcRodentEscapeBowl-v1", num_envs=1, seed=0)
    gaps = envpool.make(TASK_ID, num_envs=1, seed=0)
    bowl.reset()
    gaps.reset()
    with pytest.raises(ValueError, match="cannot be restored"):
        gaps.set_state(bowl.get_state())
    with pytest.raises(ValueError, match="cannot be restored"):
        bowl.set_state(gaps.get_state())
    assert gaps.step(np.zeros((1, 38)))[1].shape == (1,)
    bowl.close()
    gaps.close()


def test_dm_env_type_gives_the_camera() -> None:
    env = envpool.make(ALIAS, env_type="dm", num_envs=2, seed=0)
    ts = env.reset()
    assert ts.observation.walker_egocentric_camera.shape == (2, 64, 64, 3)
    assert ts.observation.walker_joints_pos.shape == (2, 30)
    ts = env.step(np.zeros((2, 38)))
    assert ts.reward.shape == (2,) and ts.discount.shape == (2,)
    env.close()
