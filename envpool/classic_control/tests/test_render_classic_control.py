"""classic_control's rgb_array frames against gymnasium 1.4's pygame frames.

Each rendered id plays beside `gymnasium.make(id, render_mode="rgb_array")`
seeded alike and given the same actions (env 0 a driving policy, env 1 random
actions); the frames of both envs are compared at the reset and after every
step, whole episodes and the autoreset into the next one included, and must
be equal byte for byte (the difference is measured and asserted 0). A second
test puts both into states the episodes rarely reach (the cart past the
screen's edge, the pole at any angle) through the state hooks, so the
clipping paths of the rasterizer are compared too.
"""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.wrappers import TimeLimit

# The Pendulum-v0 reference of the family's alignment test (same folder).
from test_classic_control import PendulumV0Reference

import envpool

# id -> (reference id, frame height, width, fps)
RENDERED = {
    "CartPole-v0": ("CartPole-v0", 400, 600, 50),
    "CartPole-v1": ("CartPole-v1", 400, 600, 50),
    "phys2d/CartPole-v0": ("CartPole-v0", 400, 600, 50),
    "phys2d/CartPole-v1": ("CartPole-v1", 400, 600, 50),
    "MountainCar-v0": ("MountainCar-v0", 400, 600, 30),
    "MountainCarContinuous-v0": ("MountainCarContinuous-v0", 400, 600, 30),
    "Acrobot-v1": ("Acrobot-v1", 500, 500, 15),
    "Pendulum-v1": ("Pendulum-v1", 500, 500, 30),
    "Pendulum-v0": ("Pendulum-v0", 500, 500, 30),
    "phys2d/Pendulum-v0": ("Pendulum-v0", 500, 500, 30),
}
STEPS = 160
# Steps where an id differs: Pendulum ends only at its 200-step limit, so
# Pendulum-v1 plays past it (and the autoreset, whose frame has no arrow
# again); its v0 ids draw alike (only their dynamics differ) and play a
# shorter stretch, as do the phys2d CartPole ids.
STEPS_OF = {
    "Pendulum-v1": 205,
    "Pendulum-v0": 60,
    "phys2d/Pendulum-v0": 60,
    "phys2d/CartPole-v0": 100,
    "phys2d/CartPole-v1": 100,
}


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


class PendulumV0Rendered(PendulumV0Reference):
    """gym's Pendulum-v0 (the family test's reference), keeping the clipped
    torque for render() as gym's step did (`self.last_u = u`)."""

    def step(self, u):
        self.last_u = np.clip(u, -self.max_torque, self.max_torque)[0]
        return super().step(u)


def reference(ref_id: str) -> gymnasium.Env:
    """gymnasium's env with rgb_array frames; Pendulum-v0 is gym's, drawn by
    gymnasium's PendulumEnv.render."""
    if ref_id == "Pendulum-v0":
        return TimeLimit(PendulumV0Rendered(render_mode="rgb_array"), max_episode_steps=200)
    return gymnasium.make(ref_id, render_mode="rgb_array")


def policy(task_id: str, obs: np.ndarray, rng: np.random.Generator, env_index: int):
    """Env 0 drives (balances, pumps to the flag, swings up); env 1 is random."""
    if "Pendulum" in task_id:  # the torque (and so the arrow) varies
        low = -3.0 if env_index == 1 else -2.0
        return np.float32(rng.uniform(low, -low))
    if task_id == "MountainCarContinuous-v0":
        if env_index == 1:
            return np.float32(rng.uniform(-1.5, 1.5))
        return np.float32(1.0 if obs[1] >= 0 else -1.0)
    if task_id == "MountainCar-v0":
        return int(rng.integers(3)) if env_index == 1 else (2 if obs[1] >= 0 else 0)
    if task_id == "Acrobot-v1":
        return int(rng.integers(3)) if env_index == 1 else (2 if obs[5] > 0 else 0)
    if env_index == 1:
        return int(rng.integers(2))
    return int(obs[2] * 10 + obs[3] * 2 + obs[0] * 0.3 + obs[1] > 0)


