"""make_spec(id) offers what EnvPool 1.2.5's does, typed.

Reference: `envpool/testing/reference/api_surface.json` (`spec.*` entries).
Deliberate differences, checked here as such: unbounded float arrays are
(-inf, inf) where EnvPool writes numeric_limits<T>::min() (a tiny positive
number, their bug) and max(); Discrete actions are int64 arrays here (any
integer dtype is accepted).
"""

from __future__ import annotations

import collections
import inspect
import json
import re
from pathlib import Path

import numpy as np
import pytest

import envpool

REFERENCE = Path(__file__).resolve().parents[2] / "testing" / "reference"
SURFACE = json.loads((REFERENCE / "api_surface.json").read_text())["ids"]
OUR_IDS = [t for t in SURFACE if t in envpool.list_all_envs()]
ARRAY_SPEC = re.compile(
    r"ArraySpec\(shape=\[(?P<shape>[^\]]*)\], dtype=(?P<dtype>\w+), "
    r"minimum=(?P<min>.*), maximum=(?P<max>.*)\)"
)
DM_SPEC = re.compile(
    r"(?P<name>\w+)=(?P<kind>BoundedArray|DiscreteArray)\(shape=\((?P<shape>[^)]*)\), "
    r"dtype=(?:dtype\('(?P<dtype>\w+)'\)|(?P<dtype2>\w+))"
)
# EnvPool's "unbounded": numeric_limits<T>::min() (tiny, positive) and max().
UNBOUNDED = {
    "1.1754943508222875e-38": "-inf",
    "2.2250738585072014e-308": "-inf",
    "3.4028234663852886e+38": "inf",
    "1.7976931348623157e+308": "inf",
}


# Stated differences of the box2d family (docs/box2d.md): its observation
# boxes have gymnasium's bounds (EnvPool's are unbounded), and its action
# arrays have the player axis every family's have here (EnvPool 1.2.5's box2d
# action specs lack it: shape [4], not [-1, 4]).
BOX2D = {
    "LunarLander-v3",
    "LunarLanderContinuous-v3",
    "BipedalWalker-v3",
    "CarRacing-v3",
}
REFERENCE_OBS_BOUNDS = BOX2D - {"CarRacing-v3"}
ACTIONS_WITHOUT_PLAYER_AXIS = BOX2D - {"LunarLander-v3"}


def parse_array_spec(text: str) -> tuple[list[int], str, str, str]:
    m = ARRAY_SPEC.fullmatch(text)
    assert m, text
    shape = [int(d) for d in m["shape"].split(",") if d.strip()]
    low, high = (UNBOUNDED.get(m[k], m[k]) for k in ("min", "max"))
    return shape, m["dtype"], low, high


def normalized(spec) -> tuple[list[int], str, str, str]:
    def text(v) -> str:
        if isinstance(v, np.ndarray):
            return "elementwise"
        return str(float(v)) if isinstance(v, float) else str(v)

    return spec.shape, str(spec.dtype), text(spec.minimum), text(spec.maximum)


def comparable(ref: tuple, ours: tuple, is_action: bool) -> tuple:
    shape, dtype, low, high = ref
    if low.startswith("[") or "  " in low:
        low = high = "elementwise"
    if is_action and dtype == "int32":
        dtype = "int64"  # Discrete actions: int64 here
    for value in (low, high):
        if value not in ("elementwise", "-inf", "inf", "True", "False"):
            float(value)
    return shape, dtype, _num(low), _num(high)


def _num(v: str) -> str:
    try:
        return str(float(v)) if v not in ("True", "False", "elementwise") else v
    except ValueError:
        return v


@pytest.mark.parametrize("task_id", OUR_IDS)
def test_action_and_state_array_specs_match_envpool(task_id):
    spec = envpool.make_spec(task_id)
    for key, is_action in (("spec.action_array_spec", True), ("spec.state_array_spec", False)):
        ref = SURFACE[task_id][key]
        ours = spec.action_array_spec if is_action else spec.state_array_spec
        extra = set(ours) - set(ref)
        assert extra <= {"info:prob", "info:forward_reward", "info:z_distance_from_origin"} | {
            "info:reward_forward",
            "info:reward_ctrl",
            "info:reward_survive",
        }, (task_id, extra)
        assert [k for k in ours if k in ref] == list(ref), task_id
        for name, text in ref.items():
            want = comparable(parse_array_spec(text), (), is_action and name == "action")
            if is_action and name == "action" and task_id in ACTIONS_WITHOUT_PLAYER_AXIS:
                want = ([-1, *want[0]], *want[1:])
            if name == "obs" and task_id in REFERENCE_OBS_BOUNDS:
                want = (*want[:2], "elementwise", "elementwise")
            got = normalized(ours[name])
            got = (got[0], got[1], _num(got[2]), _num(got[3]))
            if want[2] == "elementwise":
                got = (got[0], got[1], "elementwise", "elementwise")
            if name.startswith("info:") and want[2:] == ("-inf", "inf"):
                got = (*got[:2], "-inf", "inf")  # our info bounds may be tighter
            assert got == want, (task_id, name)


