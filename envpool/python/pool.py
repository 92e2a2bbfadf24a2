"""What every API style shares: the native pool, send/recv, close."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from envpool.python.keys import is_hidden_info, is_obs, nest, obs_path, state_key
from envpool.python.snapshot import FORMAT, EnvState, check_states, state_options
from envpool.python.spec import AUTORESET_MODES, EnvSpec, is_seed, load_family, seed_list


def _ids_of(env_ids: Any) -> np.ndarray:
    """Env ids as a flat array; an empty list (float64 to numpy) as an empty int32 one."""
    ids = np.asarray(env_ids).reshape(-1)
    return ids.astype(np.int32) if ids.size == 0 else ids


class PoolBase:
    """Owns the native pool of one id; the API classes add their conventions.

    `send(action, env_id)` steps the given envs (all of them in sync mode,
    the envs of the last `recv` in async mode when env_id is None); `recv()`
    returns the next batch: every env sent in sync mode, the first
    `batch_size` to finish in async mode.
    """

    # env.xla()'s recv/step return dm TimeSteps (the dm type) or tuples.
    xla_returns_timesteps = False

    def __init__(self, spec: EnvSpec) -> None:
        self._spec = spec
        self.gymnasium_spec = None
        cfg = spec.config
        self._human = None
        if getattr(cfg, "render_mode", None) == "human":
            # Before the pool: without a display this is a RuntimeError here.
            from envpool.python.human_render import HumanWindow

            self._human = HumanWindow(spec)
        core = load_family(spec.entry.family)
        self._core = core
        self._pool = core.Pool(
            env_class=spec.entry.env_class,
            options=spec.env_options,
            task_id=spec.id,
            num_envs=cfg.num_envs,
            batch_size=cfg.batch_size,
            num_threads=cfg.num_threads,
            thread_affinity_offset=cfg.thread_affinity_offset,
            seeds=spec.seeds(),
            autoreset_mode=AUTORESET_MODES.index(cfg.autoreset_mode),
            episode_statistics=cfg.episode_statistics,
        )
        self._same_step = cfg.autoreset_mode == "same_step"
        self._num_envs = cfg.num_envs
        if type(self).send is PoolBase.send:
            # The native method itself: a Python frame in between costs
            # about a tenth of the send of a small batch of cheap envs.
            self.send = self._pool.send

    @property
    def spec(self) -> EnvSpec:
        """envpool's spec of this pool: `config`, single-env spaces, `id`."""
        return self._spec

    @spec.setter
    def spec(self, value: Any) -> None:
        # gymnasium.make_vec assigns its own EnvSpec; keep it beside ours.
        self.gymnasium_spec = value

    # -- the config, as EnvPool exposes it ---------------------------------
    @property
    def config(self) -> dict[str, Any]:
        """Every option of this pool with its value."""
        return self._spec.config._asdict()

    @property
    def is_async(self) -> bool:
        return self._spec.config.batch_size < self._spec.config.num_envs

    # -- raw batches ---------------------------------------------------------
    def _recv_raw(self) -> tuple:
        out = self._pool.recv()
        out = self._with_final(out) if self._same_step else out
        if self._human is not None:
            self._human.show_batch(self._pool, out[4])
        return out

    def _step_raw(self, action: Any, env_id: Any = None) -> tuple:
        out = self._pool.step(action, env_id)
        out = self._with_final(out) if self._same_step else out
        if self._human is not None:
            self._human.show_batch(self._pool, out[4])
        return out

    def _reset_raw(self, env_id: Any = None, seed: Any = None) -> tuple:
        self._pool.reset(env_id, self._reset_seeds(env_id, seed))
        return self._recv_raw()

    def _reset_seeds(self, env_id: Any, seed: Any) -> list[int] | None:
        """gymnasium's rule: reset(seed=s) seeds env i with s + i."""
        if seed is None:
            return None
        ids = np.arange(self._num_envs) if env_id is None else _ids_of(env_id)
        if isinstance(seed, (list, tuple, np.ndarray)):
            seeds = seed_list(seed)
            if len(seeds) != len(ids):
                raise ValueError(f"reset got {len(seeds)} seeds for {len(ids)} envs")
            return [s % 2**64 for s in seeds]
        if not is_seed(seed):
            raise TypeError(f"seed must be an int or a list of ints, got {seed!r}")
        return [(int(seed) + int(i)) % 2**64 for i in ids]

    def _with_final(self, out: tuple) -> tuple:
        """Lay out same-step final observations as gymnasium's vector envs do."""
        obs, reward, terminated, truncated, info = out
        final = info.pop("_envpool_final")
        mask = final.pop("mask")
        if mask.any():
            n = len(mask)
            done = np.flatnonzero(mask)
            final_obs = np.full(n, None, dtype=object)
            obs_keys = [k for k in final if is_obs(k)]
            players = info["players"]["env_id"]
            per_player = {d["name"] for d in self._spec.description["state"] if d["per_player"]}

            def rows_of(key: str, i: int) -> np.ndarray:
                # An array of player rows: env i's rows, stacked.
                if key not in per_player:
                    return final[key][i].copy()
                return final[key][players == info["env_id"][i]].copy()

            for i in done:
                if obs_keys == ["obs"]:
                    final_obs[i] = rows_of("obs", i)
                else:
                    final_obs[i] = nest((obs_path(k), rows_of(k, i)) for k in obs_keys)
            # The ended step's info, keys and order as info's, masked as
            # gymnasium's vector envs mask them.
            final_info: dict[str, Any] = {"env_id": info["env_id"].copy(), "_env_id": mask.copy()}
            if len(players) == n and "id" not in info["players"]:
                final_info["players"] = {
                    "env_id": np.where(mask, players, 0).astype(players.dtype),
                    "_env_id": mask.copy(),
                }
            else:  # player rows: kept whole
                final_info["players"] = {k: v.copy() for k, v in info["players"].items()}
            final_info["_players"] = mask.copy()
            for key, values in final.items():
                if key in obs_keys:
                    continue
                if is_hidden_info(key):
                    continue
                name = state_key(key)
                if key in per_player:  # player rows: kept whole
                    final_info[name] = values.copy()
                    final_info[f"_{name}"] = mask.copy()
                    continue
                final_info[name] = np.where(
                    mask.reshape((-1,) + (1,) * (values.ndim - 1)), values, 0
                ).astype(values.dtype)
                final_info[f"_{name}"] = mask.copy()
            info["final_obs"] = final_obs
            info["_final_obs"] = mask.copy()
            info["final_info"] = final_info
            info["_final_info"] = mask.copy()
        return obs, reward, terminated, truncated, info

    # -- shared methods -------------------------------------------------------
    def send(self, action: Any, env_id: Any = None) -> None:
        """Start stepping the envs `env_id` with `action` (one row per env).

        `action` may also be EnvPool's low-level dict `{"action": a,
        "env_id": ids}` (an `env_id` argument goes first).
        """
        self._pool.send(action, env_id)

    def recv(self) -> Any:
        """The next batch (its form depends on the env type)."""
        raise NotImplementedError

    def render(self, env_ids: Any = None) -> Any:
        """Frames of the envs `env_ids` (default: `[render_env_id]`).

        `render_mode="rgb_array"`: a `(len(env_ids), H, W, 3)` uint8 array,
        new at each call, drawn by the workers between steps (the envs must
        not be in flight); `"ansi"`: a list of strings; `"human"`: None, the
        frame of env `render_env_id` shown in the pool's window (as at each
        reset and step).
        """
        cfg = self._spec.config
        mode = getattr(cfg, "render_mode", None)
        if mode is None:
            modes = self._spec.description["render_modes"]
            hint = (
                f"pass render_mode={modes[0]!r} to make() (it renders: {', '.join(modes)})"
                if modes
                else "it has no rendering"
            )
            raise RuntimeError(f"{self._spec.id} was made without a render_mode: {hint}")
        if self._human is not None:
            return self._human.render(self._pool, env_ids)
        if env_ids is None:
            env_ids = [cfg.render_env_id]
        ids = _ids_of(env_ids)
        if mode == "ansi":
            if ids.dtype.kind not in "iu":
                raise TypeError(f"env_ids must hold integers, got dtype {ids.dtype}")
            return [self._pool.render_text(int(i)) for i in ids]
        return self._pool.render(ids, cfg.render_camera_id)

    # -- snapshots -----------------------------------------------------------
    def _state_ids(self, env_ids: Any) -> np.ndarray:
        if env_ids is None:
            return np.arange(self._num_envs, dtype=np.int32)
        ids = _ids_of(env_ids)
        if ids.dtype.kind not in "iu":
            raise TypeError(f"env_ids must hold integers, got dtype {ids.dtype}")
        return ids

    def _check_snapshots(self) -> None:
        if not self._spec.description.get("snapshots", False):
            raise NotImplementedError(
                f"{self._spec.id} does not support get_state/set_state yet "
                "(docs/snapshots.md lists the families that do)"
            )

    def get_state(self, env_ids: Any = None) -> list[Any]:
        """One `EnvState` per env of `env_ids` (default: every env), in that order.

        The envs must not be in flight (async: receive them first). Each
        state pickles and restores exactly, with `set_state`, into this pool
        or another pool of the same id and options.
        """
        self._check_snapshots()
        ids = self._state_ids(env_ids)
        data = self._pool.save_states(ids)
        config = self._spec.config
        return [
            EnvState(self._spec.id, state_options(config, int(i)), FORMAT, d)
            for i, d in zip(ids, data, strict=True)
        ]

    def set_state(self, states: Any, env_ids: Any = None) -> None:
        """Restore `states` (from `get_state`) into the envs `env_ids` (default: every env).

        The envs go on exactly as the saved ones would have: the same
        actions give the same results, bit for bit, autoresets included. A
        state of another id or options, a corrupted one, the wrong number of
        states, or an env in flight raises, and no env is changed.
        """
        self._check_snapshots()
        ids = self._state_ids(env_ids)
        data = check_states(self._spec.id, self._spec.config, states, [int(i) for i in ids])
        self._pool.load_states(ids, data)

    def async_reset(self) -> None:
        """Start resetting every env; collect the results with `recv()`."""
        self._pool.reset(None, None)

    def close(self) -> None:
        """Stop the worker threads; any later call raises RuntimeError."""
        pool = getattr(self, "_pool", None)
        if pool is not None:
            pool.close()
        if getattr(self, "_human", None) is not None:
            self._human.close()

    @property
    def closed(self) -> bool:
        return self._pool.closed

    def xla(self) -> tuple[Any, Any, Any, Any]:
        """`(handle, recv, send, step)`: this pool inside `jax.jit` (see envpool.python.xla).

        The functions keep the pool alive: it is not collected while they are.
        """
        from envpool.python.xla import make_xla

        return make_xla(self)

    def seed(self, seed: Any = None) -> None:
        """Deprecated, as in EnvPool: seeds are set by `make(seed=...)` or `reset(seed=...)`."""
        warnings.warn(
            "seed() does nothing: pass seed= to envpool.make() or to reset()",
            UserWarning,
            stacklevel=2,
        )

    # A pool owns native envs and worker threads: it is neither copied nor
    # pickled (a shallow copy would share them, and close both).
    def _refuse_copy(self, what: str) -> TypeError:
        return TypeError(
            f"{type(self).__name__} of {self._spec.id} cannot be {what}: it owns native envs "
            "and worker threads. Make another pool instead: "
            f"envpool.make({self._spec.id!r}, **options) (env.config holds this pool's "
            "options; env.spec pickles)"
        )

    def __reduce_ex__(self, protocol: Any) -> Any:
        raise self._refuse_copy("pickled or copied")

    def __copy__(self) -> Any:
        raise self._refuse_copy("copied")

    def __deepcopy__(self, memo: Any) -> Any:
        raise self._refuse_copy("deep-copied")

    def __enter__(self):
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __len__(self) -> int:
        return self._num_envs
