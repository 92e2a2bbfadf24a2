"""EnvSpec: the options (config) and spaces of one id."""

from __future__ import annotations

import collections
import collections.abc
import difflib
import importlib
import math
import numbers
import os
from typing import Any

import numpy as np

from envpool.python import human_render, plugins
from envpool.python.keys import dm_field, is_hidden_info, is_info, is_obs, nest, obs_path, state_key
from envpool.python.registry import TaskEntry, families, family_declaration, plugin_families

AUTORESET_MODES = ("next_step", "same_step", "disabled")
_GYMNASIUM_AUTORESET = {"NextStep": "next_step", "SameStep": "same_step", "Disabled": "disabled"}

# Options every id takes, handled by the pool rather than the env.
POOL_DEFAULTS: dict[str, Any] = {
    "num_envs": 1,
    "batch_size": 0,
    "num_threads": 0,
    "thread_affinity_offset": -1,
    "seed": 42,
    "gym_reset_return_info": True,
    "autoreset_mode": "next_step",
    "episode_statistics": False,
    # Which env `render()` draws by default (render_mode and the frame size
    # are options of every env class: the env resolves them).
    "render_env_id": 0,
}
# Derived from the env, reported in the config but not settable.
_READ_ONLY = ("max_num_players",)

_core_module = None
_INT32_BOUNDS = (int(np.iinfo(np.int32).min), int(np.iinfo(np.int32).max))
# Limits checked at make, before anything is allocated.
MAX_NUM_ENVS = 2**24
MAX_NUM_THREADS = 4096


class ArraySpec:
    """Shape, dtype and bounds of one array the engine reads or writes.

    `shape` is the shape of one env's row; a leading -1 stands for the
    player dimension (one row per player), as in EnvPool's specs.
    """

    def __init__(self, dtype: Any, shape: list[int], bounds: tuple[Any, Any]) -> None:
        self.dtype = np.dtype(dtype)
        self.shape = list(shape)
        self.minimum, self.maximum = bounds

    def __repr__(self) -> str:
        return (
            f"ArraySpec(shape={self.shape}, dtype={self.dtype}, "
            f"minimum={self.minimum}, maximum={self.maximum})"
        )

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, ArraySpec)
            and self.dtype == other.dtype
            and self.shape == other.shape
            and np.array_equal(self.minimum, other.minimum)
            and np.array_equal(self.maximum, other.maximum)
        )

    __hash__ = None  # type: ignore[assignment]


def _bounds(desc: dict[str, Any]) -> tuple[Any, Any]:
    """The (minimum, maximum) of an array description, scalars where uniform."""
    dtype = np.dtype(desc["dtype"])
    if desc["num_values"] > 0:
        return 0, desc["num_values"] - 1
    if dtype == np.bool_:
        return False, True
    if np.issubdtype(dtype, np.integer):
        default = (int(np.iinfo(dtype).min), int(np.iinfo(dtype).max))
    else:
        default = (-np.inf, np.inf)
    bounds = []
    for values, fallback in ((desc["low"], default[0]), (desc["high"], default[1])):
        if not values:
            bounds.append(fallback)
        elif len(values) == 1 or len(set(values)) == 1:
            bounds.append(type(fallback)(values[0]))
        else:
            bounds.append(np.asarray(values, dtype=dtype).reshape(desc["shape"]))
    return bounds[0], bounds[1]


def _dm_array_spec(desc: dict[str, Any], name: str):
    from dm_env import specs

    dtype = np.dtype(desc["dtype"])
    if desc["num_values"] > 0 and tuple(desc["shape"]) == ():
        return specs.DiscreteArray(desc["num_values"], dtype=dtype, name=name)
    low, high = _bounds(desc)
    return specs.BoundedArray(tuple(desc["shape"]), dtype, low, high, name=name)


