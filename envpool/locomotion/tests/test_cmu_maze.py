"""DmcCmuHumanoidMazeForage-v1 and DmcCmuHumanoidHeterogeneousForage-v1
against dm_control 1.0.50.

Env i of a pool made with `seed=s` plays
`basic_cmu_2019.cmu_humanoid_maze_forage(random_state=RandomState(s + i))`
(or `cmu_humanoid_heterogeneous_forage`) after `np.random.seed(s + i)`: the
position-controlled CMU humanoid of the corridors (its 56 controls, its
observations and egocentric camera), in labmaze's random maze (11 x 11 cells
of 3 m, a new maze with new wall and floor textures at every reset,
respawned at a random spawn cell facing away from the farthest wall; 50 for
each target sphere it touches; 6 physics steps of 5 ms a step) or in the
fixed room of the heterogeneous task (its spawn and six targets drawn from
the global stream at every reset; three targets worth 30 and three worth
-10, colours drawn too, and 0.01 a step; 30 physics steps of 1 ms a step).
Touching all targets ends the episode, and a geom of the walker but its
feet's touching the ground plane ends it as a fall. Both take the same
float64 actions, and every observation entry but the camera (to 1e-6; they
agree to about 1e-16), the camera (mean |diff| <= 1 level, at most 1% of
pixels off by more than 32; equal here), the reward and how each episode ends
must agree at every step, across NEXT_STEP autoresets. The reset state is
compared bit for bit. `ENVPOOL_TEST_ALL=1` plays more seeds and longer
episodes.

How an episode ends is read from dm_control's task, not from the discount:
its LAST step after a fall has discount 1 (ManyGoalsMaze's get_discount is
asked before should_terminate_episode sets it to 0); here a fall and all
targets touched are terminated, the time limit truncated.
"""

from __future__ import annotations

import itertools
import json
import os
import struct
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

os.environ.setdefault("MUJOCO_GL", "egl")  # dm_control renders the camera

import locomotion_common as common  # this folder's test helpers
from locomotion_common import ALL, CAMERA

import envpool
from envpool.testing.published import check_spec
from envpool.testing.snapshots import check_snapshots

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    import mujoco
    from dm_control.locomotion.examples import basic_cmu_2019

MAZE = "DmcCmuHumanoidMazeForage-v1"
HETEROGENEOUS = "DmcCmuHumanoidHeterogeneousForage-v1"
# id: (task_name, the time_limit option's default)
TASKS = {
    MAZE: ("cmu_humanoid_maze_forage", 30.0),
    HETEROGENEOUS: ("cmu_humanoid_heterogeneous_forage", 25.0),
}
SPECS = json.loads((Path(__file__).parent / "envpool127_cmu_maze_specs.json").read_text())
ACTIONS = 56


def reference(
    task_id: str, seed: int, time_limit: float | None = None
) -> common.GlobalStreamReference:
    """The dm_control env that env `seed - s` of a pool seeded `s` plays
    (the time_limit option: the task's by default), with its own copy of
    the global np.random stream (each reset draws the maze's textures from
    it)."""
    task_name, default_limit = TASKS[task_id]
    return common.GlobalStreamReference(
        getattr(basic_cmu_2019, task_name), seed, time_limit or default_limit
    )


def outcome(ref: common.GlobalStreamReference, time_limit: float) -> tuple[bool, bool]:
    """(terminated, truncated) of the reference's last step, from its task:
    a fall (NullGoalMaze's contact failure) or every target activated
    terminates; else the time limit truncates."""
    task = ref.env.task
    done = all(target.activated for target in itertools.chain(*task._active_targets))
    terminated = bool(task._failure_termination) or done
    return terminated, not terminated and ref.physics.time() >= time_limit


@pytest.mark.parametrize("task_id", TASKS)
def test_reset_states_are_dm_controls_bit_for_bit(task_id: str) -> None:
    # qpos, qvel, act and qacc_warmstart after the reset: the episode's model,
    # the upright walker, NullGoalMaze._respawn (the random maze's heading
    # through numpy's tanh, arctanh, cos and sin, as the rodent's maze) and
    # after_reset's forward pass.
    seeds = range(1000, 1006) if ALL else range(1008, 1010)
    common.assert_reset_states_match(
        task_id, seeds, lambda seed: reference(task_id, seed), whole_state=True
    )


