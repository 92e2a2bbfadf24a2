"""get_state/set_state: snapshots restore exactly (envpool.testing.snapshots).

Every id whose family has snapshots is checked by `check_env` (test_conformance.py),
which runs `check_snapshots`; these tests cover the modes, the API and the check itself.
"""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import envpool
from envpool.testing.snapshots import check_snapshots

SNAPSHOT_IDS = sorted(
    t
    for t in envpool.list_all_envs()
    if envpool.make_spec(t).entry.family != "testing"
    and envpool.make_spec(t).description.get("snapshots", False)
)


def test_families_with_snapshots_are_listed() -> None:
    families = {envpool.make_spec(t).entry.family for t in SNAPSHOT_IDS}
    assert {"classic_control", "toy_text"} <= families


def test_snapshots_in_same_step_mode() -> None:
    check_snapshots("CartPole-v1", autoreset_mode="same_step")


def test_snapshots_in_disabled_mode() -> None:
    env = envpool.make("Pendulum-v1", env_type="gymnasium", num_envs=2, autoreset_mode="disabled")
    env.reset()
    for _ in range(5):
        env.step(np.zeros((2, 1), np.float32))
    states = env.get_state()
    a = [env.step(np.full((2, 1), 0.5, np.float32))[0] for _ in range(3)]
    env.set_state(states)
    b = [env.step(np.full((2, 1), 0.5, np.float32))[0] for _ in range(3)]
    np.testing.assert_array_equal(np.stack(a), np.stack(b))


def test_async_envs_in_flight_are_refused_and_others_restore() -> None:
    env = envpool.make("CartPole-v1", env_type="gymnasium", num_envs=4, batch_size=2)
    env.async_reset()
    _, _, _, _, info = env.recv()
    ready = info["env_id"]
    states = env.get_state(ready)
    in_flight = sorted(set(range(4)) - set(ready.tolist()))
    with pytest.raises(RuntimeError, match=r"in flight: .* before saving or loading its state"):
        env.get_state(in_flight)
    with pytest.raises(RuntimeError, match=r"in flight: .* before saving or loading its state"):
        env.set_state(states, env_ids=in_flight)
    env.set_state(states, env_ids=ready)
    env.close()


def test_the_state_describes_itself_and_pickles() -> None:
    env = envpool.make("CartPole-v1", env_type="gymnasium", num_envs=2, max_episode_steps=77)
    env.reset()
    (state, _) = env.get_state()
    assert state.task_id == "CartPole-v1"
    assert ("max_episode_steps", 77) in state.options
    assert state.format == 1
    assert pickle.loads(pickle.dumps(state)) == state
    # Options that do not shape the state may differ: another num_envs, seed.
    other = envpool.make(
        "CartPole-v1", env_type="gymnasium", num_envs=5, seed=3, max_episode_steps=77
    )
    other.set_state([state], env_ids=[4])
    # Options that do: refused, naming the option.
    shorter = envpool.make("CartPole-v1", env_type="gymnasium", num_envs=2, max_episode_steps=50)
    with pytest.raises(ValueError, match="max_episode_steps"):
        shorter.set_state([state], env_ids=[0])


def test_every_env_type_has_snapshots() -> None:
    for env_type in ("gym", "gymnasium", "dm"):
        env = envpool.make("Acrobot-v1", env_type=env_type, num_envs=2)
        env.reset()
        states = env.get_state([1])
        env.set_state(states, [0])
        assert env.get_state([0])[0].data == states[0].data
        env.close()


def test_families_without_snapshots_say_so() -> None:
    unsupported = sorted(
        t
        for t in envpool.list_all_envs()
        if envpool.make_spec(t).entry.family != "testing" and t not in SNAPSHOT_IDS
    )
    if not unsupported:
        pytest.skip("every family has snapshots")
    env = envpool.make(unsupported[0], env_type="gymnasium", num_envs=1)
    with pytest.raises(NotImplementedError, match="get_state"):
        env.get_state()
    env.close()


def test_bad_arguments() -> None:
    env = envpool.make("CartPole-v1", env_type="gymnasium", num_envs=2)
    env.reset()
    states = env.get_state()
    with pytest.raises(TypeError, match="list of states"):
        env.set_state(states[0])
    with pytest.raises(TypeError, match="EnvState"):
        env.set_state([b"abc", b"def"])
    # An EnvState unpickled from damaged bytes (or built by hand) may lack a
    # field or hold another type: refused as damaged, not an AttributeError.
    import dataclasses

    for name, value in (("options", 7), ("options", ((1, 2, 3),)), ("data", "x"), ("format", True)):
        damaged = dataclasses.replace(states[0])
        object.__setattr__(damaged, name, value)
        with pytest.raises(ValueError, match="damaged"):
            env.set_state([damaged, states[1]])
    missing = dataclasses.replace(states[0])
    object.__delattr__(missing, "task_id")
    with pytest.raises(ValueError, match="damaged"):
        env.set_state([missing, states[1]])
    with pytest.raises(ValueError, match="out of range"):
        env.get_state([2])
    env.close()
    with pytest.raises(RuntimeError, match="closed"):
        env.get_state()


def test_the_check_fails_where_a_state_is_not_restored(monkeypatch: pytest.MonkeyPatch) -> None:
    from envpool.python.pool import PoolBase

    monkeypatch.setattr(PoolBase, "set_state", lambda self, states, env_ids=None: None)
    with pytest.raises(AssertionError, match="restored into a twin"):
        check_snapshots("CartPole-v1")


def test_the_check_fails_where_a_bad_state_is_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    from envpool.python import pool

    monkeypatch.setattr(
        pool, "check_states", lambda task_id, config, states, ids: [s.data for s in states]
    )
    with pytest.raises(AssertionError, match=r"another id state|other options state"):
        check_snapshots("CartPole-v1")


def test_check_env_samples_every_family_with_snapshots(monkeypatch: pytest.MonkeyPatch) -> None:
    # check_env checks one id in SAMPLE_EVERY of the slow families: each of
    # them keeps ids in the sample, and every id is checked in the full sweep.
    from envpool.python.registry import family_declaration
    from envpool.testing.snapshots import snapshot_check_sampled

    by_family: dict[str, list[str]] = {}
    for t in SNAPSHOT_IDS:
        by_family.setdefault(envpool.make_spec(t).entry.family, []).append(t)
    for family, ids in by_family.items():
        slow = family_declaration(family, "SLOW_TEST_IDS", {})
        assert not any(snapshot_check_sampled(t) for t in slow), family
        ids = [t for t in ids if t not in slow]
        sampled = [t for t in ids if snapshot_check_sampled(t)]
        if family_declaration(family, "SNAPSHOT_CHECK_SAMPLED", False):
            assert 0 < len(sampled) < len(ids), family
        else:
            assert sampled == ids, family
    monkeypatch.setenv("ENVPOOL_SNAPSHOT_SWEEP", "all")
    assert all(snapshot_check_sampled(t) for t in SNAPSHOT_IDS)
