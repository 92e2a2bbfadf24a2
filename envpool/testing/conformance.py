"""One conformance check of the Python API contract (docs/api.md) for any registered id.

`check_env(task_id)` makes a few small pools of the id, drives them with one
fixed, seeded action sequence and raises `AssertionError` naming the id, the
pool and the step on the first violation of:

1. determinism: pools made with the same seed give the same rollout
   (observations, rewards, terminated, truncated and every info array), and a
   different seed gives a different reset (except for the fixed-start
   `SEED_INDEPENDENT_RESET` ids) and a different rollout (except for the
   deterministic `SEED_INDEPENDENT` ids);
2. seeding: `reset(seed=s)` seeds env i with `s + i` and repeats the rollout
   of an env seeded so: env 0 of `reset(seed=s + 1)` is env 1 of a pool made
   with `seed=s`, and so is env 1 after `reset(env_id=[1], seed=s)`;
3. spaces: every observation is inside `single_observation_space`, with the
   declared dtype and shape (dict observations key by key); rewards are
   finite float32, terminated/truncated bool, info arrays of their declared
   dtypes, `info["env_id"]` the envs stepped;
4. the first-step rule: the first `send`/`step` of a never-reset pool is its
   seeded reset (the reset observation, reward 0, `elapsed_step` 0);
5. the three autoreset modes, with `max_episode_steps=3` so that episodes end
   within a few steps: `next_step` (the step after an end is the next
   episode's first observation, reward 0, `elapsed_step` 0), `same_step`
   (the ending step returns the next episode's first observation,
   `info["final_obs"]`/`info["final_info"]` the last ones, masked by
   `_final_obs`/`_final_info`), `disabled` (stepping an ended env raises
   RuntimeError and steps nothing; `reset(env_id)` starts its next episode);
   all three give the same episodes;
6. truncation exactly at `max_episode_steps` unless terminated earlier;
7. the env types agree: `gym` (stepped asynchronously here) and `dm`
   (`State` observation, step types FIRST/MID/LAST, discount 0 on
   termination and 1 otherwise) give the gymnasium rollout;
8. bad input (wrong action shape, out-of-range or fractional discrete
   action, NaN or infinite continuous action, env_id out of range or
   repeated, `recv()` with nothing in flight, a second `send` to an env in
   flight, an unknown option, any call after `close()`) raises the
   documented error, and the pool goes on exactly as a twin pool that never
   saw it.

Multi-player ids (`max_num_players > 1`) get the same checks: arrays
declared per player (the observation, per-player info keys, the reward) have
one row per player, each env's rows found through `info["players"]["env_id"]`
(consecutive, 1..max_num_players of them, all max_num_players where the action
is per player); results are compared env by env, whatever order the envs
finished in. The action plan has one row per player where the action is
declared per player, else one per env, and the bad inputs include the wrong
number of rows (one per env, one per player). Where the info declares
`legal_action_mask` (`MASK_KEY`), each action is drawn among the legal ones
of its state.

Atari envs load their ROM (0.05 to 0.2 s) when they are first reset and on
every `reset(seed=...)`, so the pools have two envs, the seeded rollouts one
episode, and the pools' first resets are started together (`async_reset`),
for an engine that makes envs in parallel.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium.vector.utils import batch_space

import envpool
from envpool.python.keys import dm_field
from envpool.python.registry import all_families, family_declaration
from envpool.testing.snapshots import check_snapshots, snapshot_check_sampled

NUM_ENVS = 2
MAX_EPISODE_STEPS = 3
SEED = 11
DEFAULT_STEPS = 6


def declared_exceptions(name: str) -> dict[str, str]:
    """task id -> reason, for the ids the families declare under `name`.

    Each family lists its exceptions to check_env's seed rules in its
    registration.py (docs/adding_a_family.md), with the reason:

    - `SEED_INDEPENDENT_RESET`: episodes start in one fixed state whatever
      the seed, as the reference defines them (FrozenLake at S), so a
      different seed gives the same reset. check_env asserts that the reset
      does not depend on the seed, so that one that gains a random start is
      noticed; every other id's reset (observation and info, Atari's RAM
      included) must depend on it.
    - `SEED_INDEPENDENT`: no randomness at all (a fixed start and
      deterministic steps), so a different seed cannot give a different
      rollout; check_env asserts so. A subset of SEED_INDEPENDENT_RESET.
    - `HISTORY_DEPENDENT`: the reference carries state from one episode to
      the next that a seed does not reset (gymnasium's BipedalWalker keeps
      one b2World), and the env reproduces that history, so check_env
      compares a re-seeded env with a new one by its first observation only.
    """
    found: dict[str, str] = {}
    for family in all_families():
        found.update(family_declaration(family, name, {}))
    return found


SEED_INDEPENDENT_RESET = frozenset(declared_exceptions("SEED_INDEPENDENT_RESET"))
SEED_INDEPENDENT = frozenset(declared_exceptions("SEED_INDEPENDENT"))
HISTORY_DEPENDENT = frozenset(declared_exceptions("HISTORY_DEPENDENT"))

# Deviations of the engine from docs/api.md that check_env tolerates, by
# name, while they are open (each is reported, and test_conformance.py holds
# a strict xfail test of it that passes once it is fixed): pass
# `tolerate=frozenset()` to check_env to see them fail.
KNOWN_BUGS: dict[str, str] = {
    "same_step_player_count": (
        "same_step autoreset of a multi-player env whose next episode has another player"
        " count returns the next episode's first observation in the ended episode's player"
        " rows (TestTeam-v0: one row where the new episode has two); the step after has"
        " the right rows"
    ),
}
# The info key of a multi-player (or any) env's legal actions: one bool per
# action of a Discrete action space, per env or per player.
MASK_KEY = "legal_action_mask"
# info keys of same_step's final_info that are masks or the API's own.
_FINAL_KEYS = ("final_obs", "_final_obs", "final_info", "_final_info")

Rows = dict[str, np.ndarray]


# -- batches -----------------------------------------------------------------


@dataclasses.dataclass
class Batch:
    """One result of a pool, copied out of it and flattened.

    `obs` maps "obs" (or each key of a dict observation, nested keys joined
    by ".") to its rows; `info` maps each info key ("players.env_id" for the
    nested one) to its rows. A reset result has no reward, terminated or
    truncated (`None`). `final` holds same_step's final_obs/final_info keys.
    """

    obs: Rows
    info: Rows
    reward: np.ndarray | None = None
    terminated: np.ndarray | None = None
    truncated: np.ndarray | None = None
    final: dict[str, Any] = dataclasses.field(default_factory=dict)
    # The arrays (named as `arrays()` names them) with one row per player,
    # of a multi-player id; the others have one row per env.
    player_keys: frozenset[str] = frozenset()
    # info["players"]["env_id"] as the pool returned it, before the player
    # rows were put in the order of the env rows (`in_env_order`).
    received_players: np.ndarray | None = None

    @property
    def env_id(self) -> list[int]:
        return np.asarray(self.info["env_id"]).tolist()

    @property
    def elapsed(self) -> np.ndarray:
        return np.asarray(self.info["elapsed_step"])

    def ended(self) -> np.ndarray:
        """Per row: the episode ended at this result."""
        if self.terminated is None or self.truncated is None:
            return np.zeros(len(self.env_id), dtype=bool)
        return self.terminated | self.truncated

    def is_per_player(self, name: str) -> bool:
        """Whether the array `name` (as `arrays()` names it) has one row per player."""
        return name in self.player_keys or (
            bool(self.player_keys) and name.startswith("info[players.")
        )

    def in_env_order(self) -> Batch:
        """The batch with its player rows in the order of its env rows.

        The pool puts the envs' player rows in the order the envs finished,
        which two pools need not share; in env order, two results of the
        same envs compare array by array. Each env keeps its rows' order.
        """
        if not self.player_keys or "players.env_id" not in self.info:
            return self
        players = np.asarray(self.info["players.env_id"])
        rank = {env: k for k, env in enumerate(self.env_id)}
        order = np.array(
            sorted(range(len(players)), key=lambda r: (rank.get(int(players[r]), -1), r)),
            dtype=np.int64,
        )

        def reorder(name: str, a: np.ndarray | None) -> np.ndarray | None:
            if a is None or not self.is_per_player(name) or len(a) != len(order):
                return a
            return a[order]

        return dataclasses.replace(
            self,
            obs={k: reorder(f"obs[{k}]", v) for k, v in self.obs.items()},
            info={k: reorder(f"info[{k}]", v) for k, v in self.info.items()},
            reward=reorder("reward", self.reward),
            received_players=players,
        )

    def player_rows(self, i: int) -> np.ndarray:
        """The player rows of the env in row i: where `info["players"]["env_id"]` names it."""
        if not self.player_keys:
            return np.array([i])
        return np.flatnonzero(self.info["players.env_id"] == self.env_id[i])

    def row(self, i: int) -> Batch:
        """The result of the env in row i alone (a batch of one env: its row, its player rows)."""
        players = self.player_rows(i)

        def take(name: str, a: np.ndarray | None) -> np.ndarray | None:
            if a is None:
                return None
            return a[players] if self.is_per_player(name) else a[i : i + 1]

        return Batch(
            obs={k: take(f"obs[{k}]", v) for k, v in self.obs.items()},
            info={k: take(f"info[{k}]", v) for k, v in self.info.items()},
            reward=take("reward", self.reward),
            terminated=take("terminated", self.terminated),
            truncated=take("truncated", self.truncated),
            player_keys=self.player_keys,
        )

    def of_env(self, env_id: int) -> Batch:
        """The row of env `env_id`."""
        ids = self.env_id
        if env_id not in ids:
            raise AssertionError(f"env {env_id} is not in this result (env_id {ids})")
        return self.row(ids.index(env_id))

    def relabelled(self) -> Batch:
        """The result without its env ids, to compare with another env's."""
        info = {k: v for k, v in self.info.items() if k not in ("env_id", "players.env_id")}
        return dataclasses.replace(self, info=info)

    def arrays(self, with_step: bool = True) -> Rows:
        """Every array of the result by name (without reward etc. if `with_step` is False)."""
        out = {f"obs[{k}]": v for k, v in self.obs.items()}
        out.update({f"info[{k}]": v for k, v in self.info.items()})
        if with_step:
            for name in ("reward", "terminated", "truncated"):
                value = getattr(self, name)
                if value is not None:
                    out[name] = value
        return out


