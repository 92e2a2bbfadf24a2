"""gymnasium spaces from the array descriptions of the core."""

from __future__ import annotations

import collections
from typing import Any

import gymnasium
import numpy as np

from envpool.python.keys import is_obs, nest, obs_path


def _bound(values: list[float], shape: tuple[int, ...], dtype: np.dtype, default: float):
    if not values and np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        return np.full(shape, info.min if default < 0 else info.max, dtype=dtype)
    if not values:
        values = [default]
    arr = np.asarray(values, dtype=np.float64)
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        arr = np.clip(arr, info.min, info.max)
    if arr.size == 1:
        return np.full(shape, arr.item(), dtype=dtype)
    return arr.reshape(shape).astype(dtype)


def array_space(desc: dict[str, Any]) -> gymnasium.Space:
    dtype = np.dtype(desc["dtype"])
    shape = tuple(desc["shape"])
    if desc["num_values"] > 0 and shape == ():
        return gymnasium.spaces.Discrete(desc["num_values"])
    if desc.get("binary", False):
        # Every element 0 or 1, int8 (the core checks): EnvPool's MultiBinary.
        return gymnasium.spaces.MultiBinary(shape)
    if desc["num_values"] > 0:
        return gymnasium.spaces.MultiDiscrete(np.full(shape, desc["num_values"]), dtype=dtype)
    low = _bound(desc["low"], shape, dtype, -np.inf)
    high = _bound(desc["high"], shape, dtype, np.inf)
    return gymnasium.spaces.Box(low=low, high=high, shape=shape, dtype=dtype)


def observation_space(state: list[dict[str, Any]]) -> gymnasium.Space:
    obs = [d for d in state if is_obs(d["name"])]
    if len(obs) == 1 and obs[0]["name"] == "obs":
        return array_space(obs[0])
    # In the env's order, as EnvPool's (a plain dict would be sorted); keys
    # of more parts ("obs:achieved_goal:kettle") as Dicts in the Dict.
    return _dict_space(nest((obs_path(d["name"]), array_space(d)) for d in obs))


def _dict_space(tree: dict[str, Any]) -> gymnasium.spaces.Dict:
    return gymnasium.spaces.Dict(
        collections.OrderedDict(
            (key, _dict_space(value) if isinstance(value, dict) else value)
            for key, value in tree.items()
        )
    )


def action_space(action: list[dict[str, Any]]) -> gymnasium.Space:
    if len(action) == 1:
        return array_space(action[0])
    return gymnasium.spaces.Dict({d["name"]: array_space(d) for d in action})
