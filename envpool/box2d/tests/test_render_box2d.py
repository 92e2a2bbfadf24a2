"""box2d frames against gymnasium 1.4.0's `render_mode="rgb_array"` frames.

Each pool env plays beside gymnasium's env (`render_mode="rgb_array"`, on
box2d 2.3.10 and pygame 2.6.1) seeded alike, with the same actions; both are
rendered after the reset and after every step (the last step of an episode
included, before the next-step autoreset) and the frames must be equal byte
for byte.  LunarLander's exhaust particles exist only with a render mode
(they are Box2D bodies that age at each render() call), so the observations
are compared too: rendering must not change the episode.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.envs.box2d import bipedal_walker, lunar_lander
from gymnasium.wrappers import TimeLimit
from test_box2d import _lander_heuristic, _random_policy, _walker_heuristic

import envpool


def _reference(task_id: str, max_episode_steps: int, **options: Any) -> gymnasium.Env:
    if task_id.startswith("LunarLander"):
        env = lunar_lander.LunarLander(
            continuous="Continuous" in task_id, render_mode="rgb_array", **options
        )
    else:
        env = bipedal_walker.BipedalWalker(
            hardcore="Hardcore" in task_id, render_mode="rgb_array", **options
        )
    return TimeLimit(env, max_episode_steps=max_episode_steps)


def _frames_match(
    task_id: str,
    policy: Any,
    *,
    seed: int,
    num_envs: int,
    steps: int,
    max_episode_steps: int,
    every: int = 1,
    **options: Any,
) -> int:
    """Plays `steps` steps, comparing frames every `every` steps (both envs
    render at the same steps) and at each episode's end; returns the number
    of episodes that ended."""
    env = envpool.make(
        task_id,
        num_envs=num_envs,
        seed=seed,
        max_episode_steps=max_episode_steps,
        render_mode="rgb_array",
        **options,
    )
    assert env.metadata["render_modes"] == ["rgb_array", "human"]
    assert env.metadata["render_fps"] == 50
    refs = [_reference(task_id, max_episode_steps, **options) for _ in range(num_envs)]
    ids = list(range(num_envs))
    obs, _ = env.reset()
    for i, ref in enumerate(refs):
        np.testing.assert_array_equal(obs[i], ref.reset(seed=seed + i)[0])

    def compare(where: str, which: list[int]) -> None:
        if not which:
            return
        frames = env.render(env_ids=which)
        for frame, i in zip(frames, which, strict=True):
            expected = refs[i].render()
            assert frame.shape == expected.shape == (400, 600, 3), where
            diff = np.abs(frame.astype(np.int16) - expected).max(axis=-1)
            assert not diff.any(), (
                f"{where} env {i}: {int((diff > 0).sum())} pixels differ, "
                f"by up to {int(diff.max())}"
            )

    compare(f"{task_id} reset", ids)
    done = [False] * num_envs
    episodes = 0
    for t in range(1, steps + 1):
        actions = np.stack([policy(obs[i], i) for i in ids])
        obs, _, term, trunc, _ = env.step(actions)
        for i, ref in enumerate(refs):
            if done[i]:
                r_obs, _ = ref.reset()
                done[i] = False
            else:
                r_obs, _, r_term, r_trunc, _ = ref.step(actions[i])
                assert (bool(term[i]), bool(trunc[i])) == (r_term, r_trunc)
                done[i] = r_term or r_trunc
            np.testing.assert_array_equal(obs[i], r_obs, err_msg=f"{task_id} step {t}")
        ended = [i for i in ids if done[i]]
        episodes += len(ended)
        compare(f"{task_id} step {t}", ids if t % every == 0 else ended)
    env.close()
    return episodes


@pytest.mark.parametrize(
    ("task_id", "options", "every"),
    [
        ("LunarLander-v3", {}, 1),
        ("LunarLanderContinuous-v3", {}, 2),
        ("LunarLander-v3", {"enable_wind": True, "wind_power": 18.0}, 3),
    ],
)
def test_lunar_lander_frames_equal_gymnasium(
    task_id: str, options: dict[str, Any], every: int
) -> None:
    # The heuristic fires the engines (particles fly, hit the ground, fade)
    # and lands: a whole episode.
    episodes = _frames_match(
        task_id,
        _lander_heuristic("Continuous" in task_id),
        seed=11,
        num_envs=1,
        steps=330,
        max_episode_steps=1000,
        every=every,
        **options,
    )
    assert episodes >= 1


def test_lunar_lander_crash_frames_equal_gymnasium() -> None:
    space = envpool.make_spec("LunarLander-v3").action_space
    episodes = _frames_match(
        "LunarLander-v3",
        _random_policy(space, 4),
        seed=2,
        num_envs=1,
        steps=200,
        max_episode_steps=1000,
    )
    assert episodes >= 2


def test_bipedal_walker_frames_equal_gymnasium_along_the_course() -> None:
    # The gait walks the whole course: the scrolled surface grows to about
    # 3200 pixels and the clouds and terrain in view change (every 16th
    # frame; the lidar ray drawn advances per rendered frame, on both).
    episodes = _frames_match(
        "BipedalWalker-v3",
        _walker_heuristic(1),
        seed=0,
        num_envs=1,
        steps=1600,
        max_episode_steps=1600,
        every=16,
    )
    assert episodes == 1


@pytest.mark.parametrize("task_id", ["BipedalWalker-v3", "BipedalWalkerHardcore-v3"])
def test_bipedal_walker_falls_frames_equal_gymnasium(task_id: str) -> None:
    # Random torques: falls (game over) and 60-step truncations.
    space = envpool.make_spec(task_id).action_space
    episodes = _frames_match(
        task_id,
        _random_policy(space, 9),
        seed=21,
        num_envs=1,
        steps=150,
        max_episode_steps=60,
    )
    assert episodes >= 2


def test_hardcore_obstacles_frames_equal_gymnasium() -> None:
    # The gait meets stumps, stairs and pits before it falls (seeds 0, 1).
    _frames_match(
        "BipedalWalkerHardcore-v3",
        _walker_heuristic(2),
        seed=0,
        num_envs=2,
        steps=600,
        max_episode_steps=2000,
        every=8,
    )


@pytest.mark.parametrize("size", [{"render_width": 300}, {"render_height": 200}])
def test_other_sizes_are_refused(size: dict[str, int]) -> None:
    with pytest.raises(ValueError, match="renders at 600x400 only"):
        envpool.make("LunarLander-v3", num_envs=1, render_mode="rgb_array", **size)
