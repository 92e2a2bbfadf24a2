"""env_type="gymnasium" and "gym": EnvPool's surface; make_vec's batched one.

`GymnasiumEnvPool` is what `make(..., env_type="gymnasium")`, `make_gym` and
`make_gymnasium` return, as in EnvPool 1.2.x: an instance of both
`gymnasium.Env` and `gymnasium.vector.VectorEnv` whose `observation_space`
and `action_space` are the single-env spaces, with `reset(env_id)` and
`step(action, env_id)` taking `env_id` positionally, so code written for
EnvPool runs unchanged. `GymnasiumVectorEnv`, what
`gymnasium.make_vec("envpool/<id>")` returns, keeps gymnasium's own
VectorEnv contract: batched `observation_space` and `action_space`.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from envpool.python.keys import is_hidden_info, state_key
from envpool.python.pool import PoolBase
from envpool.python.registry import find_entry
from envpool.python.spec import EnvSpec

_MODES = {
    "next_step": AutoresetMode.NEXT_STEP,
    "same_step": AutoresetMode.SAME_STEP,
    "disabled": AutoresetMode.DISABLED,
}

Batch = tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]


class GymnasiumEnvPool(PoolBase, gymnasium.Env, gymnasium.vector.VectorEnv):
    """A pool of envs with EnvPool's gymnasium surface.

    `step(action, env_id=None)` returns batched `(obs, reward, terminated,
    truncated, info)`; `info` holds `env_id`, `players`, the family's keys
    and `elapsed_step`. In async mode (`batch_size < num_envs`) `send` /
    `recv` step the given envs and return the next `batch_size` to finish.
    """

    is_vector_env = True

    def __init__(self, spec: EnvSpec) -> None:
        PoolBase.__init__(self, spec)
        cfg = spec.config
        self.num_envs = cfg.num_envs
        self.single_observation_space = spec.observation_space
        self.single_action_space = spec.action_space
        self.observation_space = self.single_observation_space
        self.action_space = self.single_action_space
        self.metadata = {
            "render_modes": list(spec.description["render_modes"]),
            "autoreset_mode": _MODES[cfg.autoreset_mode],
        }
        if spec.description["render_fps"]:
            self.metadata["render_fps"] = spec.description["render_fps"]
        self.render_mode = getattr(cfg, "render_mode", None)
        self._return_info = cfg.gym_reset_return_info
        self._hidden = [
            state_key(d["name"]) for d in spec.description["state"] if is_hidden_info(d["name"])
        ]
        if (
            not self._hidden
            and not self._same_step
            and self._human is None
            and type(self).recv is GymnasiumEnvPool.recv
            and type(self).step is GymnasiumEnvPool.step
        ):
            # Nothing to do to a batch: the native methods themselves (see
            # PoolBase.__init__).
            self.recv = self._pool.recv
            self.step = self._pool.step

    def _shown(self, out: tuple) -> Batch:
        if self._hidden:
            info = out[4]
            for key in self._hidden:
                info.pop(key, None)
        return out  # type: ignore[return-value]

    def reset(  # type: ignore[override]
        self,
        env_id: Any = None,
        seed: int | list[int] | None = None,
        options: dict[str, Any] | None = None,
    ) -> Any:
        """Reset all envs, or those of `env_id` / `options["reset_mask"]`.

        Returns `(obs, info)` (only obs with `gym_reset_return_info=False`).
        `seed=s` seeds env i with `s + i`; a list gives one seed per env.
        """
        if options and "reset_mask" in options:
            env_id = np.flatnonzero(np.asarray(options["reset_mask"], dtype=bool))
        if seed is not None:
            self._np_random_seed = seed if isinstance(seed, int) else None
        obs, _, _, _, info = self._shown(self._reset_raw(env_id, seed))
        return (obs, info) if self._return_info else obs

    def step(self, action: Any, env_id: Any = None) -> Batch:  # type: ignore[override]
        """Step the envs `env_id` (all, in sync mode) with `action`, one row each."""
        return self._shown(self._step_raw(action, env_id))

    def recv(self) -> Batch:
        """The next batch as `(obs, reward, terminated, truncated, info)`."""
        return self._shown(self._recv_raw())

    def close(self, **kwargs: Any) -> None:
        """Stop the worker threads (gymnasium's keyword arguments are ignored)."""
        PoolBase.close(self)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._spec.id}, num_envs={self.num_envs})"

    __str__ = __repr__


# EnvPool 1.2.x returns the same kind of pool for "gym" and "gymnasium".
GymEnvPool = GymnasiumEnvPool


