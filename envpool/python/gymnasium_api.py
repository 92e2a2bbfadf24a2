"""env_type="gymnasium": a real gymnasium.vector.VectorEnv."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from envpool.python.pool import PoolBase
from envpool.python.spec import EnvSpec

_MODES = {
    "next_step": AutoresetMode.NEXT_STEP,
    "same_step": AutoresetMode.SAME_STEP,
    "disabled": AutoresetMode.DISABLED,
}


class GymnasiumVectorEnv(PoolBase, gymnasium.vector.VectorEnv):
    """A pool of envs behind gymnasium's VectorEnv API.

    `step(actions)` returns batched `(obs, reward, terminated, truncated,
    info)`; `info` holds `env_id`, `elapsed_step` and the family's extras.
    In async mode (`batch_size < num_envs`) `step(actions, env_id)` steps the
    given envs and returns the next `batch_size` to finish.
    """

    def __init__(self, spec: EnvSpec) -> None:
        PoolBase.__init__(self, spec)
        cfg = spec.config
        self.num_envs = cfg.num_envs
        self.single_observation_space = spec.observation_space
        self.single_action_space = spec.action_space
        self.observation_space = batch_space(self.single_observation_space, cfg.num_envs)
        self.action_space = batch_space(self.single_action_space, cfg.num_envs)
        self.metadata = {
            "autoreset_mode": _MODES[cfg.autoreset_mode],
            "render_modes": [],
        }
        self.render_mode = None

    def reset(
        self,
        *,
        seed: int | list[int] | None = None,
        options: dict[str, Any] | None = None,
        env_id: Any = None,
    ) -> tuple[Any, dict[str, Any]]:
        """Reset all envs, or those of `env_id` / `options["reset_mask"]`.

        `seed=s` seeds env i with `s + i`; a list gives one seed per env.
        """
        if options and "reset_mask" in options:
            env_id = np.flatnonzero(np.asarray(options["reset_mask"], dtype=bool))
        if seed is not None:
            self._np_random_seed = seed if isinstance(seed, int) else None
        obs, _, _, _, info = self._reset_raw(env_id, seed)
        return obs, info

    def step(self, actions: Any, env_id: Any = None):
        """Step the envs with `actions`, one row per env."""
        return self._step_raw(actions, env_id)

    def recv(self):
        """The next batch as `(obs, reward, terminated, truncated, info)`."""
        return self._recv_raw()

    def close(self, **kwargs: Any) -> None:
        """Stop the worker threads (gymnasium's keyword arguments are ignored)."""
        PoolBase.close(self)

    def __repr__(self) -> str:
        return f"GymnasiumVectorEnv({self._spec.id}, num_envs={self.num_envs})"
