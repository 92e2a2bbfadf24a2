"""`compute_reward` for HER: the reference's reward of batches of goals.

Hindsight experience replay relabels stored transitions with other goals
and asks the env for their rewards, as gymnasium-robotics' envs answer
`env.unwrapped.compute_reward(achieved_goal, desired_goal, info)`. Here the
same values come from `envpool.robotics.compute_reward(env, achieved_goal,
desired_goal, info)`, vectorized over any leading batch dimensions, equal to
the reference's per-sample rewards:

- Fetch: `-(d > distance_threshold)` as float32 (sparse), `-d` (dense);
- PointMaze: `d <= 0.45` as float64 (sparse), `exp(-d)` (dense);
- the Shadow Hand: hand_goals.py;

where d is the Euclidean distance over the last axis.
"""

from __future__ import annotations

from typing import Any

import numpy as np

# The reference's goal radius of every maze.
POINT_MAZE_GOAL_RADIUS = 0.45


def _config(env: Any) -> tuple[str, dict[str, Any]]:
    """The env class and options of an env, an EnvSpec or an id."""
    spec = env
    if isinstance(env, str):
        from envpool.python.api import make_spec

        spec = make_spec(env)
    elif not hasattr(env, "entry"):
        spec = getattr(env, "spec", None)
    entry = getattr(spec, "entry", None)
    config = getattr(spec, "config", None)
    if entry is None or config is None:
        raise TypeError(
            "compute_reward needs an env made by envpool.make, its spec or a task id "
            f"of the robotics family, got {type(env).__name__}"
        )
    if entry.family != "robotics":
        raise ValueError(
            f"{spec.id} is not a goal-conditioned robotics id (its family is {entry.family})"
        )
    return entry.env_class, config._asdict()


def _option(config: dict[str, Any], name: str) -> Any:
    value = config[name]
    if isinstance(value, (tuple, list)):
        if len(set(value)) != 1:
            raise ValueError(
                f"option '{name}' differs between the envs ({value}): pass the spec of one env "
                "(make_spec(task_id, ...)) to compute_reward"
            )
        value = value[0]
    return value


def compute_reward(env: Any, achieved_goal: Any, desired_goal: Any, info: Any = None) -> np.ndarray:
    """Rewards of reaching `desired_goal` at `achieved_goal`, batched as the reference's.

    Args:
        env: the env (made by `envpool.make`), its spec, or a task id.
        achieved_goal: goals reached, shape (..., goal_dim).
        desired_goal: goals wanted, the same shape.
        info: ignored, as the reference ignores it.

    Returns:
        One reward per goal pair, shape (...): float32 for Fetch, float64 for PointMaze,
        as the reference's dtypes.
    """
    del info
    env_class, config = _config(env)
    achieved = np.asarray(achieved_goal, dtype=np.float64)
    desired = np.asarray(desired_goal, dtype=np.float64)
    if achieved.shape != desired.shape:
        raise ValueError(
            "achieved_goal and desired_goal must have the same shape, "
            f"got {achieved.shape} and {desired.shape}"
        )
    distance = np.linalg.norm(achieved - desired, axis=-1)
    dense = _option(config, "reward_type") == "dense"
    if env_class == "Fetch":
        if dense:
            return -distance
        return -(distance > _option(config, "distance_threshold")).astype(np.float32)
    if env_class == "PointMaze":
        if dense:
            return np.exp(-distance)
        return (distance <= POINT_MAZE_GOAL_RADIUS).astype(np.float64)
    if env_class == "Hand":
        from envpool.robotics.hand_goals import hand_reward

        return hand_reward(lambda name: _option(config, name), achieved, desired)
    raise ValueError(f"compute_reward does not know the env class {env_class}")
