"""Every registered id conforms to the API contract (envpool.testing.conformance).

`test_id_conforms_to_the_api_contract` runs `check_env` over every id of
`envpool.list_all_envs()`, multi-player ids included, and
`test_multi_player_test_id_conforms` over the core's multi-player test envs
(players acting at once, a turn-based game with and without legal-action
masks, a varying player count). The tests after them show that `check_env`
fails on defects: each wraps the pools it makes so that they break one rule,
and expects the AssertionError that names it. An engine bug `check_env` has
to tolerate goes into `KNOWN_BUGS` with a strict xfail test.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import envpool
from envpool.testing import conformance
from envpool.testing.conformance import (
    KNOWN_BUGS,
    SEED_INDEPENDENT,
    SEED_INDEPENDENT_RESET,
    check_env,
)
from envpool.testing.sampling import SAMPLE_ABOVE, sampled_ids

# The core's multi-player test envs (envpool/core/testing/test_envs.h), as
# test_multiplayer.py registers them.
envpool.register("TestTeam-v0", family="testing", env_class="TestTeam")
envpool.register("TestDuel-v0", family="testing", env_class="TestDuel")
envpool.register("TestDuelBox-v0", family="testing", env_class="TestDuel", continuous=True)
envpool.register("TestTurns-v0", family="testing", env_class="TestTurns")
envpool.register("TestTurnsMasked-v0", family="testing", env_class="TestTurns", legal_mask=True)
MULTI_PLAYER_TEST_IDS = [
    "TestTeam-v0",  # 1..3 players by seed, one action per env
    "TestDuel-v0",  # 2 players acting at once: one action row per player
    "TestDuelBox-v0",  # the same with a continuous action
    "TestTurns-v0",  # turn-based: one action per env, info["current_player"]
    "TestTurnsMasked-v0",  # and info["legal_action_mask"]; an illegal move is an env error
]
# TestDuel has no randomness at all (the testing family has no
# registration.py to declare it in).
DETERMINISTIC_TEST_IDS = frozenset({"TestDuel-v0", "TestDuelBox-v0"})

# Every registered id (large families sampled: envpool.testing.sampling;
# ENVPOOL_TEST_ALL=1 for all); tests may register ids of the core's test envs
# (the "testing" family, e.g. test_multiplayer.py's TestTeam-v0) before this runs.
IDS = sampled_ids(
    t for t in envpool.list_all_envs() if envpool.make_spec(t).entry.family != "testing"
)


@pytest.mark.parametrize("task_id", IDS)
def test_id_conforms_to_the_api_contract(task_id: str) -> None:
    check_env(task_id)


def test_large_families_are_sampled_and_keep_their_smoke_id(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from envpool.python.registry import family_declaration

    monkeypatch.delenv("ENVPOOL_TEST_ALL", raising=False)
    every = sorted(envpool.list_all_envs())
    kept = set(sampled_ids(every))
    by_family: dict[str, list[str]] = {}
    for t in every:
        by_family.setdefault(envpool.make_spec(t).entry.family, []).append(t)
    for family, ids in by_family.items():
        ours = [t for t in ids if t in kept]
        # A family's slow ids are its own tests' (SLOW_TEST_IDS): registered
        # ids, never the smoke id, left out here.
        slow = family_declaration(family, "SLOW_TEST_IDS", {})
        assert set(slow) <= set(ids), family
        assert family_declaration(family, "SMOKE_TEST_ID") not in slow, family
        ids = [t for t in ids if t not in slow]
        if len(ids) <= SAMPLE_ABOVE:
            assert ours == ids, family
        else:
            assert len(ours) < len(ids) / 2, family
            smoke = family_declaration(family, "SMOKE_TEST_ID")
            assert smoke is None or smoke in ours, family
    monkeypatch.setenv("ENVPOOL_TEST_ALL", "1")
    assert sampled_ids(every) == every


@pytest.fixture
def test_ids_declared(monkeypatch: pytest.MonkeyPatch) -> None:
    """The deterministic test ids declared as a family declares its own."""
    for name in ("SEED_INDEPENDENT", "SEED_INDEPENDENT_RESET"):
        monkeypatch.setattr(conformance, name, getattr(conformance, name) | DETERMINISTIC_TEST_IDS)


@pytest.mark.parametrize("task_id", MULTI_PLAYER_TEST_IDS)
def test_multi_player_test_id_conforms(task_id: str, test_ids_declared: None) -> None:
    assert envpool.make_spec(task_id).config.max_num_players > 1
    check_env(task_id)


def test_seed_independent_ids_are_registered_fixed_start_ids() -> None:
    assert SEED_INDEPENDENT <= SEED_INDEPENDENT_RESET <= set(envpool.list_all_envs())


# -- same_step's final_info is the ended step's info -------------------------------


@pytest.mark.parametrize("task_id", ["CartPole-v1", "Pong-v5"])
def test_same_step_final_info_has_the_keys_of_info(task_id: str) -> None:
    env = envpool.make(task_id, num_envs=1, max_episode_steps=1, autoreset_mode="same_step")
    env.reset()
    _, _, _, truncated, info = env.step(np.zeros(1, np.int64))
    assert truncated[0]
    shown = set(info) - {"final_obs", "_final_obs", "final_info", "_final_info"}
    final = {k for k in info["final_info"] if not k.startswith("_")}
    assert final == shown, (sorted(final), sorted(shown))


# -- check_env fails on defects -------------------------------------------------------

Hook = Callable[..., Any]


class Method:
    """A pool's method as a hook gets it: called as the method, `pool` the pool it is of."""

    def __init__(self, method: Callable[..., Any], pool: Any) -> None:
        self._method = method
        self.pool = pool

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._method(*args, **kwargs)


