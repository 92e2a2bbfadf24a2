"""env_type="dm": a dm_env.Environment returning batched TimeSteps."""

from __future__ import annotations

from typing import Any

import dm_env
import numpy as np

from envpool.python.pool import PoolBase
from envpool.python.spec import EnvSpec

_FIRST = np.int32(dm_env.StepType.FIRST)
_MID = np.int32(dm_env.StepType.MID)
_LAST = np.int32(dm_env.StepType.LAST)


def dm_timestep(
    xp: Any,
    spec: EnvSpec,
    obs: Any,
    reward: Any,
    terminated: Any,
    truncated: Any,
    info: Any,
    first: bool = False,
) -> dm_env.TimeStep:
    """The dm TimeStep of one batch, with `xp` numpy (the dm type) or jax.numpy (env.xla()).

    Termination gives discount 0 (families may lower it further: Atari's
    zero_discount_on_life_loss writes info["discount"]); a step with
    elapsed_step 0 is FIRST.
    """
    state_type, players_type, obs_keys, info_keys = spec.dm_state_types()
    fields = {k: obs[k] for k in obs_keys} if isinstance(obs, dict) else {"obs": obs}
    fields.update({k: info[k] for k in info_keys})
    state = state_type(
        env_id=info["env_id"], players=players_type(env_id=info["players"]["env_id"]), **fields
    )
    if first:
        step_type = xp.full(len(reward), _FIRST, dtype=xp.int32)
    else:
        step_type = xp.where(
            terminated | truncated, _LAST, xp.where(info["elapsed_step"] == 0, _FIRST, _MID)
        ).astype(xp.int32)
    discount = xp.where(terminated, 0.0, info.get("discount", 1.0)).astype(xp.float32)
    return dm_env.TimeStep(step_type, reward, discount, state)


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
        return dm_timestep(np, self._spec, *out, first=first)

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