def load_family(family: str):
    """Import the native module of `family` (which registers its env types).

    First the core learns the folder the family's native code reads its files
    from: the ASSET_DIR its registration.py declares ("" for none), the one
    way a family's C++ finds its files (`envpool::FamilyAssetDir`). It is
    handed over on every call, so a changed ASSET_DIR holds for the next pool.
    """
    global _core_module
    if _core_module is None:
        _core_module = importlib.import_module("envpool.core._core")
    _core_module.set_asset_dir(family, family_declaration(family, "ASSET_DIR") or "")
    if plugins.is_plugin(family):
        plugins.load_native_library(_core_module, family)
        return _core_module
    name = f"envpool.{family}._{family}"
    try:
        importlib.import_module(name)
    except ModuleNotFoundError as e:
        if e.name == f"envpool.{family}":
            known = ", ".join(sorted({*families(), *plugin_families()}))
            raise ValueError(f"unknown env family {family!r}; the families: {known}") from None
        if e.name != name:
            raise
        # `make demo` installs the native module of its own family only.
        raise RuntimeError(
            f"the {family} family's native module is not in this install of envpool (a "
            "build of the demo's family only, as `make demo` makes): run `make install` "
            "to build and install every family"
        ) from None
    return _core_module


# Names other libraries give the pool's options.
_POOL_OPTION_ALIASES = {
    "n_envs": "num_envs",
    "num_env": "num_envs",
    "max_steps": "max_episode_steps",
    "time_limit": "max_episode_steps",
    "autoreset": "autoreset_mode",
}


def _suggest_option(name: str, valid: list[str], family: str) -> str | None:
    """The option `name` may have meant: the family's aliases for the reference
    library's names (`OPTION_ALIASES` in its registration.py), then spelling."""
    aliases = {
        **_POOL_OPTION_ALIASES,
        **family_declaration(family, "OPTION_ALIASES", {}),
    }
    if aliases.get(name) in valid:
        return aliases[name]
    squashed = name.replace("_", "").lower()
    for option in valid:
        if option.replace("_", "").lower() == squashed:
            return option
    close = difflib.get_close_matches(name, valid, n=1, cutoff=0.75)
    if close:
        return close[0]
    contained = [n for n in valid if name in n or n in name]
    return contained[0] if contained else None


def _is_names(values: Any) -> bool:
    """Whether a list option's values are names (str), as a list-of-names
    option's default is: a non-empty list of str."""
    return bool(values) and all(isinstance(v, str) for v in values)


def _check_type(name: str, value: Any, default: Any) -> Any:
    """`value` converted to the type of `default`, or TypeError."""
    if isinstance(default, bool):
        if isinstance(value, (bool, np.bool_)):
            return bool(value)
    elif isinstance(default, int):
        if isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_)):
            return int(value)
    elif isinstance(default, float):
        if isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_)):
            return float(value)
    elif isinstance(default, str):
        if isinstance(value, str):
            return value
    elif isinstance(default, list):
        # A list option: ints (e.g. MiniGrid's agent_start_pos), or names
        # where the default holds names (FrankaKitchen's tasks_to_complete);
        # the env checks how many and what they mean.
        if _is_names(default):
            items = value.tolist() if isinstance(value, np.ndarray) else value
            if isinstance(value, (list, tuple, np.ndarray)) and all(
                isinstance(v, str) for v in items
            ):
                return [str(v) for v in items]
            raise TypeError(
                f"option {name!r} takes a list of str (e.g. {default!r}), got {value!r} "
                f"of type {type(value).__name__}"
            )
        if isinstance(value, (list, tuple, np.ndarray)) and all(
            isinstance(v, numbers.Integral) and not isinstance(v, (bool, np.bool_))
            for v in (value.tolist() if isinstance(value, np.ndarray) else value)
        ):
            return [int(v) for v in value]
    elif isinstance(default, dict):
        # A table option (e.g. ViZDoom's reward_config): the core checks the
        # keys and numbers, the family what they mean.
        if isinstance(value, collections.abc.Mapping):
            return dict(value)
    else:
        return value
    raise TypeError(
        f"option {name!r} takes a {type(default).__name__}, got {value!r} "
        f"of type {type(value).__name__}"
    )


# Options read once by the pool for all its envs: they take one value.
_ONE_VALUE_FOR_THE_POOL = ("max_episode_steps", "render_")


def _is_sequence(value: Any) -> bool:
    return isinstance(value, (list, tuple)) or (isinstance(value, np.ndarray) and value.ndim == 1)