def flatten(tree: Any, prefix: str = "") -> Rows:
    """A (nested) dict of arrays as {"a.b": copy of the array}; an array as {prefix}."""
    if isinstance(tree, dict):
        out: Rows = {}
        for key, value in tree.items():
            out.update(flatten(value, f"{prefix}.{key}" if prefix else str(key)))
        return out
    return {prefix: np.array(tree)}


def from_gymnasium(
    out: tuple, reset: bool = False, player_keys: frozenset[str] = frozenset()
) -> Batch:
    """A Batch from `(obs, info)` (reset) or `(obs, reward, terminated, truncated, info)`.

    `player_keys`: the arrays with one row per player (`Context.player_keys`).
    """
    obs = flatten(out[0]) if isinstance(out[0], dict) else {"obs": np.array(out[0])}
    info = dict(out[1] if reset else out[4])
    final = {k: info.pop(k) for k in _FINAL_KEYS if k in info}
    batch = Batch(obs=obs, info=flatten(info), final=final, player_keys=player_keys)
    if not reset:
        batch.reward, batch.terminated, batch.truncated = (np.array(a) for a in out[1:4])
    return batch.in_env_order()


def differences(got: Rows, want: Rows) -> str | None:
    """The first difference of two sets of named arrays, or None."""
    if set(got) != set(want):
        return f"arrays {sorted(got)} != {sorted(want)}"
    for key in want:
        a, b = np.asarray(got[key]), np.asarray(want[key])
        if a.shape != b.shape or a.dtype != b.dtype:
            return f"{key}: {a.dtype}{a.shape} != {b.dtype}{b.shape}"
        nan_ok = a.dtype.kind in "fc"
        if not np.array_equal(a, b, equal_nan=nan_ok):
            bad = np.argwhere(~((a == b) | (nan_ok & np.isnan(a) & np.isnan(b))))
            where = tuple(bad[0]) if len(bad) else ()
            return f"{key} differs first at {where}: {a[where]!r} != {b[where]!r}"
    return None


# -- the checker's context ------------------------------------------------------


@dataclasses.dataclass
class Context:
    """The id under check, its spaces and declared dtypes, and the action plan."""

    task_id: str
    steps: int
    obs_space: gymnasium.Space
    action_space: gymnasium.Space
    declared: dict[str, np.dtype]
    config: dict[str, Any]
    plan: list[Any]
    tolerate: frozenset[str] = frozenset()
    # Multi-player ids: the most players of an env, the action rows of an
    # env (max_players for an action declared per player, else 1) and the
    # arrays with one row per player (empty for a single-player id, whose
    # rows are all per env).
    max_players: int = 1
    action_rows: int = 1
    player_keys: frozenset[str] = frozenset()
    # The info key of legal actions ("legal_action_mask") where declared:
    # actions are then drawn among the legal ones.
    mask_key: str | None = None

    def fail(self, message: str) -> AssertionError:
        return AssertionError(f"{self.task_id}: {message}")

    def require(self, condition: Any, message: str | Callable[[], str]) -> None:
        """Raise `fail(message)` unless `condition`."""
        if not condition:
            raise self.fail(message() if callable(message) else message)

    def make(self, **options: Any) -> Any:
        """A pool of this id with the checker's defaults."""
        kwargs: dict[str, Any] = {
            "num_envs": NUM_ENVS,
            "seed": SEED,
            "max_episode_steps": MAX_EPISODE_STEPS,
        }
        kwargs.update(options)
        return envpool.make(self.task_id, **kwargs)

    def batch(self, out: tuple, reset: bool = False) -> Batch:
        """A Batch of this id's gymnasium result (see from_gymnasium)."""
        return from_gymnasium(out, reset, self.player_keys)