@pytest.mark.parametrize("task_id", OUR_IDS)
def test_dm_specs_have_envpools_structure(task_id):
    spec = envpool.make_spec(task_id)
    ref = SURFACE[task_id]["spec.observation_spec()"]
    obs_spec = spec.observation_spec()
    assert type(obs_spec).__name__ == "State"
    assert type(obs_spec.players).__name__ == "players"
    want = [
        (m["name"], m["kind"], m["shape"].replace(" ", ""), m["dtype"] or m["dtype2"])
        for m in DM_SPEC.finditer(ref)
    ]
    flat = collections.OrderedDict()
    for name, value in obs_spec._asdict().items():
        if name == "players":
            flat["env_id@players"] = value.env_id
        else:
            flat[name] = value
    got = []
    for value in flat.values():
        shape = ",".join(str(d) for d in value.shape) + ("," if len(value.shape) == 1 else "")
        got.append((value.name, type(value).__name__, shape, str(value.dtype)))
    # the reference lists env_id twice (State.env_id, players.env_id)
    extra = {"prob", "forward_reward", "z_distance_from_origin"} | {
        "reward_forward",
        "reward_ctrl",
        "reward_survive",
    }
    got = [g for g in got if g[0] not in extra or any(w[0] == g[0] for w in want)]
    assert got[: len(want)] == want, task_id
    action = spec.action_spec()
    ref_action = SURFACE[task_id]["spec.action_spec()"]
    assert ref_action.startswith(type(action).__name__)


def read_unbounded(text: str) -> str:
    """A Box repr with EnvPool's "unbounded" bounds read as -inf/inf (see UNBOUNDED)."""
    return re.sub(
        r"Box\((\S+), (\S+), ",
        lambda m: f"Box({UNBOUNDED.get(m[1], m[1])}, {UNBOUNDED.get(m[2], m[2])}, ",
        text,
    )


@pytest.mark.parametrize("task_id", OUR_IDS)
def test_spaces_and_reward_threshold_match_envpool(task_id):
    spec = envpool.make_spec(task_id)
    ref = SURFACE[task_id]
    assert spec.reward_threshold == ref["spec.reward_threshold"]
    # An unbounded action Box (vizdoom's buttons) is (-inf, inf), as in the array specs.
    assert repr(spec.action_space) == read_unbounded(ref["spec.action_space"])
    if task_id in REFERENCE_OBS_BOUNDS:
        # gymnasium's bounds (checked against gymnasium in the family's tests)
        shape, dtype = spec.observation_space.shape, spec.observation_space.dtype
        assert ref["spec.observation_space"].endswith(f", {shape}, {dtype})")
    else:
        # EnvPool's "unbounded" Box bounds are read as -inf/inf (see UNBOUNDED);
        # the reference keeps the first 300 characters of a repr.
        want = read_unbounded(ref["spec.observation_space"])
        got = repr(spec.observation_space)
        if len(ref["spec.observation_space"]) == 300:
            want = re.sub(r"Box\(\S*$", "", want)  # a cut number
            got = got[: len(want)]
        assert got == want


def test_config_is_a_namedtuple_with_every_option():
    spec = envpool.make_spec("Pong-v5", num_envs=3)
    assert spec.config.num_envs == 3
    assert spec.config._asdict()["stack_num"] == 4
    assert isinstance(spec.config, tuple)


def test_typing_exports_and_marker():
    from envpool.python import protocol

    for name in ("EnvSpec", "EnvPool", "DMEnvPool", "GymnasiumEnvPool"):
        assert getattr(envpool, name) is getattr(protocol, name)
    assert isinstance(envpool.make_spec("CartPole-v1"), envpool.EnvSpec)
    assert (Path(envpool.__file__).parent / "py.typed").exists()
    for make in (envpool.make, envpool.make_gym, envpool.make_gymnasium, envpool.make_dm):
        assert inspect.signature(make).return_annotation is not inspect.Signature.empty
    assert inspect.signature(envpool.make_spec).return_annotation is not inspect.Signature.empty
