"""info keys, dtypes and shapes and the dm observation structure are EnvPool 1.2.5's.

The reference is `envpool/testing/reference/api_surface.json`: for one id of
every family, what EnvPool's `make_gym` step/reset return (batch of 2 envs)
and the structure of `make_dm`'s TimeStep. Keys we add beyond EnvPool's are
listed in EXTRA, each with its reason (docs/migrating_from_envpool.md).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import envpool

REFERENCE = Path(__file__).resolve().parents[2] / "testing" / "reference"
SURFACE = json.loads((REFERENCE / "api_surface.json").read_text())["ids"]
OUR_IDS = [t for t in SURFACE if t in envpool.list_all_envs()]

EXTRA = {
    # gymnasium reports the transition probability for all three; EnvPool only
    # for CliffWalking.
    "Taxi-v3": {"prob"},
    "FrozenLake-v1": {"prob"},
    # MuJoCo: one class per robot serves v2..v5 and reports the union of
    # gymnasium's v4 and v5 info keys.
    "Ant-v5": {"forward_reward"},
    "Hopper-v4": {"z_distance_from_origin", "reward_forward", "reward_ctrl", "reward_survive"},
}


def layout(value: Any) -> Any:
    """[dtype, shape] of every array of a nested result, as the reference writes it."""
    if isinstance(value, dict):
        return {k: layout(v) for k, v in value.items()}
    if hasattr(value, "_fields"):
        return {
            f"namedtuple:{type(value).__name__}": {
                k: layout(getattr(value, k)) for k in value._fields
            }
        }
    arr = np.asarray(value)
    return [str(arr.dtype), list(arr.shape)]


def without(d: dict[str, Any], keys: set[str]) -> dict[str, Any]:
    return {k: v for k, v in d.items() if k not in keys}


def some_action(task_id: str) -> Any:
    space = envpool.make_spec(task_id).action_space
    if hasattr(space, "n"):
        return np.zeros(2, dtype=np.int32)
    return np.zeros((2, *space.shape), dtype=space.dtype)


@pytest.mark.parametrize("task_id", OUR_IDS)
def test_gym_reset_and_step_lay_out_info_as_envpool(task_id):
    ref = SURFACE[task_id]
    extra = EXTRA.get(task_id, set())
    env = envpool.make_gym(task_id, num_envs=2)
    obs, info = env.reset()
    assert layout(obs) == ref["gym.reset.obs"]
    assert without(layout(info), extra) == ref["gym.reset.info"]
    assert list(without(info, extra)) == list(ref["gym.reset.info"])  # and in EnvPool's order
    obs, rew, term, trunc, info = env.step(some_action(task_id))
    step = ref["gym.step"]
    assert layout(obs) == step["obs"]
    assert layout(rew) == step["rew"]  # float32 for every family
    assert layout(term) == step["term"] and layout(trunc) == step["trunc"]
    assert without(layout(info), extra) == step["info"]
    assert list(without(info, extra)) == list(step["info"])


@pytest.mark.parametrize("task_id", OUR_IDS)
def test_dm_timestep_observation_is_envpools_state_namedtuple(task_id):
    ref = SURFACE[task_id]["dm.reset.timestep"]
    extra = EXTRA.get(task_id, set())
    env = envpool.make_dm(task_id, num_envs=2)
    ts = env.reset()
    assert layout(ts.step_type) == ref["step_type"]
    assert layout(ts.reward) == ref["reward"]
    assert layout(ts.discount) == ref["discount"]
    got = layout(ts.observation)["namedtuple:State"]
    want = ref["observation"]["namedtuple:State"]
    assert list(without(got, extra)) == list(want)
    assert without(got, extra) == want
    ts = env.step(some_action(task_id))
    assert type(ts.observation).__name__ == "State"
    assert type(ts.observation.players).__name__ == "players"


def test_atari_ram_is_the_console_ram_after_the_step():
    import ale_py

    env = envpool.make_gym("Pong-v5", num_envs=1, noop_max=1, repeat_action_probability=0.0)
    _, info = env.reset()
    ram = info["ram"]
    assert ram.shape == (1, 128) and ram.dtype == np.uint8
    # the RAM changes as the game runs, and is not an alias of a later batch
    first = ram.copy()
    for _ in range(10):
        *_, info = env.step(np.zeros(1, np.int32))
    assert not np.array_equal(first, info["ram"])
    assert ale_py.ALEInterface is not None


def test_atari_terminated_is_int32_game_over():
    env = envpool.make_gym("Pong-v5", num_envs=1, episodic_life=True)
    env.reset()
    *_, info = env.step(np.zeros(1, np.int32))
    assert info["terminated"].dtype == np.int32 and info["terminated"][0] == 0


@pytest.mark.parametrize(
    ("task_id", "gymnasium_id", "kwargs", "step_prob"),
    [
        ("CliffWalking-v0", "CliffWalking-v1", {}, 1.0),
        ("CliffWalking-v0", "CliffWalking-v1", {"is_slippery": True}, 1 / 3),
        ("FrozenLake-v1", "FrozenLake-v1", {}, 1 / 3),
        ("Taxi-v3", "Taxi-v4", {}, 1.0),
    ],
)
def test_toy_text_prob_is_gymnasiums_transition_probability(
    task_id, gymnasium_id, kwargs, step_prob
):
    import gymnasium

    # gymnasium 1.4: 1 on reset, then the probability of the outcome drawn.
    ref = gymnasium.make(gymnasium_id, **kwargs)
    _, ref_info = ref.reset(seed=0)
    assert ref_info["prob"] == 1
    ref_probs = set()
    for action in np.random.default_rng(0).integers(4, size=50):
        *_, terminated, truncated, ref_info = ref.step(int(action))
        ref_probs.add(np.float32(ref_info["prob"]))
        if terminated or truncated:
            ref.reset()
    assert ref_probs == {np.float32(step_prob)}
    env = envpool.make_gym(task_id, num_envs=1, seed=0, **kwargs)
    _, info = env.reset()
    assert info["prob"].dtype == np.float32 and info["prob"][0] == 1
    for action in np.random.default_rng(0).integers(4, size=50):
        *_, info = env.step(np.array([action]))
        first = info["elapsed_step"][0] == 0
        assert info["prob"][0] == (1 if first else np.float32(step_prob)), task_id


def test_rewards_are_float32_for_every_family():
    for task_id in ("CartPole-v1", "Taxi-v3", "Pong-v5", "Ant-v5", "HalfCheetah-v4"):
        env = envpool.make_gym(task_id, num_envs=2)
        env.reset()
        assert env.step(some_action(task_id))[1].dtype == np.float32, task_id
        assert envpool.make_spec(task_id).state_array_spec["reward"].dtype == np.float32