def make_context(task_id: str, steps: int, tolerate: frozenset[str] = frozenset()) -> Context:
    """The spec facts of `task_id` that the checks need, and its action plan.

    `declared` maps "obs" (or "obs:<key>"), each info key and "elapsed_step"
    to the dtype the spec's `state_array_spec` declares for it.
    """
    spec = envpool.make_spec(task_id, num_envs=NUM_ENVS, max_episode_steps=MAX_EPISODE_STEPS)
    config = spec.config._asdict()
    max_players = int(config.get("max_num_players", 1))
    description = spec.description
    per_player_action = any(d.get("per_player") for d in description.get("action", []))
    player_keys: frozenset[str] = frozenset()
    if max_players > 1:
        names = {"reward", "info[players.env_id]"}
        for d in description["state"]:
            if d.get("per_player"):
                name = d["name"]
                if name == "obs" or name.startswith("obs:"):
                    names.add(f"obs[{name.removeprefix('obs:') if ':' in name else 'obs'}]")
                elif name.startswith("info:"):
                    names.add(f"info[{name.removeprefix('info:')}]")
        player_keys = frozenset(names)
    declared: dict[str, np.dtype] = {}
    for name, arr in spec.state_array_spec.items():
        if name == "obs" or name.startswith("obs:"):
            declared[name] = arr.dtype
        elif name.startswith("info:") or name == "elapsed_step":
            declared[name.removeprefix("info:")] = arr.dtype
    action_space = spec.action_space
    action_rows = max_players if per_player_action else 1
    mask_key = MASK_KEY if MASK_KEY in declared else None
    if mask_key is not None and not isinstance(action_space, gymnasium.spaces.Discrete):
        raise AssertionError(
            f"{task_id}: info[{MASK_KEY!r}] is declared, but the action space {action_space} is"
            " not Discrete: check_env draws legal actions of a Discrete action only"
        )
    return Context(
        task_id=task_id,
        steps=steps,
        obs_space=spec.observation_space,
        action_space=action_space,
        declared=declared,
        config=config,
        plan=action_plan(action_space, NUM_ENVS * action_rows, steps + 1, seed=SEED),
        tolerate=tolerate,
        max_players=max_players,
        action_rows=action_rows,
        player_keys=player_keys,
        mask_key=mask_key,
    )


# -- actions -------------------------------------------------------------------


def action_plan(space: gymnasium.Space, n: int, length: int, seed: int) -> list[Any]:
    """`length` batches of valid actions for `n` envs, sampled from a seeded batched space."""
    batched = batch_space(space, n)
    batched.seed(seed)
    plan = [batched.sample() for _ in range(length)]
    for action in plan:
        for leaf in flatten(action).values():
            if not np.isfinite(leaf).all():
                raise AssertionError(f"sampled a non-finite action {leaf!r} from {space}")
    return plan


def env_rows(envs: Sequence[int], per_env: int) -> list[int]:
    """The action rows of the envs `envs` (positions in a batch), `per_env` rows each."""
    return [e * per_env + r for e in envs for r in range(per_env)]


def take_rows(action: Any, envs: Sequence[int], per_env: int = 1) -> Any:
    """The rows of the envs `envs` of a batched action (a dict of arrays too)."""
    if isinstance(action, dict):
        return {k: take_rows(v, envs, per_env) for k, v in action.items()}
    return np.asarray(action)[env_rows(envs, per_env)]


def compose(plan: list[Any], picks: Sequence[int], per_env: int = 1) -> Any:
    """A batched action whose env i has its rows of `plan[picks[i]]`."""
    first = plan[picks[0]]
    if isinstance(first, dict):
        return {k: compose([p[k] for p in plan], picks, per_env) for k in first}
    return np.concatenate(
        [np.asarray(plan[t])[env_rows([i], per_env)] for i, t in enumerate(picks)]
    )


def roll_rows(action: Any, per_env: int = 1) -> Any:
    """Env i of the result has the rows of env i + 1 (mod n) of `action`."""
    if isinstance(action, dict):
        return {k: roll_rows(v, per_env) for k, v in action.items()}
    return np.roll(np.asarray(action), -per_env, axis=0)


def legal_rows(ctx: Context, prev: Batch, envs: Sequence[int]) -> list[np.ndarray | None]:
    """Per action row of the envs `envs`: the legal actions its mask allows after `prev`.

    None where `prev` does not hold the env (its first result) or no action
    is legal (an ended episode: the pool resets it, whatever the action).
    A per-env mask holds for every action row of its env; a per-player mask
    gives each player's row its own (per-player actions) or, for one action
    per env, the row of `info["current_player"]`.
    """
    assert ctx.mask_key is not None
    masks = prev.info[ctx.mask_key]
    per_player = f"info[{ctx.mask_key}]" in ctx.player_keys
    out: list[np.ndarray | None] = []
    for env in envs:
        if env not in prev.env_id:
            out += [None] * ctx.action_rows
            continue
        i = prev.env_id.index(env)
        if not per_player:
            rows = [masks[i]] * ctx.action_rows
        else:
            mine = masks[prev.player_rows(i)]
            if ctx.action_rows > 1:
                rows = list(mine)
            else:
                ctx.require(
                    "current_player" in prev.info,
                    f"info[{ctx.mask_key!r}] is per player, the action per env, and there is no"
                    " info['current_player'] to tell whose mask holds",
                )
                rows = [mine[int(prev.info["current_player"][i])]]
        out += [np.flatnonzero(r) if np.any(r) else None for r in rows]
    return out


def legalize(ctx: Context, action: Any, prev: Batch, envs: Sequence[int]) -> Any:
    """`action` for the envs `envs`, each row that `prev`'s mask forbids made legal.

    A legal row is kept; a forbidden value v becomes the (v mod k)-th of the
    k legal actions, so that the plan stays a seeded draw among legal ones.
    Without a declared mask, `action` itself.
    """
    if ctx.mask_key is None:
        return action
    assert isinstance(ctx.action_space, gymnasium.spaces.Discrete)
    start = int(ctx.action_space.start)
    out = np.array(action)
    for row, legal in enumerate(legal_rows(ctx, prev, envs)):
        if legal is not None and int(out[row]) - start not in legal:
            out[row] = start + legal[(int(out[row]) - start) % len(legal)]
    return out


def _leaves(space: gymnasium.Space, prefix: str = "") -> list[tuple[str, gymnasium.Space]]:
    if isinstance(space, gymnasium.spaces.Dict):
        out = []
        for key, sub in space.spaces.items():
            out += _leaves(sub, f"{prefix}.{key}" if prefix else key)
        return out
    return [(prefix, space)]


def _replace_leaf(action: Any, path: str, value: np.ndarray) -> Any:
    if not path:
        return value
    head, _, rest = path.partition(".")
    out = dict(action)
    out[head] = _replace_leaf(action[head], rest, value)
    return out


def _get_leaf(action: Any, path: str) -> np.ndarray:
    for key in filter(None, path.split(".")):
        action = action[key]
    return np.asarray(action)


@dataclasses.dataclass
class BadAction:
    """An invalid action batch, the error it must raise and words its message must hold."""

    what: str
    action: Any
    error: type[Exception]
    words: tuple[str, ...] = ()


