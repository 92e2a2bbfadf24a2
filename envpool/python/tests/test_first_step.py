"""The first step of an env that was never reset is its seeded reset (EnvPool's rule).

For every registered id, through the three env types, sync and async: a
`step`/`send` before any `reset` neither crashes (Atari used to segfault)
nor steps an unstarted env. It returns the observation that `reset()` of a
pool made with the same seed returns, `elapsed_step` 0 and reward 0, and the
action is ignored.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import envpool
from envpool.python.keys import dm_field
from envpool.testing.sampling import sampled_ids

IDS = sampled_ids(envpool.list_all_envs())  # ENVPOOL_TEST_ALL=1: every id
SEED = 7


def some_action(space: Any, n: int) -> Any:
    """A valid action for n envs that is not all zeros where it can be."""
    import gymnasium

    if isinstance(space, gymnasium.spaces.Dict):
        return {k: some_action(v, n) for k, v in space.spaces.items()}
    if isinstance(space, gymnasium.spaces.Discrete):
        return np.full(n, space.n - 1, dtype=space.dtype)
    high = np.where(np.isfinite(space.high), space.high, 1.0)
    return np.broadcast_to(high, (n, *space.shape)).astype(space.dtype)


def action_rows(spec: Any, n: int) -> int:
    """Rows of an action for n envs: one per player where the action is per player."""
    desc = spec.description
    per_player = any(d["per_player"] for d in desc["action"])
    return n * desc["max_num_players"] if per_player else n


def legal_action(env_type: str, out: Any, action: Any) -> Any:
    """`action`, or where the env declares legal moves, each env's first legal move."""
    if env_type == "dm":
        mask = getattr(out.observation, "legal_action_mask", None)
    else:
        mask = out[-1].get("legal_action_mask")
    if mask is None:
        return action
    return np.argmax(np.asarray(mask), axis=-1).astype(np.asarray(action).dtype)


def player_env_ids(env_type: str, out: Any) -> np.ndarray:
    """The env of each observation row (one row per player in multi-player envs)."""
    if env_type == "dm":
        return np.asarray(out.observation.players.env_id)
    return np.asarray(out[-1]["players"]["env_id"])


def flat(obs: Any) -> list[np.ndarray]:
    """The arrays of an observation, nested dicts (the dm type's namedtuples)
    key by key, sorted by their dm field names."""
    if hasattr(obs, "_asdict"):
        obs = obs._asdict()
    if isinstance(obs, dict):
        named = {dm_field(k): v for k, v in obs.items()}
        return [a for k in sorted(named) for a in flat(named[k])]
    return [np.asarray(obs)]


def rows(obs: Any, picked: np.ndarray) -> list[np.ndarray]:
    return [a[picked] for a in flat(obs)]


def unpack(
    env_type: str, out: Any, obs_keys: list[str] | None = None
) -> tuple[Any, np.ndarray, dict[str, Any]]:
    """(obs, reward, info-like) of a step result of any env type.

    A dict observation's keys (`obs_keys`) pick its fields out of the dm
    State, which also holds the info arrays after them.
    """
    if env_type == "dm":
        state = out.observation
        fields = state._asdict()
        skip = {"env_id", "players"}
        # dm fields are the keys made Python names ("walker/target" -> "walker_target")
        wanted = None if obs_keys is None else {dm_field(k) for k in obs_keys}
        keys = [k for k in fields if k not in skip and (wanted is None or k in wanted)]
        obs = fields["obs"] if "obs" in fields else {k: fields[k] for k in keys}
        assert (out.step_type == 0).all(), "the first step of an unstarted env is FIRST"
        return obs, out.reward, {"env_id": state.env_id, "elapsed_step": None}
    obs, reward, terminated, truncated, info = out
    assert not terminated.any() and not truncated.any()
    return obs, reward, info


@pytest.mark.parametrize("task_id", IDS)
def test_first_step_before_reset_is_the_seeded_reset(task_id):
    ref = envpool.make(task_id, env_type="gymnasium", num_envs=2, seed=SEED)
    expected, expected_info = ref.reset()
    expected_rows = np.asarray(expected_info["players"]["env_id"])
    ref.close()
    spec = envpool.make_spec(task_id)
    space = spec.action_space
    obs_keys = list(getattr(spec.observation_space, "spaces", {})) or None
    action = some_action(space, action_rows(spec, 2))
    for env_type in ("gymnasium", "gym", "dm"):
        # sync: step() on a fresh pool
        env = envpool.make(task_id, env_type=env_type, num_envs=2, seed=SEED)
        first = env.step(action)
        obs, reward, info = unpack(env_type, first, obs_keys)
        # Env by env: the player rows of multi-player envs come in the order
        # the envs finished.
        got_rows = player_env_ids(env_type, first)
        for i in range(2):
            for got, want in zip(
                rows(obs, got_rows == i), rows(expected, expected_rows == i), strict=True
            ):
                np.testing.assert_array_equal(got, want, err_msg=f"{task_id} {env_type} sync")
        assert (np.asarray(reward) == 0).all()
        if info["elapsed_step"] is not None:
            assert (info["elapsed_step"] == 0).all()
        # and the pool goes on stepping from there (a legal move, where declared)
        env.step(legal_action(env_type, first, action))
        env.close()
        # async: send() to both envs of a fresh pool, then collect them one by one
        env = envpool.make(task_id, env_type=env_type, num_envs=2, batch_size=1, seed=SEED)
        env.send(action, np.arange(2))
        seen = set()
        for _ in range(2):
            out = env.recv()
            obs, reward, info = unpack(env_type, out, obs_keys)
            (i,) = np.asarray(info["env_id"]).tolist()
            seen.add(i)
            own = player_env_ids(env_type, out) == i
            for got, want in zip(rows(obs, own), rows(expected, expected_rows == i), strict=True):
                np.testing.assert_array_equal(got, want, err_msg=f"{task_id} {env_type} async")
            assert (np.asarray(reward) == 0).all()
            if info["elapsed_step"] is not None:
                assert (info["elapsed_step"] == 0).all()
        assert seen == {0, 1}
        env.close()


def test_first_step_ignores_the_action_and_depends_on_the_seed():
    a = envpool.make("CartPole-v1", num_envs=2, seed=1).step(np.array([0, 1]))[0]
    b = envpool.make("CartPole-v1", num_envs=2, seed=1).step(np.array([1, 0]))[0]
    c = envpool.make("CartPole-v1", num_envs=2, seed=2).step(np.array([0, 1]))[0]
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)


@pytest.mark.parametrize("env_type", ["gymnasium", "gym", "dm"])
@pytest.mark.parametrize("task_id", ["Pong-v5", "Breakout-v5"])
def test_atari_step_before_reset_does_not_crash(task_id, env_type):
    env = envpool.make(task_id, env_type=env_type, num_envs=1)
    for _ in range(3):
        env.step(np.zeros(1, np.int32))


def test_unstarted_env_in_disabled_mode_is_reset_by_its_first_step():
    env = envpool.make("CartPole-v1", num_envs=2, seed=3, autoreset_mode="disabled")
    info = env.step(np.zeros(2, np.int64))[4]
    assert (info["elapsed_step"] == 0).all()
    _, reward, _, _, info = env.step(np.zeros(2, np.int64))
    assert (info["elapsed_step"] == 1).all() and (reward == 1).all()
