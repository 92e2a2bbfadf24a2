"""Meta-World's Sawyer manipulation tasks (metaworld 3.1.1) on MuJoCo.

The models are Meta-World's XML, meshes and textures, shipped in `assets/`
(taken from the pinned metaworld wheel at build time); the engine is the
`mujoco` package's library (pinned version). Importing this package stays
cheap: it neither imports `mujoco` nor `metaworld`.
"""

from __future__ import annotations

from envpool.python.packages import preload_mujoco_library

MUJOCO_VERSION = "3.17.0"

preload_mujoco_library(MUJOCO_VERSION)
