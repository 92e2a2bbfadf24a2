"""The names of a pool's state arrays, and the keys users see them under.

An env declares its observation as "obs" (a single array) or "obs:<key>"
(one array per key of a dict observation), and its info arrays as
"info:<key>". These helpers turn the one into the other, in one place.
"""

from __future__ import annotations

import re

# info keys the API consumes rather than shows: Atari's discount becomes the
# dm TimeStep's discount.
DM_HIDDEN_INFO = ("discount",)


def state_key(name: str) -> str:
    """The key of a state array: "obs:image" -> "image", "info:lives" ->
    "lives"; "obs", a single observation, stays "obs"."""
    return name.partition(":")[2] or name


def dm_field(key: str) -> str:
    """The dm observation's field of a state key: the key, its characters that
    cannot be in a Python name replaced by "_" (dm_control's
    "walker/joints_pos" -> "walker_joints_pos"), since the fields are a
    namedtuple's."""
    return re.sub(r"\W", "_", key)


def is_obs(name: str) -> bool:
    """Whether the state array `name` is (part of) the observation."""
    return name == "obs" or name.startswith("obs:")


def is_info(name: str) -> bool:
    """Whether the state array `name` lands in info."""
    return name.startswith("info:")


def is_hidden_info(name: str) -> bool:
    """An info array the API consumes rather than shows (DM_HIDDEN_INFO)."""
    return is_info(name) and state_key(name) in DM_HIDDEN_INFO
