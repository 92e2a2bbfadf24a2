"""A seeded random harness of bad calls, interleaved with good ones.

For one id of every family (CartPole-v1: Discrete, Pendulum-v1: Box,
Taxi-v3: Discrete observation, Pong-v5: images, Ant-v5: a large Box,
CheetahRun-v1: a dict observation, CoinrunEasy-v0, MiniGrid-DoorKey-5x5-v0,
LunarLanderContinuous-v3, Basic-v1: ViZDoom) in the gymnasium and
dm types, sync and async, a pool under test gets between
good calls a random number of bad ones drawn from the generators below
(wrong shape, a dtype numpy cannot cast safely, out-of-range, fractional and
non-finite values, env ids out of range, repeated, fractional, of the wrong
length or already in flight, a second send; at the end a recv with nothing in flight).
Each bad call must raise a ValueError, TypeError or RuntimeError, and lose
nothing: every env's k-th output equals that of a twin pool given only
the good calls (actions depend on the seed, the env and its step count, so
async batching does not change what an env sees). After close, every call raises a
RuntimeError. The seed of each case is in its id, so a failure replays.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
import pytest

import envpool

# One id of every family.
TASKS = [
    "CartPole-v1",
    "Pendulum-v1",
    "Taxi-v3",
    "Pong-v5",
    "Ant-v5",
    "CheetahRun-v1",
    "CoinrunEasy-v0",
    "MiniGrid-DoorKey-5x5-v0",
    "LunarLanderContinuous-v3",
    "Basic-v1",
]
NUM_ENVS = 4
ITERATIONS = {
    "Pong-v5": 12,
    "Ant-v5": 25,
    "CheetahRun-v1": 25,
    "CoinrunEasy-v0": 20,
    "Basic-v1": 15,
}
BAD_ERRORS = (ValueError, TypeError, RuntimeError)


def _make(task: str, env_type: str, is_async: bool) -> Any:
    options: dict[str, Any] = {"num_envs": NUM_ENVS, "seed": 3}
    options["batch_size"] = NUM_ENVS // 2 if is_async else NUM_ENVS
    if task == "Pong-v5":
        options["img_height"] = options["img_width"] = 42
    return envpool.make(task, env_type=env_type, **options)


def _tree(out: Any) -> list[np.ndarray]:
    """Every array of a gymnasium tuple or a dm TimeStep, in a fixed order."""
    leaves: list[np.ndarray] = []

    def walk(x: Any) -> None:
        if isinstance(x, dict):
            for key in sorted(x):
                walk(x[key])
        elif isinstance(x, tuple | list):
            for item in x:
                walk(item)
        elif x is None:
            leaves.append(np.array([]))
        else:
            leaves.append(np.asarray(x))

    walk(out)
    return leaves


def _env_ids(out: Any, env_type: str) -> np.ndarray:
    if env_type == "dm":
        return np.asarray(out.observation.env_id)
    return np.asarray(out[-1]["env_id"])


def _good_action(rng: np.random.Generator, space: gymnasium.Space, n: int) -> np.ndarray:
    if isinstance(space, gymnasium.spaces.Discrete):
        return rng.integers(space.start, space.start + space.n, size=n)
    # unbounded dimensions (ViZDoom's buttons) are drawn from [-1, 1]
    low = np.broadcast_to(np.where(np.isfinite(space.low), space.low, -1.0), space.shape)
    high = np.broadcast_to(np.where(np.isfinite(space.high), space.high, 1.0), space.shape)
    return rng.uniform(low, high, size=(n, *space.shape)).astype(space.dtype)


# Each generator returns (description, the bad call) or None where it does
# not apply. `ctx` holds the pool, the good action and env ids of this step.
def _wrong_length(ctx: dict) -> Any:
    act, ids = ctx["act"], ctx["ids"]
    longer = np.concatenate([act, act[:1]])
    return "an action for one env more", lambda env: ctx["call"](env, longer, ids)


def _extra_dim(ctx: dict) -> Any:
    return "an extra trailing dim", lambda env: ctx["call"](env, ctx["act"][..., None], ctx["ids"])


def _string_dtype(ctx: dict) -> Any:
    return "a string array", lambda env: ctx["call"](env, ctx["act"].astype(str), ctx["ids"])


def _object_dtype(ctx: dict) -> Any:
    act = ctx["act"].astype(object)
    act.flat[ctx["rng"].integers(act.size)] = None
    return "an object array holding None", lambda env: ctx["call"](env, act, ctx["ids"])


def _complex_dtype(ctx: dict) -> Any:
    act = ctx["act"].astype(np.complex128) + 1j
    return "a complex array", lambda env: ctx["call"](env, act, ctx["ids"])


def _out_of_range(ctx: dict) -> Any:
    space, rng = ctx["space"], ctx["rng"]
    act = ctx["act"].copy()
    if isinstance(space, gymnasium.spaces.Discrete):
        act = act.astype(np.int64)
        act[rng.integers(len(act))] = rng.choice([space.n, -1, 2**40, -(2**40)])
        what = "a discrete action out of range"
    else:
        act = act.astype(np.float64)
        act.flat[rng.integers(act.size)] = rng.choice([np.nan, np.inf, -np.inf])
        what = "a non-finite continuous action"
    return what, lambda env: ctx["call"](env, act, ctx["ids"])


def _fractional(ctx: dict) -> Any:
    if not isinstance(ctx["space"], gymnasium.spaces.Discrete):
        return None
    act = ctx["act"].astype(np.float64)
    act[ctx["rng"].integers(len(act))] += 0.5
    return "a fractional discrete action", lambda env: ctx["call"](env, act, ctx["ids"])


def _env_id_out_of_range(ctx: dict) -> Any:
    ids = ctx["ids"].astype(np.int64)
    ids[ctx["rng"].integers(len(ids))] = ctx["rng"].choice([NUM_ENVS, -1, 2**31, -(2**40)])
    return "an env id out of range", lambda env: ctx["call"](env, ctx["act"], ids)


def _env_id_repeated(ctx: dict) -> Any:
    ids = ctx["ids"].copy()
    if len(ids) < 2:
        return None
    ids[1] = ids[0]
    return "a repeated env id", lambda env: ctx["call"](env, ctx["act"], ids)


def _env_id_fractional(ctx: dict) -> Any:
    ids = ctx["ids"].astype(np.float64) + 0.5
    return "fractional env ids", lambda env: ctx["call"](env, ctx["act"], ids)


def _env_id_short(ctx: dict) -> Any:
    return "one env id fewer", lambda env: ctx["call"](env, ctx["act"], ctx["ids"][:-1])


def _env_id_in_flight(ctx: dict) -> Any:
    if not ctx["is_async"]:
        return None
    # The envs not in this batch are still stepping (or waiting to be recv'd).
    busy = np.setdiff1d(np.arange(NUM_ENVS), ctx["ids"])[: len(ctx["ids"])]
    return "env ids already in flight", lambda env: ctx["call"](env, ctx["act"], busy)


GENERATORS: list[Callable[[dict], Any]] = [
    _wrong_length,
    _extra_dim,
    _string_dtype,
    _object_dtype,
    _complex_dtype,
    _out_of_range,
    _fractional,
    _env_id_out_of_range,
    _env_id_repeated,
    _env_id_fractional,
    _env_id_short,
    _env_id_in_flight,
]


CASES = [
    (task, env_type, is_async, seed)
    for seed, (task, env_type, is_async) in enumerate(
        (t, e, a) for t in TASKS for e in ("gymnasium", "dm") for a in (False, True)
    )
]


def _rows(out: Any, env_type: str) -> dict[int, list[np.ndarray]]:
    """Each env's row of every output array (all arrays are batch-first)."""
    leaves = _tree(out)
    return {int(e): [leaf[r] for leaf in leaves] for r, e in enumerate(_env_ids(out, env_type))}


