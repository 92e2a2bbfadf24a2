"""envpool ids in gymnasium's registry: `gymnasium.make_vec` and `gymnasium.make`.

    import envpool, gymnasium          # either order
    env = gymnasium.make_vec("envpool/CartPole-v1", num_envs=8)
    # or, importing envpool through gymnasium:
    env = gymnasium.make_vec("envpool:envpool/CartPole-v1", num_envs=8)

Each id is registered as `envpool/<id>` with
- a `vector_entry_point`: `make_vec` (its default mode) returns this
  project's pool, a gymnasium VectorEnv with batched spaces; keyword
  arguments are envpool options;
- an `entry_point`: `gymnasium.make` returns one env (gymnasium's single-env
  API over a pool of one), and `make_vec(..., vectorization_mode="sync")`
  or `"async"` builds gymnasium's own vector envs of those.

`import envpool` does not import gymnasium: if gymnasium is not loaded yet,
a one-shot import hook registers the ids right after gymnasium's own import
finishes. Ids that contain a slash themselves (`phys2d/...`, `tabular/...`)
are aliases and are not registered: gymnasium ids allow one namespace only.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
import threading
import warnings
from typing import Any

from envpool.python.registry import add_listener, list_all_envs

NAMESPACE = "envpool"

# Set once every id has been registered: later `envpool.register` calls then
# add their id to gymnasium's registry too.
_registered = False
_lock = threading.Lock()


def make_vec_env(num_envs: int = 1, *, task_id: str, **kwargs: Any):
    """gymnasium's vector entry point: a pool with gymnasium's batched spaces."""
    from envpool.python.api import make_spec
    from envpool.python.gymnasium_api import GymnasiumVectorEnv

    return GymnasiumVectorEnv(make_spec(task_id, num_envs=num_envs, **kwargs))


def make_single_env(*, task_id: str, **kwargs: Any):
    """gymnasium's entry point: one env with gymnasium's single-env API."""
    from envpool.python.gymnasium_api import GymnasiumSingleEnv

    return GymnasiumSingleEnv(task_id, **kwargs)


def _register_one(gymnasium: Any, task_id: str) -> None:
    gym_id = f"{NAMESPACE}/{task_id}"
    if "/" in task_id or gym_id in gymnasium.registry:
        return
    gymnasium.register(
        id=gym_id,
        entry_point=make_single_env,
        vector_entry_point=make_vec_env,
        kwargs={"task_id": task_id},
    )


def register_gymnasium_envs() -> None:
    """Add every envpool id to gymnasium's registry as `envpool/<id>`.

    Called by itself when both envpool and gymnasium are imported, in either
    order; calling it again does nothing new.
    """
    global _registered
    import gymnasium

    with _lock:
        for task_id in list_all_envs():
            _register_one(gymnasium, task_id)
        _registered = True


def on_register(task_id: str) -> None:
    """`envpool.register` of a later id: add it to gymnasium's registry as well
    (a listener of envpool.python.registry, from `install`)."""
    if _registered and "gymnasium" in sys.modules:
        _register_one(sys.modules["gymnasium"], task_id)


class _RegisterAfterGymnasiumImport(importlib.abc.MetaPathFinder):
    """Finds nothing itself: wraps gymnasium's loader so that the ids are
    registered as soon as gymnasium's `__init__` has run, then removes itself.
    """

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        if fullname != "gymnasium":
            return None
        spec = None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None:
                break
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        loader = spec.loader
        run_module = loader.exec_module

        def exec_module(module: Any) -> None:
            try:
                run_module(module)
            finally:
                # Restore the loader's own method and drop the hook either way.
                loader.__dict__.pop("exec_module", None)
                remove_import_hook()
            try:
                register_gymnasium_envs()
            except Exception as e:  # gymnasium must import even if this fails
                warnings.warn(
                    f"envpool could not register its ids with gymnasium ({e}); "
                    "call envpool.register_gymnasium_envs() to see why",
                    RuntimeWarning,
                    stacklevel=2,
                )

        try:
            loader.exec_module = exec_module  # type: ignore[method-assign]
        except AttributeError:  # a loader without instance attributes: no hook
            pass
        return spec


_hook = _RegisterAfterGymnasiumImport()


def remove_import_hook() -> None:
    """Take the import hook out of `sys.meta_path` (it fires once)."""
    while _hook in sys.meta_path:
        sys.meta_path.remove(_hook)


def install() -> None:
    """What `import envpool` does: register now if gymnasium is loaded, else
    once it is."""
    add_listener(on_register)
    gymnasium = sys.modules.get("gymnasium")
    if gymnasium is not None and hasattr(gymnasium, "register"):
        register_gymnasium_envs()
    elif gymnasium is None and _hook not in sys.meta_path:
        sys.meta_path.insert(0, _hook)
