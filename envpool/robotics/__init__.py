"""gymnasium-robotics' goal-conditioned tasks (PointMaze, Fetch) on MuJoCo.

The models are gymnasium-robotics' XML, meshes and textures, shipped in
`assets/` (taken from the pinned gymnasium-robotics wheel at build time); the
engine is the `mujoco` package's library (pinned version). Importing this
package stays cheap: it neither imports `mujoco` nor `gymnasium_robotics`.
`compute_reward` gives HER the reference's rewards for batches of goals.
"""

from __future__ import annotations

from envpool.python.packages import preload_mujoco_library
from envpool.robotics.goals import compute_reward

MUJOCO_VERSION = "3.17.0"

__all__ = ["compute_reward"]

preload_mujoco_library(MUJOCO_VERSION)
