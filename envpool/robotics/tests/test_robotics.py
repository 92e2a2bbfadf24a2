"""robotics against gymnasium-robotics 1.4.2 on the same mujoco 3.17.0.

References: PointMaze_*-v3 as registered; Fetch*-v4 (the MuJoCo-bindings
versions) for both our -v4 and -v1 ids. On mujoco 3.17, gymnasium-robotics'
`mujoco_utils` compares a numpy int32 joint type with the `mjtJoint` enum,
which is False there, so every Fetch reset fails an assert; the fixture
`reference_joint_types` (robotics_reference.py) hands that module plain ints for the four joint-type
constants (nothing else changes), as docs/robotics.md says.

Nothing is copied between the two: env i of a pool made with `seed=s` draws
what the reference reset with `seed=s + i` draws, and later resets (our
autoreset, the reference's `reset()` without a seed) continue both streams.
Both take the same float32 actions (beyond [-1, 1] now and then, so that
clipping is exercised) through whole episodes and the autoreset after them;
first observations agree to 1e-8 and steps to 1e-5 (in practice: PointMaze
bit for bit, Fetch within 1e-16, its velocities being matrix products summed
in another order), rewards to the float32 rounding of the reference's, and
terminated, truncated and the success flags exactly. ENVPOOL_TEST_ALL=1 runs
every id with more seeds and the ids' own episode lengths.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gymnasium
import mujoco
import numpy as np
import pytest
from robotics_reference import (  # noqa: F401 (autouse)
    reference_joint_types,
    reference_maze_files,
)

import envpool
from envpool.python.registry import find_entry
from envpool.robotics import compute_reward
from envpool.testing.frames import assert_frames_equal_reference
from envpool.testing.memory import STATUS, rss_mib

ALL = bool(os.environ.get("ENVPOOL_TEST_ALL"))
SPECS = json.loads((Path(__file__).parent / "envpool127_specs.json").read_text())
IDS = sorted(SPECS)
MAZE_IDS = [i for i in IDS if i.startswith("PointMaze")]
FETCH_IDS = [i for i in IDS if i.startswith("Fetch")]
FIRST_TOLERANCE = 1e-8
STEP_TOLERANCE = 1e-5
# Where the reference's option values win over EnvPool 1.2.7's defaults.
REFERENCE_OVERRIDES = {
    "FetchPush": {"initial_slide0": 0.405},
    "FetchPickAndPlace": {"initial_slide0": 0.405},
    "FetchSlide": {"initial_slide0": 0.05},
}

gymnasium_robotics = pytest.importorskip("gymnasium_robotics")
gymnasium.register_envs(gymnasium_robotics)


def reference_id(task_id: str) -> str:
    return task_id.replace("-v1", "-v4") if task_id.startswith("Fetch") else task_id


def random_policy(rng: np.random.Generator) -> Callable[[dict[str, np.ndarray], int], np.ndarray]:
    def act(obs: dict[str, np.ndarray], n: int) -> np.ndarray:
        del obs
        return rng.uniform(-1.2, 1.2, size=(n, *ACTION_SHAPE[0])).astype(np.float32)

    return act


ACTION_SHAPE: list[tuple[int, ...]] = [()]


def toward_goal(rng: np.random.Generator) -> Callable[[dict[str, np.ndarray], int], np.ndarray]:
    """Pushes the ball (or the gripper) to the goal, with some noise: successes and goal moves."""

    def act(obs: dict[str, np.ndarray], n: int) -> np.ndarray:
        error = obs["desired_goal"] - obs["achieved_goal"]
        if error.shape[1] == 2:  # the ball: a damped pull
            action = 4.0 * error - 0.8 * obs["observation"][:, 2:4]
        else:  # the gripper: one action moves it 0.05
            action = np.concatenate([20.0 * error, np.zeros((n, 1))], axis=1)
        action = action + rng.normal(0.0, 0.2, size=action.shape)
        return np.clip(action, -1.2, 1.2).astype(np.float32)

    return act


def run_lockstep(
    task_id: str,
    *,
    seed: int,
    num_envs: int,
    steps: int,
    policy: Callable[[np.random.Generator], Callable[[dict[str, np.ndarray], int], np.ndarray]],
    max_episode_steps: int | None = None,
    **options: Any,
) -> dict[str, int]:
    """Steps a pool and one reference per env with the same actions and compares every step."""
    limit = {} if max_episode_steps is None else {"max_episode_steps": max_episode_steps}
    env = envpool.make(task_id, num_envs=num_envs, seed=seed, **limit, **options)
    ACTION_SHAPE[0] = env.action_space.shape
    refs = [gymnasium.make(reference_id(task_id), **limit, **options) for _ in range(num_envs)]
    obs, info = env.reset()
    for i, ref in enumerate(refs):
        r_obs, _ = ref.reset(seed=seed + i)
        for key, value in r_obs.items():
            np.testing.assert_allclose(
                obs[key][i], value, rtol=0, atol=FIRST_TOLERANCE, err_msg=f"env {i} reset {key}"
            )
    act = policy(np.random.default_rng(seed))
    done = np.zeros(num_envs, bool)
    seen = {"terminated": 0, "truncated": 0, "successes": 0, "autoresets": 0}
    for t in range(steps):
        actions = act(obs, num_envs)
        obs, rew, term, trunc, info = env.step(actions)
        for i, ref in enumerate(refs):
            where = f"{task_id} seed {seed} env {i} step {t}"
            if done[i]:
                r_obs, r_info = ref.reset()
                r_rew, r_term, r_trunc = 0.0, False, False
                done[i] = False
                seen["autoresets"] += 1
            else:
                r_obs, r_rew, r_term, r_trunc, r_info = ref.step(actions[i])
                done[i] = r_term or r_trunc
                seen["terminated"] += int(r_term)
                seen["truncated"] += int(r_trunc and not r_term)
            for key, value in r_obs.items():
                np.testing.assert_allclose(
                    obs[key][i], value, rtol=0, atol=STEP_TOLERANCE, err_msg=f"{where} {key}"
                )
            assert rew[i] == np.float32(r_rew), (where, rew[i], r_rew)
            assert (bool(term[i]), bool(trunc[i])) == (r_term, r_trunc), where
            for key in ("is_success", "success"):
                if key in r_info:
                    assert info[key][i] == r_info[key], (where, key, info[key][i], r_info[key])
                    seen["successes"] += int(r_info[key])
    env.close()
    return seen


# -- seeded alignment ------------------------------------------------------------------

SAMPLE = [
    "PointMaze_UMaze-v3",
    "PointMaze_Open_Diverse_GDense-v3",
    "PointMaze_Medium_Diverse_GR-v3",
    "PointMaze_LargeDense-v3",
    "FetchReach-v4",
    "FetchPushDense-v4",
    "FetchSlide-v1",
    "FetchPickAndPlace-v4",
]


@pytest.mark.parametrize("task_id", IDS if ALL else SAMPLE)
def test_same_seed_same_episodes_as_the_reference_across_autoresets(task_id: str) -> None:
    # Two episodes and the autoreset between them: short ones (the ids' own
    # lengths under ENVPOOL_TEST_ALL).
    length = None if ALL else (40 if task_id.startswith("PointMaze") else 25)
    steps = (length or SPECS[task_id]["config"]["max_episode_steps"]) * 2 + 3
    for seed in (0, 7, 12345) if ALL else (3,):
        seen = run_lockstep(
            task_id,
            seed=seed,
            num_envs=3 if ALL else 2,
            steps=steps,
            policy=random_policy,
            max_episode_steps=length,
        )
        assert seen["autoresets"] > 0, seen


@pytest.mark.parametrize("task_id", ["FetchReach-v4", "FetchReachDense-v1"])
def test_fetch_reach_successes_and_rewards_as_the_reference(task_id: str) -> None:
    seen = run_lockstep(task_id, seed=11, num_envs=2, steps=60, policy=toward_goal)
    assert seen["successes"] > 0, seen


@pytest.mark.parametrize(
    ("task_id", "options"),
    [
        # The goal moves once reached (several goal cells).
        ("PointMaze_Open_Diverse_GR-v3", {"reset_target": True}),
        # The episode ends once the goal is reached.
        ("PointMaze_UMazeDense-v3", {"continuing_task": False}),
    ]
    + (
        [
            ("PointMaze_Open_Diverse_GDense-v3", {"reset_target": True}),
            ("PointMaze_Open-v3", {"continuing_task": False}),
        ]
        if ALL
        else []
    ),
)
def test_point_maze_goal_options_as_the_reference(task_id: str, options: dict[str, Any]) -> None:
    seen = run_lockstep(task_id, seed=5, num_envs=2, steps=150, policy=toward_goal, **options)
    assert seen["successes"] > 0, seen
    if not options.get("continuing_task", True):
        assert seen["terminated"] > 0, seen


def test_point_maze_reset_target_draws_a_new_goal() -> None:
    env = envpool.make("PointMaze_Open_Diverse_GR-v3", num_envs=1, seed=5, reset_target=True)
    obs, _ = env.reset()
    act = toward_goal(np.random.default_rng(0))
    goals = {tuple(obs["desired_goal"][0])}
    for _ in range(150):
        obs, *_ = env.step(act(obs, 1))
        goals.add(tuple(obs["desired_goal"][0]))
    assert len(goals) > 1


# -- compute_reward for HER ------------------------------------------------------------


@pytest.mark.parametrize(
    "task_id",
    ["FetchPush-v4", "FetchPushDense-v1", "PointMaze_UMaze-v3", "PointMaze_MediumDense-v3"],
)
def test_compute_reward_is_the_references_per_sample_and_batched(task_id: str) -> None:
    env = envpool.make(task_id, num_envs=1)
    ref = gymnasium.make(reference_id(task_id)).unwrapped
    dim = env.observation_space["desired_goal"].shape[0]
    rng = np.random.default_rng(0)
    desired = rng.uniform(-1, 1, size=(64, dim))
    # Some goals within the success radius of their target, some far.
    achieved = desired + rng.normal(0, 0.3 if dim == 2 else 0.04, size=desired.shape)
    want = np.array([ref.compute_reward(a, d, {}) for a, d in zip(achieved, desired, strict=True)])
    got = compute_reward(env, achieved, desired, [{}] * len(desired))
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    np.testing.assert_array_equal(got, want)
    assert 0 < len(set(want.tolist())) if "Dense" in task_id else len(set(want.tolist())) == 2
    # Any leading shape; the spec or the id name the task as well.
    batched = compute_reward(env.spec, achieved.reshape(8, 8, dim), desired.reshape(8, 8, dim))
    np.testing.assert_array_equal(batched, want.reshape(8, 8))
    np.testing.assert_array_equal(compute_reward(task_id, achieved, desired), want)


def test_compute_reward_follows_the_envs_options() -> None:
    env = envpool.make("FetchReach-v4", num_envs=1, distance_threshold=0.2)
    ref = gymnasium.make("FetchReach-v4").unwrapped
    ref.distance_threshold = 0.2
    goals = np.array([[0.0, 0.0, 0.0], [0.1, 0.0, 0.0], [0.3, 0.0, 0.0]])
    want = ref.compute_reward(goals, np.zeros_like(goals), {})
    np.testing.assert_array_equal(compute_reward(env, goals, np.zeros_like(goals)), want)
    np.testing.assert_array_equal(want, np.float32([-0.0, -0.0, -1.0]))


def test_compute_reward_refuses_what_it_cannot_answer() -> None:
    with pytest.raises(ValueError, match="same shape"):
        compute_reward("FetchReach-v4", np.zeros((2, 3)), np.zeros((3, 3)))
    with pytest.raises(ValueError, match="not a goal-conditioned robotics id"):
        compute_reward("CartPole-v1", np.zeros(2), np.zeros(2))
    with pytest.raises(TypeError, match="task id"):
        compute_reward(object(), np.zeros(3), np.zeros(3))
    # Per-env thresholds: the reward of which env is asked for is ambiguous.
    env = envpool.make("FetchPush-v4", num_envs=2, distance_threshold=[0.05, 0.1])
    with pytest.raises(ValueError, match="'distance_threshold' differs between the envs"):
        compute_reward(env, np.zeros((2, 3)), np.zeros((2, 3)))


# -- ids, options, spaces --------------------------------------------------------------


def test_the_36_point_maze_and_fetch_ids_of_envpool_1_2_7_are_registered() -> None:
    assert len(MAZE_IDS) == 20 and len(FETCH_IDS) == 16
    ours = {
        t
        for t in envpool.list_all_envs()
        if find_entry(t).env_class in ("PointMaze", "Fetch")  # the others: their own tests
    }
    assert ours == set(IDS)


@pytest.mark.parametrize("task_id", IDS)
def test_config_and_spaces_match_envpool_1_2_7_where_the_reference_agrees(task_id: str) -> None:
    want = SPECS[task_id]
    spec = envpool.make_spec(task_id)
    config = spec.config._asdict()
    task = task_id.split("-")[0].replace("Dense", "")
    expected = {**want["config"], **REFERENCE_OVERRIDES.get(task, {})}
    for name, value in expected.items():
        if name in ("xml_file",) or name not in config:
            continue
        assert config[name] == value, (name, config[name], value)
    # Every option of EnvPool's but its pool-level env_seed and the
    # reward_threshold the reference does not register.
    assert not set(want["config"]) - set(config) - {"env_seed", "reward_threshold"}
    obs_space = spec.observation_space
    for key, box in want["observation_space"]["spaces"].items():
        ours = obs_space[key]
        assert ours.shape == tuple(box["shape"]) and ours.dtype == np.dtype(box["dtype"]), key
        assert np.all(ours.low == -np.inf) and np.all(ours.high == np.inf), key
    action = want["action_space"]
    assert spec.action_space.shape == tuple(action["shape"])
    assert spec.action_space.dtype == np.dtype(action["dtype"])
    assert np.all(spec.action_space.low == -1.0) and np.all(spec.action_space.high == 1.0)
    # The reference's spaces too.
    ref = gymnasium.make(reference_id(task_id))
    assert set(obs_space.spaces) == set(ref.observation_space.spaces)
    for key, box in ref.observation_space.spaces.items():
        assert obs_space[key].shape == box.shape and obs_space[key].dtype == box.dtype, key
    assert spec.max_episode_steps == ref.spec.max_episode_steps


def test_info_keys_are_the_references() -> None:
    env = envpool.make("PointMaze_UMaze-v3", num_envs=2)
    _, info = env.reset()
    assert info["success"].dtype == np.bool_ and info["is_success"].dtype == np.bool_
    env = envpool.make("FetchPush-v4", num_envs=2)
    _, info = env.reset()
    assert info["is_success"].dtype == np.float32 and "success" not in info


# -- bad input -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("task_id", "options", "words"),
    [
        ("PointMaze_UMaze-v3", {"maze_map": "NO_MAZE"}, "option 'maze_map' must be one of"),
        ("PointMaze_UMaze-v3", {"reward_type": "shaped"}, "option 'reward_type' must be"),
        ("PointMaze_UMaze-v3", {"maze_size_scaling": 0.0}, "option 'maze_size_scaling'"),
        ("PointMaze_UMaze-v3", {"position_noise_range": -1.0}, "option 'position_noise_range'"),
        ("FetchPush-v4", {"reward_type": "Dense"}, "option 'reward_type' must be"),
        ("FetchPush-v4", {"distance_threshold": -0.1}, "option 'distance_threshold'"),
        ("FetchPush-v4", {"xml_file": "fetch/no_such.xml"}, r"fetch/no_such\.xml"),
        ("FetchPush-v4", {"xml_file": "point/point.xml"}, "one mocap body"),
        ("FetchPush-v4", {"frame_skip": 0}, "option 'frame_skip'"),
        ("PointMaze_UMaze-v3", {"frame_stack": 4}, "option 'frame_stack' must be 1"),
    ],
)
def test_bad_options_are_value_errors_naming_them(
    task_id: str, options: dict[str, Any], words: str
) -> None:
    with pytest.raises(ValueError, match=words):
        envpool.make(task_id, num_envs=1, **options)
    # The process goes on.
    envpool.make(task_id, num_envs=1).reset()


def test_unknown_option_is_a_type_error_naming_the_valid_ones() -> None:
    with pytest.raises(TypeError, match="maze_map"):
        envpool.make("PointMaze_UMaze-v3", num_envs=1, maze=1)


def test_nan_action_goes_on() -> None:
    env = envpool.make("FetchPickAndPlace-v4", num_envs=1)
    env.reset()
    try:
        env.step(np.full((1, 4), np.nan, np.float32))
    except (ValueError, RuntimeError):
        pass
    env.reset()
    obs, *_ = env.step(np.zeros((1, 4), np.float32))
    assert np.all(np.isfinite(obs["observation"]))


# -- snapshots -------------------------------------------------------------------------


@pytest.mark.parametrize("task_id", ["FetchPickAndPlace-v4", "PointMaze_Open_Diverse_GR-v3"])
def test_a_snapshot_mid_episode_replays_bit_for_bit(task_id: str) -> None:
    # PickAndPlace does not close its gripper after a step, so the next step
    # reads the bodies' poses as the last step left them: the snapshot keeps
    # them.
    env = (
        envpool.make(task_id, num_envs=2, seed=1, reset_target=True)
        if "Maze" in task_id
        else (envpool.make(task_id, num_envs=2, seed=1))
    )
    obs, _ = env.reset()
    act = toward_goal(np.random.default_rng(2))
    for _ in range(7):
        obs, *_ = env.step(act(obs, 2))
    saved = env.get_state()
    actions = [act(obs, 2) for _ in range(60)]
    first = [env.step(a) for a in actions]
    env.set_state(saved)
    again = [env.step(a) for a in actions]
    for t, (one, two) in enumerate(zip(first, again, strict=True)):
        for key in one[0]:
            np.testing.assert_array_equal(one[0][key], two[0][key], err_msg=f"step {t} {key}")
        np.testing.assert_array_equal(one[1], two[1])
        np.testing.assert_array_equal(one[2], two[2])
        np.testing.assert_array_equal(one[3], two[3])


# -- the state copied across -------------------------------------------------------------


@pytest.mark.parametrize(
    "task_id", ["PointMaze_Medium_Diverse_GRDense-v3", "FetchPickAndPlace-v4", "FetchSlideDense-v1"]
)
def test_the_reference_set_to_our_first_observation_plays_the_same_episode(task_id: str) -> None:
    # Independent of the draws: the reference, reset with another seed, is
    # put in the state our first observation describes (the ball's position
    # and velocity, or the object's place; and the goal), then both play one
    # whole episode with the same actions.
    env = envpool.make(task_id, num_envs=1, seed=21)
    obs, _ = env.reset()
    ref = gymnasium.make(reference_id(task_id))
    ref.reset(seed=999)
    base = ref.unwrapped
    if task_id.startswith("PointMaze"):
        model, data = base.point_env.model, base.point_env.data
        data.qpos[:] = obs["observation"][0][:2]
        data.qvel[:] = obs["observation"][0][2:]
    else:
        model, data = base.model, base.data
        joint = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_JOINT, "object0:joint")
        address = model.jnt_qposadr[joint]
        data.qpos[address : address + 2] = obs["achieved_goal"][0][:2]
    mujoco.mj_forward(model, data)
    base.goal = obs["desired_goal"][0].copy()
    rng = np.random.default_rng(4)
    for t in range(env.spec.config.max_episode_steps):
        action = rng.uniform(-1.2, 1.2, size=(1, *env.action_space.shape)).astype(np.float32)
        obs, rew, term, trunc, _ = env.step(action)
        r_obs, r_rew, r_term, r_trunc, _ = ref.step(action[0])
        for key, value in r_obs.items():
            np.testing.assert_allclose(obs[key][0], value, rtol=0, atol=1e-6, err_msg=f"{t} {key}")
        assert abs(rew[0] - r_rew) <= 1e-6 and (term[0], trunc[0]) == (r_term, r_trunc), t


# -- rendering -------------------------------------------------------------------------


@pytest.mark.parametrize("task_id", ["FetchPickAndPlace-v4", "PointMaze_Large_Diverse_GR-v3"])
def test_render_is_the_references_frame_for_frame(
    task_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MUJOCO_GL", "egl")
    size = {"render_width": 96, "render_height": 64}
    env = envpool.make(task_id, num_envs=1, seed=5, render_mode="rgb_array", **size)
    ref = gymnasium.make(reference_id(task_id), render_mode="rgb_array", width=96, height=64)
    rng = np.random.default_rng(0)
    actions = [rng.uniform(-1, 1, size=env.action_space.shape).astype(np.float32) for _ in range(4)]
    assert_frames_equal_reference(env, ref, 5, actions)
    env.close()
    ref.close()


# -- memory ----------------------------------------------------------------------------


@pytest.mark.skipif(not STATUS.exists(), reason="reads VmRSS from /proc")
@pytest.mark.parametrize(
    ("task_id", "model_mib"), [("FetchPickAndPlace-v4", 8.2), ("AdroitHandDoor-v1", 6.5)]
)
def test_the_envs_of_a_pool_share_their_model(task_id: str, model_mib: float) -> None:
    # Each env once held a full copy of its model (mj_copyModel: 8.2 MiB for
    # pick-and-place, 6.5 MiB for the door, their meshes), 131 and 104 MiB for
    # 16 envs, whose collision meshes then crowded each other out of the
    # cache; now they share it but for the few arrays they write, and a second
    # pool adds little more than the envs' mjData. A pool of 16 made after one
    # of 1 (the model loaded).
    first = envpool.make(task_id, num_envs=1)
    first.reset()
    before = rss_mib()
    pool = envpool.make(task_id, num_envs=16, num_threads=1)
    pool.reset()
    grown = rss_mib() - before
    pool.close()
    first.close()
    assert grown < 2 * model_mib, f"16 envs grew the process by {grown:.0f} MiB"