def _per_env_values(task_id: str, name: str, value: Any, default: Any) -> tuple[Any, ...]:
    """A sequence given for a bool, int or float option: each value checked
    as the option's type (docs/api.md, "Options per env")."""
    items = value.tolist() if isinstance(value, np.ndarray) else list(value)
    if not items:
        raise ValueError(f"option {name!r} of {task_id} was given an empty sequence")
    values = tuple(_check_type(name, v, default) for v in items)
    for v in values:
        if isinstance(v, float) and not math.isfinite(v):
            raise ValueError(f"option {name!r} of {task_id} must be finite, got {v!r}")
    return values


def _normalize_autoreset(value: Any) -> str:
    mode = getattr(value, "value", value)
    mode = _GYMNASIUM_AUTORESET.get(mode, mode)
    if mode not in AUTORESET_MODES:
        raise ValueError(f"autoreset_mode must be one of {AUTORESET_MODES}, got {value!r}")
    return mode


def is_seed(value: Any) -> bool:
    """Whether `value` is one seed: an integer, not a bool (nor a float that is whole)."""
    return isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_))


def seed_list(value: Any) -> list[int]:
    """The seeds of a list, tuple or array of them; TypeError where one is not an integer."""
    if isinstance(value, np.ndarray) and value.ndim != 1:
        raise TypeError(f"seeds must be one-dimensional, got an array of shape {value.shape}")
    seeds = value.tolist() if isinstance(value, np.ndarray) else list(value)
    for s in seeds:
        if not is_seed(s):
            raise TypeError(f"seeds must be ints, got {s!r} in {value!r}")
    return [int(s) for s in seeds]


def _normalize_seed(value: Any, num_envs: int) -> int | tuple[int, ...]:
    if is_seed(value):
        return int(value)
    if isinstance(value, (list, tuple, np.ndarray)):
        seeds = tuple(seed_list(value))
        if len(seeds) != num_envs:
            raise ValueError(f"seed has {len(seeds)} entries, but num_envs={num_envs}")
        return seeds
    raise TypeError(f"seed must be an int or a list of num_envs ints, got {value!r}")


class _DmNode:
    """The namedtuple type of an inner dict of a dm observation, and its keys' nodes."""

    def __init__(self, key: str, children: dict[str, Any]) -> None:
        self.children = {k: _dm_node(k, v) for k, v in children.items()}
        self.type = collections.namedtuple(  # type: ignore[misc]
            dm_field(key), [dm_field(k) for k in children]
        )


def _dm_node(key: str, tree: Any) -> _DmNode | None:
    """None for an array, else the node of the inner dict `tree`."""
    return _DmNode(key, tree) if isinstance(tree, dict) else None


def _as_dm(node: _DmNode | None, value: Any) -> Any:
    """`value` (an array, or a dict of them) as the dm observation holds it."""
    if node is None:
        return value
    return node.type(**{dm_field(k): _as_dm(child, value[k]) for k, child in node.children.items()})


