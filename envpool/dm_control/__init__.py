"""DeepMind Control Suite tasks (dm_control 1.0.50) in C++ on MuJoCo.

The models are the suite's XML files and assets, shipped in the wheel under
`envpool/dm_control/assets` (taken from the pinned dm-control wheel at build
time; registration.py's ASSET_DIR); the engine is the `mujoco` package's
library (pinned version).
Importing this package stays cheap: it imports neither `mujoco` nor
`dm_control`.
"""

from __future__ import annotations

from envpool.python.packages import preload_mujoco_library

MUJOCO_VERSION = "3.17.0"
DM_CONTROL_VERSION = "1.0.50"

preload_mujoco_library(MUJOCO_VERSION)
