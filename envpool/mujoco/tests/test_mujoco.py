"""mujoco against gymnasium 1.4.0's MuJoCo envs, on the same mujoco 3.17.0.

References, by id:
- v5: gymnasium's `*_v5.py` classes with their defaults.
- v4: gymnasium's `*_v4.py` classes stepped without `mj_rnePostConstraint`
  (`post_constraint=False`, EnvPool 1.2.5's default for v4 and gymnasium
  before 1.0), so `cfrc_ext` stays zero.  `test_post_constraint_matches_
  gymnasium_1_x_v4` checks the other setting against the unmodified v4
  classes, which call it.
- v2/v3 (gym on mujoco-py, which never filled `cfrc_ext`): the v4 classes
  stepped the same way; their equations are gym's v2/v3 ones.  Ant-v3 is
  the v4 class with `use_contact_forces=True` (gym's ant_v3 observed and
  paid for contact forces); gym's Humanoid-v3 also paid a contact cost,
  which is zero here as it was on mujoco-py.  Pusher-v4 refuses mujoco 3 in
  gymnasium; its class runs here with the version check bypassed.

After a reset the reference is put into our qpos/qvel (test hook
`_pool.get_state`); then both take the same float64 actions, drawn from 1.2
times the control range so that MuJoCo's clamping is exercised, and every
observation, reward, terminated, truncated and info value must agree to
1e-8 (in practice they are equal bit for bit).
"""

from __future__ import annotations

import csv
import json
import warnings
from pathlib import Path
from typing import Any

import gymnasium
import mujoco
import numpy as np
import pytest
from gymnasium.envs.mujoco import (
    ant_v4,
    ant_v5,
    half_cheetah_v4,
    half_cheetah_v5,
    hopper_v4,
    hopper_v5,
    humanoid_v4,
    humanoid_v5,
    humanoidstandup_v4,
    humanoidstandup_v5,
    inverted_double_pendulum_v4,
    inverted_double_pendulum_v5,
    inverted_pendulum_v4,
    inverted_pendulum_v5,
    pusher_v4,
    pusher_v5,
    reacher_v4,
    reacher_v5,
    swimmer_v4,
    swimmer_v5,
    walker2d_v4,
    walker2d_v5,
)
from gymnasium.envs.mujoco.mujoco_env import MujocoEnv
from gymnasium.wrappers import TimeLimit

import envpool

REFERENCE = Path(__file__).resolve().parents[2] / "testing" / "reference"
TOLERANCE = 1e-8


class PusherV4(pusher_v4.PusherEnv):
    """gymnasium's Pusher-v4 without its `mujoco < 3` check."""

    def __init__(self, **kwargs: Any) -> None:
        space = gymnasium.spaces.Box(-np.inf, np.inf, (23,), np.float64)
        MujocoEnv.__init__(self, "pusher.xml", 5, observation_space=space, **kwargs)


V4 = {
    "Ant": ant_v4.AntEnv,
    "HalfCheetah": half_cheetah_v4.HalfCheetahEnv,
    "Hopper": hopper_v4.HopperEnv,
    "Humanoid": humanoid_v4.HumanoidEnv,
    "HumanoidStandup": humanoidstandup_v4.HumanoidStandupEnv,
    "InvertedDoublePendulum": inverted_double_pendulum_v4.InvertedDoublePendulumEnv,
    "InvertedPendulum": inverted_pendulum_v4.InvertedPendulumEnv,
    "Pusher": PusherV4,
    "Reacher": reacher_v4.ReacherEnv,
    "Swimmer": swimmer_v4.SwimmerEnv,
    "Walker2d": walker2d_v4.Walker2dEnv,
}
V5 = {
    "Ant": ant_v5.AntEnv,
    "HalfCheetah": half_cheetah_v5.HalfCheetahEnv,
    "Hopper": hopper_v5.HopperEnv,
    "Humanoid": humanoid_v5.HumanoidEnv,
    "HumanoidStandup": humanoidstandup_v5.HumanoidStandupEnv,
    "InvertedDoublePendulum": inverted_double_pendulum_v5.InvertedDoublePendulumEnv,
    "InvertedPendulum": inverted_pendulum_v5.InvertedPendulumEnv,
    "Pusher": pusher_v5.PusherEnv,
    "Reacher": reacher_v5.ReacherEnv,
    "Swimmer": swimmer_v5.SwimmerEnv,
    "Walker2d": walker2d_v5.Walker2dEnv,
}
# Tasks whose reset draws qpos/qvel noise of scale `reset_noise_scale`.
NOISY = (
    "Ant",
    "HalfCheetah",
    "Hopper",
    "Humanoid",
    "HumanoidStandup",
    "InvertedDoublePendulum",
    "InvertedPendulum",
    "Swimmer",
    "Walker2d",
)


