"""FrankaKitchen-v1 against gymnasium-robotics 1.4.2's FrankaKitchen-v1 on mujoco 3.17.0.

The observation nests one dict per goal, as the reference's does
(`obs["achieved_goal"]["kettle"]`; the dm type's `achieved_goal` is a
namedtuple with the field `bottom_burner` for "bottom burner"), and the
option `tasks_to_complete` is the reference's list of task names.

On mujoco 3.17 the reference's `robot_get_obs` fails the joint-type
assert of gymnasium-robotics' `mujoco_utils` (docs/robotics.md): the
fixture `reference_joint_types` (robotics_reference.py) hands that module plain ints for the four
joint-type constants, nothing else changes. Env i of a pool made with
`seed=s` plays the reference reset with seed `s + i`, noise draw for noise
draw, across the autoreset; observations, goals, rewards, terminated,
truncated and the task lists agree exactly (in practice bit for bit).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pytest
from robotics_reference import reference_joint_types  # noqa: F401 (autouse)

import envpool
from envpool.python.keys import dm_field
from envpool.testing.frames import assert_frames_equal_reference

ALL = bool(os.environ.get("ENVPOOL_TEST_ALL"))
TEST_ID = "FrankaKitchen-v1"
TASKS = [
    "bottom burner",
    "top burner",
    "light switch",
    "slide cabinet",
    "hinge cabinet",
    "microwave",
    "kettle",
]
# kitchen_env.py's OBS_ELEMENT_INDICES and OBS_ELEMENT_GOALS.
ELEMENTS = {
    "bottom burner": [11, 12],
    "top burner": [15, 16],
    "light switch": [17, 18],
    "slide cabinet": [19],
    "hinge cabinet": [20, 21],
    "microwave": [22],
    "kettle": [23, 24, 25, 26, 27, 28, 29],
}

gymnasium_robotics = pytest.importorskip("gymnasium_robotics")
gymnasium.register_envs(gymnasium_robotics)


def make_pair(
    num_envs: int, seed: int, max_episode_steps: int, **options: Any
) -> tuple[Any, list[Any]]:
    env = envpool.make(
        TEST_ID, num_envs=num_envs, seed=seed, max_episode_steps=max_episode_steps, **options
    )
    refs = [
        gymnasium.make("FrankaKitchen-v1", max_episode_steps=max_episode_steps, **options)
        for _ in range(num_envs)
    ]
    return env, refs


def check_same(
    obs: dict[str, Any], info: dict[str, Any], i: int, r_obs: Any, r_info: Any, where: str
) -> None:
    assert list(obs) == list(r_obs), where
    np.testing.assert_array_equal(obs["observation"][i], r_obs["observation"], err_msg=where)
    for part in ("achieved_goal", "desired_goal"):
        assert list(obs[part]) == list(r_obs[part]), where
        for task in r_obs[part]:
            np.testing.assert_array_equal(
                obs[part][task][i], r_obs[part][task], err_msg=f"{where} {part} {task}"
            )
    for key in ("tasks_to_complete", "step_task_completions", "episode_task_completions"):
        ours = {t for t, flag in zip(TASKS, info[key][i], strict=True) if flag}
        assert ours == set(r_info[key]), (where, key, ours, r_info[key])


def run_lockstep(
    *,
    seed: int,
    num_envs: int,
    steps: int,
    max_episode_steps: int,
    states: dict[int, np.ndarray] | None = None,
    scale: float = 1.2,
    **options: Any,
) -> dict[str, int]:
    """Steps a pool and one reference per env; `states` puts both in a state before a step."""
    env, refs = make_pair(num_envs, seed, max_episode_steps, **options)
    obs, info = env.reset()
    for i, ref in enumerate(refs):
        r_obs, r_info = ref.reset(seed=seed + i)
        check_same(obs, info, i, r_obs, r_info, f"env {i} reset")
    rng = np.random.default_rng(seed)
    done = np.zeros(num_envs, bool)
    seen = {"reward": 0, "terminated": 0, "truncated": 0, "autoresets": 0}
    for t in range(steps):
        if states and t in states:
            for i, ref in enumerate(refs):
                if not done[i]:
                    env._pool.set_state(i, states[t].tolist())
                    base = ref.unwrapped.robot_env
                    base.set_state(states[t][:30].copy(), states[t][30:].copy())
        actions = rng.uniform(-scale, scale, size=(num_envs, 9))
        obs, rew, term, trunc, info = env.step(actions)
        for i, ref in enumerate(refs):
            where = f"seed {seed} env {i} step {t}"
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
                seen["reward"] += int(r_rew)
            check_same(obs, info, i, r_obs, r_info, where)
            assert rew[i] == r_rew, (where, rew[i], r_rew)
            assert (bool(term[i]), bool(trunc[i])) == (r_term, r_trunc), where
    env.close()
    return seen


def test_same_seed_same_episodes_as_the_reference_across_autoresets() -> None:
    length = 280 if ALL else 15
    for seed in (0, 7, 12345) if ALL else (3,):
        seen = run_lockstep(
            seed=seed, num_envs=3 if ALL else 2, steps=2 * length + 3, max_episode_steps=length
        )
        assert seen["autoresets"] > 0 and seen["truncated"] > 0, seen


def state_with(done_tasks: list[str]) -> np.ndarray:
    """The reference's first state with the elements of `done_tasks` at their goals."""
    from gymnasium_robotics.envs.franka_kitchen.kitchen_env import OBS_ELEMENT_GOALS

    base = gymnasium.make("FrankaKitchen-v1").unwrapped
    state = np.concatenate([base.robot_env.init_qpos, np.zeros(29)])
    for task in done_tasks:
        state[ELEMENTS[task]] = OBS_ELEMENT_GOALS[task]
    return state


