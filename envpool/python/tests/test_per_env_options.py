"""Options per env: a sequence of num_envs values gives env i the i-th
(docs/api.md, "Options per env"). Each env of such a pool behaves exactly as
a pool of one env made with its scalar value and its seed (seed + i), for one
option of every family that has one; an option the spaces depend on, one the
pool applies to every env, and a sequence of the wrong length are refused
naming the option."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest

import envpool

# One option of every family that has an option its spaces do not depend on
# (classic_control's options are metadata; dm_control's frame_skip sets the
# frames per second of its rendering, and frame_stack the observation).
CASES = [
    ("Pong-v5", "repeat_action_probability", [0.0, 0.5, 0.25], {}),
    ("LunarLander-v3", "gravity", [-10.0, -9.0, -8.0, -7.0], {}),
    ("MiniGrid-Dynamic-Obstacles-6x6-v0", "n_obstacles", [1, 3, 2], {}),
    ("Hopper-v5", "reset_noise_scale", [0.005, 0.1, 0.5], {}),
    ("Hopper-v5", "ctrl_cost_weight", [0.001, 1.0], {}),
    ("BigfishEasy-v0", "start_level", [0, 7, 3], {"num_levels": 1}),
    ("CliffWalking-v1", "is_slippery", [False, True], {}),
    ("Basic-v1", "frame_skip", [4, 2], {}),
]
SEED = 11
STEPS = 40


def _arrays(obs: Any, **rest: Any) -> dict[str, np.ndarray]:
    """A step's arrays by name, batch first (a dict observation by key)."""
    items = obs.items() if isinstance(obs, dict) else [("", obs)]
    return {f"obs{k}": np.asarray(v) for k, v in items} | {
        k: np.asarray(v) for k, v in rest.items()
    }


def _rollout(env: Any, actions: list[Any]) -> list[dict[str, np.ndarray]]:
    obs, _ = env.reset()
    out = [_arrays(obs)]
    for action in actions:
        obs, reward, terminated, truncated, _ = env.step(action)
        out.append(_arrays(obs, reward=reward, terminated=terminated, truncated=truncated))
    return out


def _actions(space: gymnasium.Space, num_envs: int) -> list[np.ndarray]:
    space.seed(0)
    return [np.stack([space.sample() for _ in range(num_envs)]) for _ in range(STEPS)]


@pytest.mark.parametrize(
    ("task_id", "option", "values", "common"), CASES, ids=[c[0] + "-" + c[1] for c in CASES]
)
def test_each_env_is_the_pool_of_its_own_value(
    task_id: str, option: str, values: list[Any], common: dict[str, Any]
) -> None:
    n = len(values)
    pool = envpool.make(task_id, num_envs=n, seed=SEED, **common, **{option: values})
    assert list(getattr(pool.spec.config, option)) == values
    actions = _actions(pool.action_space, n)
    got = _rollout(pool, actions)
    differs = False
    for i, value in enumerate(values):
        own = _rollout(
            envpool.make(task_id, num_envs=1, seed=SEED + i, **common, **{option: value}),
            [a[i : i + 1] for a in actions],
        )
        for step, (g, w) in enumerate(zip(got, own, strict=True)):
            for name in w:
                np.testing.assert_array_equal(
                    g[name][i], w[name][0], err_msg=f"env {i}: {name} at step {step}"
                )
        if value != values[0]:
            # The option takes effect: env 0's value gives env i another episode.
            other = _rollout(
                envpool.make(task_id, num_envs=1, seed=SEED + i, **common, **{option: values[0]}),
                [a[i : i + 1] for a in actions],
            )
            differs |= any(
                not np.array_equal(x[name], y[name])
                for x, y in zip(own, other, strict=True)
                for name in x
            )
    assert differs, f"{option} made no difference in {STEPS} steps of {task_id}"


def test_numpy_arrays_and_ints_for_a_float_option() -> None:
    spec = envpool.make_spec("LunarLander-v3", num_envs=3, gravity=np.array([-10, -9, -8]))
    assert spec.config.gravity == (-10.0, -9.0, -8.0)


@pytest.mark.parametrize(
    ("task_id", "kwargs", "option"),
    [
        # The spaces depend on these.
        ("FrozenLake-v1", {"num_envs": 2, "size": [4, 8]}, "size"),
        ("MiniGrid-Empty-5x5-v0", {"num_envs": 2, "agent_view_size": [7, 5]}, "agent_view_size"),
        ("LunarLander-v3", {"num_envs": 2, "continuous": [False, True]}, "continuous"),
        ("CartpoleBalance-v1", {"num_envs": 2, "frame_skip": [1, 3]}, "frame_skip"),
        # The pool applies these to every env.
        ("CartPole-v1", {"num_envs": 2, "max_episode_steps": [10, 20]}, "max_episode_steps"),
        ("CartPole-v1", {"num_envs": 2, "render_width": [10, 20]}, "render_width"),
        ("CartPole-v1", {"num_envs": 2, "batch_size": [1, 2]}, "batch_size"),
        # The wrong length.
        ("LunarLander-v3", {"num_envs": 4, "gravity": [-10.0, -9.0]}, "gravity"),
        ("LunarLander-v3", {"num_envs": 1, "gravity": []}, "gravity"),
    ],
)
def test_refused_naming_the_option(task_id: str, kwargs: dict[str, Any], option: str) -> None:
    with pytest.raises(ValueError, match=f"'{option}'"):
        envpool.make(task_id, **kwargs)
    with pytest.raises(ValueError, match=f"'{option}'"):
        envpool.make_spec(task_id, **kwargs)


def test_a_value_the_env_refuses_names_the_option() -> None:
    with pytest.raises(ValueError, match="gravity"):
        envpool.make("LunarLander-v3", num_envs=2, gravity=[-10.0, 5.0])


def test_a_value_of_the_wrong_type_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="gravity"):
        envpool.make("LunarLander-v3", num_envs=2, gravity=[-10.0, "x"])
