"""CleanRL's `ppo_continuous_action_envpool_xla_jax_scan.py` rollout pattern:
`jax_enable_x64` on (the script enables it for float64 MuJoCo actions),
float32 episode statistics carried through `jax.lax.scan` over `env.xla()`'s
`step`. The carry keeps its dtypes only if the reward is float32, EnvPool's
contract (`reward` is float32 in every family's spec).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import envpool


@pytest.fixture
def x64():
    previous = jax.config.jax_enable_x64
    jax.config.update("jax_enable_x64", True)
    yield
    jax.config.update("jax_enable_x64", previous)


@pytest.mark.parametrize("task_id", ["Hopper-v4", "HalfCheetah-v5", "Pendulum-v1"])
def test_scan_rollout_carries_float32_returns_with_x64_enabled(x64, task_id):
    num_envs, num_steps = 4, 64
    env = envpool.make(task_id, env_type="gym", num_envs=num_envs, seed=1)
    action_dim = env.action_space.shape[0]
    low, high = env.action_space.low, env.action_space.high
    handle, _recv, _send, step_env = env.xla()
    env.reset()

    def rollout_step(carry, key):
        handle, returns, lengths, returned = carry
        action = jax.random.uniform(key, (num_envs, action_dim), minval=-1.0, maxval=1.0)
        action = (low + (action + 1.0) * (high - low) / 2.0).astype(jnp.float64)
        handle, (obs, reward, terminated, truncated, _info) = step_env(handle, action)
        done = terminated | truncated
        new_returns = returns + reward
        returned = jnp.where(done, new_returns, returned)
        returns = new_returns * (1 - terminated) * (1 - truncated)
        lengths = (lengths + 1) * (1 - done)
        return (handle, returns, lengths, returned), (obs, reward, done)

    carry = (
        handle,
        jnp.zeros(num_envs, jnp.float32),
        jnp.zeros(num_envs, jnp.int32),
        jnp.zeros(num_envs, jnp.float32),
    )
    keys = jax.random.split(jax.random.PRNGKey(0), num_steps)
    carry, (obs, rewards, _dones) = jax.jit(lambda c, k: jax.lax.scan(rollout_step, c, k))(
        carry, keys
    )
    assert rewards.dtype == jnp.float32
    assert carry[1].dtype == jnp.float32 and carry[3].dtype == jnp.float32
    assert obs.shape == (num_steps, num_envs, *env.observation_space.shape)
    assert np.isfinite(np.asarray(rewards)).all() and np.abs(np.asarray(rewards)).sum() > 0


def test_xla_reward_is_float32_with_and_without_x64(x64):
    for enable in (True, False):
        jax.config.update("jax_enable_x64", enable)
        env = envpool.make("Hopper-v4", num_envs=2)
        env.async_reset()
        handle, recv, _send, _step = env.xla()
        _handle, (obs, reward, *_rest) = recv(handle)
        assert reward.dtype == jnp.float32
        assert obs.dtype == (jnp.float64 if enable else jnp.float32)