@pytest.mark.parametrize(
    ("options", "done_tasks"),
    [
        # Two tasks complete: paid once, removed, the episode goes on.
        ({}, ["microwave", "slide cabinet"]),
        # Every task of the option complete: the episode ends, then autoresets.
        ({"tasks_to_complete": ["kettle", "microwave"]}, ["microwave", "kettle"]),
        # Kept and paid every step; no termination.
        (
            {"remove_task_when_completed": False, "terminate_on_tasks_completed": False},
            ["light switch", "hinge cabinet"],
        ),
    ],
)
def test_task_completions_pay_and_end_as_the_reference(
    options: dict[str, Any], done_tasks: list[str]
) -> None:
    seen = run_lockstep(
        seed=5,
        num_envs=2,
        steps=12,
        max_episode_steps=40,
        states={2: state_with(done_tasks)},
        scale=0.02,
        **options,
    )
    assert seen["reward"] > 0, seen
    if "tasks_to_complete" in options:
        assert seen["terminated"] > 0 and seen["autoresets"] > 0, seen
    if not options.get("remove_task_when_completed", True):
        assert seen["reward"] > 2 * len(done_tasks), seen


# EnvPool 1.2.7's make_spec("FrankaKitchen-v1"): config and spaces.
SPEC = json.loads((Path(__file__).parent / "envpool127_kitchen_spec.json").read_text())[TEST_ID]


def space_facts(space: gymnasium.Space) -> Any:
    """A space as the copied spec writes it: nested dicts of (shape, dtype)."""
    if isinstance(space, gymnasium.spaces.Dict):
        return {k: space_facts(v) for k, v in space.spaces.items()}
    assert np.all(space.low == -np.inf) and np.all(space.high == np.inf)
    return (list(space.shape), str(space.dtype))


def json_facts(space: dict[str, Any]) -> Any:
    if space["type"] == "Dict":
        return {k: json_facts(v) for k, v in space["spaces"].items()}
    return (space["shape"], space["dtype"])


def test_spaces_and_options_are_envpool_1_2_7s() -> None:
    spec = envpool.make_spec(TEST_ID)
    config = spec.config._asdict()
    for name, value in SPEC["config"].items():
        if name not in ("env_seed", "reward_threshold"):
            assert config[name] == value, (name, config[name], value)
    assert config["tasks_to_complete"] == TASKS
    assert spec.action_space.shape == (9,) and spec.action_space.dtype == np.float64
    assert np.all(spec.action_space.low == -1.0) and np.all(spec.action_space.high == 1.0)
    assert space_facts(spec.observation_space) == json_facts(SPEC["observation_space"])
    assert isinstance(spec.observation_space["achieved_goal"], gymnasium.spaces.Dict)
    # The reference's space, nested the same (gymnasium compares Dicts key by key).
    ref = gymnasium.make("FrankaKitchen-v1")
    assert spec.observation_space == ref.observation_space
    assert spec.max_episode_steps == ref.spec.max_episode_steps == 280
    assert env_fps() == ref.metadata["render_fps"]
    # Every batched array is a view into the pool's batch, nested or not.
    env = envpool.make(TEST_ID, num_envs=2)
    obs, _ = env.reset()
    assert not obs["achieved_goal"]["kettle"].flags.owndata
    assert not obs["observation"].flags.owndata
    assert obs["desired_goal"]["microwave"].shape == (2, 1)
    env.close()


