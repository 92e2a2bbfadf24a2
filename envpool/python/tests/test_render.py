"""The render path of the core, on the test counter env (whose frame tells
its env, its step and the camera), and gymnasium's video recording on a
pool. The families' frames are tested against their references in their
own tests (Atari: ale-py's render, pixel for pixel)."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

import envpool

envpool.register(
    "TestRenderCounter-v0", family="testing", env_class="TestCounter", episode_length=1000
)
envpool.register(
    "TestRenderFailing-v0",
    family="testing",
    env_class="TestCounter",
    episode_length=1000,
    fail_render_at_step=2,
)


def expected_frame(obs: np.ndarray, height: int, width: int, camera: int) -> np.ndarray:
    frame = np.empty((height, width, 3), np.uint8)
    frame[..., 0] = obs[0] % 256
    frame[..., 1] = obs[1] % 256
    frame[..., 2] = (np.arange(height)[:, None] + np.arange(width)[None, :] + camera) % 256
    return frame


def test_no_render_mode_is_a_runtime_error_that_says_what_to_pass():
    env = envpool.make("TestRenderCounter-v0", num_envs=2)
    env.reset()
    with pytest.raises(RuntimeError, match="render_mode='rgb_array'"):
        env.render()
    assert env.render_mode is None
    assert env.metadata["render_modes"] == ["rgb_array", "human", "ansi"]
    assert env.metadata["render_fps"] == 10


@pytest.mark.parametrize("camera", [-1, 1])
def test_frames_of_the_envs_asked_for_in_their_order(camera):
    env = envpool.make(
        "TestRenderCounter-v0",
        num_envs=6,
        num_threads=2,
        render_mode="rgb_array",
        render_width=8,
        render_height=5,
        render_camera_id=camera,
        render_env_id=4,
    )
    assert env.spec.config.render_width == 8 and env.spec.config.render_height == 5
    obs, _ = env.reset()
    for step in range(3):
        for ids in ([5, 0, 3], np.arange(6), np.array([2], np.int64)):
            frames = env.render(env_ids=ids)
            assert frames.shape == (len(ids), 5, 8, 3) and frames.dtype == np.uint8
            for frame, i in zip(frames, ids, strict=True):
                np.testing.assert_array_equal(frame, expected_frame(obs[i], 5, 8, camera))
        # render_env_id is the default env.
        np.testing.assert_array_equal(env.render()[0], expected_frame(obs[4], 5, 8, camera))
        kept = env.render(env_ids=[0])
        obs, *_ = env.step(np.full(6, step))
        # A frame returned is the caller's: the next render does not touch it.
        assert kept[0, 0, 0, 1] == step and env.render(env_ids=[0])[0, 0, 0, 1] == step + 1


def test_the_reference_size_is_the_default():
    env = envpool.make("TestRenderCounter-v0", num_envs=1, render_mode="rgb_array")
    env.reset()
    assert env.render().shape == (1, 3, 4, 3)


def test_ansi_text():
    env = envpool.make("TestRenderCounter-v0", num_envs=3, render_mode="ansi")
    obs, _ = env.reset()
    env.step(np.zeros(3, np.int64))
    text = env.render(env_ids=[2, 0])
    assert text == [f"first {obs[2][0]} step 1\n", f"first {obs[0][0]} step 1\n"]


def test_render_refuses_envs_in_flight_unstarted_or_bad_ids():
    env = envpool.make("TestRenderCounter-v0", num_envs=4, batch_size=2, render_mode="rgb_array")
    with pytest.raises(RuntimeError, match="not been reset"):
        env.render(env_ids=[0])
    env.async_reset()
    _, _, _, _, info = env.recv()
    back = info["env_id"]
    busy = np.setdiff1d(np.arange(4), back)
    with pytest.raises(RuntimeError, match=r"in flight: recv\(\) its result before rendering it"):
        env.render(env_ids=busy)
    for bad, error in [([4], ValueError), ([-1], ValueError), ([0.5], TypeError)]:
        with pytest.raises(error):
            env.render(env_ids=bad)
    with pytest.raises(ValueError, match="twice"):
        env.render(env_ids=[back[0], back[0]])
    assert env.render(env_ids=back).shape == (2, 3, 4, 3)
    env.close()
    with pytest.raises(RuntimeError, match="closed"):
        env.render(env_ids=back)


def test_an_env_whose_render_throws_is_a_runtime_error_and_the_pool_goes_on():
    env = envpool.make("TestRenderFailing-v0", num_envs=3, num_threads=2, render_mode="rgb_array")
    env.reset()
    for step in range(4):
        if step == 2:
            with pytest.raises(RuntimeError, match=r"env \d: render failed at step 2"):
                env.render(env_ids=[0, 1, 2])
        else:
            assert env.render(env_ids=[0, 1, 2]).shape == (3, 3, 4, 3)
        obs, *_ = env.step(np.zeros(3, np.int64))
        assert (obs[:, 1] == step + 1).all()


@pytest.mark.parametrize(
    ("options", "error", "words"),
    [
        ({"render_mode": "video"}, ValueError, "render_mode"),
        ({"render_mode": 3}, TypeError, "render_mode"),
        ({"render_width": -1}, ValueError, "render_width"),
        ({"render_height": 10**6}, ValueError, "render_height"),
        ({"render_camera_id": 2}, ValueError, "render_camera_id"),
        ({"render_camera_id": -2}, ValueError, "render_camera_id"),
        ({"render_env_id": 2}, ValueError, "render_env_id"),
    ],
)
def test_bad_render_options(options, error, words):
    with pytest.raises(error, match=words):
        envpool.make("TestRenderCounter-v0", num_envs=2, **options)


def test_gymnasium_vector_render_and_video_recording(tmp_path):
    pytest.importorskip("moviepy")
    from gymnasium.wrappers.vector import RecordVideo

    envpool.register_gymnasium_envs()  # adds the ids registered above
    env = gymnasium.make_vec(
        "envpool/TestRenderCounter-v0",
        num_envs=4,
        render_mode="rgb_array",
        render_width=32,
        render_height=16,
    )
    env = RecordVideo(env, str(tmp_path), episode_trigger=lambda e: e == 0)
    obs, _ = env.reset(seed=0)
    frames = env.env.render()
    assert isinstance(frames, tuple) and len(frames) == 4
    np.testing.assert_array_equal(frames[3], expected_frame(obs[3], 16, 32, -1))
    for _ in range(20):
        env.step(np.zeros(4, np.int64))
    env.close()
    videos = sorted(tmp_path.glob("*.mp4"))
    assert len(videos) == 1
    # The video is the 4 frames tiled 2x2, one per reset and step (lossy
    # H.264: compared to the frames within a tolerance).
    import imageio_ffmpeg

    reader = imageio_ffmpeg.read_frames(str(videos[0]))
    meta = next(reader)
    assert tuple(meta["size"]) == (64, 32)
    decoded = [np.frombuffer(f, np.uint8).reshape(32, 64, 3) for f in reader]
    assert len(decoded) == 21
    tiled = np.concatenate(
        [np.concatenate(frames[:2], axis=1), np.concatenate(frames[2:], axis=1)], axis=0
    )
    assert np.abs(decoded[0].astype(int) - tiled.astype(int)).mean() < 8