def bad_actions(ctx: Context, action: Any, env_ids: Sequence[int]) -> list[BadAction]:
    """Invalid variants of a valid `action` for the envs `env_ids` (each leaf of a dict action).

    A bad value goes into the last env's (last) row; its message must name
    that env. A multi-player id also gets the wrong number of rows: one per
    env where the action is per player, one per player where it is per env.
    """
    out: list[BadAction] = []
    n = len(env_ids)
    per_env = ctx.action_rows
    env = f"env {env_ids[-1]}"
    for path, space in _leaves(ctx.action_space):
        leaf = _get_leaf(action, path)
        name = f"action {path!r}" if path else "action"
        shapes = {
            "one row too many": np.concatenate([leaf, leaf[:1]]),
            "rows of two entries per element": np.repeat(leaf[..., None], 2, axis=-1),
            "rows with an extra axis of 1": leaf[..., None],
        }
        if leaf.ndim > 1 and leaf.shape[-1] > 1:
            shapes["rows one element short"] = leaf[..., :-1]
        if per_env > 1:
            shapes["one row per env (not per player)"] = leaf[::per_env]
        elif ctx.max_players > 1:
            shapes["one row per player (not per env)"] = np.repeat(leaf, ctx.max_players, axis=0)
        if leaf[0].size != 1 or leaf[0].ndim != 1 or n != 1 or per_env > 1:
            # (one number per env is accepted for one-element actions)
            shapes["one env's row without the batch axis"] = leaf[0]
        for what, bad_shape in shapes.items():
            out.append(
                BadAction(
                    f"{name} with {what} {bad_shape.shape}",
                    _replace_leaf(action, path, bad_shape),
                    ValueError,
                    ("shape",),
                )
            )
        last = n * per_env - 1
        if isinstance(space, gymnasium.spaces.Discrete):
            low, high = int(space.start), int(space.start + space.n - 1)
            for value, what in ((high + 1, "above"), (low - 1, "below")):
                bad = leaf.astype(np.int64)
                bad[last] = value
                out.append(
                    BadAction(
                        f"{name} {what} the range {low}..{high}",
                        _replace_leaf(action, path, bad),
                        ValueError,
                        (f"{low}..{high}", env),
                    )
                )
            frac = leaf.astype(np.float64)
            frac[last] += 0.5
            out.append(
                BadAction(
                    f"{name} that is not a whole number",
                    _replace_leaf(action, path, frac),
                    ValueError,
                    (env,),
                )
            )
        elif isinstance(space, gymnasium.spaces.Box) and np.issubdtype(space.dtype, np.floating):
            for value, word in ((np.nan, "NaN"), (np.inf, "inf")):
                bad = leaf.astype(space.dtype)
                bad.reshape(n, -1)[n - 1, -1] = value
                out.append(
                    BadAction(
                        f"{name} holding {word}",
                        _replace_leaf(action, path, bad),
                        ValueError,
                        (word, env),
                    )
                )
    return out


def expect_error(
    ctx: Context,
    what: str,
    call: Callable[[], Any],
    error: type[Exception],
    words: Sequence[str] = (),
) -> None:
    """`call()` must raise `error` whose message holds every one of `words`."""
    try:
        call()
    except error as e:
        message = str(e)
        missing = [w for w in words if w not in message]
        ctx.require(not missing, lambda: f"{what}: message {message!r} does not name {missing}")
        return
    except Exception as e:  # the wrong kind of error
        raise ctx.fail(f"{what}: raised {type(e).__name__} ({e}), expected {error.__name__}") from e
    raise ctx.fail(f"{what}: no error, expected {error.__name__}")


# -- checks of one result --------------------------------------------------------


def _inside(space: gymnasium.Space, rows: np.ndarray) -> str | None:
    """Why `rows` (one per env) are not in `space`, or None."""
    if isinstance(space, gymnasium.spaces.Box):
        if rows.shape[1:] != space.shape:
            return f"row shape {rows.shape[1:]} != {space.shape}"
        if rows.dtype != space.dtype:
            return f"dtype {rows.dtype} != the space's {space.dtype}"
        outside = ~((rows >= space.low) & (rows <= space.high))
        if outside.any():
            where = tuple(np.argwhere(outside)[0])
            bounds = f"[{space.low[where[1:]]}, {space.high[where[1:]]}]"
            return f"value {rows[where]!r} at {where} outside {bounds}"
        return None
    if isinstance(space, gymnasium.spaces.Discrete):
        if rows.shape[1:] != ():
            return f"row shape {rows.shape[1:]} != ()"
        if rows.dtype.kind not in "iu":
            return f"dtype {rows.dtype} is not an integer dtype"
        low, high = int(space.start), int(space.start + space.n - 1)
        outside = (rows < low) | (rows > high)
        if outside.any():
            return f"value {rows[outside][0]} outside {low}..{high}"
        return None
    for i, row in enumerate(rows):
        if not space.contains(row):
            return f"row {i} {row!r} not in {space}"
    return None


def check_observation(ctx: Context, where: str, obs: Rows, n: int, players: int) -> None:
    """`obs` (flattened) holds n rows (`players` for a per-player key) inside the
    observation space, of the declared dtypes."""
    if isinstance(ctx.obs_space, gymnasium.spaces.Dict):
        spaces = dict(_leaves(ctx.obs_space))
        # A nested key's path ("achieved_goal.kettle") is declared with
        # colons ("obs:achieved_goal:kettle").
        names = {k: f"obs:{k.replace('.', ':')}" for k in spaces}
    else:
        spaces = {"obs": ctx.obs_space}
        names = {"obs": "obs"}
    ctx.require(
        set(obs) == set(spaces), f"{where}: observation keys {sorted(obs)} != {sorted(spaces)}"
    )
    for key, space in spaces.items():
        rows = obs[key]
        if f"obs[{key}]" in ctx.player_keys:
            ctx.require(
                len(rows) == players,
                f"{where}: obs[{key}] has {len(rows)} rows for {players} player rows",
            )
        else:
            ctx.require(len(rows) == n, f"{where}: obs[{key}] has {len(rows)} rows for {n} envs")
        declared = ctx.declared.get(names[key])
        ctx.require(
            rows.dtype == declared,
            f"{where}: obs[{key}] has dtype {rows.dtype}, the spec declares {declared}",
        )
        problem = _inside(space, rows)
        ctx.require(
            problem is None, f"{where}: obs[{key}] is not in single_observation_space: {problem}"
        )


def check_result(
    ctx: Context, where: str, batch: Batch, env_ids: Sequence[int], same_step: bool = False
) -> None:
    """Spaces, dtypes, shapes and the time limit of one result of the envs `env_ids`.

    `same_step`: the result is of a same_step pool, whose ended rows hold the
    next episode's first result and the ended one in `final_info`.
    """
    n = len(env_ids)
    ctx.require(
        batch.env_id == list(env_ids),
        f"{where}: info['env_id'] {batch.env_id} != {list(env_ids)}",
    )
    m = check_players(ctx, where, batch)
    check_observation(ctx, where, batch.obs, n, m)
    for key, rows in batch.info.items():
        if ctx.player_keys and (f"info[{key}]" in ctx.player_keys or key.startswith("players.")):
            ctx.require(
                len(rows) == m, f"{where}: info[{key}] has {len(rows)} rows for {m} player rows"
            )
            continue
        ctx.require(len(rows) == n, f"{where}: info[{key}] has {len(rows)} rows for {n} envs")
        declared = ctx.declared.get(key)
        if declared is not None:
            ctx.require(
                rows.dtype == declared,
                f"{where}: info[{key}] has dtype {rows.dtype}, the spec declares {declared}",
            )
    ctx.require("elapsed_step" in batch.info, f"{where}: info has no elapsed_step")
    elapsed = batch.elapsed
    ctx.require(
        ((elapsed >= 0) & (elapsed <= MAX_EPISODE_STEPS)).all(),
        f"{where}: elapsed_step {elapsed} outside 0..max_episode_steps={MAX_EPISODE_STEPS}",
    )
    if batch.reward is None:
        ctx.require((elapsed == 0).all(), f"{where}: a reset returned elapsed_step {elapsed}")
        return
    reward, terminated, truncated = batch.reward, batch.terminated, batch.truncated
    assert terminated is not None and truncated is not None
    ctx.require(
        reward.dtype == np.float32 and reward.shape == (m,),
        f"{where}: reward is {reward.dtype}{reward.shape}, expected float32 ({m},)"
        + (" (one per player row)" if ctx.player_keys else ""),
    )
    ctx.require(np.isfinite(reward).all(), f"{where}: reward {reward} is not finite")
    for name, flags in (("terminated", terminated), ("truncated", truncated)):
        ctx.require(
            flags.dtype == np.bool_ and flags.shape == (n,),
            f"{where}: {name} is {flags.dtype}{flags.shape}, expected bool ({n},)",
        )
    ended = terminated | truncated
    if same_step and ended.any():
        ctx.require(
            "final_info" in batch.final and "_final_obs" in batch.final,
            f"{where}: episodes ended (terminated {terminated}, truncated {truncated}) "
            f"but info has no final_obs/final_info",
        )
        ctx.require(
            (elapsed[ended] == 0).all(),
            f"{where}: same_step rows that ended an episode have elapsed_step {elapsed}, not 0",
        )
        final_elapsed = np.asarray(batch.final["final_info"]["elapsed_step"])
        elapsed = np.where(ended, final_elapsed, elapsed)
    at_limit = elapsed == MAX_EPISODE_STEPS
    ctx.require(
        not (truncated & ~at_limit).any(),
        f"{where}: truncated {truncated} before max_episode_steps (elapsed_step {elapsed})",
    )
    ctx.require(
        not (at_limit & ~(terminated | truncated)).any(),
        f"{where}: not truncated at max_episode_steps={MAX_EPISODE_STEPS} "
        f"(elapsed_step {elapsed}, terminated {terminated}, truncated {truncated})",
    )


