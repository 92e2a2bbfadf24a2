"""gymnasium.make_vec and gymnasium's vector wrappers on the pool."""

from __future__ import annotations

import subprocess
import sys

import gymnasium
import numpy as np
import pytest

import envpool
from envpool.python.gymnasium_api import GymnasiumVectorEnv


def test_make_vec_through_the_vector_entry_point():
    envpool.register_gymnasium_envs()
    env = gymnasium.make_vec(
        "envpool/CartPole-v1", num_envs=8, vectorization_mode="vector_entry_point", seed=3
    )
    assert isinstance(env, GymnasiumVectorEnv)
    assert env.num_envs == 8
    assert env.spec.config.max_episode_steps == 500
    obs, _ = env.reset()
    assert obs.shape == (8, 4)


def test_make_vec_passes_options_and_imports_envpool_by_module_prefix():
    code = (
        "import gymnasium\n"
        "env = gymnasium.make_vec('envpool:envpool/Pendulum-v1', num_envs=3, "
        "max_episode_steps=7)\n"
        "assert type(env).__name__ == 'GymnasiumVectorEnv', type(env)\n"
        "assert env.spec.config.max_episode_steps == 7\n"
    )
    subprocess.run([sys.executable, "-P", "-c", code], check=True)


def test_record_normalize_wrappers_run_on_the_pool():
    env = envpool.make("CartPole-v1", num_envs=4, seed=0)
    env = gymnasium.wrappers.vector.RecordEpisodeStatistics(env)
    env = gymnasium.wrappers.vector.NormalizeObservation(env)
    env = gymnasium.wrappers.vector.NormalizeReward(env)
    obs, _ = env.reset(seed=0)
    finished = 0
    seen = []
    for _ in range(300):
        obs, _rew, _term, _trunc, info = env.step(np.ones(4, dtype=np.int64))
        seen.append(obs)
        if "_episode" in info:
            finished += int(info["_episode"].sum())
            assert (info["episode"]["l"][info["_episode"]] > 0).all()
    assert finished > 0
    stacked = np.concatenate(seen)
    # normalized observations: roughly zero mean, unit spread
    assert np.abs(stacked.mean(axis=0)).max() < 1.0
    assert 0.3 < stacked.std(axis=0).mean() < 3.0


@pytest.mark.parametrize(
    "imports",
    ["import envpool\nimport gymnasium", "import gymnasium\nimport envpool"],
    ids=["envpool_first", "gymnasium_first"],
)
@pytest.mark.parametrize(
    "gym_id", ["envpool/CartPole-v1", "envpool:envpool/CartPole-v1"], ids=["plain", "prefix"]
)
def test_make_vec_works_whatever_the_import_order(imports, gym_id):
    code = (
        f"{imports}\n"
        "import sys\n"
        f"env = gymnasium.make_vec({gym_id!r}, num_envs=4)\n"
        "assert type(env).__name__ == 'GymnasiumVectorEnv', type(env)\n"
        "obs, info = env.reset(seed=0)\n"
        "assert obs.shape == (4, 4)\n"
        "assert not any(type(f).__module__.startswith('envpool') for f in sys.meta_path)\n"
    )
    subprocess.run([sys.executable, "-P", "-c", code], check=True)


def test_import_of_envpool_alone_leaves_gymnasium_unloaded_and_hooks_it():
    code = (
        "import sys, envpool\n"
        "assert 'gymnasium' not in sys.modules\n"
        "assert any(type(f).__module__.startswith('envpool') for f in sys.meta_path)\n"
        "import gymnasium\n"
        "assert 'envpool/Pong-v5' in gymnasium.registry\n"
        "envpool.register('MyCartPole-v0', family='classic_control', env_class='CartPole',"
        " max_episode_steps=10)\n"
        "assert 'envpool/MyCartPole-v0' in gymnasium.registry\n"
    )
    subprocess.run([sys.executable, "-P", "-c", code], check=True)


def test_gymnasium_make_gives_one_env_seeded_as_the_reference():
    envpool.register_gymnasium_envs()
    env = gymnasium.make("envpool/CartPole-v1")
    ref = gymnasium.make("CartPole-v1")
    assert env.observation_space == ref.observation_space
    assert env.action_space == ref.action_space
    obs, info = env.reset(seed=5)
    ref_obs, _ = ref.reset(seed=5)
    np.testing.assert_array_equal(obs, ref_obs)
    assert info["elapsed_step"] == 0
    for t in range(600):
        action = t % 2
        obs, reward, terminated, truncated, _ = env.step(action)
        ref_obs, ref_reward, ref_terminated, ref_truncated, _ = ref.step(action)
        np.testing.assert_array_equal(obs, ref_obs)
        assert (reward, terminated, truncated) == (ref_reward, ref_terminated, ref_truncated)
        assert isinstance(reward, float) and isinstance(terminated, bool)
        if terminated or truncated:
            break
    with pytest.raises(RuntimeError):  # no autoreset: reset first
        env.step(0)
    obs, _ = env.reset()
    np.testing.assert_array_equal(obs, ref.reset()[0])  # the stream continues
    env.close()


def test_gymnasium_make_refuses_pool_options_and_renders_one_frame():
    envpool.register_gymnasium_envs()
    with pytest.raises(TypeError, match="make_vec"):
        gymnasium.make("envpool/CartPole-v1", num_envs=4)
    env = gymnasium.make("envpool/CartPole-v1", render_mode="rgb_array")
    env.reset(seed=0)
    ref = gymnasium.make("CartPole-v1", render_mode="rgb_array")
    ref.reset(seed=0)
    np.testing.assert_array_equal(env.render(), ref.render())
    env.close()


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_make_vec_sync_and_async_modes_build_gymnasium_vector_envs(mode):
    envpool.register_gymnasium_envs()
    env = gymnasium.make_vec(
        "envpool/CartPole-v1",
        num_envs=3,
        vectorization_mode=mode,
        vector_kwargs={"autoreset_mode": gymnasium.vector.AutoresetMode.SAME_STEP},
    )
    assert type(env).__module__.startswith("gymnasium.vector")
    ref = gymnasium.make_vec("CartPole-v1", num_envs=3, vectorization_mode="sync")
    obs, _ = env.reset(seed=11)
    np.testing.assert_array_equal(obs, ref.reset(seed=11)[0])
    obs, reward, _, _, _ = env.step(np.array([0, 1, 0]))
    ref_obs, ref_reward, _, _, _ = ref.step(np.array([0, 1, 0]))
    np.testing.assert_array_equal(obs, ref_obs)
    np.testing.assert_array_equal(reward, ref_reward)
    env.close()
