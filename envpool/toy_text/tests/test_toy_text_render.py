"""toy_text's rgb_array frames against gymnasium 1.4's, pixel for pixel.

gymnasium draws FrozenLake, Taxi, CliffWalking and Blackjack with pygame:
its sprite PNGs (gymnasium/envs/toy_text/img/) blitted onto a surface (plus
the cells' outlines of FrozenLake). Our envs draw the same sprites, read
from the installed gymnasium, in C++. Two envs of a pool (seeds s, s + 1)
are stepped with random actions beside two gymnasium envs made with
render_mode="rgb_array" and reset with the same seeds; the frames of both
envs must equal gymnasium's render() exactly (max difference 0) after the
reset and every step, over whole episodes, the autoreset included.
"""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.envs.toy_text.cliffwalking import CliffWalkingEnv as GymCliffWalking
from gymnasium.envs.toy_text.taxi import TaxiEnv as GymTaxi
from gymnasium.wrappers import TimeLimit

import envpool

# id, our options, gymnasium's env, frame size (height, width), steps,
# episodes ended at least. Taxi's episodes are cut at 30 steps (both sides)
# so that a short run covers several.
CASES = [
    (
        "FrozenLake-v1",
        {},
        lambda: gymnasium.make("FrozenLake-v1", render_mode="rgb_array"),
        (256, 256),
        100,
        6,
    ),
    (
        "FrozenLake8x8-v1",
        {},
        lambda: gymnasium.make("FrozenLake8x8-v1", render_mode="rgb_array"),
        (512, 512),
        80,
        1,
    ),
    (
        "Taxi-v3",
        {"max_episode_steps": 30},
        lambda: TimeLimit(GymTaxi(render_mode="rgb_array"), max_episode_steps=30),
        (456, 536),
        80,
        4,
    ),
    ("CliffWalking-v1", {}, lambda: GymCliffWalking(render_mode="rgb_array"), (256, 768), 60, 0),
    (
        "CliffWalkingSlippery-v1",
        {},
        lambda: gymnasium.make("CliffWalkingSlippery-v1", render_mode="rgb_array"),
        (256, 768),
        60,
        0,
    ),
    (
        "Blackjack-v1",
        {},
        lambda: gymnasium.make("Blackjack-v1", render_mode="rgb_array"),
        (376, 384),
        100,
        20,
    ),
]


def max_diff(a: np.ndarray, b: np.ndarray) -> int:
    assert a.shape == b.shape, (a.shape, b.shape)
    if np.array_equal(a, b):
        return 0
    return int(np.abs(a.astype(np.int16) - b.astype(np.int16)).max())


@pytest.mark.parametrize(("task_id", "options", "make_ref", "size", "steps", "min_episodes"), CASES)
def test_rgb_array_equals_gymnasium(task_id, options, make_ref, size, steps, min_episodes):
    seed = 11
    env = envpool.make(
        task_id, env_type="gymnasium", num_envs=2, seed=seed, render_mode="rgb_array", **options
    )
    assert "rgb_array" in env.metadata["render_modes"]
    assert env.metadata["render_fps"] == 4
    refs = [make_ref() for _ in range(2)]
    env.reset()
    for i, ref in enumerate(refs):
        ref.reset(seed=seed + i)
    rng = np.random.default_rng(5)
    done = [False, False]
    episodes = 0
    worst = 0
    for t in range(steps + 1):
        frames = env.render(env_ids=[0, 1])
        assert frames.shape == (2, *size, 3) and frames.dtype == np.uint8
        for i, ref in enumerate(refs):
            diff = max_diff(frames[i], ref.render())
            worst = max(worst, diff)
            assert diff == 0, f"{task_id} env {i} step {t}: frames differ by up to {diff}"
        if t == steps:
            break
        actions = rng.integers(refs[0].action_space.n, size=2)
        env.step(actions)
        for i, ref in enumerate(refs):
            if done[i]:  # our next_step autoreset; gymnasium's reset
                ref.reset()
                done[i] = False
            else:
                _, _, terminated, truncated, _ = ref.step(int(actions[i]))
                done[i] = terminated or truncated
                episodes += int(done[i])
    assert worst == 0
    assert episodes >= min_episodes, episodes


def test_frames_change_with_the_state():
    """A test that compares frames must see different ones: the agent moves."""
    env = envpool.make("CliffWalking-v1", env_type="gymnasium", num_envs=1, render_mode="rgb_array")
    env.reset()
    first = env.render()
    env.step(np.array([0]))  # up
    assert max_diff(first, env.render()) > 0


def test_render_modes_and_sizes():
    env = envpool.make("Taxi-v3", env_type="gymnasium", num_envs=1, render_mode="ansi")
    env.reset()
    assert isinstance(env.render()[0], str)
    with pytest.raises(ValueError, match="render_width"):
        envpool.make("Taxi-v3", env_type="gymnasium", render_mode="rgb_array", render_width=100)
    with pytest.raises(ValueError, match="render_mode"):
        envpool.make("Blackjack-v1", env_type="gymnasium", render_mode="ansi")
    with pytest.raises(ValueError, match="render_mode"):
        envpool.make("Catch-v0", env_type="gymnasium", render_mode="rgb_array")
