"""envpool ids in gymnasium's registry, for `gymnasium.make_vec`.

    import gymnasium, envpool
    env = gymnasium.make_vec("envpool/CartPole-v1", num_envs=8)
    # or, importing envpool through gymnasium:
    env = gymnasium.make_vec("envpool:envpool/CartPole-v1", num_envs=8)

Each id is registered as `envpool/<id>` with a `vector_entry_point`, so
`make_vec` returns this project's pool (a gymnasium VectorEnv); keyword
arguments are envpool options. Ids that contain a slash themselves
(`phys2d/...`, `tabular/...`) are aliases and are not registered: gymnasium
ids allow one namespace only.
"""

from __future__ import annotations

from typing import Any

NAMESPACE = "envpool"


def make_vec_env(num_envs: int = 1, *, task_id: str, **kwargs: Any):
    """gymnasium's vector entry point: a pool with gymnasium's batched spaces."""
    from envpool.python.gymnasium_api import GymnasiumVectorEnv
    from envpool.python.registry import make_spec

    return GymnasiumVectorEnv(make_spec(task_id, num_envs=num_envs, **kwargs))


def register_gymnasium_envs() -> None:
    """Add every envpool id to gymnasium's registry as `envpool/<id>`."""
    import gymnasium

    from envpool.python.registry import list_all_envs

    for task_id in list_all_envs():
        gym_id = f"{NAMESPACE}/{task_id}"
        if "/" in task_id or gym_id in gymnasium.registry:
            continue
        gymnasium.register(
            id=gym_id,
            vector_entry_point=make_vec_env,
            kwargs={"task_id": task_id},
        )
