"""Every id's single-env spaces equal gymnasium 1.4's, bounds included (±inf where it says so).

Ids gymnasium still makes are compared as they are; ids it has retired are
compared with the version that replaced them where the spaces did not change
(listed in SUCCESSOR). MuJoCo actions are float64 as EnvPool's (gymnasium
says float32; the bounds are the same). MuJoCo v2/v3 (mujoco-py) and the aliases it never had
are not comparable. Atari ids are compared with ale-py's `ALE/<Game>-v5`
action spaces (the observation is this project's preprocessed frame stack).
"""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest

import envpool

SUCCESSOR = {"CliffWalking-v0": "CliffWalking-v1", "Taxi-v3": "Taxi-v4"}
# Where EnvPool's space (the compatibility target) is not gymnasium's.
ENVPOOL_SPACE = {
    # EnvPool: Box(0, 31, (3,), int32); gymnasium: Tuple(Discrete(32), Discrete(11), Discrete(2))
    "Blackjack-v1": "obs",
}


def reference_env(task_id: str):
    # phys2d/... and tabular/... are EnvPool's aliases of the plain envs (its
    # CartPoleEnvSpec, PendulumEnvSpec, ...), compared through the plain ids;
    # gymnasium's jax functional envs of those names (importable once jax's
    # extras are installed) declare unbounded Boxes instead.
    if "/" in task_id:
        return None
    gym_id = SUCCESSOR.get(task_id, task_id)
    if gym_id not in gymnasium.registry:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return gymnasium.make(gym_id)
        except (gymnasium.error.Error, ImportError):
            return None


def assert_same_space(ours, ref, what: str, dtype=None) -> None:
    assert type(ours) is type(ref), what
    if isinstance(ref, gymnasium.spaces.Discrete):
        assert (ours.n, ours.start) == (ref.n, ref.start), what
        return
    assert ours.shape == ref.shape and ours.dtype == (dtype or ref.dtype), what
    np.testing.assert_array_equal(ours.low.astype(ref.dtype), ref.low, err_msg=what)
    np.testing.assert_array_equal(ours.high.astype(ref.dtype), ref.high, err_msg=what)


NON_ATARI = [
    t
    for t in sorted(envpool.list_all_envs())
    if envpool.make_spec(t).entry.family in ("classic_control", "toy_text", "mujoco")
]


def test_every_comparable_id_has_gymnasiums_spaces():
    compared = []
    for task_id in NON_ATARI:
        ref = reference_env(task_id)
        if ref is None:
            continue
        spec = envpool.make_spec(task_id)
        if ENVPOOL_SPACE.get(task_id) != "obs":
            assert_same_space(spec.observation_space, ref.observation_space, f"{task_id} obs")
        # MuJoCo actions are float64, as EnvPool's (gymnasium: float32); any
        # float dtype is accepted.
        mujoco = spec.entry.family == "mujoco"
        assert_same_space(
            spec.action_space, ref.action_space, f"{task_id} action", np.float64 if mujoco else None
        )
        ref.close()
        compared.append(task_id)
    # classic control, toy text and MuJoCo v4/v5 at least
    assert len(compared) >= 34, compared
    assert {"CartPole-v1", "Pendulum-v1", "Taxi-v3", "Ant-v5", "Humanoid-v4"} <= set(compared)


def test_cartpole_velocity_bounds_are_infinite():
    space = envpool.make_spec("CartPole-v1").observation_space
    assert np.isinf(space.high[[1, 3]]).all() and np.isinf(space.low[[1, 3]]).all()


@pytest.mark.parametrize("game", ["Pong", "Breakout", "MontezumaRevenge"])
def test_atari_action_spaces_are_ale_pys(game):
    import ale_py

    gymnasium.register_envs(ale_py)
    ref = gymnasium.make(f"ALE/{game}-v5")
    assert envpool.make_spec(f"{game}-v5").action_space == ref.action_space
    full = gymnasium.make(f"ALE/{game}-v5", full_action_space=True)
    assert envpool.make_spec(f"{game}-v5", full_action_space=True).action_space == (
        full.action_space
    )


@pytest.mark.parametrize(
    ("task_id", "alias"),
    [
        ("HalfCheetah-v4", "half_cheetah_envpool.xml"),
        ("Ant-v5", "ant_envpool.xml"),
        ("Hopper-v4", "hopper_envpool.xml"),
    ],
)
def test_envpools_mujoco_model_names_are_aliases_of_gymnasiums(task_id, alias):
    default = envpool.make_spec(task_id).config.xml_file
    a = envpool.make(task_id, num_envs=1, seed=0, xml_file=alias)
    b = envpool.make(task_id, num_envs=1, seed=0, xml_file=default)
    np.testing.assert_array_equal(a.reset()[0], b.reset()[0])
    action = np.full((1, *a.single_action_space.shape), 0.3)
    np.testing.assert_array_equal(a.step(action)[0], b.step(action)[0])


def test_unknown_mujoco_model_names_the_file():
    with pytest.raises(ValueError, match=r"nonexistent(_envpool)?\.xml"):
        envpool.make("Ant-v5", xml_file="nonexistent_envpool.xml")