class GymnasiumVectorEnv(GymnasiumEnvPool):
    """gymnasium's own VectorEnv contract: batched observation and action spaces.

    What `gymnasium.make_vec("envpool/<id>", num_envs=n)` returns.
    """

    def __init__(self, spec: EnvSpec) -> None:
        super().__init__(spec)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        # Per-player actions: one row per player of every env.
        rows = self.num_envs * (
            spec.config.max_num_players
            if any(d["per_player"] for d in spec.description["action"])
            else 1
        )
        self.action_space = batch_space(self.single_action_space, rows)
        self._return_info = True

    def reset(  # type: ignore[override]
        self,
        *,
        seed: int | list[int] | None = None,
        options: dict[str, Any] | None = None,
        env_id: Any = None,
    ) -> tuple[Any, dict[str, Any]]:
        """gymnasium's `reset(seed=, options=)`; `env_id` resets a subset."""
        return super().reset(env_id, seed, options)

    def render(self, env_ids: Any = None) -> Any:  # type: ignore[override]
        """gymnasium's vector contract: one frame per env, all envs by
        default (what its `RecordVideo` and `HumanRendering` wrappers take)."""
        if self.render_mode == "human":  # the window shows env render_env_id
            return PoolBase.render(self, env_ids)
        if env_ids is None:
            env_ids = np.arange(self.num_envs)
        return tuple(PoolBase.render(self, env_ids))


def _row(value: Any, i: int = 0) -> Any:
    """Row `i` of a batched value: arrays, nested dicts of arrays, object arrays."""
    if isinstance(value, dict):
        return {k: _row(v, i) for k, v in value.items()}
    return value[i]


class GymnasiumSingleEnv(gymnasium.Env):
    """One env with gymnasium's single-env API, over a pool of one.

    What `gymnasium.make("envpool/<id>", **options)` returns, and what
    `gymnasium.make_vec("envpool/<id>", vectorization_mode="sync" | "async")`
    builds gymnasium's own vector envs of. It does not reset by itself: after
    `terminated` or `truncated`, call `reset()` (stepping first is a
    RuntimeError). `reset(seed=s)` plays the reference env reset with seed s.
    """

    # Options that belong to the pool, not to one env.
    _POOL_ONLY = ("num_envs", "batch_size", "num_threads", "autoreset_mode", "render_env_id")

    def __init__(self, task_id: str, **kwargs: Any) -> None:
        given = [k for k in self._POOL_ONLY if k in kwargs]
        if given:
            raise TypeError(
                f"gymnasium.make('envpool/{task_id}') makes one env and takes no "
                f"{', '.join(map(repr, given))}: use gymnasium.make_vec('envpool/{task_id}', "
                "num_envs=...) or envpool.make for a pool"
            )
        spec = EnvSpec(find_entry(task_id), {**kwargs, "num_envs": 1, "autoreset_mode": "disabled"})
        self._pool = GymnasiumEnvPool(spec)
        self.observation_space = spec.observation_space
        self.action_space = spec.action_space
        self.metadata = {"render_modes": list(spec.description["render_modes"])}
        if spec.description["render_fps"]:
            self.metadata["render_fps"] = spec.description["render_fps"]
        self.render_mode = getattr(spec.config, "render_mode", None)
        self.envpool_spec = spec

    def reset(  # type: ignore[override]
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Start an episode; `seed=s` reseeds the env as the reference's reset(seed=s)."""
        if seed is not None:
            self._np_random_seed = seed
        obs, info = self._pool.reset(None, None if seed is None else [seed], options)
        return _row(obs), _row(info)

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """One step: `(obs, reward, terminated, truncated, info)` of this env."""
        if isinstance(action, dict):
            batched = {k: np.asarray(v)[None] for k, v in action.items()}
        else:
            batched = np.asarray(action)[None]
        obs, reward, terminated, truncated, info = self._pool.step(batched)
        return (
            _row(obs),
            float(reward[0]),
            bool(terminated[0]),
            bool(truncated[0]),
            _row(info),
        )

    def render(self) -> Any:  # type: ignore[override]
        """The frame of this env (`render_mode` as given to make)."""
        frames = self._pool.render([0])
        return frames[0] if frames is not None else None

    def close(self) -> None:
        """Stop the pool's thread; later calls raise RuntimeError."""
        self._pool.close()

    def __repr__(self) -> str:
        return f"GymnasiumSingleEnv({self.envpool_spec.id})"