class Defective:
    """A pool whose methods named in `hooks` go through `hook(method, *args, **kwargs)`."""

    def __init__(self, env: Any, hooks: dict[str, Hook]) -> None:
        self._env = env
        self._hooks = hooks

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._env, name)
        hook = self._hooks.get(name)
        if hook is None:
            return attr
        method = Method(attr, self._env)
        return lambda *args, **kwargs: hook(method, *args, **kwargs)


def inject(
    monkeypatch: pytest.MonkeyPatch,
    hooks: dict[str, Hook],
    when: Callable[[dict[str, Any]], bool] = lambda options: True,
    options: Callable[[dict[str, Any]], dict[str, Any]] = lambda options: options,
) -> None:
    """Make check_env's pools (those whose make() options satisfy `when`) defective."""
    real_make = envpool.make

    def make(task_id: str, **kwargs: Any) -> Any:
        if "no_such_option" in kwargs or not when(kwargs):
            return real_make(task_id, **kwargs)
        return Defective(real_make(task_id, **options(kwargs)), hooks)

    monkeypatch.setattr(conformance.envpool, "make", make)


def gymnasium_pool(options: dict[str, Any]) -> bool:
    """The sync next_step gymnasium pool: the reference."""
    return options.get("env_type") == "gymnasium"


def test_catches_rewards_that_are_not_float32(monkeypatch: pytest.MonkeyPatch) -> None:
    def step(method: Hook, *args: Any) -> tuple:
        obs, reward, terminated, truncated, info = method(*args)
        return obs, reward.astype(np.float64), terminated, truncated, info

    inject(monkeypatch, {"step": step}, gymnasium_pool)
    with pytest.raises(AssertionError, match="reward is float64"):
        check_env("CartPole-v1")


def test_catches_observations_outside_the_space(monkeypatch: pytest.MonkeyPatch) -> None:
    def step(method: Hook, *args: Any) -> tuple:
        obs, *rest = method(*args)
        return (obs * 100, *rest)

    inject(monkeypatch, {"step": step}, gymnasium_pool)
    with pytest.raises(AssertionError, match="not in single_observation_space"):
        check_env("CartPole-v1")


def test_catches_a_first_step_that_is_not_the_reset(monkeypatch: pytest.MonkeyPatch) -> None:
    def send(method: Hook, *args: Any) -> None:
        pool = method.pool
        if not getattr(pool, "_was_reset", False):
            pool._was_reset = True
            pool.reset()
        method(*args)

    inject(monkeypatch, {"send": send}, gymnasium_pool)
    with pytest.raises(AssertionError, match="first step of a never-reset pool"):
        check_env("CartPole-v1")


def test_catches_a_reset_that_ignores_its_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    def reset(method: Hook, *args: Any, seed: Any = None, **kwargs: Any) -> Any:
        return method(*args, **kwargs)

    inject(monkeypatch, {"reset": reset}, gymnasium_pool)
    with pytest.raises(AssertionError, match="is not env 1 of the pool made with seed"):
        check_env("CartPole-v1")


def test_catches_a_partial_reset_that_seeds_env_k_with_s(monkeypatch: pytest.MonkeyPatch) -> None:
    def reset(method: Hook, env_id: Any = None, seed: Any = None, **kwargs: Any) -> Any:
        if env_id is not None and isinstance(seed, int):
            seed = [seed] * len(env_id)  # env k gets s, not s + k
        return method(env_id, seed=seed, **kwargs)

    inject(monkeypatch, {"reset": reset}, gymnasium_pool)
    with pytest.raises(AssertionError, match="does not repeat its rollout of seed"):
        check_env("CartPole-v1")


