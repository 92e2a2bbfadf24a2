"""env_type="dm": a dm_env.Environment returning batched TimeSteps."""

from __future__ import annotations

from typing import Any

import dm_env
import numpy as np

from envpool.python.pool import PoolBase
from envpool.python.spec import EnvSpec
from envpool.python.timestep import dm_timestep


class DMEnvPool(PoolBase, dm_env.Environment):
    """Batched dm_env, as EnvPool's: `step_type`, `reward`, `discount` and
    `observation` are arrays over the batch. `observation` is a `State`
    namedtuple: `env_id`, `players` (a namedtuple of `env_id`), the
    observation (`obs`, or one field per key of a dict observation), then the
    family's info keys. Termination gives discount 0, truncation discount 1;
    the step after an episode ends is FIRST.
    """

    xla_returns_timesteps = True

    def __init__(self, spec: EnvSpec) -> None:
        super().__init__(spec)
        self.num_envs = spec.config.num_envs
        self._step_fields = self._core.dm_step_fields

    def observation_spec(self):
        """The dm_env specs of one env's observation (a `State` of specs)."""
        return self._spec.observation_spec()

    def action_spec(self):
        """The dm_env spec of one env's action."""
        return self._spec.action_spec()

    def reward_spec(self):
        """The dm_env spec of one env's reward: the dtype the TimeSteps carry."""
        return self._spec.reward_spec()

    def discount_spec(self):
        """The dm_env spec of one env's discount: float32 in [0, 1], as the TimeSteps carry."""
        return self._spec.discount_spec()

    def timestep(self, out: tuple, first: bool = False) -> dm_env.TimeStep:
        """A batched TimeStep from a raw `(obs, reward, terminated, truncated, info)`."""
        return dm_timestep(np, self._spec, *out, first=first, step_fields=self._step_fields)

    def reset(self, env_id: Any = None, seed: Any = None) -> dm_env.TimeStep:
        """Reset all envs (or `env_id`); `seed=s` seeds env i with `s + i`."""
        return self.timestep(self._reset_raw(env_id, seed), first=True)

    def step(self, action: Any, env_id: Any = None) -> dm_env.TimeStep:
        """Step the envs `env_id` (all, in sync mode) with `action`."""
        return self.timestep(self._step_raw(action, env_id))

    def recv(self) -> dm_env.TimeStep:
        """The next batch as a TimeStep."""
        return self.timestep(self._recv_raw())

    def __repr__(self) -> str:
        return f"DMEnvPool({self._spec.id}, num_envs={self.num_envs})"