@pytest.mark.parametrize("task_id", TASKS)
@pytest.mark.parametrize("seed", [0] + ([1, 2, 3] if ALL else []))
def test_reset_states_are_dm_controls_episode_after_episode(task_id: str, seed: int) -> None:
    # Each reset regenerates the maze (the random maze's generator, or the
    # fixed room's spawn and targets from the global stream), draws its
    # textures from the global stream and the targets' order (and colours)
    # and the spawn from random_state: three in a row, bit for bit.
    env = envpool.make(task_id, num_envs=1, seed=seed)
    ref = reference(task_id, seed)
    for episode in range(3):
        env.reset()
        ref.reset()
        data = ref.physics.data
        expected = np.concatenate([data.qpos, data.qvel, data.act, data.qacc_warmstart])
        state = np.array(env._pool.get_state(0))
        np.testing.assert_array_equal(state, expected, err_msg=f"episode {episode}")
    env.close()


def play(task_id: str, seed: int, steps: int, num_envs: int, time_limit: float) -> dict[str, int]:
    """Steps a pool and its references in lockstep; counts how episodes end
    and how many mazes they played."""
    counts = {"falls": 0, "time_limits": 0, "mazes": 0}
    seen_mazes: set[bytes] = set()
    expected: list[tuple[bool, bool]] = []

    def watch(refs: list[Any]) -> None:
        # Each env's outcome in env order, as play_random_actions yields the
        # envs whose step was not an autoreset.
        # A maze: its walls (geom_pos) and targets (body_pos).
        model = [ref.physics.model for ref in refs]
        seen_mazes.update(m.geom_pos.tobytes() + m.body_pos.tobytes() for m in model)
        expected.clear()
        for ref in refs:
            if ref.physics.time() > 0:
                expected.append(outcome(ref, time_limit))

    for step, ts, reward, terminated, truncated in common.play_random_actions(
        task_id,
        seed,
        steps,
        num_envs,
        lambda s: reference(task_id, s, time_limit),
        ACTIONS,
        watch=watch,
        time_limit=time_limit,
    ):
        assert reward == ts.reward, step
        want_terminated, want_truncated = expected.pop(0)
        assert ts.last() == (want_terminated or want_truncated), step
        assert (bool(terminated), bool(truncated)) == (want_terminated, want_truncated), step
        if want_terminated:
            counts["falls"] += 1
        counts["time_limits"] += int(want_truncated)
    counts["mazes"] = len(seen_mazes)
    return counts


# (id, seed, steps, envs, time limit): random actions fell the humanoid
# within about 20 steps; a time limit of 10 steps ends the episodes that
# stay up. Two envs, whose mazes differ, through their autoresets into new
# mazes; longer and more seeds with ENVPOOL_TEST_ALL.
EPISODES = [(MAZE, 0, 30, 2, 0.3), (HETEROGENEOUS, 5, 24, 2, 0.3)]
if ALL:
    EPISODES += [
        (MAZE, 3, 80, 2, 0.9),
        (MAZE, 11, 100, 1, 30.0),
        (MAZE, 21, 40, 3, 0.45),
        (HETEROGENEOUS, 3, 80, 2, 0.9),
        (HETEROGENEOUS, 11, 100, 1, 25.0),
    ]


@pytest.mark.parametrize(("task_id", "seed", "steps", "num_envs", "time_limit"), EPISODES)
def test_episodes_play_dm_controls_across_autoresets(
    task_id: str, seed: int, steps: int, num_envs: int, time_limit: float
) -> None:
    counts = play(task_id, seed, steps, num_envs, time_limit)
    # Every env ends at least one episode, falls or time limits, and plays
    # a new maze after each.
    assert counts["falls"] + counts["time_limits"] >= num_envs, counts
    assert counts["mazes"] >= num_envs + 1, counts


def _targets(ref: Any) -> list[tuple[np.ndarray, float]]:
    """The world position and reward of each of the reference's targets,
    target_0_0, target_0_1, ..., target_1_0, ... (dm_control's own)."""
    task = ref.env.task
    model, data = ref.physics.model, ref.physics.data
    targets = []
    for kind, of_kind in enumerate(task._active_targets):
        for i in range(len(of_kind)):
            geom = model.name2id(f"target_{kind}_{i}/geom", "geom")
            targets.append((np.array(data.geom_xpos[geom]), task._target_type_rewards[kind]))
    return targets


