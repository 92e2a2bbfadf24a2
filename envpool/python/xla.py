"""`env.xla()`: the pool as pure functions usable inside `jax.jit`.

    env = envpool.make("CartPole-v1", num_envs=8)
    env.async_reset()                      # or env.reset()
    handle, recv, send, step = env.xla()

    @jax.jit
    def run(handle, action):
        handle, (obs, reward, terminated, truncated, info) = step(handle, action)
        return handle, obs

`send(handle, action, env_id=None) -> handle`, `recv(handle) -> (handle,
(obs, reward, terminated, truncated, info))` and `step = recv . send` are
XLA custom calls (jax.ffi) into the native pool; `handle` carries no data,
it orders the calls. The CPU backend is supported, and a CUDA one where
JAX has it: there each call copies its buffers to the host, steps the pool
as on the CPU and copies the results back, on the call's stream. Without `jax_enable_x64`,
64-bit columns come back as 32-bit arrays, as JAX represents them.

Multi-player envs: XLA's shapes are static, so the per-player arrays (obs,
reward, info["players"]["env_id"], ...) have `batch_size * max_num_players`
rows, the batch's player rows first, then padding rows (zeros, players
env_id and id -1) when an env has fewer players; with per-player actions (a fixed
player count) there is no padding. `send` takes the actions as `step` does.
"""

from __future__ import annotations

import ctypes
from typing import Any

import numpy as np

from envpool.python.keys import DM_HIDDEN_INFO, is_info, nest, obs_path, state_key

_registered = False


def _register_targets(core) -> None:
    global _registered
    if not _registered:
        import jax

        for name, capsule in core.xla_targets().items():
            jax.ffi.register_ffi_target(name, capsule, platform="cpu")
        if _has_cuda_backend(jax):
            # The same calls on a CUDA device: envpool/core/xla.h's
            # envpool_send_cuda / envpool_recv_cuda stage the buffers through
            # the host (exported by name from the core's library).
            library = ctypes.CDLL(core.__file__)
            for name in core.xla_targets():
                handler = jax.ffi.pycapsule(getattr(library, f"{name}_cuda"))
                jax.ffi.register_ffi_target(name, handler, platform="CUDA")
        _registered = True


def _has_cuda_backend(jax) -> bool:
    """Whether JAX has a CUDA backend (its CUDA plugin found a GPU)."""
    try:
        return bool(jax.devices("cuda"))
    except RuntimeError:  # no such backend
        return False


def make_xla(env) -> tuple[Any, Any, Any, Any]:
    """The (handle, recv, send, step) of a pool; see the module docstring."""
    import jax
    import jax.numpy as jnp

    from envpool.python.spec import load_family

    spec = env._spec
    desc = spec.description
    _register_targets(load_family(spec.entry.family))
    cfg = spec.config
    batch, num_envs = cfg.batch_size, cfg.num_envs
    address = np.int64(env._pool.address)

    # Multi-player envs: per-player outputs have batch_size * max_num_players
    # rows (static shapes), the batch's player rows first, then padding rows
    # (zeros, players env_id and id -1) when envs have fewer players.
    players = desc["max_num_players"]
    multi = players > 1

    def out(shape: tuple[int, ...], dtype: str, per_player: bool = False):
        rows = batch * players if per_player else batch
        return jax.ShapeDtypeStruct((rows, *shape), jax.dtypes.canonicalize_dtype(np.dtype(dtype)))

    state = desc["state"]
    shapes = [jax.ShapeDtypeStruct((1,), jnp.int32)]
    shapes += [out(tuple(d["shape"]), d["dtype"], d["per_player"]) for d in state]
    shapes += [
        out((), desc["reward_dtype"], multi),
        out((), "bool"),
        out((), "bool"),
        out((), "int32"),
        out((), "int32"),
    ]
    if multi:
        shapes.append(out((), "int32", True))  # players env_id
        shapes.append(out((), "int32", True))  # players id
    recv_call = jax.ffi.ffi_call("envpool_recv", shapes, has_side_effect=True)
    send_call = jax.ffi.ffi_call(
        "envpool_send", jax.ShapeDtypeStruct((1,), jnp.int32), has_side_effect=True
    )
    action_names = [d["name"] for d in desc["action"]]
    names = [d["name"] for d in state]
    as_timestep = env.xla_returns_timesteps
    hidden = () if as_timestep else DM_HIDDEN_INFO

    def recv(handle):
        outputs = recv_call(handle, pool=address)
        columns = outputs[1 : 1 + len(state)]
        reward, terminated, truncated, env_id, elapsed = outputs[1 + len(state) : 6 + len(state)]
        players = {"env_id": outputs[6 + len(state)] if multi else env_id}
        if multi:
            players["id"] = outputs[7 + len(state)]
        obs_items = {n: c for n, c in zip(names, columns, strict=True) if not is_info(n)}
        obs = (
            obs_items["obs"]
            if list(obs_items) == ["obs"]
            else nest((obs_path(n), c) for n, c in obs_items.items())
        )
        info = {"env_id": env_id, "players": players}
        for n, c in zip(names, columns, strict=True):
            if is_info(n) and state_key(n) not in hidden:
                info[state_key(n)] = c
        info["elapsed_step"] = elapsed
        if as_timestep:
            from envpool.python.timestep import dm_timestep

            return outputs[0], dm_timestep(jnp, spec, obs, reward, terminated, truncated, info)
        return outputs[0], (obs, reward, terminated, truncated, info)

    def send(handle, action, env_id=None):
        if isinstance(action, dict) and "env_id" in action:
            env_id = action["env_id"] if env_id is None else env_id
            action = {k: v for k, v in action.items() if k not in ("env_id", "players.env_id")}
            if list(action) == ["action"] and action_names == ["action"]:
                action = action["action"]
        if env_id is None:
            if batch != num_envs:
                raise ValueError("in async mode send() needs the env_id of the envs to step")
            env_id = jnp.arange(num_envs, dtype=jnp.int32)
        if isinstance(action, dict):
            actions = [action[n] for n in action_names]
        else:
            actions = [action]
        return send_call(handle, jnp.asarray(env_id, dtype=jnp.int32), *actions, pool=address)

    def step(handle, action, env_id=None):
        return recv(send(handle, action, env_id))

    # The functions hold the pool: while a jitted program can call them, the
    # pool is not collected (EnvPool's examples drop the env object and keep
    # only these).
    functions = _PoolFunctions(env, recv, send, step)
    return jnp.zeros((1,), dtype=jnp.int32), functions.recv, functions.send, functions.step


class _PoolFunctions:
    """recv, send and step bound to the pool object they drive."""

    def __init__(self, env: Any, recv: Any, send: Any, step: Any) -> None:
        self._env = env
        self._recv, self._send, self._step = recv, send, step

    def recv(self, handle):
        return self._recv(handle)

    def send(self, handle, action, env_id=None):
        return self._send(handle, action, env_id)

    def step(self, handle, action, env_id=None):
        return self._step(handle, action, env_id)
