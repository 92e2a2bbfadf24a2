"""MuJoCo envs: the gymnasium MuJoCo tasks (Ant, HalfCheetah, Hopper, ...).

The models are gymnasium's XML files, read from the installed gymnasium
package; the engine is the `mujoco` package's library (pinned version).
Importing this package stays cheap: it neither imports `mujoco` nor
`gymnasium`, it only locates them.
"""

from __future__ import annotations

from envpool.python.packages import gymnasium_dir, preload_mujoco_library

MUJOCO_VERSION = "3.17.0"


def gymnasium_asset_dir() -> str | None:
    """gymnasium's MuJoCo model folder, or None when gymnasium is missing."""
    return gymnasium_dir("envs", "mujoco", "assets")


preload_mujoco_library(MUJOCO_VERSION)
