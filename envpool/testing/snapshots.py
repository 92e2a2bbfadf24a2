"""The snapshot check: a restored env goes on exactly as the saved one.

`check_snapshots(task_id)` makes a pool, steps it with random actions, saves
every env's state at a random step, runs the pool on (recording every later
step, across autoresets), restores the states into a twin pool made with
another seed (and, pickled, into the first pool itself), replays the same
actions there and requires every later observation, reward, flag and info
entry to be equal, bit for bit. It also requires that bad states (another
id, other options, a corrupted or truncated one, the wrong count) raise a
clear exception and change nothing.
"""

from __future__ import annotations

import dataclasses
import os
import pickle
import zlib
from typing import Any

import numpy as np

import envpool
from envpool.python.registry import family_declaration

# A family whose snapshot check takes a second or more an id (emulators,
# physics with big models, procedurally generated games) declares
# SNAPSHOT_CHECK_SAMPLED = True in its registration.py: check_env checks one
# id in SAMPLE_EVERY of it, chosen by a hash of the id, unless
# ENVPOOL_SNAPSHOT_SWEEP=all asks for every id (the full sweep:
# `ENVPOOL_SNAPSHOT_SWEEP=all pytest envpool/python/tests/test_conformance.py`).
SAMPLE_EVERY = 8


def snapshot_check_sampled(task_id: str) -> bool:
    """Whether check_env runs the snapshot check on `task_id` (see SAMPLE_EVERY)."""
    if os.environ.get("ENVPOOL_SNAPSHOT_SWEEP") == "all":
        return True
    family = envpool.make_spec(task_id).entry.family
    if task_id in family_declaration(family, "SLOW_TEST_IDS", {}):
        return False  # the family's own tests check its snapshots
    if not family_declaration(family, "SNAPSHOT_CHECK_SAMPLED", False):
        return True
    return zlib.crc32(task_id.encode()) % SAMPLE_EVERY == 0


def _flat(tree: Any, prefix: str = "") -> dict[str, np.ndarray]:
    if isinstance(tree, dict):
        out: dict[str, np.ndarray] = {}
        for key, value in tree.items():
            out.update(_flat(value, f"{prefix}{key}."))
        return out
    return {prefix.rstrip("."): np.asarray(tree)}


def _rows(out: tuple, player_keys: frozenset[str] = frozenset()) -> dict[str, np.ndarray]:
    obs, reward, terminated, truncated, info = out
    rows = {**_flat(obs, "obs."), **_flat(info, "info.")}
    rows.update(reward=np.asarray(reward), terminated=terminated, truncated=truncated)
    return _in_env_order(rows, player_keys)


def _in_env_order(
    rows: dict[str, np.ndarray], player_keys: frozenset[str]
) -> dict[str, np.ndarray]:
    """The rows sorted by env: a pool returns its envs in the order they
    finished (docs/multiplayer.md), which differs between pools; the player
    rows (an env's consecutive, in player order) follow `players.env_id`, the
    others `env_id`."""
    out = dict(rows)
    if "info.env_id" in rows:
        by_env = np.argsort(rows["info.env_id"], kind="stable")
        for key, value in rows.items():
            if key not in player_keys and value.ndim >= 1:
                out[key] = value[by_env]
    if player_keys and "info.players.env_id" in rows:
        by_player = np.argsort(rows["info.players.env_id"], kind="stable")
        for key in player_keys & rows.keys():
            out[key] = rows[key][by_player]
    return out


def _player_keys(env: Any) -> frozenset[str]:
    """The keys of `_rows` with one row per (env, player) rather than per env."""
    desc = env.spec.description
    if desc["max_num_players"] <= 1:
        return frozenset()
    keys = {"reward", "info.players.env_id", "info.players.id"}
    for d in desc["state"]:
        if d["per_player"]:
            keys.add(d["name"].replace(":", "."))
    return frozenset(keys)


def _differences(got: dict[str, np.ndarray], want: dict[str, np.ndarray]) -> list[str]:
    out = [f"{k}: missing" for k in want.keys() - got.keys()]
    for key in sorted(want.keys() & got.keys()):
        a, b = got[key], want[key]
        if a.shape != b.shape or a.dtype != b.dtype:
            out.append(f"{key}: {a.dtype}{a.shape} != {b.dtype}{b.shape}")
        elif a.dtype == object:  # same_step's final_obs/final_info: one entry per env
            for i, (x, y) in enumerate(zip(a.ravel(), b.ravel(), strict=True)):
                if (x is None) != (y is None):
                    out.append(f"{key}[{i}]: {x!r} != {y!r}")
                elif x is not None:
                    out += [f"{key}[{i}].{d}" for d in _differences(_flat(x), _flat(y))]
        elif a.dtype.kind == "f":
            if not np.array_equal(a, b, equal_nan=True) or not np.array_equal(
                np.signbit(a), np.signbit(b)
            ):
                out.append(f"{key}: {a.ravel()[:6]} != {b.ravel()[:6]}")
        elif not np.array_equal(a, b):
            out.append(f"{key}: {a.ravel()[:6]} != {b.ravel()[:6]}")
    return out