class Driver:
    """Steps one pool with actions that depend only on (seed, env, step), so
    two pools get the same action sequence per env however async batches
    them; records each env's k-th output."""

    def __init__(self, pool: Any, task: str, env_type: str, is_async: bool, seed: int) -> None:
        self.pool, self.env_type, self.is_async, self.seed = pool, env_type, is_async, seed
        self.space = envpool.make_spec(task).action_space
        self.count = [0] * NUM_ENVS
        self.outputs: dict[tuple[int, int], list[np.ndarray]] = {}
        if is_async:
            pool.async_reset()
            self._record(pool.recv())
        else:
            self._record(pool.reset())

    def _record(self, out: Any) -> None:
        self.out = out
        for e, row in _rows(out, self.env_type).items():
            self.outputs[(e, self.count[e])] = row
            self.count[e] += 1

    def next_call(self) -> tuple[np.ndarray, np.ndarray]:
        ids = _env_ids(self.out, self.env_type).copy()
        acts = [
            _good_action(np.random.default_rng([self.seed, e, self.count[e]]), self.space, 1)[0]
            for e in ids
        ]
        return np.stack(acts), ids

    def call(self, pool: Any, act: Any, ids: Any) -> Any:
        return pool.send(act, ids) if self.is_async else pool.step(act, ids)

    def good(self, act: np.ndarray, ids: np.ndarray) -> None:
        if self.is_async:
            self.pool.send(act, ids)
            self._record(self.pool.recv())
        else:
            self._record(self.pool.step(act, ids))


