"""Task ids, their families and what the families declare.

The bottom of envpool.python's imports: it imports no other module of
envpool. `make` and friends, which build specs and pools from these
entries, are in envpool.python.api.
"""

from __future__ import annotations

import difflib
import importlib
import os
import re
import sys
import warnings
from collections.abc import Callable, Mapping, Set
from dataclasses import dataclass, field
from importlib import metadata
from types import ModuleType
from typing import Any

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
# Called with each id registered after the families' own (a user's id), so
# that other registries (gymnasium's, envpool.python.gymnasium_registration)
# learn of it too.
_listeners: list[Callable[[str], None]] = []


def add_listener(listener: Callable[[str], None]) -> None:
    """Call `listener(task_id)` for every id registered from now on."""
    if listener not in _listeners:
        _listeners.append(listener)


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
    if family in plugin_families() and family not in families():
        # The core registers a package's classes under its family
        # (envpool/core/plugin_loader.h): its "CartPole" is not envpool's.
        env_class = f"{family}/{env_class}"
    _REGISTRY[task_id] = TaskEntry(task_id, family, env_class, dict(overrides), check_options)
    for listener in list(_listeners):
        listener(task_id)


# Env families of installed packages (docs/custom_envs.md): an entry point in
# this group names the family and its registration module, which reads as an
# in-tree family's registration.py. Being installed is enough: the entry
# points are read when the ids are first listed, so `make("MyEnv-v0")` works
# in a fresh interpreter without importing the package (envpool.python.plugins
# loads its native library).
PLUGIN_ENTRY_POINTS = "envpool.families"
_plugin_entry_points: dict[str, metadata.EntryPoint] | None = None
_plugin_modules: dict[str, ModuleType] = {}
# Names an installed package may not take for its family.
_RESERVED_FAMILIES = {"core", "python", "testing", "licenses", "render", "mujoco_common"}


def plugin_families() -> dict[str, metadata.EntryPoint]:
    """The env families installed packages declare, by name (read once)."""
    global _plugin_entry_points
    if _plugin_entry_points is None:
        found: dict[str, metadata.EntryPoint] = {}
        for point in metadata.entry_points(group=PLUGIN_ENTRY_POINTS):
            found.setdefault(point.name, point)
        _plugin_entry_points = found
    return _plugin_entry_points


def _import_plugin_registration(family: str, in_tree: set[str]) -> None:
    point = plugin_families()[family]
    if family in in_tree or family in _RESERVED_FAMILIES:
        raise ImportError(
            f"the package {point.value!r} declares the env family {family!r}, a name of "
            f"envpool's own: rename its entry point in the group {PLUGIN_ENTRY_POINTS!r}"
        )
    _plugin_modules[family] = importlib.import_module(point.value)


def plugin_module(family: str) -> ModuleType | None:
    """The registration module of an installed package's family, else None."""
    _load_registrations()
    return _plugin_modules.get(family)


def all_families() -> list[str]:
    """envpool's own families and those of installed packages (plugin_families)."""
    return sorted(set(families()) | set(plugin_families()))


def families() -> list[str]:
    """The env families of envpool itself: its subpackages with a registration.py
    (installed packages' families: plugin_families).

    A family's native module is loaded only when one of its ids is made.
    """
    # The folders of the envpool package (imported before any of its
    # modules, this one included), read rather than imported.
    found = set()
    for root in sys.modules["envpool"].__path__:
        for name in os.listdir(root):
            if os.path.isfile(os.path.join(root, name, "registration.py")):
                found.add(name)
    return sorted(found)


def _load_registrations() -> None:
    global _families_loaded
    if not _families_loaded:
        _families_loaded = True
        in_tree = families()
        for family in in_tree:
            importlib.import_module(f"envpool.{family}.registration")
        for family in plugin_families():
            try:
                _import_plugin_registration(family, set(in_tree))
            except Exception as e:
                # A broken env package must not take envpool's own ids with it.
                warnings.warn(
                    f"envpool: the env family {family!r} of an installed package was not "
                    f"loaded: {type(e).__name__}: {e}",
                    RuntimeWarning,
                    stacklevel=2,
                )


def list_all_envs() -> list[str]:
    """All registered task ids."""
    _load_registrations()
    return list(_REGISTRY)


def family_declaration(family: str, name: str, default: Any = None) -> Any:
    """What `family`'s registration.py declares as `name`, else `default`.

    The names a family may declare (SMOKE_TEST_ID, ASSET_DIR,
    RUNTIME_PACKAGES, the conformance exceptions, OPTION_ALIASES,
    id_suggestions) are listed in docs/adding_a_family.md. A family without
    a registration.py (the core's "testing" envs) declares nothing.
    """
    _load_registrations()
    module = sys.modules.get(f"envpool.{family}.registration")
    if module is None:
        module = _plugin_modules.get(family)
    return default if module is None else getattr(module, name, default)


_VERSION = re.compile(r"-v\d+$")


def _base_name(task_id: str) -> str:
    return _VERSION.sub("", task_id.rsplit("/", 1)[-1]).lower()


def suggest_ids(task_id: str) -> list[str]:
    """Registered ids (with a note where needed) that `task_id` may have meant.

    First what a family declares for the reference libraries' names
    (`id_suggestions` in its registration.py: ALE's `PongNoFrameskip-v4`),
    then the same name at another version or case, then close spellings.
    """
    _load_registrations()
    found: list[str] = []
    for family in all_families():
        suggest = family_declaration(family, "id_suggestions")
        if suggest is not None:
            found += [s for s in suggest(task_id) if s not in found]
    base = _base_name(task_id)
    found += [t for t in _REGISTRY if _base_name(t) == base and t not in found]
    if not found:
        bases: dict[str, list[str]] = {}
        for t in _REGISTRY:
            bases.setdefault(_base_name(t), []).append(t)
        for close in difflib.get_close_matches(base, list(bases), n=3, cutoff=0.75):
            found += bases[close]
    if not found:
        found = difflib.get_close_matches(task_id, list(_REGISTRY), n=5)
    return found[:5]


def find_entry(task_id: str) -> TaskEntry:
    """The registry entry of `task_id`; ValueError naming close matches."""
    _load_registrations()
    try:
        return _REGISTRY[task_id]
    except (KeyError, TypeError):
        if not isinstance(task_id, str):
            raise TypeError(f"the env id must be a str, got {task_id!r}") from None
        close = suggest_ids(task_id)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise ValueError(
            f"unknown env id {task_id!r}{hint} (envpool.list_all_envs() lists all)"
        ) from None
