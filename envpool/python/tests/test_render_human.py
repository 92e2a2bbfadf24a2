"""render_mode="human": the window on a virtual X display (Xvfb).

What the user sees is read off the X server's own framebuffer (Xvfb's
`-fbdir` keeps it in a file, in the XWD format), at the window's place as
the server reports it (`xwininfo`), and compared with the `rgb_array` frame
of an identical pool, pixel for pixel.
"""

from __future__ import annotations

import os
import re
import shutil
import struct
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import envpool

XVFB = shutil.which("Xvfb")
XWININFO = shutil.which("xwininfo")
SCREEN = (1024, 768)


@dataclass
class Display:
    name: str
    framebuffer: Path

    def screenshot(self) -> np.ndarray:
        """The screen as the X server holds it, `(H, W, 3)` RGB."""
        data = self.framebuffer.read_bytes()
        # XWD header: 25 big-endian uint32 (then the window name and colormap).
        header = struct.unpack(">25I", data[:100])
        header_size, width, height, byte_order = header[0], header[4], header[5], header[7]
        bits_per_pixel, bytes_per_line, ncolors = header[11], header[12], header[19]
        masks = header[14:17]
        assert bits_per_pixel == 32 and byte_order == 0, header
        assert masks == (0xFF0000, 0xFF00, 0xFF), masks
        pixels = np.frombuffer(
            data, np.uint8, count=height * bytes_per_line, offset=header_size + 12 * ncolors
        ).reshape(height, bytes_per_line // 4, 4)[:, :width]
        return pixels[..., 2::-1]  # little-endian BGRX -> RGB

    def windows(self) -> dict[str, tuple[int, int, int, int]]:
        """The mapped top-level windows by title: `(x, y, width, height)` on the screen."""
        for _ in range(5):
            # A window that goes while xwininfo walks the tree fails it (BadWindow).
            listing = subprocess.run(
                [XWININFO, "-root", "-tree", "-display", self.name],
                capture_output=True,
                text=True,
            )
            if listing.returncode == 0:
                break
            time.sleep(0.05)
        assert listing.returncode == 0, listing.stderr
        out = listing.stdout
        found = {}
        for title, w, h, x, y in re.findall(
            r'"([^"]*)": \(.*?\)\s+(\d+)x(\d+)[+-]-?\d+[+-]-?\d+\s+\+(-?\d+)\+(-?\d+)', out
        ):
            found[title] = (int(x), int(y), int(w), int(h))
        return found

    def window_pixels(self, title: str) -> np.ndarray:
        x, y, w, h = self.windows()[title]
        return self.screenshot()[y : y + h, x : x + w]

    def expect_shown(self, title: str, frame: np.ndarray, covered: Any = None) -> None:
        """The window `title` shows `frame` 1:1 (where `covered`, a mask, is False)."""
        # The server draws what it was sent asynchronously: on a loaded 2-core
        # machine that took over 5 s once.
        deadline = time.monotonic() + 30
        while True:
            shown = self.window_pixels(title)
            same = (
                shown.shape == frame.shape
                and ((shown == frame).all(axis=-1) | (False if covered is None else covered)).all()
            )
            if same or time.monotonic() > deadline:
                break
            time.sleep(0.02)
        assert shown.shape == frame.shape
        if covered is not None:
            shown, frame = shown[~covered], frame[~covered]
        np.testing.assert_array_equal(shown, frame)


@pytest.fixture(scope="module")
def xvfb(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Display]:
    if XVFB is None or XWININFO is None:
        pytest.skip("needs Xvfb and xwininfo (Debian: xvfb x11-utils; `make setup`)")
    fbdir = tmp_path_factory.mktemp("xvfb")
    read_end, write_end = os.pipe()
    # -displayfd: the server picks a free display number and writes it.
    server = subprocess.Popen(
        [
            XVFB,
            *("-displayfd", str(write_end)),
            *("-screen", "0", f"{SCREEN[0]}x{SCREEN[1]}x24"),
            *("-fbdir", str(fbdir), "-nolisten", "tcp"),
        ],
        pass_fds=(write_end,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write_end)
    with os.fdopen(read_end) as pipe:
        number = pipe.readline().strip()
    if not number:
        server.kill()
        pytest.fail("Xvfb did not start")
    saved = {k: os.environ.get(k) for k in ("DISPLAY", "SDL_VIDEODRIVER")}
    os.environ["DISPLAY"] = f":{number}"
    os.environ.pop("SDL_VIDEODRIVER", None)
    if "pygame" in sys.modules and sys.modules["pygame"].display.get_init():
        sys.modules["pygame"].display.quit()  # a display opened by an earlier test
    try:
        yield Display(f":{number}", fbdir / "Xvfb_screen0")
    finally:
        # SDL's connection goes before the server (Xlib ends the process
        # when its server dies under it).
        if "pygame" in sys.modules:
            sys.modules["pygame"].display.quit()
        server.terminate()
        server.wait(10)
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def _discrete(n: int) -> Callable[[int, int], np.ndarray]:
    return lambda step, num_envs: np.full(num_envs, (step + 1) % n)


def _box(dim: int) -> Callable[[int, int], np.ndarray]:
    return lambda step, num_envs: np.full((num_envs, dim), 0.3 * (-1) ** step, np.float64)


# (id, env_type, options, action of a step for the pool)
FAMILIES = [
    ("CartPole-v1", "gymnasium", {}, _discrete(2)),
    ("Pong-v5", "gymnasium", {}, _discrete(6)),
    ("Hopper-v5", "gymnasium", {"render_width": 96, "render_height": 72}, _box(3)),
    ("CartpoleBalance-v1", "dm", {"render_width": 80, "render_height": 60}, _box(1)),
    ("MiniGrid-Empty-5x5-v0", "gymnasium", {}, _discrete(3)),
]


def _title(task_id: str, env_id: int) -> str:
    return f"envpool {task_id} env {env_id}"


@pytest.mark.parametrize("task_id,env_type,options,action", FAMILIES, ids=[f[0] for f in FAMILIES])
def test_the_window_shows_the_rgb_array_frame_and_closes_with_the_env(
    xvfb: Display, task_id: str, env_type: str, options: dict, action: Callable
) -> None:
    common = {"num_envs": 2, "seed": 5, "render_env_id": 1, **options}
    env = envpool.make(task_id, env_type=env_type, render_mode="human", **common)
    frames = envpool.make(task_id, env_type=env_type, render_mode="rgb_array", **common)
    title = _title(task_id, 1)
    assert title not in xvfb.windows()  # it opens at the first frame
    env.reset()
    frames.reset()
    xvfb.expect_shown(title, frames.render()[0])
    for step in range(3):
        env.step(action(step, 2))
        frames.step(action(step, 2))
        xvfb.expect_shown(title, frames.render()[0])
    assert env.render() is None  # gymnasium's convention; the window keeps its frame
    xvfb.expect_shown(title, frames.render()[0])
    if env_type == "gymnasium":
        assert env.render_mode == "human"
        assert "human" in env.metadata["render_modes"]
    env.close()
    frames.close()
    assert title not in xvfb.windows()


def test_make_vec_and_two_pools_have_a_window_each(xvfb: Display) -> None:
    import gymnasium

    envpool.register_gymnasium_envs()
    cartpole = gymnasium.make_vec("envpool/CartPole-v1", num_envs=2, render_mode="human")
    reference = gymnasium.make_vec("envpool/CartPole-v1", num_envs=2, render_mode="rgb_array")
    pong = envpool.make("Pong-v5", num_envs=1, render_mode="human")
    pong_reference = envpool.make("Pong-v5", num_envs=1, render_mode="rgb_array")
    cartpole.reset(seed=1)
    reference.reset(seed=1)
    assert cartpole.render() is None
    pong.reset()
    pong_reference.reset()
    windows = xvfb.windows()
    assert _title("CartPole-v1", 0) in windows and _title("Pong-v5", 0) in windows
    # Both open at the screen's centre: Pong's (mapped last) lies over a part
    # of CartPole's.
    cx, cy, cw, ch = windows[_title("CartPole-v1", 0)]
    px, py, pw, ph = windows[_title("Pong-v5", 0)]
    covered = np.zeros((ch, cw), bool)
    covered[max(py - cy, 0) : py - cy + ph, max(px - cx, 0) : px - cx + pw] = True
    assert 0 < covered.mean() < 1
    xvfb.expect_shown(_title("Pong-v5", 0), pong_reference.render()[0])
    xvfb.expect_shown(_title("CartPole-v1", 0), reference.render()[0], covered)
    cartpole.step(np.ones(2, int))
    reference.step(np.ones(2, int))
    xvfb.expect_shown(_title("CartPole-v1", 0), reference.render()[0], covered)
    # render() shows env render_env_id only; another env is a clear error.
    with pytest.raises(ValueError, match=r"render_env_id=0 only.*rgb_array"):
        cartpole.render(env_ids=[1])
    pong.close()
    assert _title("Pong-v5", 0) not in xvfb.windows()
    assert _title("CartPole-v1", 0) in xvfb.windows()
    cartpole.close()
    assert not any(t.startswith("envpool ") for t in xvfb.windows())
    for env in (reference, pong_reference):
        env.close()


def test_async_pool_shows_the_env_when_its_batch_returns(xvfb: Display) -> None:
    env = envpool.make(
        "CartPole-v1", num_envs=4, batch_size=2, num_threads=1, render_mode="human", render_env_id=3
    )
    title = _title("CartPole-v1", 3)
    env.async_reset()
    seen = False
    for _ in range(6):
        _, _, _, _, info = env.recv()
        if 3 in info["env_id"]:
            seen = True
            assert title in xvfb.windows()
        env.send(np.zeros(2, int), info["env_id"])
    assert seen
    env.close()
    assert title not in xvfb.windows()


envpool.register(
    "TestHumanFailing-v0",
    family="testing",
    env_class="TestCounter",
    episode_length=1000,
    fail_render_at_step=2,
)


def test_a_frame_that_fails_is_a_runtime_error_and_the_pool_goes_on(xvfb: Display) -> None:
    env = envpool.make("TestHumanFailing-v0", num_envs=2, render_mode="human", render_env_id=1)
    env.reset()
    env.step(np.zeros(2, np.int64))
    with pytest.raises(RuntimeError, match="env 1: render failed at step 2"):
        env.step(np.zeros(2, np.int64))
    obs, *_ = env.step(np.zeros(2, np.int64))
    assert (obs[:, 1] == 3).all()
    xvfb.expect_shown(_title("TestHumanFailing-v0", 1), env_frame(obs[1]))
    env.close()


def env_frame(obs: np.ndarray) -> np.ndarray:
    """The test counter env's 4x3 frame (envpool/core/testing/test_envs.h)."""
    frame = np.empty((3, 4, 3), np.uint8)
    frame[..., 0] = obs[0] % 256
    frame[..., 1] = obs[1] % 256
    frame[..., 2] = (np.arange(3)[:, None] + np.arange(4)[None, :] - 1) % 256
    return frame


def test_human_mode_needs_frames() -> None:
    # The frame's options are checked as for rgb_array.
    with pytest.raises(ValueError, match=r"render_width.*256x256 only.*'human' shows the 'rgb_"):
        envpool.make("FrozenLake-v1", render_mode="human", render_width=300)
    # Catch draws no frames at all.
    with pytest.raises(ValueError, match=r"render_mode.*got 'human'"):
        envpool.make("Catch-v0", render_mode="human")


NO_DISPLAY = """
import os, sys
import envpool

env = envpool.make("CartPole-v1", render_mode="rgb_array")
assert "pygame" not in sys.modules, "rgb_array must not import pygame"
for display in (None, ":4093"):
    if display is None:
        os.environ.pop("DISPLAY", None)
    else:
        os.environ["DISPLAY"] = display
    try:
        envpool.make("CartPole-v1", render_mode="human")
    except RuntimeError as e:
        print("ERROR", e)
    else:
        print("NO ERROR")
env.reset()
print("POOL GOES ON", env.render().shape)
"""


def test_without_a_display_make_is_an_error_naming_rgb_array() -> None:
    environ = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    environ.pop("SDL_VIDEODRIVER", None)
    out = subprocess.run(
        [sys.executable, "-P", "-c", NO_DISPLAY],
        capture_output=True,
        text=True,
        env=environ,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert len(lines) == 3, out.stdout
    assert lines[0].startswith("ERROR") and "DISPLAY is not set" in lines[0]
    assert lines[1].startswith("ERROR") and "no display could be opened" in lines[1]
    for line in lines[:2]:
        assert "render_mode='rgb_array'" in line
    assert lines[2] == "POOL GOES ON (1, 400, 600, 3)"