def reference_ids() -> list[str]:
    with open(REFERENCE / "env_ids.tsv") as f:
        return [row["id"] for row in csv.DictReader(f, delimiter="\t") if row["family"] == "mujoco"]


IDS = reference_ids()
SPECS = json.loads((REFERENCE / "env_specs.json").read_text())


class WithoutPostConstraint:
    """Steps as mujoco-py did: no mj_rnePostConstraint, cfrc_ext stays zero."""

    def _step_mujoco_simulation(self, ctrl, n_frames):
        self.data.ctrl[:] = ctrl
        mujoco.mj_step(self.model, self.data, nstep=n_frames)


def split(task_id: str) -> tuple[str, int]:
    task, version = task_id.rsplit("-v", 1)
    return task, int(version)


def make_reference(task_id: str, post_constraint: bool = False, **kwargs: Any) -> gymnasium.Env:
    task, version = split(task_id)
    if version == 5:
        cls = V5[task]
    else:
        cls = V4[task]
        if task_id == "Ant-v3":
            kwargs.setdefault("use_contact_forces", True)
        if not post_constraint:
            cls = type(f"{cls.__name__}WithoutPostConstraint", (WithoutPostConstraint, cls), {})
    max_steps = envpool.make_spec(task_id).config.max_episode_steps
    return TimeLimit(cls(**kwargs), max_episode_steps=max_steps)


def expected_info(task_id: str, info: dict[str, Any], action: np.ndarray) -> dict[str, Any]:
    """The reference's info as our id defines it.

    gymnasium's Ant-v4 with contact forces overwrites reward_ctrl with the
    contact cost; gym's Ant-v3 reported the control cost there (and the
    contact cost as reward_contact, zero here).
    """
    info = dict(info)
    if task_id == "Ant-v3":
        info["reward_ctrl"] = -0.5 * np.sum(np.square(action))
        info["reward_contact"] = -0.0
    return info


def sync(env, ref: gymnasium.Env, i: int) -> None:
    """Reset `ref` and put it into envpool env `i`'s state."""
    model = ref.unwrapped.model
    state = np.array(env._pool.get_state(i))
    ref.reset(seed=i)
    ref.unwrapped.set_state(state[: model.nq], state[model.nq : model.nq + model.nv])


class Deviation:
    """The largest difference seen, checked against TOLERANCE."""

    def __init__(self, task_id: str) -> None:
        self.task_id = task_id
        self.max = 0.0

    def check(self, ours: Any, ref: Any, what: str) -> None:
        ours = np.asarray(ours, dtype=np.float64)
        ref = np.asarray(ref, dtype=np.float64)
        assert ours.shape == ref.shape, (self.task_id, what, ours.shape, ref.shape)
        if ours.size:
            diff = float(np.max(np.abs(ours - ref)))
            self.max = max(self.max, diff)
            assert diff <= TOLERANCE, (self.task_id, what, diff)


def run_aligned(task_id: str, steps: int, ref: gymnasium.Env, env, seed: int = 0) -> Deviation:
    """Steps `env` (one env) and `ref` together, resyncing after each episode."""
    deviation = Deviation(task_id)
    space = env.single_action_space
    rng = np.random.default_rng(seed)
    obs, info = env.reset()
    sync(env, ref, 0)
    deviation.check(obs[0], ref.unwrapped._get_obs(), "reset obs")
    for key, value in ref.unwrapped._get_reset_info().items():
        deviation.check(info[key][0], value, f"reset info {key}")
    ended = False
    for t in range(steps):
        action = rng.uniform(1.2 * space.low, 1.2 * space.high)
        obs, reward, terminated, truncated, info = env.step(action[None])
        where = f"step {t}"
        if ended:  # next_step autoreset: this step started a new episode
            assert reward[0] == 0.0 and not terminated[0] and not truncated[0], where
            sync(env, ref, 0)
            deviation.check(obs[0], ref.unwrapped._get_obs(), f"{where} reset obs")
            ended = False
            continue
        ref_obs, ref_reward, ref_terminated, ref_truncated, ref_info = ref.step(action.copy())
        deviation.check(obs[0], ref_obs, f"{where} obs")
        # The reward is float32 (EnvPool's dtype): the reference's, rounded.
        deviation.check(reward[0], np.float32(ref_reward), f"{where} reward")
        assert bool(terminated[0]) == bool(ref_terminated), (task_id, where)
        assert bool(truncated[0]) == bool(ref_truncated), (task_id, where)
        for key, value in expected_info(task_id, ref_info, action).items():
            assert key in info, (task_id, key)
            deviation.check(info[key][0], value, f"{where} info {key}")
        ended = bool(terminated[0] or truncated[0])
    return deviation


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def test_reference_lists_33_mujoco_ids_and_all_are_registered() -> None:
    assert len(IDS) == 33
    assert not set(IDS) - set(envpool.list_all_envs())


