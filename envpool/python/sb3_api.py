"""A Stable-Baselines3 VecEnv over a pool made with env_type="gymnasium".

    import envpool
    from envpool.sb3 import VecEnv
    from stable_baselines3 import PPO

    pool = envpool.make("CartPole-v1", env_type="gymnasium", num_envs=8,
                        autoreset_mode="same_step", episode_statistics=True)
    model = PPO("MlpPolicy", VecEnv(pool)).learn(100_000)

SB3 resets an env in the step that ends its episode and keeps the last
observation in `info["terminal_observation"]`; a pool made with
`autoreset_mode="same_step"` does exactly that inside the engine. With the
default `next_step` mode the adapter resets the ended envs itself (one more
call into the pool). With `episode_statistics=True` each ended episode's
return and length appear in `info["episode"]`, which SB3 logs as
`rollout/ep_rew_mean` without a VecMonitor.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import VecEnv as SB3VecEnv

from envpool.python.gymnasium_api import GymnasiumEnvPool


class VecEnv(SB3VecEnv):
    """Stable-Baselines3's VecEnv interface over an envpool gymnasium pool."""

    def __init__(self, pool: GymnasiumEnvPool) -> None:
        if not isinstance(pool, GymnasiumEnvPool):
            raise TypeError("envpool.sb3.VecEnv wraps a pool made with env_type='gymnasium'")
        if pool.is_async:
            raise ValueError(
                "SB3 steps every env each step: make the pool with batch_size=num_envs"
            )
        self.pool = pool
        self._same_step = pool.config["autoreset_mode"] == "same_step"
        if pool.config["autoreset_mode"] == "disabled":
            raise ValueError(
                "SB3 needs autoresets: use autoreset_mode='same_step' (or 'next_step')"
            )
        self._actions: np.ndarray | None = None
        super().__init__(pool.num_envs, pool.single_observation_space, pool.single_action_space)

    # -- stepping -------------------------------------------------------------
    def reset(self):
        seeds = self._seeds
        if all(s is None for s in seeds):
            obs, info = self.pool.reset()
        else:
            if any(s is None for s in seeds):
                raise ValueError("seed either every env or none")
            obs, info = self.pool.reset(seed=list(seeds))
        self._reset_seeds()
        self._reset_options()
        self.reset_infos = self._split_info(info, np.zeros(self.num_envs, dtype=bool))
        return np.array(obs)

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions)

    def step_wait(self):
        if self._actions is None:
            raise RuntimeError("step_wait() without step_async()")
        actions, self._actions = self._actions, None
        obs, reward, terminated, truncated, info = self.pool.step(actions)
        dones = terminated | truncated
        obs = np.array(obs)  # SB3 keeps observations across steps
        infos = self._split_info(info, truncated & ~terminated)
        ended = np.flatnonzero(dones)
        if len(ended):
            if self._same_step:
                final = info["final_obs"]
                for i in ended:
                    infos[i]["terminal_observation"] = final[i]
            else:
                for i in ended:
                    infos[i]["terminal_observation"] = obs[i].copy()
                first, _ = self.pool.reset(env_id=ended)
                obs[ended] = first
        return obs, reward.astype(np.float32), dones, infos

    def _split_info(self, info: dict[str, Any], time_limit: np.ndarray) -> list[dict[str, Any]]:
        """Batched info to SB3's list of per-env dicts."""
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        episode_mask = info.get("_episode")
        for key, value in info.items():
            if key.startswith("_") or key in ("final_obs", "final_info", "episode"):
                continue
            if isinstance(value, np.ndarray) and len(value) == self.num_envs:
                for i in range(self.num_envs):
                    infos[i][key] = value[i]
        for i in np.flatnonzero(time_limit):
            infos[i]["TimeLimit.truncated"] = True
        if episode_mask is not None:
            for i in np.flatnonzero(episode_mask):
                infos[i]["episode"] = {
                    "r": float(info["episode"]["r"][i]),
                    "l": int(info["episode"]["l"][i]),
                    "t": 0.0,
                }
        return infos

    def close(self) -> None:
        self.pool.close()

    # -- attributes: one pool serves every env -----------------------------------
    def _indices(self, indices: int | Iterable[int] | None) -> Sequence[int]:
        if indices is None:
            return range(self.num_envs)
        if isinstance(indices, int):
            return [indices]
        return list(indices)

    def get_attr(self, attr_name: str, indices=None) -> list[Any]:
        value = getattr(self.pool, attr_name)
        return [value for _ in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices=None) -> None:
        # Every env shares the pool: the attribute is set once for all.
        self._indices(indices)
        setattr(self.pool, attr_name, value)

    def env_method(self, method_name: str, *method_args, indices=None, **method_kwargs) -> list:
        method = getattr(self.pool, method_name)
        return [method(*method_args, **method_kwargs) for _ in self._indices(indices)]

    def env_is_wrapped(self, wrapper_class: type, indices=None) -> list[bool]:
        return [False for _ in self._indices(indices)]

    def get_images(self) -> Sequence[np.ndarray | None]:
        return [None for _ in range(self.num_envs)]
