"""The Shadow Hand's rewards for HER (`compute_reward` of HandReach and HandManipulate*).

HandReach: `-(d > distance_threshold)` as float32 (sparse) or `-d` (dense), d
the distance between the five fingertips' positions and their goals (15
numbers). HandManipulate*: `is_success - 1` as float32 (sparse) or
`-(10 d_pos + d_rot)` (dense), where d_pos is the object's distance from the
goal position (0 when `target_position` is "ignore") and d_rot the angle
between its quaternion and the goal's (0 when `target_rotation` is
"ignore"); success is `d_pos < distance_threshold` and
`d_rot < rotation_threshold`.

With `ignore_z_target_rotation` (the Pen), the object's Euler z angle is
replaced by the goal's before the angle is taken. This follows the
reference's per-sample definition: its batched code replaces row 2 of the
batch instead of the z column, so its batched rewards differ from its
per-sample ones; ours are the per-sample ones at any batch shape.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

_FLOAT_EPS = np.finfo(np.float64).eps
_EPS4 = _FLOAT_EPS * 4.0


def _quat_mul(q0: np.ndarray, q1: np.ndarray) -> np.ndarray:
    w0, x0, y0, z0 = np.moveaxis(q0, -1, 0)
    w1, x1, y1, z1 = np.moveaxis(q1, -1, 0)
    return np.stack(
        [
            w0 * w1 - x0 * x1 - y0 * y1 - z0 * z1,
            w0 * x1 + x0 * w1 + y0 * z1 - z0 * y1,
            w0 * y1 + y0 * w1 + z0 * x1 - x0 * z1,
            w0 * z1 + z0 * w1 + x0 * y1 - y0 * x1,
        ],
        axis=-1,
    )


def _quat2euler(quat: np.ndarray) -> np.ndarray:
    """rotations.quat2euler (through the rotation matrix), batched."""
    w, x, y, z = np.moveaxis(quat, -1, 0)
    nq = np.sum(quat * quat, axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        s = 2.0 / nq
    xs, ys, zs = x * s, y * s, z * s
    wx, wy, wz = w * xs, w * ys, w * zs
    xx, xy, xz = x * xs, x * ys, x * zs
    yy, yz, zz = y * ys, y * zs, z * zs
    regular_quat = nq > _FLOAT_EPS
    m00 = np.where(regular_quat, 1.0 - (yy + zz), 1.0)
    m01 = np.where(regular_quat, xy - wz, 0.0)
    m02 = np.where(regular_quat, xz + wy, 0.0)
    m10 = np.where(regular_quat, xy + wz, 0.0)
    m11 = np.where(regular_quat, 1.0 - (xx + zz), 1.0)
    m12 = np.where(regular_quat, yz - wx, 0.0)
    m22 = np.where(regular_quat, 1.0 - (xx + yy), 1.0)
    cy = np.sqrt(m22 * m22 + m12 * m12)
    regular = cy > _EPS4
    euler = np.empty((*quat.shape[:-1], 3))
    euler[..., 2] = np.where(regular, -np.arctan2(m01, m00), -np.arctan2(-m10, m11))
    euler[..., 1] = -np.arctan2(-m02, cy)
    euler[..., 0] = np.where(regular, -np.arctan2(m12, m22), 0.0)
    return euler


def _euler2quat(euler: np.ndarray) -> np.ndarray:
    ai, aj, ak = euler[..., 2] / 2, -euler[..., 1] / 2, euler[..., 0] / 2
    si, sj, sk = np.sin(ai), np.sin(aj), np.sin(ak)
    ci, cj, ck = np.cos(ai), np.cos(aj), np.cos(ak)
    cc, cs = ci * ck, ci * sk
    sc, ss = si * ck, si * sk
    return np.stack(
        [cj * cc + sj * ss, cj * cs - sj * sc, -(cj * ss + sj * cc), cj * sc - sj * cs],
        axis=-1,
    )


def manipulate_distances(
    achieved: np.ndarray, desired: np.ndarray, option: Callable[[str], Any]
) -> tuple[np.ndarray, np.ndarray]:
    """d_pos and d_rot of the reference's `_goal_distance`, per sample, any batch shape."""
    if achieved.shape[-1] != 7:
        raise ValueError(
            "a HandManipulate goal is a position and a quaternion (7 numbers), "
            f"got shape {achieved.shape}"
        )
    d_pos = np.zeros(achieved.shape[:-1])
    d_rot = np.zeros(achieved.shape[:-1])
    if option("target_position") != "ignore":
        d_pos = np.linalg.norm(achieved[..., :3] - desired[..., :3], axis=-1)
    if option("target_rotation") != "ignore":
        quat_a, quat_b = achieved[..., 3:], desired[..., 3:]
        if option("ignore_z_target_rotation"):
            euler_a = _quat2euler(quat_a)
            euler_a[..., 2] = _quat2euler(quat_b)[..., 2]
            quat_a = _euler2quat(euler_a)
        conjugate_b = quat_b * np.array([1.0, -1.0, -1.0, -1.0])
        quat_diff = _quat_mul(quat_a, conjugate_b)
        d_rot = 2 * np.arccos(np.clip(quat_diff[..., 0], -1.0, 1.0))
    return d_pos, d_rot


def hand_reward(
    option: Callable[[str], Any], achieved: np.ndarray, desired: np.ndarray
) -> np.ndarray:
    """The reference's compute_reward of a Hand env whose options `option` answers."""
    dense = option("reward_type") == "dense"
    if option("hand_task") == "reach":
        distance = np.linalg.norm(achieved - desired, axis=-1)
        if dense:
            return -distance
        return -(distance > option("distance_threshold")).astype(np.float32)
    d_pos, d_rot = manipulate_distances(achieved, desired, option)
    if dense:
        return -(10.0 * d_pos + d_rot)
    success = (d_pos < option("distance_threshold")) & (d_rot < option("rotation_threshold"))
    return success.astype(np.float32) - np.float32(1.0)
