"""DeepMind Control Suite tasks (dm_control 1.0.50) in C++ on MuJoCo.

The models are the suite's XML files and assets, shipped in the wheel under
`envpool/dm_control/assets` (taken from the pinned dm-control wheel at build
time); the engine is the `mujoco` package's library (pinned version).
Importing this package stays cheap: it imports neither `mujoco` nor
`dm_control`.
"""

from __future__ import annotations

import importlib.util
import os

MUJOCO_VERSION = "3.17.0"
DM_CONTROL_VERSION = "1.0.50"


def asset_dir() -> str:
    """The folder of the suite's models shipped with this package."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "assets")


def _preload_mujoco_library() -> None:
    """Load libmujoco from the installed `mujoco` package, wherever it is.

    The native module links libmujoco.so.<version> and finds it beside
    envpool when both are installed in the same site-packages; this covers
    the other layouts.
    """
    name = f"libmujoco.so.{MUJOCO_VERSION}"
    site = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    if os.path.exists(os.path.join(site, "mujoco", name)):
        return
    try:
        spec = importlib.util.find_spec("mujoco")
    except (ImportError, ValueError):
        return
    if spec is None or not spec.submodule_search_locations:
        return
    library = os.path.join(next(iter(spec.submodule_search_locations)), name)
    if os.path.exists(library):
        import ctypes

        ctypes.CDLL(library, mode=ctypes.RTLD_GLOBAL)


_preload_mujoco_library()
