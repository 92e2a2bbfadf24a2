"""Every registered id conforms to the API contract (envpool.testing.conformance).

`test_id_conforms_to_the_api_contract` runs `check_env` over every id of
`envpool.list_all_envs()`. The tests after it show that `check_env` fails on
defects: each wraps the pools it makes so that they break one rule, and
expects the AssertionError that names it. An engine bug `check_env` has to
tolerate goes into `KNOWN_BUGS` with a strict xfail test (none today).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import envpool
from envpool.testing import conformance
from envpool.testing.conformance import (
    SEED_INDEPENDENT,
    SEED_INDEPENDENT_RESET,
    check_env,
)


# Every registered id; tests may register ids of the core's test envs (the
# "testing" family, e.g. test_multiplayer.py's TestTeam-v0) before this runs.
# Turn-based games with a legal-move mask (family pgx) are left to their
# family's tests until check_env learns them: it covers single-player ids and
# samples actions from the action space, which such a game refuses where the
# mask is false.
def _is_turn_based(task_id: str) -> bool:
    spec = envpool.make_spec(task_id)
    return spec.config.max_num_players > 1 or any(
        name == "info:legal_action_mask" for name in spec.state_array_spec
    )


IDS = sorted(
    t
    for t in envpool.list_all_envs()
    if envpool.make_spec(t).entry.family != "testing" and not _is_turn_based(t)
)


@pytest.mark.parametrize("task_id", IDS)
def test_id_conforms_to_the_api_contract(task_id: str) -> None:
    check_env(task_id)


def test_seed_independent_ids_are_registered_fixed_start_ids() -> None:
    assert SEED_INDEPENDENT <= SEED_INDEPENDENT_RESET <= set(IDS)


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
        return lambda *args, **kwargs: hook(attr, *args, **kwargs)


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
        pool = method.__self__
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
