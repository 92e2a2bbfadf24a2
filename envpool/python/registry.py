"""Task ids, their families and option overrides; `make` and friends."""

from __future__ import annotations

import difflib
import importlib
import os
from collections.abc import Callable, Mapping, Set
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from envpool.python.dm_api import DMEnvPool
    from envpool.python.gymnasium_api import GymnasiumEnvPool
    from envpool.python.pool import PoolBase as EnvPool
    from envpool.python.spec import EnvSpec


ENV_TYPES = ("gymnasium", "gym", "dm")

# A family's check of the options as the user gave them: called with every
# option's value and the names the user passed; raises ValueError.
OptionsCheck = Callable[[Mapping[str, Any], Set[str]], None]


@dataclass(frozen=True)
class TaskEntry:
    """One registered id: which env class of which family, with what options."""

    task_id: str
    family: str
    env_class: str
    overrides: dict[str, Any] = field(default_factory=dict)
    # For refusals that depend on whether an option was passed at all (a
    # value the C++ side sees may be the default or the user's).
    check_options: OptionsCheck | None = None


_REGISTRY: dict[str, TaskEntry] = {}
_families_loaded = False


def register(
    task_id: str,
    family: str,
    env_class: str,
    *,
    check_options: OptionsCheck | None = None,
    **overrides: Any,
) -> None:
    """Register `task_id` as the C++ env class `env_class` of `family`.

    `overrides` replace the env type's option defaults for this id, for
    example `max_episode_steps=200`. `check_options(values, given)`, if set,
    sees every option's value and the names the user passed, and raises
    ValueError on what the id refuses.
    """
    _REGISTRY[task_id] = TaskEntry(task_id, family, env_class, dict(overrides), check_options)


def families() -> list[str]:
    """The installed env families: the subpackages of envpool with a registration.py.

    A family's native module is loaded only when one of its ids is made.
    """
    import envpool

    found = set()
    for root in envpool.__path__:
        for name in os.listdir(root):
            if os.path.isfile(os.path.join(root, name, "registration.py")):
                found.add(name)
    return sorted(found)


def _load_registrations() -> None:
    global _families_loaded
    if not _families_loaded:
        _families_loaded = True
        for family in families():
            importlib.import_module(f"envpool.{family}.registration")


def list_all_envs() -> list[str]:
    """All registered task ids."""
    _load_registrations()
    return list(_REGISTRY)


def find_entry(task_id: str) -> TaskEntry:
    """The registry entry of `task_id`; ValueError naming close matches."""
    _load_registrations()
    try:
        return _REGISTRY[task_id]
    except KeyError:
        close = difflib.get_close_matches(task_id, list(_REGISTRY), n=5)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise ValueError(
            f"unknown env id {task_id!r}{hint} (envpool.list_all_envs() lists all)"
        ) from None


def make_spec(task_id: str, **kwargs: Any) -> EnvSpec:
    """The spec of `task_id` under `kwargs`: config, spaces, reward_threshold."""
    from envpool.python.spec import EnvSpec

    return EnvSpec(find_entry(task_id), kwargs)


def make(task_id: str, env_type: str = "gymnasium", **kwargs: Any) -> EnvPool:
    """Make a pool of `num_envs` envs of `task_id`.

    env_type: "gymnasium" or "gym" (EnvPool's surface: a gymnasium VectorEnv
    with single-env spaces; see `GymnasiumEnvPool`) or "dm" (a
    dm_env.Environment, `DMEnvPool`). `gymnasium.make_vec("envpool/<id>")`
    gives gymnasium's own VectorEnv contract with batched spaces.
    """
    if env_type not in ENV_TYPES:
        raise ValueError(f"env_type must be one of {ENV_TYPES}, got {env_type!r}")
    spec = make_spec(task_id, **kwargs)
    if env_type == "dm":
        from envpool.python.dm_api import DMEnvPool

        return DMEnvPool(spec)
    from envpool.python.gymnasium_api import GymnasiumEnvPool

    return GymnasiumEnvPool(spec)


def make_gymnasium(task_id: str, **kwargs: Any) -> GymnasiumEnvPool:
    """`make(task_id, env_type="gymnasium", ...)`."""
    return make(task_id, env_type="gymnasium", **kwargs)  # type: ignore[return-value]


def make_gym(task_id: str, **kwargs: Any) -> GymnasiumEnvPool:
    """`make(task_id, env_type="gym", ...)`: the same pool as make_gymnasium, as in EnvPool."""
    return make(task_id, env_type="gym", **kwargs)  # type: ignore[return-value]


def make_dm(task_id: str, **kwargs: Any) -> DMEnvPool:
    """`make(task_id, env_type="dm", ...)`."""
    return make(task_id, env_type="dm", **kwargs)  # type: ignore[return-value]