@pytest.mark.parametrize(("task", "env_type", "is_async", "seed"), CASES)
def test_random_bad_calls_raise_and_lose_nothing(task, env_type, is_async, seed):
    rng = np.random.default_rng(seed)
    env = Driver(_make(task, env_type, is_async), task, env_type, is_async, seed)
    twin = Driver(_make(task, env_type, is_async), task, env_type, is_async, seed)
    given: list[str] = []
    iterations = ITERATIONS.get(task, 40)
    for _ in range(iterations):
        act, ids = env.next_call()
        ctx = {
            "act": act,
            "ids": ids,
            "space": env.space,
            "rng": rng,
            "call": env.call,
            "is_async": is_async,
        }
        for _ in range(int(rng.integers(0, 4))):
            made = GENERATORS[int(rng.integers(len(GENERATORS)))](ctx)
            if made is None:
                continue
            what, bad = made
            given.append(what)
            with pytest.raises(BAD_ERRORS):
                bad(env.pool)
        if is_async:
            env.pool.send(act, ids)
            given.append("a second send of the same envs")
            with pytest.raises(BAD_ERRORS):
                env.pool.send(act, ids)
            env._record(env.pool.recv())
        else:
            env.good(act, ids)
        twin.good(*twin.next_call())
    # Something of most kinds was given (the draws are seeded: this holds).
    assert len(set(given)) >= 5, given
    shared = sorted(set(env.outputs) & set(twin.outputs))
    assert len(shared) >= iterations, (len(shared), iterations)
    for key in shared:
        for k, (x, y) in enumerate(zip(env.outputs[key], twin.outputs[key], strict=True)):
            np.testing.assert_array_equal(
                x, y, err_msg=f"{task} {env_type} env {key[0]} output {key[1]}: leaf {k}"
            )
    pool = env.pool
    act, ids = env.next_call()
    if is_async:
        # Drain the pool: then a recv has nothing in flight.
        pool.send(act, ids)
        pool.recv()
        pool.recv()
        with pytest.raises(RuntimeError):
            pool.recv()
    pool.close()
    twin.pool.close()
    for after_close in [
        lambda: pool.step(act, ids),
        lambda: pool.send(act, ids),
        pool.recv,
        pool.reset,
    ]:
        with pytest.raises(RuntimeError):
            after_close()
