"""MuJoCo envs: the gymnasium MuJoCo tasks (Ant, HalfCheetah, Hopper, ...).

The models are gymnasium's XML files, read from the installed gymnasium
package (registration.py's ASSET_DIR); the engine is the `mujoco`
package's library (pinned version).
Importing this package stays cheap: it neither imports `mujoco` nor
`gymnasium`, it only locates them.
"""

from __future__ import annotations

from envpool.python.packages import preload_mujoco_library

MUJOCO_VERSION = "3.17.0"


preload_mujoco_library(MUJOCO_VERSION)
