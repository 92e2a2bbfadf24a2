"""The names of a pool's state arrays, and the keys users see them under.

An env declares its observation as "obs" (a single array) or "obs:<key>"
(one array per key of a dict observation), and its info arrays as
"info:<key>". A dict observation nests where a key has more parts:
"obs:achieved_goal:kettle" is `obs["achieved_goal"]["kettle"]` (gymnasium
-robotics' FrankaKitchen), in the spaces, the batches and the dm type alike.
These helpers turn the one into the other, in one place.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

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
    namedtuple's. A nested observation's keys map part by part: "bottom
    burner" under "achieved_goal" is the field `bottom_burner` of the
    namedtuple in the field `achieved_goal`."""
    return re.sub(r"\W", "_", key)


def obs_path(name: str) -> tuple[str, ...]:
    """Where the observation array `name` sits in a dict observation: "obs:image"
    -> ("image",), "obs:achieved_goal:kettle" -> ("achieved_goal", "kettle")."""
    return tuple(name.split(":")[1:]) or (name,)


def nest(items: Iterable[tuple[tuple[str, ...], Any]]) -> dict[str, Any]:
    """A dict of dicts from (path, value) pairs, in their order: the nested
    form of a dict observation (`obs_path`). A path that is both a leaf and
    a dict ("obs:goal" beside "obs:goal:x") is a ValueError: an env must
    declare one or the other."""
    out: dict[str, Any] = {}
    for path, value in items:
        node = out
        for i, part in enumerate(path[:-1]):
            node = node.setdefault(part, {})
            if not isinstance(node, dict):
                raise ValueError(
                    f"observation key {':'.join(path[: i + 1])!r} is both an array and a "
                    f"dict of arrays ({':'.join(path)!r}): declare one or the other"
                )
        if path[-1] in node:
            raise ValueError(
                f"observation key {':'.join(path)!r} is both an array and a dict of "
                "arrays: declare one or the other"
            )
        node[path[-1]] = value
    return out


def is_obs(name: str) -> bool:
    """Whether the state array `name` is (part of) the observation."""
    return name == "obs" or name.startswith("obs:")


def is_info(name: str) -> bool:
    """Whether the state array `name` lands in info."""
    return name.startswith("info:")


def is_hidden_info(name: str) -> bool:
    """An info array the API consumes rather than shows (DM_HIDDEN_INFO)."""
    return is_info(name) and state_key(name) in DM_HIDDEN_INFO