def check_players(ctx: Context, where: str, batch: Batch) -> int:
    """The player rows of a multi-player result: `info["players"]["env_id"]` names envs of
    the result, each with 1..max_num_players consecutive rows (all max_num_players of them
    where the action is per player). Returns the number of player rows (of envs for a
    single-player id)."""
    n = len(batch.env_id)
    if not ctx.player_keys:
        return n
    ctx.require("players.env_id" in batch.info, f"{where}: info has no ['players']['env_id']")
    players = np.asarray(batch.info["players.env_id"])
    ctx.require(
        players.ndim == 1 and players.dtype.kind in "iu",
        f"{where}: info['players']['env_id'] is {players.dtype}{players.shape}, expected one"
        " integer per player row",
    )
    stray = sorted(set(players.tolist()) - set(batch.env_id))
    ctx.require(
        not stray,
        f"{where}: info['players']['env_id'] {players} names envs {stray} not in the result"
        f" (env_id {batch.env_id})",
    )
    low = ctx.max_players if ctx.action_rows > 1 else 1
    received = players if batch.received_players is None else batch.received_players
    for env in batch.env_id:
        rows = np.flatnonzero(received == env)
        ctx.require(
            low <= len(rows) <= ctx.max_players,
            f"{where}: env {env} has {len(rows)} player rows, expected "
            + (f"{low}" if low == ctx.max_players else f"1..{ctx.max_players}")
            + (" (its action is per player)" if ctx.action_rows > 1 else ""),
        )
        ctx.require(
            len(rows) == 0 or rows[-1] - rows[0] == len(rows) - 1,
            f"{where}: the player rows {rows.tolist()} of env {env} are not consecutive",
        )
    return len(players)


def check_continues(ctx: Context, where: str, prev: Batch, batch: Batch) -> None:
    """next_step autoreset: after an end comes a first step; otherwise elapsed_step counts on."""
    assert batch.reward is not None and batch.terminated is not None and batch.truncated is not None
    for row, env in enumerate(batch.env_id):
        before = prev.of_env(env)
        if before.ended()[0]:
            reward = batch.row(row).reward
            assert reward is not None
            ctx.require(
                batch.elapsed[row] == 0
                and (reward == 0).all()
                and not batch.terminated[row]
                and not batch.truncated[row],
                f"{where}: env {env}, the step after its episode ended, is not the next "
                f"episode's first (elapsed_step {batch.elapsed[row]}, reward {reward}, "
                f"terminated {batch.terminated[row]}, truncated {batch.truncated[row]})",
            )
        else:
            ctx.require(
                batch.elapsed[row] == before.elapsed[0] + 1,
                f"{where}: env {env} elapsed_step went {before.elapsed[0]} -> {batch.elapsed[row]}",
            )


def check_same(ctx: Context, where: str, got: Batch, want: Batch, with_step: bool = True) -> None:
    """`got` equals `want` array by array."""
    problem = differences(got.arrays(with_step), want.arrays(with_step))
    ctx.require(problem is None, f"{where}: {problem}")


# -- rollouts ---------------------------------------------------------------------


def step_all(
    ctx: Context,
    env: Any,
    plan: Sequence[Any],
    label: str,
    first: Batch,
    sent: list[Any] | None = None,
) -> list[Batch]:
    """`first`, then one sync step per batch of `plan`, each result checked.

    Each action is made legal first (`legalize`) where the id declares legal
    actions; `sent` (if given) receives the actions sent.
    """
    out = [first]
    ids = list(range(NUM_ENVS))
    for t, action in enumerate(plan, start=1):
        action = legalize(ctx, action, out[-1], ids)
        if sent is not None:
            sent.append(action)
        batch = ctx.batch(env.step(action))
        where = f"{label}, step {t}"
        check_result(ctx, where, batch, ids)
        check_continues(ctx, where, out[-1], batch)
        out.append(batch)
    return out


def rollout_differs(a: list[Batch], b: list[Batch]) -> bool:
    return any(differences(x.arrays(), y.arrays()) is not None for x, y in zip(a, b, strict=True))


# -- the checks -------------------------------------------------------------------


