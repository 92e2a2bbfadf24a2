"""rl_games 1.6.5's own envpool wrapper (`rl_games.envs.envpool.Envpool`,
`env_name: envpool`) through its `Runner`, with its shipped
`configs/mujoco/halfcheetah_envpool.yaml` (shortened) and a CartPole config.

The wrapper calls `envpool.make(env_name, env_type="gym", num_envs=n,
batch_size=n)`, reads `env.observation_space` / `env.action_space` to size
the network, steps with `env.step(action, ids)` and resets with
`env.reset(ids)`; single-env spaces (EnvPool's surface) give HalfCheetah a
17-input network.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import rl_games
import torch
import yaml
from rl_games.common.algo_observer import DefaultAlgoObserver
from rl_games.torch_runner import Runner

import envpool

CONFIGS = Path(rl_games.__file__).parent / "configs"


class Capture(DefaultAlgoObserver):
    def after_init(self, algo):
        super().after_init(algo)
        self.algo = algo


@pytest.fixture(autouse=True)
def _one_torch_thread():
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


def train(params, tmp_path):
    config = params["config"]
    # torch_compile: rl_games compiles the model by default (minutes on a CPU)
    config.update(
        device="cpu",
        train_dir=str(tmp_path),
        save_frequency=0,
        print_stats=False,
        torch_compile=False,
    )
    observer = Capture()
    runner = Runner(algo_observer=observer)
    runner.load({"params": params})
    runner.run({"train": True, "play": False})
    return observer.algo


@pytest.mark.parametrize(
    ("task_id", "env_type"),
    [("HalfCheetah-v5", None), ("HalfCheetah-v4", "gymnasium")],
    ids=["v5-gym", "v4-gymnasium"],
)
def test_halfcheetah_envpool_config_sizes_its_network_for_one_env(tmp_path, task_id, env_type):
    """The shipped config, its `env_type` left to the wrapper's default
    (`"gym"`) or set to `"gymnasium"` in `env_config`."""
    params = yaml.safe_load((CONFIGS / "mujoco" / "halfcheetah_envpool.yaml").read_text())["params"]
    config = params["config"]
    config["env_config"]["env_name"] = task_id
    if env_type is not None:
        config["env_config"]["env_type"] = env_type
    config.update(num_actors=4, horizon_length=64, minibatch_size=128, mini_epochs=1, max_epochs=3)
    algo = train(params, tmp_path)
    pool = algo.vec_env.env
    assert isinstance(pool, envpool.GymnasiumEnvPool)
    assert pool.spec.id == task_id and pool.num_envs == 4
    assert algo.obs_shape == (17,)
    first = next(m for m in algo.model.modules() if isinstance(m, torch.nn.Linear))
    assert first.in_features == 17
    assert algo.actions_num == 6
    assert algo.frame == 3 * 4 * 64
    # HalfCheetah never terminates: 1000-step episodes, none finished in 192 steps
    assert algo.game_rewards.current_size == 0


def test_pong_envpool_config_builds_its_cnn_for_one_envs_frames(tmp_path):
    """The shipped `configs/atari/ppo_pong_envpool.yaml` (shortened): the CNN
    sees one env's (4, 84, 84) stack, 6 actions; the wrapper's scores come
    from `info["reward"]` (`has_lives: False` drops `info["lives"]`)."""
    params = yaml.safe_load((CONFIGS / "atari" / "ppo_pong_envpool.yaml").read_text())["params"]
    config = params["config"]
    assert config["env_config"]["env_name"] == "Pong-v5"
    config.update(num_actors=4, horizon_length=32, minibatch_size=64, mini_epochs=1, max_epochs=2)
    algo = train(params, tmp_path)
    wrapper = algo.vec_env
    assert isinstance(wrapper.env, envpool.GymnasiumEnvPool)
    assert algo.obs_shape == (4, 84, 84)
    conv = next(m for m in algo.model.modules() if isinstance(m, torch.nn.Conv2d))
    assert conv.in_channels == 4
    assert algo.actions_num == 6
    assert algo.frame == 2 * 4 * 32
    # Pong's scores only fall (-1 a point) before the agent learns anything;
    # they are the pool's unclipped rewards summed per env
    assert (wrapper.scores <= 0).all() and wrapper.scores.min() < 0


def test_cartpole_ppo_through_the_runner_beats_a_random_policy(tmp_path):
    params = {
        "seed": 5,
        "algo": {"name": "a2c_discrete"},
        "model": {"name": "discrete_a2c"},
        "network": {
            "name": "actor_critic",
            "separate": False,
            "space": {"discrete": {}},
            "mlp": {"units": [64, 64], "activation": "relu", "initializer": {"name": "default"}},
        },
        "config": {
            "name": "CartPole-v1_envpool",
            "env_name": "envpool",
            "env_config": {"env_name": "CartPole-v1", "seed": 5},
            "reward_shaper": {"scale_value": 0.1},
            "normalize_advantage": True,
            "normalize_input": False,
            "normalize_value": False,
            "value_bootstrap": True,
            "gamma": 0.99,
            "tau": 0.95,
            "learning_rate": 3e-3,
            "lr_schedule": "None",
            "grad_norm": 1.0,
            "entropy_coef": 0.0,
            "truncate_grads": True,
            "e_clip": 0.2,
            "clip_value": False,
            "num_actors": 8,
            "horizon_length": 128,
            "minibatch_size": 512,
            "mini_epochs": 4,
            "critic_coef": 1,
            "max_epochs": 16,
        },
    }
    algo = train(params, tmp_path)
    assert algo.obs_shape == (4,)
    mean_return = float(algo.game_rewards.get_mean()[0])
    # a random policy averages about 22 on CartPole-v1
    assert mean_return > 60, mean_return
    assert np.isfinite(mean_return)
