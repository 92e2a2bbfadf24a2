"""Env families of installed packages (docs/custom_envs.md): loading their
native library. envpool.python.registry finds them (the `envpool.families`
entry points) and imports their registration modules.

A registration module reads as an in-tree family's `registration.py` (calls
to `envpool.register(..., family=<name>, ...)` and the same declarations),
plus `NATIVE_LIBRARY`, the module name of the compiled library (default:
`<package>._<family>`), which is found without being imported: it is no
Python module but a library the core loads (envpool/core/plugin.h).
"""

from __future__ import annotations

import importlib.util
from typing import Any

from envpool.python.registry import plugin_families, plugin_module


def is_plugin(family: str) -> bool:
    """Whether `family` comes from an installed package rather than envpool itself."""
    return plugin_module(family) is not None


def native_library(family: str) -> str:
    """The file of the plugin family's compiled library."""
    module = plugin_module(family)
    if module is None:
        raise ImportError(f"no installed package declares the env family {family!r}")
    package = module.__name__.rpartition(".")[0] or module.__name__
    name = getattr(module, "NATIVE_LIBRARY", f"{package}._{family}")
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.origin or not spec.origin.endswith(".so"):
        raise ImportError(
            f"{_package_of(family)} has no compiled library {name!r}: was it built "
            "(pip install --no-build-isolation <its folder>), and does its registration "
            "module name the library in NATIVE_LIBRARY?"
        )
    return spec.origin


def load_native_library(core: Any, family: str) -> None:
    """Register the plugin family's env classes with the core (once per process).

    ImportError when the core refuses the library (built against another
    envpool: the message names both versions).
    """
    error = core.load_plugin(native_library(family), family)
    if error:
        raise ImportError(f"{_package_of(family)}: {error}")


def _package_of(family: str) -> str:
    point = plugin_families()[family]
    dist = getattr(point, "dist", None)
    if dist is not None:
        return f"the env package {dist.name} {dist.version} (family {family!r})"
    return f"the env package of family {family!r}"