def check_reference(ctx: Context, env: Any, first: Batch) -> list[Batch]:
    """The reference rollout of the gymnasium pool; the first-step rule, determinism, seeding.

    `first` is the pool's first result: of `send(ctx.plan[0])` to the
    never-reset pool. Returns R: R[0] = `first`, R[t] the result of
    `ctx.plan[t]`.
    """
    label = "gymnasium pool"
    check_result(ctx, f"{label}, first step", first, range(NUM_ENVS))
    assert first.reward is not None and first.terminated is not None and first.truncated is not None
    ctx.require(
        (first.reward == 0).all() and (first.elapsed == 0).all() and not first.ended().any(),
        f"first step of a never-reset pool is not its seeded reset: reward {first.reward}, "
        f"elapsed_step {first.elapsed}, terminated {first.terminated}, truncated {first.truncated}",
    )
    sent: list[Any] = []
    reference = step_all(ctx, env, ctx.plan[1:], label, first, sent)
    # The other pools replay the reference's actions: legal in the same states.
    ctx.plan[1:] = sent
    ctx.require(
        any(b.ended().any() for b in reference[1:-1]),
        f"no episode ended within {ctx.steps} steps at max_episode_steps={MAX_EPISODE_STEPS}",
    )
    # reset(seed=s + 1) seeds env i with s + 1 + i: env i now is env i + 1 of
    # the pool made with seed=s (given that env's actions), and the last env,
    # seeded s + n, given env 0's actions, is another rollout than env 0's.
    label = f"after reset(seed={SEED + 1})"
    obs, info = env.reset(seed=SEED + 1)
    start = ctx.batch((obs, info), reset=True)
    check_result(ctx, label, start, range(NUM_ENVS))
    # The seeded rollouts below run one episode (max_episode_steps steps):
    # each reset of an Atari env with a seed loads its ROM again.
    episode = ctx.plan[1 : MAX_EPISODE_STEPS + 1]
    again = step_all(ctx, env, [roll_rows(a, ctx.action_rows) for a in episode], label, start)
    for j in range(NUM_ENVS - 1):
        for t, (got, want) in enumerate(zip(again, reference[: len(again)], strict=True)):
            if t > 0 and ctx.task_id in HISTORY_DEPENDENT:
                break
            check_same(
                ctx,
                f"{label}, step {t}: env {j} (seed {SEED + 1 + j}) is not env {j + 1} of the pool "
                f"made with seed={SEED}",
                got.row(j).relabelled(),
                want.row(j + 1).relabelled(),
                with_step=t > 0,
            )
    # reset(env_id=[k], seed=s) seeds env k with s + k: given seed=SEED, the
    # last env repeats its rollout of the pool made with seed=SEED.
    k = NUM_ENVS - 1
    label = f"after reset(env_id=[{k}], seed={SEED})"
    obs, info = env.reset(np.array([k]), seed=SEED)
    batch = ctx.batch((obs, info), reset=True)
    repeat = [batch]
    check_result(ctx, label, batch, [k])
    for t, action in enumerate(episode, start=1):
        batch = ctx.batch(env.step(take_rows(action, [k], ctx.action_rows), np.array([k])))
        check_result(ctx, f"{label}, step {t}", batch, [k])
        check_continues(ctx, f"{label}, step {t}", repeat[-1], batch)
        repeat.append(batch)
    for t, (got, want) in enumerate(zip(repeat, reference[: len(repeat)], strict=True)):
        if t > 0 and ctx.task_id in HISTORY_DEPENDENT:
            break
        check_same(
            ctx,
            f"{label}, step {t}: env {k} does not repeat its rollout of seed {SEED + k}",
            got,
            want.row(k),
            with_step=t > 0,
        )
    last = NUM_ENVS - 1
    reset_differs = differences(
        again[0].row(last).relabelled().arrays(with_step=False),
        reference[0].row(0).relabelled().arrays(with_step=False),
    )
    if ctx.task_id in SEED_INDEPENDENT_RESET:
        ctx.require(
            reset_differs is None,
            f"listed in SEED_INDEPENDENT_RESET, yet seeds give different resets ({reset_differs})"
            ": take it off the list in its family's registration.py",
        )
    else:
        ctx.require(
            reset_differs is not None,
            f"seeds {SEED} and {SEED + NUM_ENVS} give the same reset (observation and info); if"
            " the reference starts so whatever the seed, declare it in SEED_INDEPENDENT_RESET of"
            " its family's registration.py with the reason",
        )
    mine = [b.row(last).relabelled() for b in again[1:]]
    other = [b.row(0).relabelled() for b in reference[1 : len(again)]]
    if ctx.task_id in SEED_INDEPENDENT:
        ctx.require(
            not rollout_differs(mine, other),
            "listed in SEED_INDEPENDENT, yet seeds give different rollouts: take it off the list"
            " in its family's registration.py",
        )
    else:
        ctx.require(
            rollout_differs(mine, other),
            f"seeds {SEED} and {SEED + NUM_ENVS} give the same rollout for the same actions; if"
            " the reference has no randomness, declare it in SEED_INDEPENDENT of its family's"
            " registration.py with the reason",
        )
    return reference


def _repeat_rows(action: Any) -> Any:
    """The batch twice over (for a repeated env_id)."""
    if isinstance(action, dict):
        return {k: _repeat_rows(v) for k, v in action.items()}
    return np.concatenate([action, action])


def check_gym_async(ctx: Context, env: Any, reference: list[Batch]) -> None:
    """env_type="gym", asynchronous (batch_size 1): each env's results are its reference rows.

    Also: bad actions, an env_id out of range or repeated and a second send
    to an env in flight raise and are lost; recv() with nothing in flight
    raises rather than hangs.
    """
    label = "gym pool (async, batch_size=1)"
    count = [0] * NUM_ENVS  # results of env i received so far
    in_flight = set(range(NUM_ENVS))  # after async_reset
    rounds = 0
    while in_flight:
        batch = ctx.batch(env.recv())
        ctx.require(len(batch.env_id) == 1, f"{label}: recv returned {batch.env_id}, not one env")
        (i,) = batch.env_id
        ctx.require(i in in_flight, f"{label}: recv returned env {i}, which was not in flight")
        in_flight.discard(i)
        t = count[i]
        where = f"{label}, env {i} result {t}"
        check_result(ctx, where, batch, [i])
        whose = "first step (its seeded reset)" if t == 0 else f"step {t}"
        check_same(
            ctx,
            f"{where} differs from the gymnasium pool's {whose}",
            batch,
            reference[t].row(i),
            with_step=t > 0,
        )
        count[i] += 1
        if t == ctx.steps:
            continue
        action = take_rows(ctx.plan[t + 1], [i], ctx.action_rows)
        if rounds == 0:
            for bad in bad_actions(ctx, action, [i]):
                expect_error(
                    ctx,
                    f"{label}: send of {bad.what} to env {i}",
                    lambda b=bad, i=i: env.send(b.action, [i]),
                    bad.error,
                    bad.words,
                )
            expect_error(
                ctx,
                f"{label}: send to env_id {NUM_ENVS} (out of range)",
                lambda a=action: env.send(a, [NUM_ENVS]),
                ValueError,
                (str(NUM_ENVS),),
            )
            expect_error(
                ctx,
                f"{label}: send to env_id [{i}, {i}] (repeated)",
                lambda a=action, i=i: env.send(_repeat_rows(a), [i, i]),
                ValueError,
            )
        # env_id None sends to the envs of the last recv (async mode).
        env.send(action, None if rounds % 2 else [i])
        in_flight.add(i)
        if rounds == 0:
            expect_error(
                ctx,
                f"{label}: a second send to env {i} in flight",
                lambda a=action, i=i: env.send(a, [i]),
                RuntimeError,
            )
        rounds += 1
    ctx.require(count == [ctx.steps + 1] * NUM_ENVS, f"{label}: received {count} results per env")
    expect_error(ctx, f"{label}: recv() with nothing in flight", env.recv, RuntimeError)


def _dm_batch(ctx: Context, timestep: Any, obs_keys: Sequence[str]) -> Batch:
    """A Batch (obs, the State's info fields, reward) from a dm TimeStep."""
    state = timestep.observation
    ctx.require(
        type(state).__name__ == "State", f"dm observation is a {type(state).__name__}, not State"
    )
    fields = state._asdict()
    ctx.require(
        list(fields)[:2] == ["env_id", "players"],
        f"dm State fields {list(fields)} do not start with env_id, players",
    )
    # A key that is no Python name is its dm_field (walker/target -> walker_target);
    # a nested key ("achieved_goal.bottom burner") a namedtuple's field in
    # the State's field (state.achieved_goal.bottom_burner).
    obs_fields = {k: dm_field(k.partition(".")[0]) for k in obs_keys}
    missing = [k for k, field in obs_fields.items() if field not in fields]
    ctx.require(not missing, f"dm State fields {list(fields)} lack the observation {missing}")

    def dm_leaf(key: str) -> np.ndarray:
        head, _, rest = key.partition(".")
        value = fields[dm_field(head)]
        for part in rest.split(".") if rest else []:
            ctx.require(
                hasattr(value, dm_field(part)),
                f"dm observation {head!r} has no field {dm_field(part)!r} for obs[{key}]",
            )
            value = getattr(value, dm_field(part))
        return np.array(value)

    obs = {k: dm_leaf(k) for k in obs_keys}
    info = {"env_id": np.array(fields["env_id"])}
    info.update({f"players.{k}": np.array(v) for k, v in fields["players"]._asdict().items()})
    for key, value in fields.items():
        if key not in ("env_id", "players") and key not in obs_fields.values():
            info[key] = np.array(value)
    batch = Batch(obs=obs, info=info, reward=np.array(timestep.reward), player_keys=ctx.player_keys)
    return batch.in_env_order()