def test_tasks_to_complete_shapes_the_goals_and_is_a_list_of_names() -> None:
    spec = envpool.make_spec(TEST_ID, tasks_to_complete=("light switch", "kettle"))
    assert spec.config.tasks_to_complete == ["light switch", "kettle"]
    ref = gymnasium.make("FrankaKitchen-v1", tasks_to_complete=["light switch", "kettle"])
    assert spec.observation_space == ref.observation_space
    # The goals in the option's order, as the reference's observation has them.
    assert list(spec.observation_space["achieved_goal"].spaces) == ["light switch", "kettle"]
    with pytest.raises(TypeError, match="takes a list of str"):
        envpool.make_spec(TEST_ID, tasks_to_complete="kettle")
    with pytest.raises(TypeError, match="takes a list of str"):
        envpool.make_spec(TEST_ID, tasks_to_complete=["kettle", 3])


def test_dm_observation_nests_namedtuples_of_identifier_fields() -> None:
    tasks = ["bottom burner", "kettle"]
    env = envpool.make_dm(TEST_ID, num_envs=2, seed=3, tasks_to_complete=tasks)
    gym_env = envpool.make_gymnasium(TEST_ID, num_envs=2, seed=3, tasks_to_complete=tasks)
    state = env.reset().observation
    obs, _ = gym_env.reset()
    assert state.achieved_goal._fields == ("bottom_burner", "kettle")
    assert dm_field("bottom burner") == "bottom_burner"
    for part in ("achieved_goal", "desired_goal"):
        for task in ("bottom burner", "kettle"):
            np.testing.assert_array_equal(
                getattr(getattr(state, part), dm_field(task)), obs[part][task]
            )
    np.testing.assert_array_equal(state.observation, obs["observation"])
    spec = env.observation_spec()
    assert spec.achieved_goal.kettle.shape == (7,)
    assert spec.desired_goal.bottom_burner.shape == (2,)
    assert spec.observation.shape == (59,)
    env.close()
    gym_env.close()


def env_fps() -> int:
    return envpool.make(TEST_ID, num_envs=1).metadata["render_fps"]


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"tasks_to_complete": ["kettle", "oven"]}, "unknown task 'oven'; the tasks are 'bottom"),
        ({"tasks_to_complete": []}, "names no task"),
        ({"robot_noise_ratio": -0.1}, "option 'robot_noise_ratio'"),
        ({"frame_skip": 0}, "option 'frame_skip'"),
        ({"frame_stack": 2}, "option 'frame_stack' must be 1"),
        ({"xml_file": "adroit_hand/adroit_pen.xml"}, "option 'xml_file'"),
    ],
)
def test_bad_options_are_value_errors_naming_them(options: dict[str, Any], words: str) -> None:
    with pytest.raises(ValueError, match=words):
        envpool.make(TEST_ID, num_envs=1, **options)
    envpool.make(TEST_ID, num_envs=1).reset()


def test_a_snapshot_replays_bit_for_bit_across_a_completion() -> None:
    env = envpool.make(TEST_ID, num_envs=2, seed=1, max_episode_steps=10)
    env.reset()
    rng = np.random.default_rng(2)
    for _ in range(3):
        env.step(rng.uniform(-1, 1, size=(2, 9)))
    env._pool.set_state(0, state_with(["microwave"]).tolist())
    saved = env.get_state()
    actions = [rng.uniform(-1, 1, size=(2, 9)) for _ in range(12)]
    first = [env.step(a) for a in actions]
    env.set_state(saved)
    again = [env.step(a) for a in actions]
    assert first[0][1][0] == 1.0  # the microwave paid
    for t, (one, two) in enumerate(zip(first, again, strict=True)):
        np.testing.assert_array_equal(one[0]["observation"], two[0]["observation"])
        for part in ("achieved_goal", "desired_goal"):
            for task in TASKS:
                np.testing.assert_array_equal(
                    one[0][part][task], two[0][part][task], err_msg=f"{t} {part} {task}"
                )
        for k in (1, 2, 3):
            np.testing.assert_array_equal(one[k], two[k])
        for key in ("tasks_to_complete", "episode_task_completions"):
            np.testing.assert_array_equal(one[4][key], two[4][key])


@pytest.mark.skipif(
    not ALL,
    reason="the kitchen's frames take seconds each without a GPU (its 4096-pixel shadow map "
    "and 8 samples); ENVPOOL_TEST_ALL=1 compares them",
)
def test_render_is_the_references_frame_for_frame(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MUJOCO_GL", "egl")
    size = {"render_width": 96, "render_height": 64}
    env = envpool.make(TEST_ID, num_envs=1, seed=5, render_mode="rgb_array", **size)
    ref = gymnasium.make("FrankaKitchen-v1", render_mode="rgb_array", width=96, height=64)
    rng = np.random.default_rng(0)
    assert_frames_equal_reference(env, ref, 5, [rng.uniform(-1, 1, size=9) for _ in range(2)])
    env.close()
    ref.close()
