"""MuJoCo envs: the gymnasium MuJoCo tasks (Ant, HalfCheetah, Hopper, ...).

The models are gymnasium's XML files, read from the installed gymnasium
package; the engine is the `mujoco` package's library (pinned version).
Importing this package stays cheap: it neither imports `mujoco` nor
`gymnasium`, it only locates them.
"""

from __future__ import annotations

import importlib.util
import os

MUJOCO_VERSION = "3.17.0"


def _package_dir(name: str) -> str | None:
    """The folder of the installed package `name`, without importing it."""
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return next(iter(spec.submodule_search_locations))


def gymnasium_asset_dir() -> str | None:
    """gymnasium's MuJoCo model folder, or None when gymnasium is missing."""
    gymnasium = _package_dir("gymnasium")
    if gymnasium is None:
        return None
    return os.path.join(gymnasium, "envs", "mujoco", "assets")


def _preload_mujoco_library() -> None:
    """Load libmujoco from the installed `mujoco` package, wherever it is.

    The native module links libmujoco.so.<version> and finds it beside
    envpool when both are installed in the same site-packages; this covers
    the other layouts.  A missing or different-version `mujoco` is reported
    when an env is made.
    """
    name = f"libmujoco.so.{MUJOCO_VERSION}"
    site = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    if os.path.exists(os.path.join(site, "mujoco", name)):
        return  # the native module's rpath finds it
    mujoco = _package_dir("mujoco")
    if mujoco is None:
        return
    library = os.path.join(mujoco, name)
    if os.path.exists(library):
        import ctypes

        ctypes.CDLL(library, mode=ctypes.RTLD_GLOBAL)


_preload_mujoco_library()
