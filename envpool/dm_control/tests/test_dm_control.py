"""dm_control against dm_control 1.0.50's suite, on the same mujoco 3.17.0.

Nothing is copied between the two: env i of a pool made with `seed=s` draws
its initial state from numpy's RandomState(s + i), as
`suite.load(domain, task, task_kwargs={"random": s + i})` does, and later
resets (our autoreset, the reference's `reset()` after its LAST step)
continue both streams.  Both take the same float64 actions, drawn from a
fixed RandomState over 1.2 times the action range (MuJoCo clamps them), for
two whole episodes and the first steps of a third; every observation key,
the reward (ours is float32: the reference's, rounded), step type and
discount must agree (observations to 1e-8; in practice they are equal bit
for bit).  Episodes are 1000 steps (dm_control's limit) for the cheap
domains and cut to a shorter time limit, the same on both sides, for the
expensive ones (EPISODE_STEPS).
"""

from __future__ import annotations

import csv
import functools
import json
import os
import warnings
from pathlib import Path

import numpy as np
import pytest

import envpool
from envpool.dm_control.registration import TASKS

# dm_control picks its GL backend at import; Quadruped escape's reset
# uploads its terrain to a GL context, so the reference needs one (headless:
# EGL).
os.environ.setdefault("MUJOCO_GL", "egl")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from dm_control import suite

REFERENCE = Path(__file__).resolve().parents[2] / "testing" / "reference"
SPECS = json.loads((REFERENCE / "env_specs.json").read_text())
TOLERANCE = 1e-8

DOMAINS = {
    "DmcAcrobot": "acrobot",
    "DmcBallInCup": "ball_in_cup",
    "DmcCartpole": "cartpole",
    "DmcCheetah": "cheetah",
    "DmcDog": "dog",
    "DmcFinger": "finger",
    "DmcFish": "fish",
    "DmcHopper": "hopper",
    "DmcHumanoid": "humanoid",
    "DmcHumanoidCMU": "humanoid_CMU",
    "DmcLqr": "lqr",
    "DmcManipulator": "manipulator",
    "DmcPendulum": "pendulum",
    "DmcPointMass": "point_mass",
    "DmcQuadruped": "quadruped",
    "DmcReacher": "reacher",
    "DmcStacker": "stacker",
    "DmcSwimmer": "swimmer",
    "DmcWalker": "walker",
}
# id -> (domain, task)
IDS = {
    f"{prefix}{suffix}-v1": (DOMAINS[cls], task)
    for cls, prefix, tasks in TASKS
    for task, suffix in tasks.items()
}
# Shorter episodes (same time limit on both sides) where a 1000-step
# reference episode takes seconds.
EPISODE_STEPS = {
    "ball_in_cup": 500,
    "dog": 80,
    "fish": 500,
    "humanoid": 300,
    "humanoid_CMU": 150,
    "manipulator": 400,
    "quadruped": 300,
    "stacker": 250,
    "swimmer": 300,
    "walker": 500,
}
# Quadruped escape's steps cast 20 rangefinder rays over a 201x201
# heightfield: tens of times a walk step.
ID_EPISODE_STEPS = {"QuadrupedEscape-v1": 60}


def reference_ids() -> list[str]:
    with open(REFERENCE / "env_ids.tsv") as f:
        return [r["id"] for r in csv.DictReader(f, delimiter="\t") if r["family"] == "dm_control"]


@functools.cache
def control_timestep(domain: str, task: str) -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return suite.load(domain, task).control_timestep()


def make_reference(task_id: str, random, steps: int = 1000):
    """suite.load(domain, task), episodes cut at `steps` (dm_control's time
    limit: `steps` control timesteps)."""
    domain, task = IDS[task_id]
    kwargs = {"random": random}
    if steps != 1000 or domain == "lqr":  # LQR's own time limit is infinite
        kwargs["time_limit"] = steps * control_timestep(domain, task)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return suite.load(domain, task, task_kwargs=kwargs)


def obs_keys(timestep) -> list[str]:
    return [k for k in timestep.observation._fields if k not in ("env_id", "players")]


def compare_obs(ours, i: int, ref_obs) -> float:
    deviation = 0.0
    assert obs_keys(ours) == list(ref_obs)
    for key, value in ref_obs.items():
        got = np.asarray(getattr(ours.observation, key))[i]
        want = np.asarray(value)
        assert got.shape == want.shape, key
        if want.size:
            deviation = max(deviation, float(np.max(np.abs(got - want))))
    return deviation


@pytest.mark.parametrize("task_id", sorted(IDS))
def test_same_seed_same_episodes_as_dm_control(task_id: str) -> None:
    """Env 1 of a pool seeded with s against the reference seeded with s + 1:
    a whole episode, its truncation and the first steps of the next."""
    domain, _ = IDS[task_id]
    steps = ID_EPISODE_STEPS.get(task_id, EPISODE_STEPS.get(domain, 1000))
    seed = 7 + sum(map(ord, task_id))
    env = envpool.make_dm(task_id, num_envs=2, seed=seed, max_episode_steps=steps)
    ref = make_reference(task_id, seed + 1, steps)
    spec = ref.action_spec()
    # LQR's motors are unbounded (+-1e10): its actions are drawn from +-1.2 too
    low, high = 1.2 * np.maximum(spec.minimum, -1), 1.2 * np.minimum(spec.maximum, 1)
    actions = np.random.RandomState(seed)
    ours = env.reset()
    theirs = ref.reset()
    deviation = 0.0
    ends = 0
    for t in range(steps + 4):
        deviation = max(deviation, compare_obs(ours, 1, theirs.observation))
        assert int(ours.step_type[1]) == int(theirs.step_type), t
        if not theirs.first():
            assert ours.reward[1] == np.float32(theirs.reward), t
            assert ours.discount[1] == np.float32(theirs.discount), t
        ends += theirs.last()
        action = actions.uniform(low, high, size=(2, *spec.shape))
        ours = env.step(action)
        theirs = ref.step(action[1])
    assert ends == 1
    assert deviation <= TOLERANCE