def _actions(env: Any, steps: int, seed: int) -> list[Any]:
    space = env.single_action_space
    space.seed(seed)
    per_player = any(d["per_player"] for d in env.spec.description["action"])
    rows = env.config["num_envs"] * (env.config["max_num_players"] if per_player else 1)
    out = []
    for _ in range(steps):
        sample = [space.sample() for _ in range(rows)]
        if isinstance(sample[0], dict):
            out.append({k: np.stack([s[k] for s in sample]) for k in sample[0]})
        else:
            out.append(np.stack(sample))
    return out


# The info key of a turn-based game's legal actions (one row per env).
_MASK_KEY = "legal_action_mask"


def _legal(action: Any, info: dict[str, Any]) -> Any:
    """`action` (one per env, in env order) with each move that `info`'s mask
    forbids replaced by the (v mod k)-th of the k legal ones: a seeded draw
    among legal moves that depends only on the state, so the replay after a
    restore takes the same moves."""
    if _MASK_KEY not in info:
        return action
    out = np.array(action)
    for row, env_id in enumerate(np.asarray(info["env_id"])):
        legal = np.flatnonzero(info[_MASK_KEY][row])
        if len(legal) and int(out[env_id]) not in legal:
            out[env_id] = legal[int(out[env_id]) % len(legal)]
    return out


def _run(env: Any, actions: list[Any], info: dict[str, Any]) -> list[dict[str, np.ndarray]]:
    """Step `env` through `actions`, made legal by the info of each result
    (`info`: the one before the first); one record per step."""
    out = []
    player_keys = _player_keys(env)
    for action in actions:
        result = env.step(_legal(action, info))
        info = result[-1]
        out.append(_rows(result, player_keys))
    return out


def check_snapshots(
    task_id: str, num_envs: int = 3, before: int = 12, after: int = 40, **options: Any
) -> None:
    """Raise AssertionError unless snapshots of `task_id` restore exactly.

    `before` random steps, then the save, then `after` steps compared (with
    `max_episode_steps` small enough by default that autoresets fall inside).
    """
    options.setdefault("max_episode_steps", max(2, (before + after) // 3))
    env = envpool.make(task_id, env_type="gymnasium", num_envs=num_envs, seed=7, **options)
    twin = envpool.make(task_id, env_type="gymnasium", num_envs=num_envs, seed=99, **options)
    try:
        rng = np.random.default_rng(0)
        plan = _actions(env, before + after, seed=1)
        _, info = env.reset()
        _, twin_info = twin.reset()
        saved = _run(env, plan[: int(rng.integers(1, before))], info)[-1]
        # The info of the saved step, whose legal-action mask a restored env has.
        info = {
            key[len("info.") :]: value for key, value in saved.items() if key.startswith("info.")
        }
        states = env.get_state()
        assert len(states) == num_envs, f"{task_id}: {len(states)} states for {num_envs} envs"
        later = _run(env, plan[before:], info)

        # Into a twin pool of another seed.
        _run(twin, plan[:3], twin_info)
        twin.set_state(states)
        for t, (got, want) in enumerate(zip(_run(twin, plan[before:], info), later, strict=True)):
            diff = _differences(got, want)
            assert not diff, f"{task_id}: restored into a twin, step {t} after: {diff}"

        # Pickled, into the saved pool itself, envs in another order.
        restored = pickle.loads(pickle.dumps(states))
        order = list(range(num_envs))[::-1]
        env.set_state([restored[i] for i in order], env_ids=order)
        for t, (got, want) in enumerate(zip(_run(env, plan[before:], info), later, strict=True)):
            diff = _differences(got, want)
            assert not diff, f"{task_id}: restored after pickling, step {t} after: {diff}"

        _check_refusals(task_id, env, states, plan[before:], options)
    finally:
        env.close()
        twin.close()


def _state_of(task_id: str) -> Any:
    other = envpool.make(task_id, env_type="gymnasium", num_envs=1)
    other.reset()
    (state,) = other.get_state()
    other.close()
    return state


def _check_refusals(
    task_id: str, env: Any, states: list[Any], plan: list[Any], options: dict[str, Any]
) -> None:
    """Bad states raise and leave the envs as they were."""
    num_envs = env.config["num_envs"]
    other_id = "CartPole-v1" if task_id != "CartPole-v1" else "CartPole-v0"
    env.set_state(states)
    good = states[0]
    bad = {
        "corrupt": dataclasses.replace(good, data=good.data[:-1] + bytes([good.data[-1] ^ 0x5A])),
        "truncated": dataclasses.replace(good, data=good.data[: len(good.data) // 2]),
        "another id": dataclasses.replace(good, task_id=other_id),
        # Another id's bytes, under this id's name: the engine refuses them.
        "another id's bytes": dataclasses.replace(_state_of(other_id), task_id=task_id),
        "other options": dataclasses.replace(good, options=(*good.options, ("not_an_option", 1))),
    }
    for what, state in bad.items():
        try:
            env.set_state([states[1], state, *states[2:]] if num_envs > 2 else [state])
        except (ValueError, TypeError):
            pass
        else:
            raise AssertionError(f"{task_id}: set_state took a {what} state")
    try:
        env.set_state(states[:-1])
    except ValueError:
        pass
    else:
        raise AssertionError(f"{task_id}: set_state took {num_envs - 1} states for {num_envs}")
    # Nothing was changed: the envs go on from `states`.
    twin_states = env.get_state()
    for a, b in zip(twin_states, states, strict=True):
        assert a.data == b.data, f"{task_id}: a refused set_state changed an env"
