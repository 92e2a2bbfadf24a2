"""env_type="gym": EnvPool's own conventions, so EnvPool code runs unchanged."""

from __future__ import annotations

from typing import Any

from envpool.python.pool import PoolBase
from envpool.python.spec import EnvSpec


class GymEnv(PoolBase):
    """Batched envs with single-env `observation_space` and `action_space`.

    `reset(env_id=None)` returns `(obs, info)` (only obs when
    `gym_reset_return_info=False`); `step(action, env_id=None)` returns
    `(obs, reward, terminated, truncated, info)`.
    """

    def __init__(self, spec: EnvSpec) -> None:
        super().__init__(spec)
        self.num_envs = spec.config.num_envs
        self.observation_space = spec.observation_space
        self.action_space = spec.action_space
        self._return_info = spec.config.gym_reset_return_info

    def reset(self, env_id: Any = None) -> Any:
        obs, _, _, _, info = self._reset_raw(env_id)
        return (obs, info) if self._return_info else obs

    def step(self, action: Any, env_id: Any = None):
        return self._step_raw(action, env_id)

    def recv(self):
        return self._recv_raw()

    def __repr__(self) -> str:
        return f"GymEnv({self._spec.id}, num_envs={self.num_envs})"