@pytest.mark.parametrize("task_id", IDS)
def test_aligns_with_gymnasium_for_250_steps(task_id: str) -> None:
    env = envpool.make(task_id, num_envs=1, seed=3)
    deviation = run_aligned(task_id, 250, make_reference(task_id), env)
    env.close()
    assert deviation.max <= TOLERANCE


@pytest.mark.parametrize("task_id", ["Ant-v4", "Humanoid-v4", "HumanoidStandup-v4"])
def test_post_constraint_matches_gymnasium_1_x_v4(task_id: str) -> None:
    """gymnasium 1.x's v4 classes fill cfrc_ext; post_constraint=True does too."""
    kwargs: dict[str, Any] = {"post_constraint": True}
    ref_kwargs: dict[str, Any] = {}
    if task_id == "Ant-v4":  # the contact forces only matter when observed
        kwargs["use_contact_force"] = True
        ref_kwargs["use_contact_forces"] = True
    env = envpool.make(task_id, num_envs=1, seed=5, **kwargs)
    ref = make_reference(task_id, post_constraint=True, **ref_kwargs)
    if task_id == "Ant-v4":  # reward_ctrl holds the contact cost there
        ref.unwrapped.step = _ant_v4_info_fixed(ref.unwrapped)
    deviation = run_aligned(task_id, 120, ref, env)
    env.close()
    assert deviation.max <= TOLERANCE


def _ant_v4_info_fixed(ant):
    step = ant.step

    def fixed(action):
        obs, reward, terminated, truncated, info = step(action)
        info["reward_contact"] = info["reward_ctrl"]
        info["reward_ctrl"] = -ant.control_cost(action)
        return obs, reward, terminated, truncated, info

    return fixed


# gymnasium's v4 classes of these take no reset_noise_scale.
V4_WITHOUT_NOISE_OPTION = ("HumanoidStandup", "InvertedDoublePendulum", "InvertedPendulum")
NOISELESS_IDS = [
    task_id
    for task_id in IDS
    if split(task_id)[0] in NOISY
    and (split(task_id)[1] == 5 or split(task_id)[0] not in V4_WITHOUT_NOISE_OPTION)
]


@pytest.mark.parametrize("task_id", NOISELESS_IDS)
def test_without_reset_noise_both_start_alike_and_stay_alike(task_id: str) -> None:
    """No state is copied: both start from the model's initial state."""
    env = envpool.make(task_id, num_envs=1, seed=0, reset_noise_scale=0.0)
    ref = make_reference(task_id, reset_noise_scale=0.0)
    deviation = Deviation(task_id)
    obs, _ = env.reset()
    ref_obs, _ = ref.reset(seed=0)
    deviation.check(obs[0], ref_obs, "reset obs")
    rng = np.random.default_rng(1)
    space = env.single_action_space
    for t in range(100):
        action = rng.uniform(space.low, space.high)
        obs, reward, terminated, _, _ = env.step(action[None])
        ref_obs, ref_reward, ref_terminated, _, _ = ref.step(action.copy())
        deviation.check(obs[0], ref_obs, f"step {t} obs")
        deviation.check(reward[0], np.float32(ref_reward), f"step {t} reward")
        assert bool(terminated[0]) == ref_terminated
        if ref_terminated:
            break
    env.close()


def initial_states(task_id: str, n: int) -> tuple[np.ndarray, np.ndarray, int]:
    """qpos|qvel right after reset: n envpool envs and n gymnasium resets;
    and nq."""
    env = envpool.make(task_id, num_envs=n, seed=123)
    env.reset()
    ref = make_reference(task_id)
    model = ref.unwrapped.model
    size = model.nq + model.nv
    ours = np.array([env._pool.get_state(i)[:size] for i in range(n)])
    env.close()
    theirs = []
    for seed in range(n):
        ref.reset(seed=seed)
        theirs.append(ref.unwrapped.state_vector())
    return ours, np.array(theirs), model.nq


