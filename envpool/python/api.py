"""`make` and friends: specs and pools of registered ids.

Imports go one way: api -> the API classes (gymnasium_api, dm_api) -> pool
-> spec -> registry. The API classes import gymnasium and dm_env, so they
are imported on the first `make` of their kind.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from envpool.python.registry import find_entry
from envpool.python.spec import EnvSpec

if TYPE_CHECKING:
    from envpool.python.dm_api import DMEnvPool
    from envpool.python.gymnasium_api import GymnasiumEnvPool
    from envpool.python.pool import PoolBase as EnvPool

ENV_TYPES = ("gymnasium", "gym", "dm", "pettingzoo")


def make_spec(task_id: str, **kwargs: Any) -> EnvSpec:
    """The spec of `task_id` under `kwargs`: config, spaces, reward_threshold."""
    return EnvSpec(find_entry(task_id), kwargs)


def make(task_id: str, env_type: str = "gymnasium", **kwargs: Any) -> EnvPool:
    """Make a pool of `num_envs` envs of `task_id`.

    env_type: "gymnasium" or "gym" (EnvPool's surface: a gymnasium VectorEnv
    with single-env spaces; see `GymnasiumEnvPool`), "dm" (a
    dm_env.Environment, `DMEnvPool`) or "pettingzoo" (PettingZoo's Parallel
    API: one `pettingzoo.ParallelEnv` for num_envs=1, else N of them sharing
    the pool; docs/multiplayer.md). `gymnasium.make_vec("envpool/<id>")`
    gives gymnasium's own VectorEnv contract with batched spaces.

    Options every id takes (docs/api.md):
      num_envs=1: envs in the pool.
      batch_size=0: envs per recv(); 0 means num_envs; smaller is async.
      num_threads=0: worker threads; 0 means min(batch_size, cores).
      thread_affinity_offset=-1: pin worker i to core offset + i (-1: none).
      seed=42: env i gets seed + i; or a list of one seed per env.
      max_episode_steps: truncation, per id.
      autoreset_mode="next_step": or "same_step", "disabled".
      episode_statistics=False: info["episode"] on the step ending an episode.
      gym_reset_return_info=True: reset() returns (obs, info), else obs.
      render_mode=None, render_width, render_height, render_camera_id,
      render_env_id: rendering (docs/render.md).
    The family's own options, with their defaults for this id, are in
    `envpool.make_spec(task_id).config`. An unknown option is a TypeError
    naming the valid ones.
    """
    if env_type not in ENV_TYPES:
        raise ValueError(f"env_type must be one of {ENV_TYPES}, got {env_type!r}")
    if env_type == "pettingzoo":
        try:
            import pettingzoo  # noqa: F401
        except ImportError as e:
            raise ImportError(
                "env_type='pettingzoo' needs the pettingzoo package (1.27 is tested): "
                "pip install pettingzoo"
            ) from e
        from envpool.python.pettingzoo_api import make_pettingzoo

        # PettingZoo's envs reset through reset(), never by themselves.
        return make_pettingzoo(make_spec(task_id, **{"autoreset_mode": "disabled", **kwargs}))
    spec = make_spec(task_id, **kwargs)
    if env_type == "dm":
        from envpool.python.dm_api import DMEnvPool

        return DMEnvPool(spec)
    from envpool.python.gymnasium_api import GymnasiumEnvPool

    return GymnasiumEnvPool(spec)


def make_gymnasium(task_id: str, **kwargs: Any) -> GymnasiumEnvPool:
    """`make(task_id, env_type="gymnasium", ...)`."""
    return make(task_id, env_type="gymnasium", **kwargs)  # type: ignore[return-value]


def make_gym(task_id: str, **kwargs: Any) -> GymnasiumEnvPool:
    """`make(task_id, env_type="gym", ...)`: the same pool as make_gymnasium, as in EnvPool."""
    return make(task_id, env_type="gym", **kwargs)  # type: ignore[return-value]


def make_dm(task_id: str, **kwargs: Any) -> DMEnvPool:
    """`make(task_id, env_type="dm", ...)`."""
    return make(task_id, env_type="dm", **kwargs)  # type: ignore[return-value]
