"""Frame-for-frame checks of a pool's `rgb_array` rendering against a reference env."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np


def assert_frames_equal_reference(
    env: Any,
    ref: Any,
    seed: int,
    actions: Sequence[np.ndarray],
    *,
    batch: Callable[[np.ndarray], np.ndarray] = lambda action: action[None],
    stop_at_episode_end: bool = False,
) -> None:
    """Reset both envs and compare env 0's frame with the reference's, byte for byte.

    `env` is a pool made with `render_mode="rgb_array"` and `ref` a gymnasium
    env made with the same size; `ref` is reset with `seed` (the pool's env 0
    plays that seed). After the reset and after each of `actions` (stepped in
    `ref` as is and in the pool as `batch(action)`, one row per env by
    default) `env.render()[0]` must equal `ref.render()`. With
    `stop_at_episode_end` the check ends with the reference's episode.
    Both envs stay open (the caller closes them).
    """
    assert env.metadata["render_fps"] == ref.metadata["render_fps"]
    env.reset()
    ref.reset(seed=seed)
    np.testing.assert_array_equal(env.render()[0], ref.render(), err_msg="reset")
    for t, action in enumerate(actions):
        _, _, terminated, truncated, _ = ref.step(action)
        env.step(batch(action))
        np.testing.assert_array_equal(env.render()[0], ref.render(), err_msg=f"step {t}")
        if stop_at_episode_end and (terminated or truncated):
            break