def test_catches_seeds_that_change_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    def reset(method: Hook, env_id: Any = None, seed: Any = None, **kwargs: Any) -> Any:
        if seed is not None:
            seed = [0] * (2 if env_id is None else len(env_id))
        return method(env_id, seed=seed, **kwargs)

    def zero_seeds(options: dict[str, Any]) -> dict[str, Any]:
        return {**options, "seed": [0, 0]}

    inject(monkeypatch, {"reset": reset}, options=zero_seeds)
    with pytest.raises(AssertionError, match="give the same reset"):
        check_env("CartPole-v1")


def test_catches_a_missing_truncation(monkeypatch: pytest.MonkeyPatch) -> None:
    def step(method: Hook, *args: Any) -> tuple:
        obs, reward, terminated, truncated, info = method(*args)
        return obs, reward, terminated, np.zeros_like(truncated), info

    inject(monkeypatch, {"step": step}, gymnasium_pool)
    with pytest.raises(AssertionError, match="not truncated at max_episode_steps"):
        check_env("CartPole-v1")


def test_catches_same_step_without_final_obs(monkeypatch: pytest.MonkeyPatch) -> None:
    def step(method: Hook, *args: Any) -> tuple:
        obs, reward, terminated, truncated, info = method(*args)
        for key in ("final_obs", "_final_obs", "final_info", "_final_info"):
            info.pop(key, None)
        return obs, reward, terminated, truncated, info

    inject(monkeypatch, {"step": step}, lambda o: o.get("autoreset_mode") == "same_step")
    with pytest.raises(AssertionError, match="no final_obs/final_info"):
        check_env("CartPole-v1")


def test_catches_a_disabled_pool_that_autoresets(monkeypatch: pytest.MonkeyPatch) -> None:
    def next_step(options: dict[str, Any]) -> dict[str, Any]:
        return {**options, "autoreset_mode": "next_step"}

    inject(monkeypatch, {}, lambda o: o.get("autoreset_mode") == "disabled", next_step)
    with pytest.raises(AssertionError, match=r"step of ended envs .*no error"):
        check_env("CartPole-v1")


def test_catches_an_out_of_range_action_that_is_clipped(monkeypatch: pytest.MonkeyPatch) -> None:
    def step(method: Hook, action: Any, *args: Any) -> Any:
        if isinstance(action, np.ndarray) and action.shape == (2,):
            action = np.clip(action, 0, 1)
        return method(action, *args)

    inject(monkeypatch, {"step": step}, lambda o: o.get("env_type") == "dm")
    with pytest.raises(AssertionError, match=r"above the range 0\.\.1: no error"):
        check_env("CartPole-v1")


def test_catches_a_bad_input_that_steps_the_valid_envs(monkeypatch: pytest.MonkeyPatch) -> None:
    def step(method: Hook, action: Any, env_id: Any = None) -> Any:
        if env_id is not None and (np.asarray(env_id) >= 2).any():
            keep = np.asarray(env_id) < 2
            method(np.asarray(action)[keep], np.asarray(env_id)[keep])
        return method(action, env_id)

    inject(monkeypatch, {"step": step}, lambda o: o.get("env_type") == "dm")
    with pytest.raises(AssertionError, match=r"after the bad inputs .* differs from the gymnasium"):
        check_env("CartPole-v1")


def test_catches_dm_discount_zero_on_truncation(monkeypatch: pytest.MonkeyPatch) -> None:
    def step(method: Hook, *args: Any) -> Any:
        timestep = method(*args)
        discount = np.where(timestep.step_type == 2, 0.0, timestep.discount)
        return timestep._replace(discount=discount.astype(np.float32))

    inject(monkeypatch, {"step": step}, lambda o: o.get("env_type") == "dm")
    with pytest.raises(AssertionError, match="expected 0 on termination and 1 otherwise"):
        check_env("CartPole-v1")