@pytest.mark.parametrize("task_id", sorted(IDS))
def test_resets_draw_as_dm_control(task_id: str) -> None:
    """First observations of 2 seeds, then two more resets continuing each stream."""
    seed = 1000
    env = envpool.make_dm(task_id, num_envs=2, seed=seed)
    refs = [make_reference(task_id, seed + i) for i in range(2)]
    for _ in range(3):
        ours = env.reset()
        for i, ref in enumerate(refs):
            assert compare_obs(ours, i, ref.reset().observation) <= TOLERANCE


def test_seeds_above_32_bits_seed_randomstate_with_their_two_words() -> None:
    seed = 2**40 + 5
    env = envpool.make_dm("WalkerWalk-v1", num_envs=1, seed=seed)
    words = np.array([seed & 0xFFFFFFFF, seed >> 32], dtype=np.uint32)
    ref = make_reference("WalkerWalk-v1", np.random.RandomState(words))
    assert compare_obs(env.reset(), 0, ref.reset().observation) == 0.0


@pytest.mark.parametrize("task_id", sorted(IDS))
def test_spaces_are_dm_controls_specs(task_id: str) -> None:
    ref = make_reference(task_id, 0)
    spec = envpool.make_spec(task_id)
    obs_spec = spec.observation_spec()
    names = [n for n in obs_spec._fields if n not in ("env_id", "players")]
    assert names == list(ref.observation_spec())
    for name, ref_spec in ref.observation_spec().items():
        ours = getattr(obs_spec, name)
        assert ours.shape == ref_spec.shape and ours.dtype == np.float64, name
        assert spec.observation_space[name].shape == ref_spec.shape
    action = ref.action_spec()
    np.testing.assert_array_equal(spec.action_space.low, action.minimum)
    np.testing.assert_array_equal(spec.action_space.high, action.maximum)
    assert spec.action_space.shape == action.shape
    # frame_skip is dm_control's n_sub_steps
    assert spec.config.frame_skip == round(ref.control_timestep() / ref.physics.timestep())


@pytest.mark.parametrize("task_id", sorted(IDS))
def test_config_matches_envpool_and_keys_its_subset(task_id: str) -> None:
    """EnvPool's options and defaults; its observation keys are the domain's
    union, ours the task's own (dm_control's): each of ours is one of
    EnvPool's, with EnvPool's shape."""
    ref = SPECS[task_id]
    spec = envpool.make_spec(task_id)
    config = spec.config._asdict()
    for key, value in ref["config"].items():
        if key == "env_seed":
            continue
        assert config[key] == value, (key, config[key], value)
    for name, space in spec.observation_space.items():
        assert list(space.shape) == ref["observation_space"][name]["shape"], name
    assert list(spec.action_space.shape) == ref["action_space"]["shape"]


def test_every_reference_id_of_the_registered_domains_is_registered() -> None:
    registered = set(envpool.list_all_envs())
    ours = {t for t in reference_ids() if t in registered}
    assert ours == set(IDS)
    assert len(reference_ids()) == 51


def test_truncation_gives_discount_one_and_the_next_step_resets() -> None:
    env = envpool.make_dm("CartpoleSwingup-v1", num_envs=1, max_episode_steps=3)
    env.reset()
    for _ in range(3):
        ts = env.step(np.zeros((1, 1)))
    assert ts.step_type[0] == 2 and ts.discount[0] == 1.0
    ts = env.step(np.zeros((1, 1)))
    assert ts.step_type[0] == 0 and ts.reward[0] == 0.0


def test_frame_skip_is_the_physics_steps_per_step() -> None:
    """frame_skip=2 (dm_control's n_sub_steps, 1 for Cheetah) steps twice as
    far: one step of it is two steps of the default."""
    twice = envpool.make_dm("CheetahRun-v1", num_envs=1, seed=3, frame_skip=2)
    once = envpool.make_dm("CheetahRun-v1", num_envs=1, seed=3)
    twice.reset()
    once.reset()
    action = np.full((1, 6), 0.5)
    once.step(action)
    ts = once.step(action)
    ts2 = twice.step(action)
    np.testing.assert_array_equal(ts2.observation.position, ts.observation.position)
    np.testing.assert_array_equal(ts2.observation.velocity, ts.observation.velocity)
    assert ts2.reward[0] == ts.reward[0]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"task_name": "fly"}, "task_name"),
        ({"frame_stack": 2}, "frame_stack"),
        ({"frame_skip": 0}, "frame_skip"),
    ],
)
def test_bad_options_are_value_errors_naming_the_option(options, message) -> None:
    with pytest.raises(ValueError, match=message):
        envpool.make_dm("WalkerWalk-v1", num_envs=1, **options)


def test_gymnasium_type_gives_a_dict_observation() -> None:
    env = envpool.make_gymnasium("FingerTurnHard-v1", num_envs=2, seed=1)
    obs, _ = env.reset()
    assert set(obs) == {"position", "velocity", "touch", "target_position", "dist_to_target"}
    assert obs["dist_to_target"].shape == (2,)
    obs, reward, terminated, truncated, _ = env.step(np.zeros((2, 2)))
    assert reward.dtype == np.float32 and not terminated.any() and not truncated.any()