@pytest.mark.parametrize("task", sorted(V5))
def test_reset_noise_has_gymnasium_mean_and_spread(task: str) -> None:
    n = 400
    ours, theirs, _ = initial_states(f"{task}-v5", n)
    mean_ours, mean_theirs = ours.mean(0), theirs.mean(0)
    std_ours, std_theirs = ours.std(0), theirs.std(0)
    # Means within five standard errors, spreads within 15%.
    standard_error = np.sqrt((std_ours**2 + std_theirs**2) / n)
    assert np.all(np.abs(mean_ours - mean_theirs) <= 5 * standard_error + 1e-12), task
    assert np.all(np.abs(std_ours - std_theirs) <= 0.15 * np.maximum(std_ours, std_theirs)), task
    # Coordinates without noise are exactly the model's.
    fixed = std_theirs == 0
    np.testing.assert_array_equal(ours[:, fixed], theirs[:, fixed])


def test_reset_velocity_noise_is_normal_for_ant_half_cheetah_and_double_pendulum() -> None:
    """These draw qvel from a normal distribution (the others uniform)."""
    for task_id, scale in (
        ("Ant-v5", 0.1),
        ("HalfCheetah-v5", 0.1),
        ("InvertedDoublePendulum-v5", 0.1),
    ):
        ours, _, nq = initial_states(task_id, 400)
        qvel = ours[:, nq:]
        # Beyond the scale: impossible for a uniform noise of that scale.
        assert np.abs(qvel).max() > 1.5 * scale, task_id
        assert abs(qvel.std() - scale) < 0.1 * scale, task_id


@pytest.mark.parametrize("task_id", IDS)
def test_config_and_spaces_match_the_reference_spec(task_id: str) -> None:
    spec = envpool.make_spec(task_id)
    config = spec.config._asdict()
    for key, value in SPECS[task_id]["config"].items():
        if key == "env_seed":
            continue
        assert config[key] == value, (task_id, key, config[key], value)
    for space, ref in (
        (spec.observation_space, SPECS[task_id]["observation_space"]),
        (spec.action_space, SPECS[task_id]["action_space"]),
    ):
        assert space.dtype == np.dtype(ref["dtype"])
        assert list(space.shape) == ref["shape"]
        np.testing.assert_allclose(space.low, ref["low"])
        np.testing.assert_allclose(space.high, ref["high"])
    # gymnasium's spaces: the same shapes, and the same control range
    # (gymnasium keeps it as float32, envpool as MuJoCo's float64).
    ref_env = make_reference(task_id)
    assert spec.observation_space.shape == ref_env.observation_space.shape
    model = ref_env.unwrapped.model
    np.testing.assert_array_equal(spec.action_space.low, model.actuator_ctrlrange[:, 0])
    np.testing.assert_array_equal(spec.action_space.high, model.actuator_ctrlrange[:, 1])


def test_missing_model_file_is_an_error_naming_it() -> None:
    with pytest.raises(ValueError, match=r"no_such_model\.xml"):
        envpool.make("Ant-v5", xml_file="no_such_model.xml")
    with pytest.raises(ValueError, match=r"/nowhere/ant\.xml"):
        envpool.make_spec("Ant-v5", xml_file="/nowhere/ant.xml")


def test_frame_stack_stacks_the_latest_observations_oldest_first() -> None:
    env = envpool.make("HalfCheetah-v5", num_envs=1, seed=0, frame_stack=3)
    plain = envpool.make("HalfCheetah-v5", num_envs=1, seed=0)
    assert env.single_observation_space.shape == (3, 17)
    stacked, _ = env.reset()
    obs, _ = plain.reset()
    history = [obs[0]] * 3
    np.testing.assert_array_equal(stacked[0], np.stack(history))
    for _ in range(4):
        action = np.full((1, 6), 0.3)
        stacked = env.step(action)[0]
        history = [*history[1:], plain.step(action)[0][0]]
        np.testing.assert_array_equal(stacked[0], np.stack(history))
    env.close()
    plain.close()


def test_humanoid_v5_reports_tendons_as_gymnasium() -> None:
    env = envpool.make("Humanoid-v5", num_envs=1, seed=0)
    _, info = env.reset()
    assert info["tendon_length"].shape == (1, 2)
    assert info["tendon_velocity"].shape == (1, 2)
    env.close()
