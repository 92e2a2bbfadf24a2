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

Nothing is copied between the two: envpool env i of a pool made with
`seed=s` draws its reset noise from numpy's Generator seeded with s + i, as
gymnasium's env reset with `seed=s + i` does, and later resets (our
autoreset, the reference's `reset()` without a seed) continue both streams.
Both take the same float64 actions, drawn from 1.2 times the control range
so that MuJoCo's clamping is exercised, through several whole episodes
(terminated, and truncated at a short `max_episode_steps`), and every
observation, reward (ours is float32: the reference's, rounded), terminated,
truncated, elapsed step and info value must agree to 1e-8 (in practice they
are equal bit for bit).
"""

from __future__ import annotations

import csv
import json
import warnings
import zlib
from collections.abc import Callable
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
from envpool.testing.frames import assert_frames_equal_reference

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


def make_reference(
    task_id: str,
    post_constraint: bool = False,
    max_episode_steps: int | None = None,
    **kwargs: Any,
) -> gymnasium.Env:
    task, version = split(task_id)
    if version == 5:
        cls = V5[task]
    else:
        cls = V4[task]
        if task_id == "Ant-v3":
            kwargs.setdefault("use_contact_forces", True)
        if not post_constraint:
            cls = type(f"{cls.__name__}WithoutPostConstraint", (WithoutPostConstraint, cls), {})
    if max_episode_steps is None:
        max_episode_steps = envpool.make_spec(task_id).config.max_episode_steps
    return TimeLimit(cls(**kwargs), max_episode_steps=max_episode_steps)


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


# Every env runs this many whole episodes; episodes are truncated at
# EPISODE_STEPS (Reacher's own limit) when they do not terminate earlier.
EPISODES = 2
EPISODE_STEPS = 50


def run_seeded(
    task_id: str,
    seed: int,
    num_envs: int,
    make_ref: Callable[[], gymnasium.Env],
    episodes: int = EPISODES,
    episode_steps: int = EPISODE_STEPS,
    **options: Any,
) -> Deviation:
    """envpool's env i against a reference reset with seed + i, nothing copied.

    Runs long enough for every env to finish `episodes` episodes and start
    the next one (next_step autoreset: the step after an episode's end
    returns the next episode's first observation, which the reference gets
    from `reset()` without a seed, its np_random continuing).
    """
    deviation = Deviation(task_id)
    env = envpool.make(
        task_id, num_envs=num_envs, seed=seed, max_episode_steps=episode_steps, **options
    )
    refs = [make_ref() for _ in range(num_envs)]
    space = env.single_action_space
    rng = np.random.default_rng(seed)

    def check_reset(i: int, obs: np.ndarray, info: dict[str, Any], where: str, **seed_kw) -> None:
        ref_obs, ref_info = refs[i].reset(**seed_kw)
        deviation.check(obs[i], ref_obs, f"env {i} {where} obs")
        for key, value in ref_info.items():
            deviation.check(info[key][i], value, f"env {i} {where} info {key}")
        assert info["elapsed_step"][i] == 0, (task_id, i, where)

    obs, info = env.reset()
    for i in range(num_envs):
        check_reset(i, obs, info, "reset", seed=seed + i)
    ended = [False] * num_envs
    finished = [0] * num_envs
    # `episodes` truncated episodes and their autoresets, and one step of
    # the next episode; envs whose episodes terminate run more of them.
    for t in range(episodes * (episode_steps + 1) + 1):
        action = rng.uniform(1.2 * space.low, 1.2 * space.high, size=(num_envs, *space.shape))
        obs, reward, terminated, truncated, info = env.step(action)
        for i, ref in enumerate(refs):
            where = f"step {t}"
            if ended[i]:  # this step started env i's next episode
                assert reward[i] == 0.0, (task_id, i, where)
                assert not terminated[i] and not truncated[i], (task_id, i, where)
                check_reset(i, obs, info, f"{where} autoreset")
                ended[i] = False
                continue
            ref_obs, ref_reward, ref_terminated, ref_truncated, ref_info = ref.step(
                action[i].copy()
            )
            deviation.check(obs[i], ref_obs, f"env {i} {where} obs")
            deviation.check(reward[i], np.float32(ref_reward), f"env {i} {where} reward")
            assert bool(terminated[i]) == bool(ref_terminated), (task_id, i, where)
            assert bool(truncated[i]) == bool(ref_truncated), (task_id, i, where)
            assert info["elapsed_step"][i] == ref._elapsed_steps, (task_id, i, where)
            for key, value in expected_info(task_id, ref_info, action[i]).items():
                assert key in info, (task_id, key)
                deviation.check(info[key][i], value, f"env {i} {where} info {key}")
            if terminated[i] or truncated[i]:
                ended[i] = True
                finished[i] += 1
    env.close()
    assert min(finished) >= episodes, (task_id, finished)
    return deviation


def id_seed(task_id: str) -> int:
    """A seed of each id's own, so that the ids cover many seeds."""
    return zlib.crc32(task_id.encode()) % 100_000


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def test_reference_lists_33_mujoco_ids_and_all_are_registered() -> None:
    assert len(IDS) == 33
    assert not set(IDS) - set(envpool.list_all_envs())


@pytest.mark.parametrize("task_id", IDS)
def test_same_seed_same_episodes_as_gymnasium(task_id: str) -> None:
    """Three envs, each two whole episodes and the next reset, from the seed alone."""

    def make_ref() -> gymnasium.Env:
        return make_reference(task_id, max_episode_steps=EPISODE_STEPS)

    deviation = run_seeded(task_id, id_seed(task_id), 3, make_ref)
    assert deviation.max <= TOLERANCE


@pytest.mark.parametrize("task_id", ["Ant-v4", "Humanoid-v4", "HumanoidStandup-v4"])
def test_post_constraint_matches_gymnasium_1_x_v4(task_id: str) -> None:
    """gymnasium 1.x's v4 classes fill cfrc_ext; post_constraint=True does too."""
    kwargs: dict[str, Any] = {"post_constraint": True}
    ref_kwargs: dict[str, Any] = {}
    if task_id == "Ant-v4":  # the contact forces only matter when observed
        kwargs["use_contact_force"] = True
        ref_kwargs["use_contact_forces"] = True

    def make_ref() -> gymnasium.Env:
        ref = make_reference(
            task_id, post_constraint=True, max_episode_steps=EPISODE_STEPS, **ref_kwargs
        )
        if task_id == "Ant-v4":  # reward_ctrl holds the contact cost there
            ref.unwrapped.step = _ant_v4_info_fixed(ref.unwrapped)
        return ref

    deviation = run_seeded(task_id, 5, 1, make_ref, **kwargs)
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
NOISE_OPTION_IDS = [
    task_id
    for task_id in IDS
    if split(task_id)[0] in NOISY
    and (split(task_id)[1] == 5 or split(task_id)[0] not in V4_WITHOUT_NOISE_OPTION)
]


@pytest.mark.parametrize("task_id", NOISE_OPTION_IDS)
def test_reset_noise_scale_draws_as_gymnasium(task_id: str) -> None:
    """A non-default reset_noise_scale scales the same draws as gymnasium's."""

    def make_ref() -> gymnasium.Env:
        return make_reference(task_id, max_episode_steps=20, reset_noise_scale=0.05)

    deviation = run_seeded(
        task_id, 17, 1, make_ref, episodes=1, episode_steps=20, reset_noise_scale=0.05
    )
    assert deviation.max <= TOLERANCE


@pytest.mark.parametrize("task_id", ["HalfCheetah-v5", "Pusher-v5", "Reacher-v4"])
def test_reset_without_seed_continues_the_stream_and_with_seed_restarts_it(
    task_id: str,
) -> None:
    """reset() draws on, as gymnasium's reset() does; reset(seed=s) restarts."""
    env = envpool.make(task_id, num_envs=2, seed=8)
    refs = [make_reference(task_id) for _ in range(2)]
    deviation = Deviation(task_id)
    space = env.single_action_space
    rng = np.random.default_rng(0)
    # The seed given to our reset, and env 0's reference's: the first reset
    # is seeded by make's seed.
    for ours, theirs in ((None, 8), (None, None), (30, 30), (None, None)):
        obs, _ = env.reset(seed=ours)
        for i, ref in enumerate(refs):
            ref_obs, _ = ref.reset(seed=None if theirs is None else theirs + i)
            deviation.check(obs[i], ref_obs, f"env {i} reset(seed={ours})")
        for t in range(5):
            action = rng.uniform(space.low, space.high, size=(2, *space.shape))
            obs = env.step(action)[0]
            for i, ref in enumerate(refs):
                deviation.check(obs[i], ref.step(action[i].copy())[0], f"env {i} step {t}")
    env.close()


RESETS = 100


@pytest.mark.parametrize("task_id", IDS)
def test_initial_states_are_gymnasiums_for_100_seeds(task_id: str) -> None:
    """qpos|qvel after the seeded reset of 100 envs: gymnasium's, bit for bit."""
    seed = 123
    env = envpool.make(task_id, num_envs=RESETS, seed=seed)
    env.reset()
    ref = make_reference(task_id)
    size = ref.unwrapped.model.nq + ref.unwrapped.model.nv
    ours = np.array([env._pool.get_state(i)[:size] for i in range(RESETS)])
    env.close()
    theirs = []
    for i in range(RESETS):
        ref.reset(seed=seed + i)
        theirs.append(ref.unwrapped.state_vector())
    np.testing.assert_array_equal(ours, np.array(theirs))


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


@pytest.mark.parametrize(
    ("contents", "words"),
    [
        (b"", "empty file"),
        (b'<mujoco><worldbody><geom type="boxx"/></worldbody>', "XML parse error"),
        (np.random.default_rng(0).bytes(3000), "XML parse error"),
        (b"<mujoco><worldbody><body/></worldbody></mujoco>", "no body 'fingertip'"),
    ],
)
def test_corrupt_model_file_is_an_error_naming_it(tmp_path, contents, words) -> None:
    path = tmp_path / "reacher.xml"
    path.write_bytes(contents)
    with pytest.raises(ValueError, match=words) as error:
        envpool.make("Reacher-v5", xml_file=str(path))
    if "body" not in words:
        assert str(path) in str(error.value)


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


# Rendering: gymnasium's MujocoRenderer (rgb_array, MUJOCO_GL=egl) on the
# same engine and Mesa, frame for frame. Every v5 task, and the v4 tasks
# whose camera differs from v5's (InvertedDoublePendulum) or that gymnasium
# still makes on MuJoCo 3 (not Pusher-v4).
RENDER_IDS = [f"{task}-v5" for task in V5] + ["InvertedDoublePendulum-v4", "Walker2d-v4"]


@pytest.mark.parametrize("task_id", RENDER_IDS)
def test_render_is_gymnasium_frame_for_frame(task_id, monkeypatch) -> None:
    monkeypatch.setenv("MUJOCO_GL", "egl")
    # gymnasium's default size once, smaller frames for the rest.
    width, height = (480, 480) if task_id == "Ant-v5" else (96, 64)
    options = {"render_width": width, "render_height": height} if width != 480 else {}
    # Ant: two envs at once, drawn by the workers, each on its own GL
    # context; the rest on the calling thread (one context for all tests).
    num_envs = 2 if task_id == "Ant-v5" else 1
    env = envpool.make(
        task_id, num_envs=num_envs, num_threads=2, seed=5, render_mode="rgb_array", **options
    )
    ref = make_reference(
        task_id, post_constraint=True, render_mode="rgb_array", width=width, height=height
    )
    rng = np.random.default_rng(0)
    low, high = ref.action_space.low, ref.action_space.high
    assert_frames_equal_reference(
        env,
        ref,
        5,
        [rng.uniform(low, high) for _ in range(8)],
        batch=lambda action: np.stack([action] * num_envs),
        stop_at_episode_end=True,
    )
    # Several envs in one call: one frame each, env 0's the one just checked.
    frames = env.render(env_ids=list(range(num_envs)))
    assert frames.shape == (num_envs, height, width, 3)
    np.testing.assert_array_equal(frames[0], env.render()[0])
    env.close()
    ref.close()


def test_render_from_a_model_camera(monkeypatch) -> None:
    monkeypatch.setenv("MUJOCO_GL", "egl")
    env = envpool.make(
        "Humanoid-v5",
        num_envs=1,
        seed=1,
        render_mode="rgb_array",
        render_width=64,
        render_height=48,
        render_camera_id=1,
    )
    ref = make_reference("Humanoid-v5", render_mode="rgb_array", width=64, height=48, camera_id=1)
    env.reset()
    ref.reset(seed=1)
    np.testing.assert_array_equal(env.render()[0], ref.render())
    free = envpool.make(
        "Humanoid-v5",
        num_envs=1,
        seed=1,
        render_mode="rgb_array",
        render_width=64,
        render_height=48,
    )
    free.reset()
    assert not np.array_equal(free.render()[0], env.render()[0])
    with pytest.raises(ValueError, match="render_camera_id"):
        envpool.make("Reacher-v5", render_mode="rgb_array", render_camera_id=0)


def test_from_pixels_observes_rendered_frames_channel_first_and_stacked(monkeypatch) -> None:
    monkeypatch.setenv("MUJOCO_GL", "egl")
    size = {"render_width": 32, "render_height": 24}
    env = envpool.make(
        "Hopper-v5", num_envs=2, num_threads=2, seed=4, from_pixels=True, frame_stack=3, **size
    )
    space = env.single_observation_space
    assert space.shape == (9, 24, 32) and space.dtype == np.uint8
    # The frames are render()'s (drawn by the same camera, transposed).
    twin = envpool.make("Hopper-v5", num_envs=2, seed=4, render_mode="rgb_array", **size)
    obs, _ = env.reset()
    twin.reset()
    frames = twin.render(env_ids=[0, 1]).transpose(0, 3, 1, 2)
    for k in range(3):  # the reset frame fills the stack
        np.testing.assert_array_equal(obs[:, 3 * k : 3 * k + 3], frames)
    rng = np.random.default_rng(0)
    for _ in range(3):
        action = rng.uniform(-1, 1, size=(2, 3))
        new, *_ = env.step(action)
        twin.step(action)
        np.testing.assert_array_equal(new[:, :6], obs[:, 3:])  # oldest first
        np.testing.assert_array_equal(new[:, 6:], twin.render(env_ids=[0, 1]).transpose(0, 3, 1, 2))
        obs = new
    assert len(np.unique(obs)) > 10  # a picture, not a blank