def reference_action(task_id: str, action):
    if task_id == "MountainCarContinuous-v0" or "Pendulum" in task_id:
        return np.array([action], np.float32)
    return int(action)


def frame_difference(ours: np.ndarray, ref: np.ndarray) -> tuple[int, int]:
    """(largest channel difference, number of pixels that differ)."""
    assert ours.shape == ref.shape and ours.dtype == ref.dtype == np.uint8
    if np.array_equal(ours, ref):
        return 0, 0
    diff = np.abs(ours.astype(np.int16) - ref.astype(np.int16))
    return int(diff.max()), int(np.count_nonzero(diff.max(axis=-1)))


@pytest.mark.parametrize("task_id", sorted(RENDERED))
def test_frames_equal_gymnasium_pixel_for_pixel(task_id):
    ref_id, height, width, fps = RENDERED[task_id]
    env = envpool.make(task_id, num_envs=2, seed=3, render_mode="rgb_array")
    assert env.metadata["render_modes"] == ["rgb_array", "human"]
    assert env.metadata["render_fps"] == fps
    refs = [reference(ref_id) for _ in range(2)]
    assert refs[0].metadata["render_fps"] == fps
    obs, _ = env.reset()
    for i, ref in enumerate(refs):
        ref.reset(seed=3 + i)
    rng = np.random.default_rng(0)
    ended = [False, False]
    endings = 0
    first = None
    steps = STEPS_OF.get(task_id, STEPS)
    for t in range(steps + 1):
        frames = env.render(env_ids=[0, 1])
        assert frames.shape == (2, height, width, 3) and frames.dtype == np.uint8
        for i, ref in enumerate(refs):
            worst, pixels = frame_difference(frames[i], ref.render())
            assert (worst, pixels) == (0, 0), (
                f"{task_id} env {i} step {t}: max difference {worst}, {pixels} pixels differ"
            )
        if first is None:
            first = frames[0].copy()
        if t == steps:
            break
        actions = [policy(task_id, obs[i], rng, i) for i in range(2)]
        space = env.single_action_space
        batch = np.array(actions, dtype=space.dtype).reshape(2, *space.shape)
        obs, _, terminated, truncated, _ = env.step(batch)
        for i, ref in enumerate(refs):
            if ended[i]:
                ref.reset()
            else:
                ref.step(reference_action(task_id, actions[i]))
            ended[i] = bool(terminated[i] or truncated[i])
            endings += ended[i]
    if not task_id.endswith("Pendulum-v0"):
        assert endings > 0, "no episode ended"
    assert not np.array_equal(first, frames[0]), "the frame never changed"
    env.close()


def random_cartpole_state(rng: np.random.Generator) -> list[float]:
    angle = rng.uniform(-4.0, 4.0) if rng.random() < 0.5 else rng.uniform(-0.3, 0.3)
    return [float(rng.uniform(-2.8, 2.8)), 0.0, float(angle), 0.0]


def test_frames_equal_gymnasium_in_rare_states():
    env = envpool.make("CartPole-v1", num_envs=1, render_mode="rgb_array")
    env.reset()
    ref = gymnasium.make("CartPole-v1", render_mode="rgb_array")
    ref.reset(seed=0)
    rng = np.random.default_rng(5)
    for _ in range(200):
        state = random_cartpole_state(rng)
        env._pool.set_state(0, state)
        ref.unwrapped.state = np.array(state)
        worst, pixels = frame_difference(env.render()[0], ref.render())
        assert (worst, pixels) == (0, 0), f"state {state}: max {worst}, {pixels} pixels"


@pytest.mark.parametrize("size", [{"render_width": 300}, {"render_height": 200}])
def test_other_sizes_are_refused(size):
    with pytest.raises(ValueError, match="renders at 600x400 only"):
        envpool.make("CartPole-v1", num_envs=1, render_mode="rgb_array", **size)


def test_reference_size_given_explicitly_is_accepted():
    env = envpool.make(
        "CartPole-v1", num_envs=1, render_mode="rgb_array", render_width=600, render_height=400
    )
    env.reset()
    assert env.render().shape == (1, 400, 600, 3)
