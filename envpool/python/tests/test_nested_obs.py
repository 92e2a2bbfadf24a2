"""Nested dict observations and list-of-names options, family-agnostic.

An env that declares its observation arrays as "obs:<key>:<sub>" shows them
as `obs[key][sub]`: in the gymnasium space (a Dict in the Dict), in the
batches (dicts of views into the batch), in same_step's final_obs and in the
dm type (a namedtuple in the State, fields made Python names by `dm_field`).
These tests drive the Python side with array descriptions as the core gives
them; envpool/robotics/tests/test_kitchen.py plays a registered id
(FrankaKitchen-v1) through every API.
"""

from __future__ import annotations

import collections
from typing import Any

import dm_env
import gymnasium
import numpy as np
import pytest

from envpool.python import spec as spec_module
from envpool.python.keys import dm_field, nest, obs_path
from envpool.python.snapshot import state_options
from envpool.python.spaces import observation_space
from envpool.python.timestep import dm_timestep


def desc(name: str, shape: tuple[int, ...], dtype: str = "float64") -> dict[str, Any]:
    return {
        "name": name,
        "dtype": dtype,
        "shape": shape,
        "low": [],
        "high": [],
        "num_values": 0,
        "per_player": False,
        "binary": False,
    }


STATE = [
    desc("obs:observation", (3,)),
    desc("obs:achieved_goal:bottom burner", (2,)),
    desc("obs:achieved_goal:kettle", (7,)),
    desc("obs:desired_goal:bottom burner", (2,)),
    desc("obs:desired_goal:kettle", (7,)),
    desc("obs:deep:a:b", (), "int32"),
    desc("info:is_success", (), "float32"),
]


def fake_spec(state: list[dict[str, Any]]) -> spec_module.EnvSpec:
    """An EnvSpec of the given arrays alone (what the dm type reads of it)."""
    spec = spec_module.EnvSpec.__new__(spec_module.EnvSpec)
    spec.description = {"state": state, "max_num_players": 1}
    spec._dm_types = None
    spec._dm_nodes = {}
    return spec


def test_obs_path_and_nest_split_the_keys_in_order() -> None:
    assert obs_path("obs") == ("obs",)
    assert obs_path("obs:image") == ("image",)
    assert obs_path("obs:achieved_goal:bottom burner") == ("achieved_goal", "bottom burner")
    tree = nest((obs_path(d["name"]), d["name"]) for d in STATE if d["name"].startswith("obs"))
    assert list(tree) == ["observation", "achieved_goal", "desired_goal", "deep"]
    assert list(tree["achieved_goal"]) == ["bottom burner", "kettle"]
    assert tree["deep"]["a"]["b"] == "obs:deep:a:b"


@pytest.mark.parametrize(
    "names", [["obs:goal", "obs:goal:x"], ["obs:goal:x", "obs:goal"], ["obs:a:b", "obs:a:b"]]
)
def test_a_key_that_is_an_array_and_a_dict_is_a_value_error(names: list[str]) -> None:
    with pytest.raises(ValueError, match="declare one or the other"):
        nest((obs_path(n), 0) for n in names)


def test_the_observation_space_nests_dicts_in_the_envs_order() -> None:
    space = observation_space(STATE)
    assert isinstance(space, gymnasium.spaces.Dict)
    assert list(space.spaces) == ["observation", "achieved_goal", "desired_goal", "deep"]
    goal = space["achieved_goal"]
    assert isinstance(goal, gymnasium.spaces.Dict)
    assert list(goal.spaces) == ["bottom burner", "kettle"]
    assert goal["kettle"].shape == (7,) and goal["kettle"].dtype == np.float64
    assert space["deep"]["a"]["b"].dtype == np.int32
    assert "is_success" not in space.spaces
    # The batched space of gymnasium's vector envs nests the same way.
    batched = gymnasium.vector.utils.batch_space(space, 4)
    assert batched["desired_goal"]["bottom burner"].shape == (4, 2)
    sample = space.sample()
    assert space.contains(sample) and sample["achieved_goal"]["kettle"].shape == (7,)


