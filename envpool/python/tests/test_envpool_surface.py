"""env_type="gym"/"gymnasium" is EnvPool 1.2.x's surface, so its users' code runs unchanged.

The reference is `envpool/testing/reference/api_surface.json` (EnvPool 1.2.5's
`make_gym` objects); `gymnasium.make_vec("envpool/<id>")` keeps gymnasium's
own VectorEnv contract with batched spaces.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import gymnasium
import numpy as np
import pytest
from gymnasium.vector.utils import batch_space

import envpool
from envpool.python.gymnasium_api import GymnasiumEnvPool, GymnasiumVectorEnv

REFERENCE = Path(__file__).resolve().parents[2] / "testing" / "reference"
SURFACE = json.loads((REFERENCE / "api_surface.json").read_text())["ids"]
OUR_IDS = [t for t in SURFACE if t in envpool.list_all_envs()]


@pytest.mark.parametrize("make", [envpool.make_gym, envpool.make_gymnasium])
@pytest.mark.parametrize("task_id", OUR_IDS)
def test_gym_and_gymnasium_types_have_envpools_attributes(make, task_id):
    env = make(task_id, num_envs=2)
    attrs = SURFACE[task_id]["gym.attrs"]
    assert isinstance(env, gymnasium.Env)
    assert isinstance(env, gymnasium.vector.VectorEnv)
    assert str(env.num_envs) == attrs["num_envs"]
    assert str(env.is_vector_env) == attrs["is_vector_env"]
    assert str(env.is_async) == attrs["is_async"]
    # single-env spaces, as EnvPool's
    assert env.observation_space == env.single_observation_space
    assert env.action_space == env.single_action_space
    assert env.observation_space == envpool.make_spec(task_id).observation_space
    assert str(env.render_mode) == attrs["render_mode"]
    assert env.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.NEXT_STEP
    assert "render_modes" in env.metadata
    env.close()


def test_gym_and_gymnasium_return_the_same_kind_of_pool():
    assert type(envpool.make_gym("CartPole-v1")) is type(envpool.make_gymnasium("CartPole-v1"))
    assert type(envpool.make("CartPole-v1", env_type="gym")) is GymnasiumEnvPool
    assert envpool.make("CartPole-v1", num_envs=4, batch_size=2).is_async


def test_seed_is_deprecated_and_does_nothing():
    env = envpool.make_gym("CartPole-v1", num_envs=2, seed=1)
    with pytest.warns(UserWarning, match="seed"):
        env.seed(5)
    again = envpool.make_gym("CartPole-v1", num_envs=2, seed=1)
    np.testing.assert_array_equal(env.reset()[0], again.reset()[0])


def test_env_id_is_accepted_positionally():
    env = envpool.make_gymnasium("CartPole-v1", num_envs=4, seed=0)
    obs, info = env.reset(np.array([1, 3]))
    assert obs.shape == (2, 4) and list(info["env_id"]) == [1, 3]
    obs, _rew, _term, _trunc, info = env.step(np.array([0, 1]), np.array([3, 1]))
    assert list(info["env_id"]) == [3, 1] and list(info["elapsed_step"]) == [1, 1]
    obs, info = env.reset(None, 5)  # env_id, seed
    assert obs.shape == (4, 4)


def test_reset_takes_gymnasium_keywords_too():
    env = envpool.make_gymnasium("CartPole-v1", num_envs=3)
    a, _ = env.reset(seed=4)
    b, _ = env.reset(seed=4, options=None)
    np.testing.assert_array_equal(a, b)
    _obs, info = env.reset(options={"reset_mask": np.array([True, False, True])})
    assert list(info["env_id"]) == [0, 2]


def test_gym_reset_return_info_false_returns_the_observation_only():
    env = envpool.make_gym("CartPole-v1", num_envs=2, gym_reset_return_info=False)
    obs = env.reset()
    assert isinstance(obs, np.ndarray) and obs.shape == (2, 4)


def test_protocol_module_has_the_names_envpools_examples_import():
    from envpool.python.protocol import EnvPool, EnvSpec

    env = envpool.make_gym("CartPole-v1", num_envs=2)
    assert isinstance(env, EnvPool)
    assert isinstance(env.spec, EnvSpec)
    assert env.spec.config.num_envs == 2
    assert isinstance(envpool.make_dm("CartPole-v1"), envpool.EnvPool)
    assert isinstance(envpool.make_dm("CartPole-v1"), envpool.DMEnvPool)
    assert isinstance(env, envpool.GymnasiumEnvPool)


def test_make_vec_gives_gymnasiums_batched_spaces():
    envpool.register_gymnasium_envs()
    env = gymnasium.make_vec("envpool/Pendulum-v1", num_envs=3)
    assert isinstance(env, GymnasiumVectorEnv)
    assert env.observation_space.shape == (3, 3)
    assert env.action_space.shape == (3, 1)
    assert env.single_action_space.shape == (1,)
    env.reset(seed=0)
    obs, *_ = env.step(env.action_space.sample())
    assert obs.shape == (3, 3)


# EnvPool's documented Stable-Baselines3 VecAdapter trains in
# integrations/test_sb3_vec_adapter.py.


def test_code_sizing_networks_from_observation_space_sees_one_env():
    """rl_games and Tianshou size their networks from observation_space / action_space."""
    env = envpool.make_gymnasium("Hopper-v4", num_envs=8)
    assert env.observation_space.shape == (11,)
    assert env.action_space.shape == (3,)
    env = envpool.make_gymnasium("Pong-v5", num_envs=8)
    assert isinstance(env.action_space, gymnasium.spaces.Discrete)
    batch = batch_space(env.action_space, 8).sample()
    env.reset()
    env.step(batch)


def test_tianshou_style_partial_reset_and_step():
    """Tianshou resets and steps subsets of envs, passing env ids positionally."""
    env = envpool.make_gymnasium("CartPole-v1", num_envs=4, seed=0)
    obs, info = env.reset(np.arange(4))
    ready = np.array([0, 2])
    obs, _rew, _term, _trunc, info = env.step(np.zeros(2, np.int64), ready)
    assert obs.shape == (2, 4) and list(info["env_id"]) == [0, 2]
    obs, info = env.reset(np.array([2]))
    assert list(info["env_id"]) == [2] and info["elapsed_step"][0] == 0


def test_vector_wrappers_run_on_the_envpool_surface():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env = gymnasium.wrappers.vector.RecordEpisodeStatistics(
            envpool.make_gymnasium("CartPole-v1", num_envs=4, seed=0)
        )
    env.reset(seed=0)
    episodes = 0
    for _ in range(200):
        *_, info = env.step(np.ones(4, np.int64))
        episodes += int(info.get("_episode", np.zeros(4, bool)).sum())
    assert episodes > 0