class EnvSpec:
    """What `make_spec(task_id, **kwargs)` returns.

    `config` holds every option with its value (defaults, then the id's
    overrides, then `kwargs`); `observation_space` and `action_space` are
    gymnasium spaces of a single env.
    """

    def __init__(self, entry: TaskEntry, kwargs: dict[str, Any]) -> None:
        self.entry = entry
        self.id = entry.task_id
        self._kwargs = dict(kwargs)
        core = load_family(entry.family)
        env_defaults = dict(core.env_defaults(entry.env_class))
        defaults = {**POOL_DEFAULTS, **env_defaults}
        metadata = {k: v for k, v in entry.overrides.items() if k not in defaults}
        values = {**defaults, **{k: v for k, v in entry.overrides.items() if k in defaults}}
        valid = sorted(set(values) | set(metadata))
        for name, value in kwargs.items():
            if name in _READ_ONLY:
                raise TypeError(f"option {name!r} is fixed by {self.id} and cannot be set")
            if name not in values and name not in metadata:
                close = _suggest_option(name, valid, entry.family)
                raise TypeError(
                    f"{self.id} has no option {name!r}"
                    + (f" (did you mean {close!r}?)" if close else "")
                    + f"; valid options: {', '.join(valid)}"
                )
            if name == "seed":
                continue
            if name == "autoreset_mode":
                values[name] = _normalize_autoreset(value)
            elif name == "render_mode":
                if value is not None and not isinstance(value, str):
                    raise TypeError(f"option 'render_mode' takes None or a str, got {value!r}")
                values[name] = value or ""
            elif name in metadata:
                metadata[name] = value
            elif _is_sequence(value) and isinstance(values[name], (bool, int, float)):
                if name not in env_defaults or name.startswith(_ONE_VALUE_FOR_THE_POOL):
                    raise ValueError(
                        f"option {name!r} of {self.id} cannot vary per env: the pool "
                        f"applies it to every env; give one value, got {value!r}"
                    )
                values[name] = _per_env_values(self.id, name, value, values[name])
            else:
                values[name] = _check_type(name, value, values[name])
                if isinstance(values[name], float) and not math.isfinite(values[name]):
                    raise ValueError(f"option {name!r} of {self.id} must be finite, got {value!r}")
        num_envs = values["num_envs"]
        if not 1 <= num_envs <= MAX_NUM_ENVS:
            raise ValueError(f"num_envs must be in 1..{MAX_NUM_ENVS}, got {num_envs}")
        batch_size = values["batch_size"] or num_envs
        if not 0 < batch_size <= num_envs:
            raise ValueError(
                f"batch_size must be in 1..num_envs={num_envs} (0 means num_envs), "
                f"got {values['batch_size']}"
            )
        values["batch_size"] = batch_size
        for name in env_defaults:
            if isinstance(values[name], tuple) and len(values[name]) != num_envs:
                raise ValueError(
                    f"option {name!r} of {self.id} has {len(values[name])} values; give one "
                    f"value, or one per env (num_envs={num_envs})"
                )
        if not 0 <= values["num_threads"] <= MAX_NUM_THREADS:
            raise ValueError(
                f"num_threads must be in 0..{MAX_NUM_THREADS} (0: one per core), "
                f"got {values['num_threads']}"
            )
        if values["thread_affinity_offset"] < -1:
            raise ValueError(
                "thread_affinity_offset must be -1 (no pinning) or a core index, "
                f"got {values['thread_affinity_offset']}"
            )
        if "seed" in kwargs:
            values["seed"] = _normalize_seed(kwargs["seed"], num_envs)
        if not 1 <= values["max_episode_steps"] <= _INT32_BOUNDS[1]:
            raise ValueError(
                f"max_episode_steps must be in 1..{_INT32_BOUNDS[1]}, "
                f"got {values['max_episode_steps']}"
            )
        if not 0 <= values["render_env_id"] < num_envs:
            raise ValueError(
                f"render_env_id must be in 0..num_envs-1={num_envs - 1}, "
                f"got {values['render_env_id']}"
            )
        if entry.check_options is not None:
            # A family's check sees one env's values at a time.
            per_env = [k for k in env_defaults if isinstance(values[k], tuple)]
            for i in range(num_envs if per_env else 1):
                own = {**values, **{k: values[k][i] for k in per_env}}
                try:
                    entry.check_options(own, frozenset(kwargs))
                except ValueError as e:
                    where = f" (env {i})" if per_env else ""
                    raise ValueError(f"{self.id}{where}: {e}") from None
        self.env_options = {k: values[k] for k in env_defaults}
        try:
            # "human": the envs draw "rgb_array" (envpool.python.human_render).
            self.description = human_render.describe(core, entry.env_class, self.env_options)
        except (RuntimeError, ValueError) as e:
            raise ValueError(f"{self.id}: {e}") from None
        values["max_num_players"] = self.description["max_num_players"]
        if "render_mode" in values:
            modes = self.description["render_modes"]
            if values["render_mode"] and values["render_mode"] not in modes:
                raise ValueError(
                    f"option 'render_mode' of {self.id} must be None"
                    + (
                        f" or one of {', '.join(map(repr, modes))}"
                        if modes
                        else " (it has no rendering)"
                    )
                    + f", got {values['render_mode']!r}"
                )
            # None in Python; the frame size as the env resolved it.
            values["render_mode"] = values["render_mode"] or None
            values["render_width"] = self.description["render_width"]
            values["render_height"] = self.description["render_height"]
        self._check_memory(num_envs)
        values.update(metadata)
        config_type = collections.namedtuple("Config", sorted(values))  # type: ignore[misc]
        self.config = config_type(**values)
        self.metadata = metadata
        self._spaces: tuple[Any, Any] | None = None
        self._dm_types: tuple[Any, Any, list[str], list[str]] | None = None
        self._dm_nodes: dict[str, _DmNode | None] = {}

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt from the id's entry and the options given (config is a
        # namedtuple type made per spec, which pickle cannot name).
        return (EnvSpec, (self.entry, self._kwargs))

    def _check_memory(self, num_envs: int) -> None:
        """A pool's batches must fit in memory: say so before allocating."""
        row = sum(
            int(np.prod(d["shape"], dtype=np.int64)) * np.dtype(d["dtype"]).itemsize
            for d in self.description["state"] + self.description["action"]
        )
        players = max(1, self.description["max_num_players"])
        # actions, one batch being written and one being read, pool columns
        needed = num_envs * players * (3 * row + 64)
        try:
            physical = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
        except (ValueError, OSError, AttributeError):
            return
        if needed > physical:
            raise ValueError(
                f"num_envs={num_envs} of {self.id} needs about {needed / 2**30:.1f} GiB for "
                f"its batches, more than this machine's {physical / 2**30:.1f} GiB"
            )

    # -- EnvPool's spec surface ----------------------------------------------
    @property
    def action_array_spec(self) -> dict[str, ArraySpec]:
        """The arrays `send` reads, by name; a leading -1 is the player axis."""
        specs = {
            "env_id": ArraySpec(np.int32, [], _INT32_BOUNDS),
            "players.env_id": ArraySpec(np.int32, [-1], _INT32_BOUNDS),
        }
        for desc in self.description["action"]:
            specs[desc["name"]] = ArraySpec(desc["dtype"], [-1, *desc["shape"]], _bounds(desc))
        return specs

    @property
    def state_array_spec(self) -> dict[str, ArraySpec]:
        """The arrays `recv` returns, by name (EnvPool's names and order)."""
        specs = {
            "info:env_id": ArraySpec(np.int32, [], _INT32_BOUNDS),
            "info:players.env_id": ArraySpec(np.int32, [-1], _INT32_BOUNDS),
            "elapsed_step": ArraySpec(np.int32, [], _INT32_BOUNDS),
            "done": ArraySpec(np.bool_, [], (False, True)),
            "reward": ArraySpec(self.description["reward_dtype"], [-1], (-np.inf, np.inf)),
            "discount": ArraySpec(np.float32, [-1], (0.0, 1.0)),
            "step_type": ArraySpec(np.int32, [], _INT32_BOUNDS),
            "trunc": ArraySpec(np.bool_, [], (False, True)),
        }
        for desc in self.description["state"]:
            if is_hidden_info(desc["name"]):
                continue
            # EnvPool's scalars are [-1], except the continuous keys of a
            # dict observation (dm_control's "obs:head_height" is [];
            # minigrid's discrete "obs:direction" is [-1]).
            keeps_scalar = desc["name"].startswith("obs:") and not desc["num_values"]
            shape = list(desc["shape"]) or ([] if keeps_scalar else [-1])
            specs[desc["name"]] = ArraySpec(desc["dtype"], shape, _bounds(desc))
        return specs

    def dm_state_types(self) -> tuple[Any, Any, list[str], list[str]]:
        """The dm observation's namedtuple types and which keys fill them.

        `State` holds env_id, players (a namedtuple `players` of env_id, and
        id for multi-player envs),
        the observation ("obs", or one field per key of a dict observation),
        then the family's info keys, as EnvPool's dm observation does. A
        nested dict observation's inner dicts are namedtuples too, each named
        and filled by its key (`dm_observation`); the obs keys returned are
        the outer ones.
        """
        if self._dm_types is None:
            info_keys = [
                state_key(d["name"])
                for d in self.description["state"]
                if is_info(d["name"]) and not is_hidden_info(d["name"])
            ]
            tree = nest(
                (obs_path(d["name"]), None) for d in self.description["state"] if is_obs(d["name"])
            )
            obs_keys = list(tree)
            self._dm_nodes = {k: _dm_node(k, v) for k, v in tree.items()}
            state = collections.namedtuple(  # type: ignore[misc]
                "State",
                ["env_id", "players", *map(dm_field, obs_keys), *map(dm_field, info_keys)],
            )
            # Multi-player envs: each row's player index too (pgx's games).
            player_fields = (
                ["env_id", "id"] if self.description["max_num_players"] > 1 else ["env_id"]
            )
            players = collections.namedtuple("players", player_fields)  # type: ignore[misc]
            self._dm_types = (state, players, obs_keys, info_keys)
        return self._dm_types

    def dm_observation(self, obs: Any) -> dict[str, Any]:
        """The observation's fields of the dm `State`, by field name: `obs`
        for a single array; for a dict observation one field per key, an
        inner dict as its namedtuple (no copies: the arrays themselves)."""
        _, _, obs_keys, _ = self.dm_state_types()
        if not isinstance(obs, dict):
            return {"obs": obs}
        return {dm_field(k): _as_dm(self._dm_nodes[k], obs[k]) for k in obs_keys}

    def observation_spec(self):
        """dm_env specs of the dm observation (a `State` namedtuple)."""
        state, players, _, info_keys = self.dm_state_types()
        fields: dict[str, Any] = {}

        def int32_spec(name: str) -> Any:
            desc = {"dtype": "int32", "shape": (), "num_values": 0, "low": [], "high": []}
            return _dm_array_spec(desc, name)

        fields["env_id"] = int32_spec("env_id")
        fields["players"] = players(**{name: int32_spec(name) for name in players._fields})
        obs = [d for d in self.description["state"] if is_obs(d["name"])]
        if len(obs) == 1 and obs[0]["name"] == "obs":
            fields["obs"] = _dm_array_spec(obs[0], "obs")
        else:
            fields.update(
                self.dm_observation(
                    nest(
                        (obs_path(d["name"]), _dm_array_spec(d, dm_field(obs_path(d["name"])[-1])))
                        for d in obs
                    )
                )
            )
        for desc in self.description["state"]:
            if is_info(desc["name"]) and state_key(desc["name"]) in info_keys:
                name = dm_field(state_key(desc["name"]))
                fields.setdefault(name, _dm_array_spec(desc, name))
        return state(**fields)

    def action_spec(self):
        """dm_env spec of the action (a dict of specs for dict actions)."""
        action = self.description["action"]
        if len(action) == 1:
            return _dm_array_spec(action[0], "action")
        return {d["name"]: _dm_array_spec(d, d["name"]) for d in action}

    def reward_spec(self):
        """dm_env spec of one env's reward (the dtype of the reward arrays)."""
        from dm_env import specs

        return specs.Array((), np.dtype(self.description["reward_dtype"]), name="reward")

    def discount_spec(self):
        """dm_env spec of one env's discount (float32 in [0, 1])."""
        from dm_env import specs

        return specs.BoundedArray((), np.float32, 0.0, 1.0, name="discount")

    @property
    def reward_threshold(self) -> float | None:
        return self.config._asdict().get("reward_threshold")

    @property
    def max_episode_steps(self) -> int:
        return self.config.max_episode_steps

    def seeds(self) -> list[int]:
        """One seed per env: `seed + i`, or the list given."""
        seed = self.config.seed
        if isinstance(seed, tuple):
            return [s % 2**64 for s in seed]
        return [(seed + i) % 2**64 for i in range(self.config.num_envs)]

    def _build_spaces(self) -> tuple[Any, Any]:
        if self._spaces is None:
            from envpool.python.spaces import action_space, observation_space

            self._spaces = (
                observation_space(self.description["state"]),
                action_space(self.description["action"]),
            )
        return self._spaces

    @property
    def observation_space(self):
        """The gymnasium space of one env's observation."""
        return self._build_spaces()[0]

    @property
    def action_space(self):
        """The gymnasium space of one env's action."""
        return self._build_spaces()[1]

    # EnvPool's names for the same spaces (gymnasium's, single-env).
    @property
    def gymnasium_observation_space(self):
        """`observation_space`, under EnvPool's name."""
        return self.observation_space

    @property
    def gymnasium_action_space(self):
        """`action_space`, under EnvPool's name."""
        return self.action_space

    gym_observation_space = gymnasium_observation_space
    gym_action_space = gymnasium_action_space

    def __repr__(self) -> str:
        return f"EnvSpec({self.id!r}, config={self.config})"