def test_flat_dict_observations_keep_their_space() -> None:
    state = [desc("obs:image", (2, 2), "uint8"), desc("obs:direction", (), "int32")]
    space = observation_space(state)
    assert list(space.spaces) == ["image", "direction"]
    assert all(not isinstance(s, gymnasium.spaces.Dict) for s in space.spaces.values())


def batch_of(state: list[dict[str, Any]], n: int) -> dict[str, Any]:
    """A nested observation batch as the pool returns it."""
    return nest(
        (obs_path(d["name"]), np.arange(n * int(np.prod(d["shape"]))).reshape(n, *d["shape"]))
        for d in state
        if d["name"].startswith("obs")
    )


def test_the_dm_state_nests_namedtuples_with_identifier_fields() -> None:
    spec = fake_spec(STATE)
    state_type, _, obs_keys, info_keys = spec.dm_state_types()
    assert state_type._fields == (
        "env_id",
        "players",
        "observation",
        "achieved_goal",
        "desired_goal",
        "deep",
        "is_success",
    )
    assert obs_keys == ["observation", "achieved_goal", "desired_goal", "deep"]
    assert info_keys == ["is_success"]
    obs = batch_of(STATE, 2)
    info = {
        "env_id": np.arange(2, dtype=np.int32),
        "players": {"env_id": np.arange(2, dtype=np.int32)},
        "elapsed_step": np.zeros(2, np.int32),
        "is_success": np.zeros(2, np.float32),
    }
    step = dm_timestep(np, spec, obs, np.zeros(2), np.zeros(2, bool), np.zeros(2, bool), info)
    state = step.observation
    assert type(state.achieved_goal).__name__ == "achieved_goal"
    assert state.achieved_goal._fields == (dm_field("bottom burner"), "kettle")
    assert state.achieved_goal.bottom_burner.shape == (2, 2)
    # No copies: the dm fields are the batch's arrays.
    assert state.desired_goal.kettle is obs["desired_goal"]["kettle"]
    assert state.deep.a.b is obs["deep"]["a"]["b"]
    assert state.observation is obs["observation"]
    assert (step.step_type == int(dm_env.StepType.FIRST)).all()


def test_the_dm_observation_spec_nests_as_the_state() -> None:
    spec = fake_spec(STATE)
    specs = spec.observation_spec()
    assert specs.achieved_goal.kettle.shape == (7,)
    assert specs.achieved_goal.bottom_burner.name == "bottom_burner"
    assert specs.deep.a.b.dtype == np.int32
    assert specs.observation.shape == (3,)
    assert specs.is_success.dtype == np.float32
    # A single-array observation is still the field "obs".
    single = fake_spec([desc("obs", (4,)), desc("info:lives", (), "int32")])
    assert single.observation_spec().obs.shape == (4,)
    assert single.dm_state_types()[0]._fields == ("env_id", "players", "obs", "lives")


def test_a_list_of_names_option_takes_names_only() -> None:
    default = ["bottom burner", "kettle"]
    check = spec_module._check_type
    assert check("tasks", ("kettle",), default) == ["kettle"]
    assert check("tasks", np.array(["kettle", "microwave"]), default) == ["kettle", "microwave"]
    assert check("tasks", [], default) == []
    for bad in ("kettle", ["kettle", 1], [b"kettle"], 3):
        with pytest.raises(TypeError, match="takes a list of str"):
            check("tasks", bad, default)
    # A list-of-int option still takes ints only.
    assert check("pos", (1, 2), [1, 1]) == [1, 2]
    with pytest.raises(TypeError, match="takes a list"):
        check("pos", ["a", "b"], [1, 1])


def test_a_list_option_as_long_as_the_pool_is_not_taken_for_one_value_per_env() -> None:
    config_type = collections.namedtuple("Config", ["num_envs", "tasks", "gravity"])
    config = config_type(num_envs=2, tasks=["kettle", "microwave"], gravity=(-9.0, -8.0))
    for env_id in (0, 1):
        options = dict(state_options(config, env_id))
        assert options["tasks"] == ("kettle", "microwave")
    assert dict(state_options(config, 1))["gravity"] == -8.0