def test_catches_an_async_pool_that_accepts_a_second_send(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def send(method: Hook, action: Any, env_id: Any = None) -> None:
        try:
            method(action, env_id)
        except RuntimeError as e:
            if "in flight" not in str(e):
                raise

    inject(monkeypatch, {"send": send}, lambda o: o.get("env_type") == "gym")
    with pytest.raises(AssertionError, match=r"a second send to env \d+ in flight: no error"):
        check_env("CartPole-v1")


def test_catches_calls_that_work_after_close(monkeypatch: pytest.MonkeyPatch) -> None:
    inject(monkeypatch, {"close": lambda method: None}, gymnasium_pool)
    with pytest.raises(AssertionError, match=r"reset\(\) after close\(\): no error"):
        check_env("CartPole-v1")


def test_check_env_refuses_too_few_steps_and_unknown_bug_names() -> None:
    with pytest.raises(ValueError, match="steps"):
        check_env("CartPole-v1", steps=4)
    with pytest.raises(ValueError, match="no known bug"):
        check_env("CartPole-v1", tolerate=frozenset({"no_such_bug"}))


def test_catches_a_deterministic_id_missing_from_the_exclusions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(conformance, "SEED_INDEPENDENT", frozenset())
    with pytest.raises(AssertionError, match="give the same rollout for the same actions"):
        check_env("CliffWalking-v1")
    monkeypatch.setattr(conformance, "SEED_INDEPENDENT_RESET", frozenset())
    with pytest.raises(AssertionError, match="give the same reset"):
        check_env("FrozenLake-v1")


@pytest.mark.parametrize("name", ["SEED_INDEPENDENT", "SEED_INDEPENDENT_RESET"])
def test_catches_a_random_id_listed_as_seed_independent(
    monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    monkeypatch.setattr(conformance, name, frozenset({"CartPole-v1"}))
    with pytest.raises(AssertionError, match=f"listed in {name},.*take it off the list"):
        check_env("CartPole-v1")


# -- multi-player ids ---------------------------------------------------------------


@pytest.mark.xfail(strict=True, raises=AssertionError, reason=KNOWN_BUGS["same_step_player_count"])
def test_known_bug_same_step_player_count() -> None:
    check_env("TestTeam-v0", tolerate=frozenset())


def _player_rows_interleaved(method: Hook, *args: Any) -> tuple:
    """A step whose `players.env_id` interleaves the envs' rows (0, 1, 0, 1)."""
    obs, reward, terminated, truncated, info = method(*args)
    players = info["players"]["env_id"]
    info["players"]["env_id"] = np.sort(players).reshape(-1, 2).T.reshape(-1)
    return obs, reward, terminated, truncated, info


def test_catches_player_rows_that_are_not_consecutive(
    monkeypatch: pytest.MonkeyPatch, test_ids_declared: None
) -> None:
    inject(monkeypatch, {"step": _player_rows_interleaved}, gymnasium_pool)
    with pytest.raises(AssertionError, match=r"player rows \[0, 2\] of env 0 are not consecutive"):
        check_env("TestDuel-v0")


def test_catches_a_reward_per_env_not_per_player(
    monkeypatch: pytest.MonkeyPatch, test_ids_declared: None
) -> None:
    def step(method: Hook, *args: Any) -> tuple:
        obs, reward, terminated, truncated, info = method(*args)
        return obs, reward[::2], terminated, truncated, info

    inject(monkeypatch, {"step": step}, gymnasium_pool)
    with pytest.raises(AssertionError, match=r"reward is float32\(2,\), expected float32 \(4,\)"):
        check_env("TestDuel-v0")


def test_catches_a_player_missing_where_actions_are_per_player(
    monkeypatch: pytest.MonkeyPatch, test_ids_declared: None
) -> None:
    def step(method: Hook, *args: Any) -> tuple:
        obs, reward, terminated, truncated, info = method(*args)
        info["players"]["env_id"] = info["players"]["env_id"][:-1]
        return obs[:-1], reward[:-1], terminated, truncated, info

    inject(monkeypatch, {"step": step}, gymnasium_pool)
    with pytest.raises(AssertionError, match=r"has 1 player rows, expected 2 \(its action is per"):
        check_env("TestDuel-v0")


def test_player_rows_in_another_env_order_conform(
    monkeypatch: pytest.MonkeyPatch, test_ids_declared: None
) -> None:
    # The pool puts the envs' player rows in the order they finished: env
    # 1's rows before env 0's is a valid result, compared env by env.
    def step(method: Hook, *args: Any) -> tuple:
        obs, reward, terminated, truncated, info = method(*args)
        order = np.argsort(-info["players"]["env_id"], kind="stable")
        info["players"]["env_id"] = info["players"]["env_id"][order]
        return obs[order], reward[order], terminated, truncated, info

    inject(monkeypatch, {"step": step}, gymnasium_pool)
    check_env("TestDuel-v0")


def test_catches_player_rows_of_another_env(
    monkeypatch: pytest.MonkeyPatch, test_ids_declared: None
) -> None:
    def step(method: Hook, *args: Any) -> tuple:
        obs, reward, terminated, truncated, info = method(*args)
        info["players"]["env_id"] = 1 - info["players"]["env_id"]  # envs 0 and 1 swapped
        return obs, reward, terminated, truncated, info

    inject(monkeypatch, {"step": step}, lambda o: o.get("autoreset_mode") == "same_step")
    with pytest.raises(AssertionError, match="same_step pool, step 1: env 0"):
        check_env("TestTeam-v0")


def test_catches_a_pool_that_takes_one_action_per_env_for_per_player_actions(
    monkeypatch: pytest.MonkeyPatch, test_ids_declared: None
) -> None:
    def step(method: Hook, action: Any, *args: Any) -> Any:
        if isinstance(action, np.ndarray) and action.shape == (2,):
            action = np.repeat(action, 2)  # each env's action for both players
        return method(action, *args)

    inject(monkeypatch, {"step": step}, lambda o: o.get("env_type") == "dm")
    with pytest.raises(AssertionError, match=r"one row per env \(not per player\).*: no error"):
        check_env("TestDuel-v0")


def test_catches_a_pool_that_takes_one_action_per_player_for_per_env_actions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def step(method: Hook, action: Any, *args: Any) -> Any:
        if isinstance(action, np.ndarray) and action.shape == (4,):
            action = action[::2]  # the first player's
        return method(action, *args)

    inject(monkeypatch, {"step": step}, lambda o: o.get("env_type") == "dm")
    with pytest.raises(AssertionError, match=r"one row per player \(not per env\).*: no error"):
        check_env("TestTurns-v0")


def test_catches_a_dm_reset_with_a_step_type_per_player(monkeypatch: pytest.MonkeyPatch) -> None:
    def reset(method: Hook, *args: Any, **kwargs: Any) -> Any:
        timestep = method(*args, **kwargs)
        return timestep._replace(step_type=np.zeros(len(timestep.reward), np.int32))

    inject(monkeypatch, {"reset": reset}, lambda o: o.get("env_type") == "dm")
    with pytest.raises(AssertionError, match=r"dm pool, reset\(\): step_type has shape \(4,\)"):
        check_env("TestTurns-v0")


def test_draws_legal_actions_where_a_mask_is_declared(monkeypatch: pytest.MonkeyPatch) -> None:
    # Without the draw among legal actions, the env refuses a move.
    monkeypatch.setattr(conformance, "legalize", lambda ctx, action, prev, envs: action)
    with pytest.raises(RuntimeError, match="illegal move"):
        check_env("TestTurnsMasked-v0")


def _mask_context(task_id: str, mask_per_player: bool, action_rows: int) -> conformance.Context:
    ctx = conformance.make_context(task_id, conformance.DEFAULT_STEPS)
    keys = set(ctx.player_keys)
    if mask_per_player:
        keys.add(f"info[{conformance.MASK_KEY}]")
    return dataclasses.replace(
        ctx,
        mask_key=conformance.MASK_KEY,
        action_rows=action_rows,
        player_keys=frozenset(keys),
    )


def test_legal_actions_follow_each_kind_of_mask() -> None:
    # A per-env mask: env 0 may play 2 only; env 1 none (an ended game: kept).
    ctx = _mask_context("TestTurns-v0", mask_per_player=False, action_rows=1)
    prev = conformance.Batch(
        obs={"obs": np.zeros((4, 2), np.int32)},
        info={
            "env_id": np.array([0, 1]),
            "players.env_id": np.array([0, 0, 1, 1]),
            conformance.MASK_KEY: np.array([[0, 0, 1], [0, 0, 0]], bool),
        },
        player_keys=ctx.player_keys,
    )
    assert conformance.legalize(ctx, np.array([0, 1]), prev, [0, 1]).tolist() == [2, 1]
    # A per-player mask with one action per env: the current player's row.
    ctx = _mask_context("TestTurns-v0", mask_per_player=True, action_rows=1)
    prev.player_keys = ctx.player_keys
    prev.info["current_player"] = np.array([1, 0])
    prev.info[conformance.MASK_KEY] = np.array([[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0]], bool)
    assert conformance.legalize(ctx, np.array([0, 2]), prev, [0, 1]).tolist() == [1, 2]
    # A per-player mask with per-player actions: each player's own row; an
    # env missing from `prev` (not stepped yet) keeps its actions.
    ctx = _mask_context("TestDuel-v0", mask_per_player=True, action_rows=2)
    prev.player_keys = ctx.player_keys
    action = conformance.legalize(ctx, np.array([1, 1, 2, 2, 0, 0]), prev, [0, 1, 5])
    assert action.tolist() == [0, 1, 2, 0, 0, 0]