def _dm_bad_inputs(ctx: Context, env: Any, action: Any) -> list[tuple[BadAction, Callable]]:
    """Bad inputs for a sync pool of NUM_ENVS envs, each with the call that gives it."""
    ids = list(range(NUM_ENVS))
    out: list[tuple[BadAction, Callable]] = [
        (bad, lambda b=bad: env.step(b.action)) for bad in bad_actions(ctx, action, ids)
    ]
    wrong = np.array([*ids[:-1], NUM_ENVS])
    out += [
        (
            BadAction(f"step with env_id {wrong.tolist()}", None, ValueError, (str(NUM_ENVS),)),
            lambda: env.step(action, wrong),
        ),
        (
            BadAction("step with env_id [0, 0]", None, ValueError),
            lambda: env.step(action, np.zeros(NUM_ENVS, np.int64)),
        ),
        (BadAction("recv() with nothing in flight", None, RuntimeError), env.recv),
        (
            BadAction(f"reset(env_id=[{NUM_ENVS}])", None, ValueError, (str(NUM_ENVS),)),
            lambda: env.reset(np.array([NUM_ENVS])),
        ),
    ]
    return out


def check_dm(ctx: Context, env: Any, reference: list[Batch]) -> None:
    """env_type="dm" (sync, next_step) gives the gymnasium rollout as TimeSteps.

    Before its steps this pool also gets every bad input, a few at a time;
    each must raise and leave the pool as its twin, the gymnasium pool,
    which never saw it.
    """
    label = "dm pool"
    obs_keys = list(reference[0].obs)
    info_keys = [k for k in reference[0].info if k != "elapsed_step"]
    given: list[str] = []
    for t in range(ctx.steps + 1):
        if t == 0:
            timestep = env.reset()
            ctx.require(
                (np.asarray(timestep.step_type) == 0).all(),
                f"{label}: reset() step_type {timestep.step_type}, not FIRST",
            )
        else:
            action = ctx.plan[t]
            bad = _dm_bad_inputs(ctx, env, action)
            for k, (b, call) in enumerate(bad):
                if k % ctx.steps == t - 1:
                    expect_error(ctx, f"{label}, step {t}: {b.what}", call, b.error, b.words)
                    given.append(b.what)
            timestep = env.step(action)
        batch = _dm_batch(ctx, timestep, obs_keys)
        want = reference[t]
        after = f" (after the bad inputs {given})" if given else ""
        where = f"{label}, step {t}{after}" if t else f"{label}, reset()"
        for name in ("step_type", "discount"):
            shape = np.shape(getattr(timestep, name))
            ctx.require(
                shape == (NUM_ENVS,),
                f"{where}: {name} has shape {shape}, expected one per env ({NUM_ENVS},)",
            )
        ctx.require(
            list(batch.info) == info_keys,
            f"{where}: State info fields {list(batch.info)} != gymnasium's info keys {info_keys}",
        )
        expected = dataclasses.replace(want, info={k: want.info[k] for k in info_keys})
        problem = differences(
            batch.arrays(), dataclasses.replace(expected, terminated=None, truncated=None).arrays()
        )
        ctx.require(problem is None, f"{where} differs from the gymnasium pool's: {problem}")
        assert want.terminated is not None and want.truncated is not None
        expected_type = np.where(want.ended(), 2, np.where(want.elapsed == 0, 0, 1))
        step_type = np.asarray(timestep.step_type)
        ctx.require(
            np.array_equal(step_type, expected_type),
            f"{where}: step_type {step_type}, expected {expected_type} (FIRST=0, MID=1, LAST=2) "
            f"for terminated {want.terminated}, truncated {want.truncated}, "
            f"elapsed_step {want.elapsed}",
        )
        discount = np.asarray(timestep.discount)
        ctx.require(discount.dtype == np.float32, f"{where}: discount dtype {discount.dtype}")
        if ctx.config.get("zero_discount_on_life_loss"):
            expected_discount = np.where(want.terminated, 0.0, discount)
        else:
            expected_discount = np.where(want.terminated, 0.0, 1.0)
        ctx.require(
            np.array_equal(discount, expected_discount),
            f"{where}: discount {discount}, expected 0 on termination and 1 otherwise "
            f"(terminated {want.terminated}, truncated {want.truncated})",
        )
    expected_count = len(_dm_bad_inputs(ctx, env, ctx.plan[1]))
    ctx.require(
        len(given) == expected_count,
        f"{label}: only {len(given)} of {expected_count} bad inputs were given",
    )


def real_steps(reference: list[Batch], steps: int) -> list[list[int]]:
    """Per env, the reference steps t < steps that stepped it (not autoreset steps)."""
    out: list[list[int]] = [[] for _ in range(NUM_ENVS)]
    for t in range(1, steps):
        ended = reference[t - 1].ended()
        for i in range(NUM_ENVS):
            if not ended[i]:
                out[i].append(t)
    return out


def _final_obs_row(ctx: Context, final_obs: Any) -> Rows:
    """One entry of same_step's info["final_obs"] as a one-env flattened observation.

    A per-player key holds the env's player rows, stacked; another its one row.
    """
    flat = flatten(final_obs) if isinstance(final_obs, dict) else {"obs": np.asarray(final_obs)}
    return {k: v if f"obs[{k}]" in ctx.player_keys else v[None] for k, v in flat.items()}


def _final_info_row(ctx: Context, final_info: dict[str, Any], i: int) -> Rows:
    """Env i's rows of same_step's info["final_info"], without its masks, flattened.

    Masks are gymnasium's `_<key>` entries, at every level of nesting. A
    per-player key holds the ended step's player rows whole: env i's are
    those its `["players"]["env_id"]` names.
    """

    def unmasked(d: dict[str, Any]) -> dict[str, Any]:
        return {
            k: unmasked(v) if isinstance(v, dict) else v
            for k, v in d.items()
            if not k.startswith("_")
        }

    flat = flatten(unmasked(final_info))
    if not ctx.player_keys:
        return {k: v[i : i + 1] for k, v in flat.items()}
    if "_env_id" in final_info.get("players", {}):
        players = np.array([i])  # one player row per env, masked as the env rows
    else:
        players = np.flatnonzero(flat["players.env_id"] == int(flat["env_id"][i]))
    return {
        k: v[players]
        if f"info[{k}]" in ctx.player_keys or k.startswith("players.")
        else v[i : i + 1]
        for k, v in flat.items()
    }


