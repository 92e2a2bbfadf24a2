"""The dm TimeStep of a batch, for the dm type and for env.xla() alike.

Below both in envpool.python's imports (dm_api and xla import it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import dm_env
import numpy as np

from envpool.python.keys import dm_field
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
    step_fields: Callable[..., Any] | None = None,
) -> dm_env.TimeStep:
    """The dm TimeStep of one batch, with `xp` numpy (the dm type) or jax.numpy (env.xla()).

    Termination gives discount 0 (families may lower it further: Atari's
    zero_discount_on_life_loss writes info["discount"]); a step with
    elapsed_step 0 is FIRST. `step_fields(terminated, truncated,
    elapsed_step, discount)`, where given, computes a stepped batch's
    `(step_type, discount)` in one call, or returns None to leave them to the
    form below (the native `dm_step_fields`).
    """
    state_type, players_type, _, info_keys = spec.dm_state_types()
    fields = spec.dm_observation(obs)
    fields.update({dm_field(k): info[k] for k in info_keys})
    players = players_type(**{k: info["players"][k] for k in players_type._fields})
    state = state_type(env_id=info["env_id"], players=players, **fields)
    native = None
    if step_fields is not None and not first:
        native = step_fields(terminated, truncated, info["elapsed_step"], info.get("discount"))
    if native is not None:
        step_type, discount = native
    else:
        if first:
            # One per env, as when stepping (reward has one row per player).
            step_type = xp.full(info["env_id"].shape[0], _FIRST, dtype=xp.int32)
        else:
            step_type = xp.where(
                terminated | truncated, _LAST, xp.where(info["elapsed_step"] == 0, _FIRST, _MID)
            ).astype(xp.int32)
        discount = xp.where(terminated, 0.0, info.get("discount", 1.0)).astype(xp.float32)
    return dm_env.TimeStep(step_type, reward, discount, state)