@pytest.mark.parametrize("task_id", TASKS)
def test_touching_every_target_is_rewarded_and_ends_the_episode(task_id: str) -> None:
    # Random actions do not reach a target: after the reset both envs get the
    # walker moved onto each target in turn (dm_control's through its data,
    # then mj_step1 as a restore runs it; this env's through its snapshot,
    # whose bytes hold the free joint's x, y, z, qw once), one zero-action
    # step each: each target's reward (50; 30 or -10, with 0.01 a step),
    # in lockstep, and the last one ends the episode (terminated), then the
    # autoreset into a new maze.
    seed = 2
    env = envpool.make(task_id, num_envs=1, seed=seed)
    ref = reference(task_id, seed)
    env.reset()
    ref.reset()
    targets = _targets(ref)
    assert len(targets) >= 3
    aliveness = ref.env.task._aliveness_reward
    data = ref.physics.data
    rewards = []
    for step, (target, _) in enumerate(targets, start=1):
        pose = np.array(data.qpos[:4])
        moved = pose.copy()
        moved[:2] = target[:2]
        data.qpos[:2] = moved[:2]
        mujoco.mj_step1(ref.physics.model._model, data._data)
        [state] = env.get_state()
        env.set_state(
            [common.rewritten(state, struct.pack("<4d", *pose), struct.pack("<4d", *moved))]
        )
        action = np.zeros(ACTIONS)
        obs, reward, terminated, truncated, _ = env.step(action[None])
        ts = ref.step(action)
        common.compare_first_env(step, ts, obs)
        assert reward[0] == ts.reward, step
        rewards.append(float(ts.reward))
        last = step == len(targets)
        assert ts.last() == last, step
        assert outcome(ref, TASKS[task_id][1]) == (last, False), step
        assert bool(terminated[0]) == last and not truncated[0], step
    # Each move lands on its target (and at times on one on the way).
    expected = sum(reward for _, reward in targets) + aliveness * len(targets)
    assert sum(rewards) == pytest.approx(expected, abs=1e-9), rewards
    assert rewards[0] != aliveness, rewards
    obs, reward, terminated, truncated, _ = env.step(np.zeros((1, ACTIONS)))
    ts = ref.step(np.zeros(ACTIONS))
    assert ts.first() and reward[0] == 0 and not terminated[0] and not truncated[0]
    common.compare_first_env(len(targets) + 1, ts, obs)
    for step in range(len(targets) + 2, len(targets) + 5):
        action = np.random.RandomState(step).uniform(-1, 1, ACTIONS)
        obs, reward, terminated, truncated, _ = env.step(action[None])
        ts = ref.step(action)
        common.compare_first_env(step, ts, obs)
        assert reward[0] == ts.reward and not ts.last(), step
        assert not terminated[0] and not truncated[0], step
    env.close()


def test_spaces_and_options_are_envpool_127s() -> None:
    for task_id, (task_name, _) in TASKS.items():
        for name in (task_id, f"dm_control/locomotion/{task_name}"):
            spaces = check_spec(name, SPECS[name]).observation_space.spaces
            assert spaces[CAMERA].low.min() == 0 and spaces[CAMERA].high.max() == 255


@pytest.mark.parametrize("task_id", TASKS)
def test_snapshots_restore_exactly(task_id: str) -> None:
    # Saved mid-episode and across autoresets (the time limit), into a pool
    # of another seed (another maze: the restore compiles the snapshot's);
    # then right after a reset.
    check_snapshots(task_id, num_envs=2, before=3, after=6, time_limit=0.09)
    common.check_restore_after_reset(
        task_id, ACTIONS, (CAMERA, "walker/joints_pos", "walker/sensors_accelerometer")
    )


@pytest.mark.parametrize(
    ("task_id", "other"),
    [(MAZE, "DmcCmuHumanoidRunWalls-v1"), (MAZE, HETEROGENEOUS)],
)
def test_a_snapshot_of_another_task_is_refused(task_id: str, other: str) -> None:
    theirs = envpool.make(other, num_envs=1, seed=0)
    maze = envpool.make(task_id, num_envs=1, seed=0)
    theirs.reset()
    maze.reset()
    with pytest.raises(ValueError, match="cannot be restored"):
        maze.set_state(theirs.get_state())
    with pytest.raises(ValueError, match="cannot be restored"):
        theirs.set_state(maze.get_state())
    assert maze.step(np.zeros((1, ACTIONS)))[1].shape == (1,)
    theirs.close()
    maze.close()


@pytest.mark.parametrize("task_id", TASKS)
def test_missing_labmaze_textures_are_named(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, task_id: str
) -> None:
    # The asset folder without labmaze's textures (the walker's model is
    # there).
    common.assert_missing_model_named(
        monkeypatch,
        tmp_path,
        task_id,
        r"labmaze/sky_03/up\.png.*reinstall envpool",
        kept=("soccer", "walkers", "arenas"),
    )


def test_dm_env_type_gives_the_camera() -> None:
    env = envpool.make(
        "dm_control/locomotion/cmu_humanoid_heterogeneous_forage", env_type="dm", num_envs=2, seed=0
    )
    ts = env.reset()
    assert ts.observation.walker_egocentric_camera.shape == (2, 64, 64, 3)
    assert ts.observation.walker_joints_pos.shape == (2, ACTIONS)
    ts = env.step(np.zeros((2, ACTIONS)))
    assert ts.reward.shape == (2,) and ts.discount.shape == (2,)
    env.close()
