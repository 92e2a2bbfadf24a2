"""env_type="dm": a dm_env.Environment returning batched TimeSteps."""

from __future__ import annotations

import collections
from typing import Any

import dm_env
import numpy as np
from dm_env import specs

from envpool.python.pool import PoolBase
from envpool.python.spec import EnvSpec


def _dm_spec(space: Any, name: str):
    import gymnasium

    if isinstance(space, gymnasium.spaces.Discrete):
        return specs.DiscreteArray(int(space.n), dtype=space.dtype, name=name)
    if isinstance(space, gymnasium.spaces.Box):
        return specs.BoundedArray(space.shape, space.dtype, space.low, space.high, name=name)
    if isinstance(space, gymnasium.spaces.Dict):
        return {k: _dm_spec(v, k) for k, v in space.spaces.items()}
    return specs.Array(space.shape, space.dtype, name=name)


class DmEnv(PoolBase, dm_env.Environment):
    """Batched dm_env: `step_type`, `reward`, `discount` and `observation`
    are arrays over the batch.  `observation` is a namedtuple holding the
    observation ("obs" or one field per key) and the info arrays
    (`env_id`, `elapsed_step`, ...).  Termination gives discount 0,
    truncation discount 1; the step after an episode ends is FIRST.
    """

    def __init__(self, spec: EnvSpec) -> None:
        super().__init__(spec)
        self.num_envs = spec.config.num_envs
        self._state_type = None

    def observation_spec(self):
        return _dm_spec(self._spec.observation_space, "obs")

    def action_spec(self):
        return _dm_spec(self._spec.action_space, "action")

    def _timestep(self, out: tuple, first: bool) -> dm_env.TimeStep:
        obs, reward, terminated, truncated, info = out
        fields = dict(obs) if isinstance(obs, dict) else {"obs": obs}
        fields.update(info)
        if self._state_type is None:
            self._state_type = collections.namedtuple("State", list(fields))  # type: ignore[misc]
        state = self._state_type(**fields)
        n = len(reward)
        if first:
            step_type = np.full(n, dm_env.StepType.FIRST, dtype=np.int32)
        else:
            step_type = np.where(
                terminated | truncated,
                dm_env.StepType.LAST,
                np.where(info["elapsed_step"] == 0, dm_env.StepType.FIRST, dm_env.StepType.MID),
            ).astype(np.int32)
        # Families may lower the discount themselves (Atari's
        # zero_discount_on_life_loss); termination always ends the bootstrap.
        discount = np.where(terminated, 0.0, info.get("discount", 1.0)).astype(np.float32)
        return dm_env.TimeStep(step_type, reward, discount, state)

    def reset(self, env_id: Any = None) -> dm_env.TimeStep:
        return self._timestep(self._reset_raw(env_id), first=True)

    def step(self, action: Any, env_id: Any = None) -> dm_env.TimeStep:
        return self._timestep(self._step_raw(action, env_id), first=False)

    def recv(self) -> dm_env.TimeStep:
        out = self._recv_raw()
        return self._timestep(out, first=False)

    def __repr__(self) -> str:
        return f"DmEnv({self._spec.id}, num_envs={self.num_envs})"
