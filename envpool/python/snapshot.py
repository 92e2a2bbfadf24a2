"""Snapshots of env states: what `get_state` returns and `set_state` takes.

An `EnvState` is one env's full state, as the engine saves it (the env's
dynamics, its random generators, the elapsed steps, a pending autoreset),
with what it takes to restore it: the id, the options that shape the state
and the format. It pickles, so a state may be restored in another process,
into any pool of the same id and options.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# Options that do not change an env's state: the pool's layout and threads,
# its seed (a state carries its generators), how results are returned, and
# rendering. autoreset_mode is kept: an ended episode is a pending reset in
# one mode and a started one in another.
_NOT_STATE = frozenset(
    {
        "num_envs",
        "batch_size",
        "num_threads",
        "thread_affinity_offset",
        "seed",
        "gym_reset_return_info",
        "episode_statistics",
        "render_env_id",
        "render_mode",
        "render_width",
        "render_height",
        "render_camera_id",
    }
)


def state_options(config: Any, env_id: int) -> tuple[tuple[str, Any], ...]:
    """The options of env `env_id` of a pool that shape its state, sorted by name.

    An option given per env (a sequence of `num_envs` values) counts with
    that env's value.
    """
    values = config._asdict() if hasattr(config, "_asdict") else dict(config)
    num_envs = values.get("num_envs", 1)
    out = []
    for name in sorted(values):
        if name in _NOT_STATE:
            continue
        value = values[name]
        # One value per env is a tuple (EnvSpec keeps them so); a list is a
        # list option's one value (tasks_to_complete), whatever its length.
        if isinstance(value, tuple) and len(value) == num_envs and num_envs > 1:
            value = value[env_id]
        out.append((name, _hashable(value)))
    return tuple(out)


def _hashable(value: Any) -> Any:
    if isinstance(value, dict):
        return tuple(sorted((k, _hashable(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return tuple(_hashable(v) for v in value)
    return value


@dataclass(frozen=True)
class EnvState:
    """One env's saved state (`env.get_state()`), restored by `env.set_state()`.

    `task_id` and `options` say which pools can take it; `format` is the
    engine's state format; `data` is the engine's bytes (opaque, checked
    when loaded: a corrupted or truncated state is refused).
    """

    task_id: str
    options: tuple[tuple[str, Any], ...]
    format: int
    data: bytes

    def __repr__(self) -> str:
        return f"EnvState({self.task_id}, {len(self.data)} bytes)"


FORMAT = 1


def check_states(task_id: str, config: Any, states: Any, env_ids: list[int]) -> list[bytes]:
    """The states' bytes, once each state is shown to fit env `env_ids[k]` of this pool."""
    if isinstance(states, EnvState):
        raise TypeError("set_state takes a list of states (one per env), got one EnvState")
    states = list(states)
    if len(states) != len(env_ids):
        raise ValueError(f"set_state got {len(states)} states for {len(env_ids)} envs")
    data = []
    for state, env_id in zip(states, env_ids, strict=True):
        if not isinstance(state, EnvState):
            raise TypeError(f"set_state takes EnvState objects (from get_state), got {state!r}")
        _check_fields(state)
        if state.task_id != task_id:
            raise ValueError(f"a state of {state.task_id} cannot be restored into {task_id}")
        if state.format != FORMAT:
            raise ValueError(
                f"a state of format {state.format}; this envpool reads format {FORMAT}"
            )
        own = dict(state_options(config, env_id))
        theirs = dict(state.options)  # (name, value) pairs, checked above
        differ = sorted(k for k in own.keys() | theirs.keys() if own.get(k) != theirs.get(k))
        if differ:
            detail = ", ".join(f"{k}: {theirs.get(k)!r} != {own.get(k)!r}" for k in differ)
            raise ValueError(
                f"a state of {task_id} made with other options cannot be restored into env "
                f"{env_id} ({detail})"
            )
        data.append(state.data)
    return data


def _check_fields(state: EnvState) -> None:
    """ValueError where an EnvState lacks a field or holds one of another type.

    (An EnvState unpickled from damaged bytes, or built by hand.)
    """
    for name, kind in (("task_id", str), ("options", tuple), ("format", int), ("data", bytes)):
        value = getattr(state, name, None)
        if not isinstance(value, kind) or isinstance(value, bool):
            raise ValueError(
                f"the EnvState is damaged: its field {name!r} holds {value!r:.60}, "
                f"not a {kind.__name__}"
            )
    if not all(isinstance(pair, tuple) and len(pair) == 2 for pair in state.options):
        raise ValueError("the EnvState is damaged: its options are not (name, value) pairs")
