"""Option values are checked at make, before anything is allocated, with a message naming
the option and what it accepts."""

from __future__ import annotations

import time

import numpy as np
import pytest

import envpool


@pytest.mark.parametrize(
    ("task_id", "option", "value"),
    [
        ("Ant-v5", "reset_noise_scale", float("nan")),
        ("Ant-v5", "ctrl_cost_weight", float("inf")),
        ("HalfCheetah-v4", "forward_reward_weight", -float("inf")),
        ("Pong-v5", "repeat_action_probability", float("nan")),
    ],
)
def test_non_finite_float_options_are_refused(task_id, option, value):
    with pytest.raises(ValueError, match=rf"'{option}'.*finite"):
        envpool.make(task_id, **{option: value})


@pytest.mark.parametrize("num_envs", [2**31, 2**63, 2**24 + 1, 0, -1])
def test_absurd_pool_sizes_are_refused_at_once(num_envs):
    start = time.monotonic()
    with pytest.raises(ValueError, match=r"num_envs must be in 1\.\.16777216"):
        envpool.make("CartPole-v1", num_envs=num_envs)
    assert time.monotonic() - start < 1.0


def test_a_pool_that_does_not_fit_in_memory_is_refused_before_allocating():
    start = time.monotonic()
    with pytest.raises(ValueError, match=r"GiB"):
        envpool.make("Pong-v5", num_envs=2**24)
    assert time.monotonic() - start < 1.0


@pytest.mark.parametrize(
    ("option", "value", "match"),
    [
        ("num_threads", 10**9, r"num_threads must be in 0\.\.4096"),
        ("num_threads", -2, r"num_threads"),
        ("thread_affinity_offset", -5, r"thread_affinity_offset"),
        ("max_episode_steps", 2**40, r"max_episode_steps must be in 1\.\."),
        ("max_episode_steps", 0, r"max_episode_steps"),
    ],
)
def test_pool_options_out_of_range_are_refused(option, value, match):
    with pytest.raises(ValueError, match=match):
        envpool.make("CartPole-v1", num_envs=2, **{option: value})


def test_valid_options_still_work_after_a_refusal():
    with pytest.raises(ValueError):
        envpool.make("Ant-v5", reset_noise_scale=float("nan"))
    env = envpool.make("Ant-v5", num_envs=2, reset_noise_scale=0.2)
    env.reset()
    assert np.isfinite(env.step(np.zeros((2, 8)))[0]).all()
