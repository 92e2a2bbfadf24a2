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


def python_and_xla_refusals(task_id: str, bad: np.ndarray, good: np.ndarray) -> tuple[str, str]:
    """The errors a bad action gets from `step` and from jitted `env.xla()` step
    on twin pools; then both step `good`, as if the bad action never came."""
    n = len(bad)
    python_env = envpool.make(task_id, num_envs=n, seed=7)
    xla_env = envpool.make(task_id, num_envs=n, seed=7)
    python_env.reset()
    xla_env.reset()
    handle, _, _, step = xla_env.xla()
    jitted_step = jax.jit(step)
    with pytest.raises(ValueError) as python_error:
        python_env.step(bad)
    # XLA reports a custom call's error as a RuntimeError (JaxRuntimeError).
    with pytest.raises(RuntimeError) as xla_error:
        jax.block_until_ready(jitted_step(handle, jnp.asarray(bad)))
    obs, *_, info = python_env.step(good)
    handle, (xla_obs, *_, xla_info) = jitted_step(handle, jnp.asarray(good))
    np.testing.assert_array_equal(np.asarray(xla_obs), obs)
    assert (np.asarray(xla_info["elapsed_step"]) == 1).all()
    assert (info["elapsed_step"] == 1).all()
    return str(python_error.value), str(xla_error.value)


@pytest.mark.parametrize(
    "bad",
    [
        np.array([0, 0.5, 1], np.float32),
        np.array([0, 1.9, 1], np.float32),
        np.array([0, np.inf, 1], np.float32),
        np.array([0, -np.inf, 1], np.float32),
        np.array([0, np.nan, 1], np.float32),
        np.array([0, -1.0, 1], np.float32),
        np.array([0, 2.0, 1], np.float32),
        np.array([0, -1, 1], np.int32),
        np.array([0, 2, 1], np.int32),
        np.array([0, 1 << 30, 1], np.int32),
        np.array([[0], [1], [0]], np.int32),
    ],
    ids=lambda a: f"{a.dtype}{a.tolist()}",
)
def test_a_bad_discrete_action_gets_the_same_error_from_xla_as_from_python(bad):
    python_message, xla_message = python_and_xla_refusals(
        "CartPole-v1", bad, np.array([1, 0, 1], np.int32)
    )
    assert "CartPole-v1 takes" in python_message or "must have shape" in python_message
    assert xla_message.endswith(python_message), (xla_message, python_message)


@pytest.mark.parametrize("value", [np.nan, np.inf, -np.inf])
@pytest.mark.parametrize("shape", [(3, 1), (3,)])
def test_a_non_finite_continuous_action_gets_the_same_error_from_xla_as_from_python(value, shape):
    bad = np.zeros(shape, np.float32)
    bad.ravel()[2] = value
    python_message, xla_message = python_and_xla_refusals(
        "Pendulum-v1", bad, np.full((3, 1), 0.5, np.float32)
    )
    assert "env 2 contains" in python_message
    assert xla_message.endswith(python_message), (xla_message, python_message)


def test_a_continuous_action_of_the_wrong_shape_gets_the_same_error():
    python_message, xla_message = python_and_xla_refusals(
        "Pendulum-v1", np.zeros((3, 2), np.float32), np.zeros((3, 1), np.float32)
    )
    assert "must have shape (3, 1) for 3 envs, got (3, 2)" in python_message
    assert xla_message.endswith(python_message)


def test_async_pool_goes_on_after_a_refused_xla_send():
    env = envpool.make("CartPole-v1", num_envs=4, batch_size=2, seed=0)
    env.async_reset()
    handle, recv, send, _ = env.xla()
    jitted_recv, jitted_send = jax.jit(recv), jax.jit(send)
    handle, (_, _, _, _, info) = jitted_recv(handle)
    env_id = info["env_id"]
    with pytest.raises(RuntimeError, match=r"is 0\.5, but CartPole-v1 takes whole numbers"):
        jax.block_until_ready(jitted_send(handle, jnp.array([0.5, 1.0]), env_id))
    handle = jitted_send(handle, jnp.array([1, 0], jnp.int32), env_id)
    seen = set()
    for _ in range(4):
        handle, (_, _, _, _, info) = jitted_recv(handle)
        seen.update(np.asarray(info["env_id"]).tolist())
        handle = jitted_send(handle, jnp.zeros(2, jnp.int32), info["env_id"])
    assert seen == {0, 1, 2, 3}


def test_dm_pool_xla_returns_timesteps():
    import dm_env

    env = envpool.make_dm("CartPole-v1", num_envs=3, seed=3)
    env.async_reset()
    handle, recv, _send, step = env.xla()

    @jax.jit
    def run(handle):
        handle, first = recv(handle)
        handle, ts = step(handle, jnp.zeros(3, jnp.int32))
        return handle, first, ts

    handle, first, ts = run(handle)
    assert isinstance(ts, dm_env.TimeStep)
    assert type(ts.observation).__name__ == "State"
    assert ts.observation.obs.shape == (3, 4)
    np.testing.assert_array_equal(np.asarray(first.step_type), [0, 0, 0])
    np.testing.assert_array_equal(np.asarray(ts.step_type), [1, 1, 1])
    np.testing.assert_array_equal(np.asarray(ts.observation.env_id), [0, 1, 2])
    np.testing.assert_array_equal(np.asarray(ts.observation.players.env_id), [0, 1, 2])
    expected = python_rollout(np.zeros((1, 3), np.int64), num_envs=3)
    np.testing.assert_array_equal(np.asarray(ts.observation.obs), expected[0])
    assert ts.reward.dtype == jnp.float32 and ts.discount.dtype == jnp.float32


@pytest.mark.parametrize("env_type", ["gym", "dm"])
def test_the_functions_keep_the_pool_alive_when_the_env_object_is_dropped(env_type):
    """EnvPool's xla example pattern: only the functions outlive the env object."""
    import gc

    for _ in range(5):
        env = envpool.make("CartPole-v1", env_type=env_type, num_envs=2, batch_size=2)
        env.async_reset()
        handle, recv, _send, step = env.xla()
        del env
        gc.collect()

        @jax.jit
        def loop(handle, step=step):
            def body(_, handle):
                return step(handle, jnp.zeros(2, jnp.int32))[0]

            return jax.lax.fori_loop(0, 50, body, handle)

        handle, _ = recv(handle)
        gc.collect()
        jax.block_until_ready(loop(handle))
