"""Installed packages the families read files from, located without importing them.

Importing a family stays cheap: gymnasium, ale-py, vizdoom and mujoco are
found through their import specs, never imported.
"""

from __future__ import annotations

import importlib.util
import os


def package_dir(name: str) -> str | None:
    """The folder of the installed package `name`, or None when it is missing."""
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return next(iter(spec.submodule_search_locations))


def gymnasium_dir(*parts: str) -> str | None:
    """A path inside the installed gymnasium package, or None when it is missing."""
    root = package_dir("gymnasium")
    return None if root is None else os.path.join(root, *parts)


def preload_mujoco_library(version: str) -> None:
    """Load libmujoco.so.<version> from the installed `mujoco` package.

    The native modules link it and find it beside envpool when both are
    installed in the same site-packages (their rpath); this covers the other
    layouts. A missing or different-version `mujoco` is reported when an env
    is made.
    """
    name = f"libmujoco.so.{version}"
    site = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    if os.path.exists(os.path.join(site, "mujoco", name)):
        return  # the native modules' rpath finds it
    mujoco = package_dir("mujoco")
    if mujoco is None:
        return
    library = os.path.join(mujoco, name)
    if os.path.exists(library):
        import ctypes

        ctypes.CDLL(library, mode=ctypes.RTLD_GLOBAL)