def check_same_step(ctx: Context, env: Any, reference: list[Batch]) -> None:
    """same_step autoreset gives the next_step episodes without the autoreset steps.

    Env i's k-th step is reference step real_i[k] (given that step's action);
    where it ends an episode, obs and info are the next episode's first (the
    next reference step's), info["final_obs"][i] and info["final_info"] row
    i the ended episode's last, and `_final_obs` / `_final_info` mask them.
    """
    label = "same_step pool"
    start = ctx.batch(env.recv())  # of async_reset
    check_result(ctx, f"{label}, reset", start, range(NUM_ENVS))
    check_same(ctx, f"{label}, reset differs from the gymnasium pool's", start, reference[0], False)
    real = real_steps(reference, ctx.steps)
    ends = 0
    for k in range(min(len(r) for r in real)):
        picks = [real[i][k] for i in range(NUM_ENVS)]
        batch = ctx.batch(env.step(compose(ctx.plan, picks, ctx.action_rows)))
        where = f"{label}, step {k + 1}"
        check_result(ctx, where, batch, range(NUM_ENVS), same_step=True)
        for i, t in enumerate(picks):
            here = f"{where}: env {i} (the gymnasium pool's step {t})"
            got, want = batch.row(i), reference[t].row(i)
            problem = differences(got.arrays(), want.arrays())
            if not want.ended()[0]:
                mask = batch.final.get("_final_obs")
                ctx.require(
                    mask is None or not mask[i],
                    f"{here} did not end an episode, but _final_obs is {mask}",
                )
                ctx.require(problem is None, f"{here}: {problem}")
                continue
            ends += 1
            step_arrays = ("reward", "terminated", "truncated")
            problem = differences(
                {k: v for k, v in got.arrays().items() if k in step_arrays},
                {k: v for k, v in want.arrays().items() if k in step_arrays},
            )
            ctx.require(problem is None, f"{here}: {problem}")
            masks = [bool(batch.final[m][i]) for m in ("_final_obs", "_final_info")]
            ctx.require(all(masks), f"{here} ended an episode, but _final_obs/_final_info {masks}")
            problem = differences(_final_obs_row(ctx, batch.final["final_obs"][i]), want.obs)
            ctx.require(
                problem is None, f"{here}: final_obs is not the last observation: {problem}"
            )
            final_info = _final_info_row(ctx, batch.final["final_info"], i)
            problem = differences(final_info, dict(want.info))
            ctx.require(problem is None, f"{here}: final_info is not the last info: {problem}")
            first = reference[t + 1].row(i)
            if "same_step_player_count" in ctx.tolerate and len(got.player_rows(0)) != len(
                first.player_rows(0)
            ):
                continue  # see KNOWN_BUGS
            check_same(ctx, f"{here}: obs/info are not the next episode's first", got, first, False)
    ctx.require(ends > 0, f"{label}: no episode ended")


def check_disabled(ctx: Context, env: Any, reference: list[Batch]) -> None:
    """autoreset_mode="disabled": an ended env refuses to step until reset(env_id)."""
    label = "disabled pool"
    last = ctx.batch(env.recv())  # of async_reset
    check_result(ctx, f"{label}, reset", last, range(NUM_ENVS))
    check_same(
        ctx,
        f"{label}, reset differs from the gymnasium pool's",
        last,
        reference[0],
        with_step=False,
    )
    state = [last.row(i) for i in range(NUM_ENVS)]
    refused = False
    for t in range(1, ctx.steps + 1):
        ended = [i for i in range(NUM_ENVS) if state[i].ended()[0]]
        going = [i for i in range(NUM_ENVS) if i not in ended]
        where = f"{label}, step {t}"
        if ended:
            if not refused:
                expect_error(
                    ctx,
                    f"{where}: step of ended envs {ended}",
                    lambda a=ctx.plan[t]: env.step(a),
                    RuntimeError,
                    ("reset",),
                )
                refused = True
            obs, info = env.reset(np.array(ended))
            batch = ctx.batch((obs, info), reset=True)
            check_result(ctx, f"{where}: reset({ended})", batch, ended)
            for row, i in enumerate(ended):
                check_same(
                    ctx,
                    f"{where}: reset of env {i} is not the next_step pool's next episode",
                    batch.row(row),
                    reference[t].row(i),
                    with_step=False,
                )
                state[i] = batch.row(row)
        if going:
            batch = ctx.batch(
                env.step(take_rows(ctx.plan[t], going, ctx.action_rows), np.array(going))
            )
            check_result(ctx, where, batch, going)
            for row, i in enumerate(going):
                check_same(
                    ctx,
                    f"{where}: env {i} differs from the next_step pool's",
                    batch.row(row),
                    reference[t].row(i),
                )
                state[i] = batch.row(row)
    ctx.require(refused, f"{label}: no episode ended in {ctx.steps} steps")


def check_closed(ctx: Context, env: Any, label: str) -> None:
    """close() is idempotent; then every call raises RuntimeError."""
    env.close()
    env.close()
    action = ctx.plan[1]
    calls: dict[str, Callable[[], Any]] = {
        "reset()": env.reset,
        "step()": lambda: env.step(action),
        "send()": lambda: env.send(action),
        "recv()": env.recv,
        "async_reset()": env.async_reset,
    }
    for name, call in calls.items():
        expect_error(ctx, f"{label}: {name} after close()", call, RuntimeError)


def check_env(
    task_id: str, steps: int = DEFAULT_STEPS, tolerate: frozenset[str] = frozenset(KNOWN_BUGS)
) -> None:
    """Check `task_id` against every rule of the module docstring.

    Raises AssertionError, naming the id, the pool and the step, on the
    first violation.

    `steps` is the length of the reference rollout; episodes are cut at
    max_episode_steps=3, so it must be at least 5 for an episode to end and
    the next one to be stepped. `tolerate` names the KNOWN_BUGS to let pass.
    """
    unknown = set(tolerate) - set(KNOWN_BUGS)
    if unknown:
        raise ValueError(f"tolerate names no known bug: {sorted(unknown)}")
    if steps < MAX_EPISODE_STEPS + 2:
        raise ValueError(f"steps must be at least {MAX_EPISODE_STEPS + 2}, got {steps}")
    ctx = make_context(task_id, steps, frozenset(tolerate))
    expect_error(
        ctx,
        "make() with an unknown option",
        lambda: envpool.make(task_id, no_such_option=1),
        TypeError,
        ("no_such_option",),
    )
    pools: dict[str, Any] = {}
    try:
        pools["gymnasium"] = ctx.make(env_type="gymnasium")
        pools["gym"] = ctx.make(env_type="gym", batch_size=1)
        pools["dm"] = ctx.make(env_type="dm")
        pools["same_step"] = ctx.make(autoreset_mode="same_step")
        pools["disabled"] = ctx.make(autoreset_mode="disabled")
        first = pools["gymnasium"]
        # Start every pool before checking any (for an engine that makes envs
        # in parallel): the first step of the never-reset gymnasium pool, the
        # others' resets. Every reset must be the first step's result.
        expect_error(ctx, "recv() of a fresh pool with nothing in flight", first.recv, RuntimeError)
        first.send(ctx.plan[0])
        for name in ("gym", "same_step", "disabled"):
            pools[name].async_reset()
        reference = check_reference(ctx, first, ctx.batch(first.recv()))
        check_gym_async(ctx, pools["gym"], reference)
        check_dm(ctx, pools["dm"], reference)
        check_same_step(ctx, pools["same_step"], reference)
        check_disabled(ctx, pools["disabled"], reference)
        for name, env in pools.items():
            check_closed(ctx, env, f"{name} pool")
    finally:
        for env in pools.values():
            env.close()
    if envpool.make_spec(task_id).description.get("snapshots", False) and snapshot_check_sampled(
        task_id
    ):
        # Save at a random step, restore into a twin pool, compare every
        # later step (envpool.testing.snapshots; the slow families sampled).
        check_snapshots(task_id)
