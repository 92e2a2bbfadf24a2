"""env_type="pettingzoo": PettingZoo's Parallel API over the batched pool.

`envpool.make(task_id, env_type="pettingzoo", num_envs=1, ...)` returns one
`PettingZooParallelEnv` (a `pettingzoo.ParallelEnv`); with `num_envs=N > 1`
it returns a `PettingZooParallelEnvs`: N ParallelEnvs (`envs[i]`, one per
env of the pool) that share the pool, and a `step(actions)` / `reset()`
stepping all of them in one batch of the pool.

Agents are named `player_0 .. player_{max_num_players - 1}`, in player
order (the order of the env's player rows, highway-env's controlled
vehicles for instance). How an env's actions reach the pool:

- per-player actions (the env declares its action per player: every agent
  acts at once): each live agent's action is required;
- turn-based envs (one action per env, `info["current_player"]`): every
  player stays in `agents` for the whole game, as PettingZoo's own
  `turn_based_aec_to_parallel_wrapper` keeps them, and only the action of
  the current player is read (the others may be left out and are ignored);
  `infos[agent]["active_agent"]` names that player after each reset and step;
- envs with an `info["legal_action_mask"]` (games that refuse illegal
  moves): each agent's observation is PettingZoo's dict
  `{"observation": ..., "action_mask": int8 mask}`, the mask all zeros for
  an agent that is not to move;
- single-player envs: the one agent's action.

An env's episode ends for all its agents at once (the pool's terminated /
truncated are per env): after that step `agents` is empty until `reset()`.
The pool runs in sync mode with autoreset disabled: PettingZoo's API resets
through `reset()`.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Sequence
from typing import Any

import gymnasium
import numpy as np
from pettingzoo import ParallelEnv

from envpool.python.keys import is_hidden_info, is_info, state_key
from envpool.python.pool import PoolBase
from envpool.python.spec import EnvSpec

AGENT_PREFIX = "player_"
# The info key of envs that refuse illegal moves; PettingZoo's convention is
# an observation dict {"observation": ..., "action_mask": ...} per agent.
LEGAL_ACTION_MASK = "legal_action_mask"
# The info key of turn-based envs naming the player whose action is read.
CURRENT_PLAYER = "current_player"


def agent_name(player: int) -> str:
    """The agent id of player row `player`."""
    return f"{AGENT_PREFIX}{player}"


def _check_config(spec: EnvSpec) -> None:
    cfg = spec.config
    if cfg.batch_size != cfg.num_envs:
        raise ValueError(
            f"env_type='pettingzoo' steps its envs in sync batches: batch_size must be "
            f"num_envs={cfg.num_envs} (or 0), got {cfg.batch_size}; for async stepping use "
            "the batched pool of env_type='gymnasium' (docs/multiplayer.md)"
        )
    if cfg.autoreset_mode != "disabled":
        raise ValueError(
            "env_type='pettingzoo' resets an env through its reset(), as PettingZoo's API "
            f"does: leave autoreset_mode out (or 'disabled'), got {cfg.autoreset_mode!r}"
        )


class _SharedPool(PoolBase):
    """The native pool behind the ParallelEnvs, and what maps batches to agents."""

    def __init__(self, spec: EnvSpec) -> None:
        super().__init__(spec)
        desc = spec.description
        self.max_players = int(desc["max_num_players"])
        self.possible_agents = [agent_name(p) for p in range(self.max_players)]
        self.action_fields = [d["name"] for d in desc["action"]]
        self.per_player_action = any(d["per_player"] for d in desc["action"])
        state = desc["state"]
        self.info_names = [d["name"] for d in state if is_info(d["name"])]
        self.turn_based = (
            not self.per_player_action
            and self.max_players > 1
            and f"info:{CURRENT_PLAYER}" in self.info_names
        )
        if self.max_players > 1 and not (self.per_player_action or self.turn_based):
            raise ValueError(
                f"{spec.id} has {self.max_players} players but one action per env and no "
                f"info[{CURRENT_PLAYER!r}]: env_type='pettingzoo' cannot tell whose action "
                "it is; use env_type='gymnasium' (docs/multiplayer.md)"
            )
        self.per_player_keys = {
            state_key(d["name"]) for d in state if d["per_player"] and is_info(d["name"])
        }
        # Observation arrays with one row per env rather than per player
        # (a dict observation may mix both): every agent sees the env's row.
        self.per_env_obs = {
            state_key(d["name"]) for d in state if not d["per_player"] and not is_info(d["name"])
        }
        self.hidden_keys = {state_key(d["name"]) for d in state if is_hidden_info(d["name"])}
        self.masked = f"info:{LEGAL_ACTION_MASK}" in self.info_names
        self.render_mode = getattr(spec.config, "render_mode", None)
        self.views: list[PettingZooParallelEnv] = []
        self.open_views = 0

    # -- batches to per-env results -------------------------------------------
    def split(self, out: tuple, stepped: bool) -> dict[int, tuple]:
        """Per env id of the batch: (obs, rewards, terminations, truncations, infos, agents)."""
        obs, reward, terminated, truncated, info = out
        env_ids = np.asarray(info["env_id"])
        player_env = np.asarray(info["players"]["env_id"])
        results = {}
        for slot, env_id in enumerate(env_ids.tolist()):
            rows = np.flatnonzero(player_env == env_id)
            agents = self.possible_agents[: len(rows)]
            shared = self._env_info(info, slot)
            current = int(shared[CURRENT_PLAYER]) if self.turn_based else None
            agent_obs, rewards, infos = {}, {}, {}
            for player, (agent, row) in enumerate(zip(agents, rows.tolist(), strict=True)):
                agent_obs[agent] = self._observation(obs, row, slot)
                if self.masked:
                    agent_obs[agent] = {
                        "observation": agent_obs[agent],
                        "action_mask": self._action_mask(info, shared, row, player, current),
                    }
                rewards[agent] = float(reward[row]) if stepped else 0.0
                agent_info = dict(shared)
                for key in self.per_player_keys:
                    agent_info[key] = self._row(info[key], row)
                agent_info["player"] = player
                if current is not None:
                    agent_info["active_agent"] = agent_name(current)
                infos[agent] = agent_info
            ended = bool(terminated[slot]) or bool(truncated[slot])
            results[env_id] = (
                agent_obs,
                rewards,
                dict.fromkeys(agents, bool(terminated[slot])),
                dict.fromkeys(agents, bool(truncated[slot])),
                infos,
                [] if ended else list(agents),
                current,
            )
        return results

    def _action_mask(
        self, info: dict[str, Any], shared: dict[str, Any], row: int, player: int, current: Any
    ) -> np.ndarray:
        """The agent's legal actions as PettingZoo's int8 mask: none while another player moves."""
        if LEGAL_ACTION_MASK in self.per_player_keys:
            mask = np.asarray(self._row(info[LEGAL_ACTION_MASK], row))
        else:
            mask = np.asarray(shared[LEGAL_ACTION_MASK])
        if current is not None and player != current:
            return np.zeros(mask.shape, np.int8)
        return mask.astype(np.int8)

    def _observation(self, obs: Any, row: int, slot: int) -> Any:
        if isinstance(obs, dict):
            return {k: self._row(v, slot if k in self.per_env_obs else row) for k, v in obs.items()}
        return self._row(obs, slot if "obs" in self.per_env_obs else row)

    @staticmethod
    def _row(value: Any, row: int) -> Any:
        if isinstance(value, dict):
            return {k: _SharedPool._row(v, row) for k, v in value.items()}
        item = value[row]
        # A copy: the pool's batch arrays are written again by the next step.
        return item.copy() if isinstance(item, np.ndarray) else item

    def _env_info(self, info: dict[str, Any], slot: int) -> dict[str, Any]:
        shared: dict[str, Any] = {}
        for key, value in info.items():
            if key == "players" or key in self.per_player_keys or key in self.hidden_keys:
                continue
            if isinstance(value, dict):
                shared[key] = {k: self._row(v, slot) for k, v in value.items()}
            else:
                item = self._row(value, slot)
                shared[key] = item.item() if isinstance(item, np.generic) else item
        return shared

    # -- agents' actions to the pool's ------------------------------------------
    def batch_actions(self, envs: list[PettingZooParallelEnv], actions: list[dict]) -> Any:
        """The pool's action batch for `envs`, each given its agents' `actions`."""
        chosen: list[Any] = []  # one entry per action row, in the pool's order
        for env, agent_actions in zip(envs, actions, strict=True):
            if not isinstance(agent_actions, dict):
                raise TypeError(
                    f"env {env.env_id}: actions must be a dict of agent -> action, got "
                    f"{type(agent_actions).__name__}"
                )
            unknown = [a for a in agent_actions if a not in env.possible_agents]
            if unknown:
                raise ValueError(
                    f"env {env.env_id}: {unknown[0]!r} is not an agent of {self._spec.id} "
                    f"(possible agents: {', '.join(env.possible_agents)})"
                )
            if self.per_player_action:
                acting = env.agents
            elif self.turn_based:
                acting = [agent_name(env._current)]
            else:
                acting = env.agents[:1]
            for agent in acting:
                if agent not in agent_actions:
                    whose = " (the current player)" if self.turn_based else ""
                    raise ValueError(
                        f"env {env.env_id}: no action for agent {agent!r}{whose}; "
                        f"agents: {', '.join(env.agents)}"
                    )
                chosen.append(agent_actions[agent])
        if len(self.action_fields) == 1:
            return np.asarray(chosen)
        fields = {}
        for name in self.action_fields:
            values = []
            for action in chosen:
                if not isinstance(action, dict) or name not in action:
                    raise ValueError(
                        f"an action of {self._spec.id} is a dict with the keys "
                        f"{', '.join(self.action_fields)}; got {action!r}"
                    )
                values.append(action[name])
            fields[name] = np.asarray(values)
        return fields

    # -- stepping views ---------------------------------------------------------
    def step_views(self, envs: list[PettingZooParallelEnv], actions: list[dict]) -> list[tuple]:
        for env in envs:
            env._check_steppable()
        batch = self.batch_actions(envs, actions)
        ids = np.array([env.env_id for env in envs], dtype=np.int32)
        results = self.split(self._step_raw(batch, ids), stepped=True)
        return [env._take(results[env.env_id]) for env in envs]

    def reset_views(self, envs: list[PettingZooParallelEnv], seeds: list[Any]) -> list[tuple]:
        for env in envs:
            env._check_open()
        ids = np.array([env.env_id for env in envs], dtype=np.int32)
        if all(s is None for s in seeds):
            self._pool.reset(ids, None)
        elif any(s is None for s in seeds):
            raise ValueError("reset seeds: give one for every env or none")
        else:
            self._pool.reset(ids, self._reset_seeds(ids, list(seeds)))
        results = self.split(self._recv_raw(), stepped=False)
        out = []
        for env in envs:
            obs, _, _, _, infos, *_ = env._take(results[env.env_id])
            out.append((obs, infos))
        return out

    def release_view(self) -> None:
        self.open_views -= 1
        if self.open_views <= 0:
            self.close()


class PettingZooParallelEnv(ParallelEnv):
    """One env of a pool as a `pettingzoo.ParallelEnv`.

    `reset(seed=None, options=None)` returns `(observations, infos)`;
    `step(actions)` takes a dict agent -> action and returns dicts keyed by
    agent. `observation_space(agent)` and `action_space(agent)` are the
    spaces of one player's row. Made by `envpool.make(..., env_type="pettingzoo")`.
    """

    def __init__(self, shared: _SharedPool, env_id: int) -> None:
        spec = shared.spec
        self._shared = shared
        self.env_id = env_id
        self.possible_agents = list(shared.possible_agents)
        self.agents: list[str] = []
        self.render_mode = shared.render_mode
        self.metadata = {
            "name": spec.id,
            "render_modes": list(spec.description["render_modes"]),
            "is_parallelizable": True,
        }
        if spec.description["render_fps"]:
            self.metadata["render_fps"] = spec.description["render_fps"]
        # One space object per agent (PettingZoo seeds them one by one).
        observation_space = spec.observation_space
        if shared.masked:
            n = int(spec.action_space.n)
            observation_space = gymnasium.spaces.Dict(
                {
                    "observation": spec.observation_space,
                    "action_mask": gymnasium.spaces.Box(0, 1, (n,), np.int8),
                }
            )
        self._observation_spaces = {
            agent: copy.deepcopy(observation_space) for agent in self.possible_agents
        }
        self._action_spaces = {
            agent: copy.deepcopy(spec.action_space) for agent in self.possible_agents
        }
        self._current = 0
        self._started = False
        self._closed = False

    @property
    def spec(self) -> EnvSpec:
        """envpool's spec of the pool (config, one player's spaces)."""
        return self._shared.spec

    def observation_space(self, agent: str):
        """The space of `agent`'s observation (one player row)."""
        return self._observation_spaces[self._known(agent)]

    def action_space(self, agent: str):
        """The space of `agent`'s action."""
        return self._action_spaces[self._known(agent)]

    def _known(self, agent: str) -> str:
        if agent not in self._observation_spaces:
            raise KeyError(
                f"{agent!r} is not an agent of {self.spec.id} "
                f"(possible agents: {', '.join(self.possible_agents)})"
            )
        return agent

    def reset(
        self, seed: int | None = None, options: dict | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Start an episode (seeded with `seed` when given; `options` is unused)."""
        return self._shared.reset_views([self], [seed])[0]

    def step(self, actions: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        """Step this env with one action per live agent (turn-based: the current player's)."""
        return self._shared.step_views([self], [actions])[0]

    def render(self) -> Any:
        """This env's frame: an (H, W, 3) uint8 array for "rgb_array", a str
        for "ansi", None for "human" (shown in the window)."""
        frames = self._shared.render([self.env_id])
        return None if frames is None else frames[0]

    def close(self) -> None:
        """Done with this env; the pool closes once every env of it is."""
        if not self._closed:
            self._closed = True
            self._shared.release_view()

    # -- for _SharedPool ----------------------------------------------------------
    def _check_open(self) -> None:
        if self._closed or self._shared.closed:
            raise RuntimeError(f"env {self.env_id} of {self.spec.id} is closed")

    def _check_steppable(self) -> None:
        self._check_open()
        if not self._started:
            raise RuntimeError(f"env {self.env_id} of {self.spec.id}: call reset() before step()")
        if not self.agents:
            raise RuntimeError(
                f"env {self.env_id} of {self.spec.id}: its episode has ended (no agents "
                "left): call reset()"
            )

    def _take(self, result: tuple) -> tuple:
        obs, rewards, terminations, truncations, infos, agents, current = result
        self.agents = agents
        self._started = True
        if current is not None:
            self._current = current
        return obs, rewards, terminations, truncations, infos

    def __repr__(self) -> str:
        return f"PettingZooParallelEnv({self.spec.id}, env_id={self.env_id})"

    __str__ = __repr__


class PettingZooParallelEnvs(Sequence[PettingZooParallelEnv]):
    """The `num_envs` ParallelEnvs of one pool, stepped one by one or in one batch.

    `envs[i]` is env i as a `pettingzoo.ParallelEnv`; `reset(seed=s)` resets
    every env (env i seeded with s + i) and returns one `(observations,
    infos)` per env; `step(actions)` takes one dict agent -> action per env
    (None: that env is not stepped) and returns one 5-tuple of dicts per env
    (empty dicts for the envs not stepped), all stepped in one batch.
    """

    def __init__(self, shared: _SharedPool) -> None:
        self._shared = shared
        self.envs = list(shared.views)
        self.num_envs = len(self.envs)
        self.possible_agents = list(shared.possible_agents)

    @property
    def spec(self) -> EnvSpec:
        return self._shared.spec

    def __len__(self) -> int:
        return self.num_envs

    def __getitem__(self, index):  # type: ignore[override]
        return self.envs[index]

    def __iter__(self) -> Iterator[PettingZooParallelEnv]:
        return iter(self.envs)

    def reset(
        self, seed: int | Sequence[int] | None = None, options: dict | None = None
    ) -> list[tuple[dict[str, Any], dict[str, Any]]]:
        """Reset every env in one batch; `seed=s` seeds env i with s + i."""
        if seed is None:
            seeds: list[Any] = [None] * self.num_envs
        elif isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
            seeds = [int(seed) + i for i in range(self.num_envs)]
        else:
            seeds = list(seed)  # type: ignore[arg-type]
            if len(seeds) != self.num_envs:
                raise ValueError(f"reset got {len(seeds)} seeds for {self.num_envs} envs")
        return self._shared.reset_views(self.envs, seeds)

    def step(self, actions: Sequence[dict[str, Any] | None]) -> list[tuple]:
        """Step the envs given a dict of actions in one batch of the pool."""
        if len(actions) != self.num_envs:
            raise ValueError(
                f"step takes one dict of agent actions per env (None to skip an env): "
                f"{self.num_envs} entries, got {len(actions)}"
            )
        chosen = [i for i, a in enumerate(actions) if a is not None]
        results: list[tuple] = [({}, {}, {}, {}, {}) for _ in range(self.num_envs)]
        if chosen:
            stepped = self._shared.step_views(
                [self.envs[i] for i in chosen], [actions[i] for i in chosen]
            )
            for i, result in zip(chosen, stepped, strict=True):
                results[i] = result
        return results

    def close(self) -> None:
        """Close every env and the pool."""
        for env in self.envs:
            env.close()

    def __enter__(self) -> PettingZooParallelEnvs:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"PettingZooParallelEnvs({self.spec.id}, num_envs={self.num_envs})"


def make_pettingzoo(spec: EnvSpec) -> Any:
    """What `make(task_id, env_type="pettingzoo", ...)` returns (see the module docstring).

    `spec` is the id's spec, made with autoreset_mode "disabled" unless the
    caller gave another (which is refused).
    """
    _check_config(spec)
    shared = _SharedPool(spec)
    shared.views = [PettingZooParallelEnv(shared, i) for i in range(spec.config.num_envs)]
    shared.open_views = len(shared.views)
    if len(shared.views) == 1:
        return shared.views[0]
    return PettingZooParallelEnvs(shared)
