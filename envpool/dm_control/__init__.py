"""DeepMind Control Suite tasks (dm_control 1.0.50) in C++ on MuJoCo.

The models are the suite's XML files and assets, shipped in the wheel under
`envpool/dm_control/assets` (taken from the pinned dm-control wheel at build
time; registration.py's ASSET_DIR); the engine is the `mujoco` package's
library (pinned version).
Importing this package stays cheap: it imports neither `mujoco` nor
`dm_control`.
"""

from __future__ import annotations

import math
from fractions import Fraction

from envpool.python.packages import preload_mujoco_library

MUJOCO_VERSION = "3.17.0"
DM_CONTROL_VERSION = "1.0.50"


def _fused_sum_of_squares(x) -> float:
    """sum = fma(v, v, sum) over x, exactly rounded at each step."""
    total = 0.0
    for v in x:
        total = float(Fraction(float(v)) ** 2 + Fraction(total))
    return total


def numpy_norm_is_fused() -> bool:
    """Whether this process's `np.linalg.norm` of a short float64 vector
    accumulates its dot product by fused multiply-adds (numpy's OpenBLAS picks
    its dot kernel by CPU; dm_control normalizes its random quaternions with
    it). Probed on vectors where the two ways round apart; fused when neither
    matches."""
    import numpy as np

    rng = np.random.RandomState(0)
    for _ in range(1000):
        x = rng.rand(4)
        fused = math.sqrt(_fused_sum_of_squares(x))
        plain = math.sqrt(float(x[0] * x[0] + x[1] * x[1] + x[2] * x[2] + x[3] * x[3]))
        if fused != plain:
            got = float(np.linalg.norm(x))
            return got != plain or got == fused
    return True


preload_mujoco_library(MUJOCO_VERSION)
