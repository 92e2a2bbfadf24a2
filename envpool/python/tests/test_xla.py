"""env.xla(): jitted send/recv/step agree with the Python API (JAX on CPU)."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import envpool

STEPS = 60


def python_rollout(actions: np.ndarray, **kwargs) -> np.ndarray:
    env = envpool.make("CartPole-v1", seed=3, **kwargs)
    env.reset()
    return np.stack([env.step(a)[0].copy() for a in actions])


def test_jitted_fori_loop_matches_the_python_api():
    n = 4
    actions = np.random.default_rng(0).integers(0, 2, size=(STEPS, n))
    env = envpool.make("CartPole-v1", num_envs=n, seed=3)
    env.reset()
    handle, _recv, _send, step = env.xla()

    @jax.jit
    def rollout(handle, actions):
        def body(i, carry):
            handle, trajectory, rewards = carry
            handle, (obs, reward, _, _, _info) = step(handle, actions[i])
            return handle, trajectory.at[i].set(obs), rewards + reward

        init = (handle, jnp.zeros((STEPS, n, 4), jnp.float32), jnp.zeros(n, jnp.float32))
        return jax.lax.fori_loop(0, STEPS, body, init)

    handle, trajectory, rewards = rollout(handle, jnp.asarray(actions, jnp.int32))
    expected = python_rollout(actions, num_envs=n)
    np.testing.assert_array_equal(np.asarray(trajectory), expected)
    assert np.asarray(rewards).max() <= STEPS


def test_async_recv_send_inside_jit():
    env = envpool.make("CartPole-v1", num_envs=4, batch_size=2, seed=0)
    env.async_reset()
    handle, recv, send, _ = env.xla()

    @jax.jit
    def loop(handle):
        def body(_, carry):
            handle, seen = carry
            handle, (_obs, _, _, _, info) = recv(handle)
            handle = send(handle, jnp.zeros(2, jnp.int32), info["env_id"])
            return handle, seen.at[info["env_id"]].add(1)

        return jax.lax.fori_loop(0, 20, body, (handle, jnp.zeros(4, jnp.int32)))

    handle, seen = loop(handle)
    assert int(seen.sum()) == 40 and (np.asarray(seen) > 0).all()


def test_bad_actions_inside_jit_raise():
    env = envpool.make("CartPole-v1", num_envs=2)
    env.reset()
    handle, _, _, step = env.xla()
    with pytest.raises(Exception, match="out of range"):
        jax.block_until_ready(step(handle, jnp.array([0, 5], jnp.int32)))
