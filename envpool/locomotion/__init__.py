"""dm_control 1.0.50's locomotion tasks and multi-player soccer in C++ on
MuJoCo.

Composer builds these models in Python at every episode (the soccer pitch is
resized per episode); this family writes the same MJCF text in C++ and
compiles it with the `mujoco` package's library (pinned version). The
textures are dm_control's own, shipped in the wheel under
`envpool/locomotion/assets` (registration.py's ASSET_DIR). Importing this
package stays cheap: it imports neither `mujoco` nor `dm_control`.
"""

from __future__ import annotations

from envpool.python.packages import preload_mujoco_library

MUJOCO_VERSION = "3.17.0"
DM_CONTROL_VERSION = "1.0.50"

preload_mujoco_library(MUJOCO_VERSION)
