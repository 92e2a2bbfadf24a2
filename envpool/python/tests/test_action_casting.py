"""Actions as EnvPool users write them: whole floats for Discrete, the dict form.

Each accepted form is checked against a twin pool fed the canonical array;
each rejected one raises a clear error and steps nothing.
"""

from __future__ import annotations

import numpy as np
import pytest

import envpool


def twins(task_id: str = "CartPole-v1", env_type: str = "gym", n: int = 3, **kwargs):
    make = lambda: envpool.make(task_id, env_type=env_type, num_envs=n, seed=5, **kwargs)  # noqa: E731
    a, b = make(), make()
    a.reset()
    b.reset()
    return a, b


def obs_of(env_type: str, out):
    return out.observation.obs if env_type == "dm" else out[0]


@pytest.mark.parametrize("env_type", ["gym", "gymnasium", "dm"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16])
def test_whole_number_floats_are_valid_discrete_actions(env_type, dtype):
    a, b = twins(env_type=env_type)
    for step in range(5):
        canonical = np.array([1, 0, step % 2], dtype=np.int64)
        got = obs_of(env_type, a.step(canonical.astype(dtype)))
        want = obs_of(env_type, b.step(canonical))
        np.testing.assert_array_equal(got, want)
    # EnvPool's examples send np.ones(n)
    a.step(np.ones(3))


@pytest.mark.parametrize(
    ("action", "match"),
    [
        (np.array([0.0, 0.5, 1.0]), r"env 1 is 0\.5.*whole numbers in 0\.\.1"),
        (np.array([0.0, np.nan, 1.0]), r"env 1 is nan"),
        (np.array([0.0, 1.0, np.inf]), r"env 2 is inf"),
        (np.array([0.0, 1.0, 2.0]), r"env 2 is 2, but CartPole-v1 takes 0\.\.1"),
        (np.array([-1.0, 1.0, 0.0]), r"env 0 is -1"),
        (np.array([0, 0.5, 1], np.float16), r"env 1 is 0\.5.*whole numbers in 0\.\.1"),
        (np.array([0, 1.9, 1], np.float32), r"env 1 is 1\.899999976158142, but"),
        (np.array([0, 1, 1e20]), r"env 2 is 1e\+20, but"),
        (np.array([0, 2**64 - 1, 1], np.uint64), r"env 1 is 18446744073709551615, but"),
        (np.array([[0], [1], [1]]), r"must have shape \(3,\) for 3 envs, got \(3, 1\)"),
    ],
)
def test_bad_float_discrete_actions_raise_and_step_nothing(action, match):
    a, b = twins()
    with pytest.raises(ValueError, match=match):
        a.step(action)
    canonical = np.array([1, 1, 0])
    np.testing.assert_array_equal(a.step(canonical)[0], b.step(canonical)[0])
    assert (a.step(canonical)[4]["elapsed_step"] == 2).all()


@pytest.mark.parametrize("env_type", ["gym", "gymnasium", "dm"])
def test_dict_action_with_env_id_steps_those_envs(env_type):
    a, b = twins(env_type=env_type, n=4)
    ids = np.array([3, 1], dtype=np.int32)
    out = a.step({"action": np.array([1, 0]), "env_id": ids})
    want = b.step(np.array([1, 0]), ids)
    np.testing.assert_array_equal(obs_of(env_type, out), obs_of(env_type, want))
    if env_type == "dm":
        np.testing.assert_array_equal(out.observation.env_id, ids)
    else:
        np.testing.assert_array_equal(out[4]["env_id"], ids)


def test_an_env_id_argument_goes_before_the_dict_actions():
    a, b = twins(n=4)
    ids = np.array([3, 1], dtype=np.int32)
    action = {"action": np.array([1, 0]), "env_id": np.array([0, 2]), "players.env_id": ids}
    out = a.step(action, ids)
    np.testing.assert_array_equal(out[4]["env_id"], ids)
    np.testing.assert_array_equal(out[0], b.step(np.array([1, 0]), ids)[0])


def test_dict_action_in_async_send():
    env = envpool.make_gym("CartPole-v1", num_envs=4, batch_size=2, seed=0)
    env.async_reset()
    *_, info = env.recv()
    env.send({"action": np.zeros(2, np.int32), "env_id": info["env_id"]})
    *_, info = env.recv()
    assert len(info["env_id"]) == 2


def test_continuous_dict_action():
    a, b = twins("Pendulum-v1", n=2)
    act = np.array([[0.5], [-1.0]], np.float32)
    np.testing.assert_array_equal(
        a.step({"action": act, "env_id": np.arange(2)})[0], b.step(act)[0]
    )


@pytest.mark.parametrize("order", [">f4", ">f8", "<f4", ">i8", ">i4"])
def test_non_native_byte_order_is_converted_with_values_preserved(order):
    if order[1] == "i":
        a, b = twins()
        canonical = np.array([1, 0, 1])
    else:
        a, b = twins("Pendulum-v1")
        canonical = np.array([[0.5], [-1.5], [2.0]], np.float32)
    np.testing.assert_array_equal(a.step(canonical.astype(order))[0], b.step(canonical)[0])


def test_non_contiguous_and_fortran_actions_are_read_by_value():
    a, b = twins("Ant-v5", n=3)
    canonical = np.random.default_rng(0).uniform(-1, 1, size=(3, 8))
    strided = np.zeros((3, 16))[:, ::2]
    strided[:] = canonical
    np.testing.assert_array_equal(a.step(strided)[0], b.step(canonical)[0])
    np.testing.assert_array_equal(a.step(np.asfortranarray(canonical))[0], b.step(canonical)[0])


@pytest.mark.parametrize("value", [np.inf, -np.inf, np.nan])
def test_non_finite_continuous_actions_raise_naming_env_and_index(value):
    a, b = twins("Pendulum-v1", n=2)
    bad = np.array([[0.0], [value]], np.float32)
    with pytest.raises(ValueError, match=r"env 1 contains (-?inf|NaN) at index 0"):
        a.step(bad)
    ok = np.zeros((2, 1), np.float32)
    np.testing.assert_array_equal(a.step(ok)[0], b.step(ok)[0])
