"""PointNav, as installed: `pip install --no-build-isolation ./examples/custom_env`,
then `python -P -m pytest -q tests` from any folder but this one's parent."""

import subprocess
import sys

import numpy as np
import pytest

import envpool
from envpool.testing.conformance import check_env


def test_ids_known_by_being_installed() -> None:
    # A fresh interpreter that never imports point_nav itself.
    code = (
        "import sys, envpool; env = envpool.make('PointNav-v0', num_envs=2); "
        "env.reset(); "
        "print('point_nav' in sys.modules and 'PointNav-v0' in envpool.list_all_envs())"
    )
    out = subprocess.run(
        [sys.executable, "-P", "-c", code], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "True"


@pytest.mark.parametrize("task_id", ["PointNav-v0", "PointNavSmallGoal-v0"])
def test_conformance(task_id: str) -> None:
    check_env(task_id)


def test_config_and_spaces() -> None:
    spec = envpool.make_spec("PointNavSmallGoal-v0")
    assert spec.config.goal_radius == 0.05
    assert spec.config.max_episode_steps == 400
    assert spec.action_space.shape == (2,)
    assert spec.observation_space.shape == (6,)


@pytest.mark.parametrize("env_type", ["gymnasium", "gym", "dm"])
@pytest.mark.parametrize("batch_size", [4, 2])
def test_every_env_type_sync_and_async(env_type: str, batch_size: int) -> None:
    env = envpool.make("PointNav-v0", env_type=env_type, num_envs=4, batch_size=batch_size, seed=3)
    env.async_reset()
    for _ in range(20):
        out = env.recv()
        ids = out[-1]["env_id"] if env_type != "dm" else out.observation.env_id
        env.send(np.full((len(ids), 2), 0.5, np.float32), ids)
    env.close()


def test_moving_toward_the_goal_ends_the_episode() -> None:
    env = envpool.make("PointNav-v0", num_envs=8, seed=0, damping=0.5)
    obs, _ = env.reset()
    ended = np.zeros(8, bool)
    for _ in range(200):
        force = np.clip(obs[:, 4:6] * 5 - obs[:, 2:4], -1, 1).astype(np.float32)
        obs, _reward, terminated, _truncated, _info = env.step(force)
        ended |= terminated
    assert ended.all()


def test_options_per_env_match_scalar_pools() -> None:
    radii = [0.05, 0.1, 0.2, 0.3]
    pool = envpool.make("PointNav-v0", num_envs=4, seed=7, goal_radius=radii)
    assert list(pool.spec.config.goal_radius) == radii
    singles = [
        envpool.make("PointNav-v0", num_envs=1, seed=7 + i, goal_radius=r)
        for i, r in enumerate(radii)
    ]
    rng = np.random.default_rng(0)
    pool.reset()
    for s in singles:
        s.reset()
    for _ in range(60):
        action = rng.uniform(-1, 1, (4, 2)).astype(np.float32)
        got = pool.step(action)
        for i, s in enumerate(singles):
            want = s.step(action[i : i + 1])
            for g, w in zip(got[:4], want[:4], strict=False):
                np.testing.assert_array_equal(g[i], w[0])


def test_render() -> None:
    env = envpool.make(
        "PointNav-v0", num_envs=2, render_mode="rgb_array", render_width=64, render_height=64
    )
    env.reset()
    frames = env.render()
    assert frames.shape[-3:] == (64, 64, 3)
    assert frames.min() < 255


def test_xla() -> None:
    jax = pytest.importorskip("jax")
    env = envpool.make("PointNav-v0", num_envs=2, seed=1)
    env.async_reset()
    handle, recv, send, _step = env.xla()
    handle, (obs, _reward, _terminated, _truncated, info) = recv(handle)
    handle = send(handle, jax.numpy.zeros((2, 2), jax.numpy.float32), info["env_id"])
    handle, (obs, *_rest) = recv(handle)
    assert obs.shape == (2, 6)
