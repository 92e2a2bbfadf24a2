"""`render_mode="human"`: the frame of env `render_env_id` in a window.

gymnasium's convention: an env made with `render_mode="human"` draws itself
to a window at every reset and step, at `metadata["render_fps"]`, and
`render()` returns None. Here the envs draw their `rgb_array` frame (the
native pool never sees "human") and this module shows it, 1:1, in a pygame
window of its own per pool; `close()` closes it.

Every family uses the same window, MuJoCo and dm_control included:
MuJoCo's passive viewer would need a Python `MjModel`/`MjData` mirroring
each C++ env's state at every frame, and would show another camera and
scene than the `rgb_array` frame (docs/render.md).

pygame is imported when a human window is made, never by `import envpool`.
OpenCV is no alternative: the `opencv-python-headless` wheel has no windows.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import numpy as np

HUMAN = "human"
# The frame the envs draw for a human window.
DRAWN_AS = "rgb_array"
_FIX = (
    "pass render_mode='rgb_array' and show or record the frames yourself "
    "(env.render(), gymnasium's RecordVideo), or run under a virtual display "
    "(Debian: xvfb; `xvfb-run python ...`)"
)


def with_human(modes: list[str]) -> list[str]:
    """`modes` with "human" after "rgb_array": every env that draws frames shows them."""
    if DRAWN_AS not in modes or HUMAN in modes:
        return list(modes)
    i = modes.index(DRAWN_AS) + 1
    return [*modes[:i], HUMAN, *modes[i:]]


def describe(core: Any, env_class: str, options: dict[str, Any]) -> dict[str, Any]:
    """`core.describe` with "human" in `render_modes` wherever "rgb_array" is.

    An `options["render_mode"]` of "human" is replaced there by "rgb_array",
    the frame the envs draw for the window (the config keeps "human").
    """
    if options.get("render_mode") != HUMAN:
        description = core.describe(env_class, options)
    else:
        options["render_mode"] = DRAWN_AS
        try:
            description = core.describe(env_class, options)
        except (RuntimeError, ValueError) as e:
            raise type(e)(f"{e} (render_mode 'human' shows the 'rgb_array' frame)") from None
    description["render_modes"] = with_human(description["render_modes"])
    return description


def _import_pygame() -> Any:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    # The window's pixels go to X as they are (XShm), not through an OpenGL
    # texture: SDL's default on X11 makes a GLX context current on the
    # calling thread, and glvnd then refuses that thread the EGL context
    # MuJoCo and dm_control draw their frames in (EGL_BAD_ACCESS).
    os.environ.setdefault("SDL_FRAMEBUFFER_ACCELERATION", "0")
    try:
        import pygame
        from pygame._sdl2 import video  # noqa: F401  (one window per pool)
    except ImportError as e:
        raise RuntimeError(
            f"render_mode='human' draws its window with pygame, which is missing ({e}): "
            f"`pip install pygame`, or {_FIX}"
        ) from None
    return pygame


# Human windows made and not closed; SDL's video is quit with the last one
# when they initialized it (the X connection is not kept past the windows).
_live_windows = 0
_owns_display = False


def _open_display(pygame: Any) -> None:
    """Initialize SDL's video, or a RuntimeError naming rgb_array."""
    global _owns_display
    if pygame.display.get_init():
        return
    if (
        sys.platform.startswith("linux")
        and not os.environ.get("SDL_VIDEODRIVER")
        and not os.environ.get("DISPLAY")
        and not os.environ.get("WAYLAND_DISPLAY")
    ):
        # SDL would try a console (KMSDRM) device next: say what is missing.
        raise RuntimeError(f"render_mode='human' opens a window, but DISPLAY is not set: {_FIX}")
    try:
        pygame.display.init()
        driver = pygame.display.get_driver()
    except pygame.error as e:
        raise RuntimeError(
            f"render_mode='human' opens a window, but no display could be opened ({e}): {_FIX}"
        ) from None
    if driver in ("offscreen", "dummy") and os.environ.get("SDL_VIDEODRIVER") != driver:
        # SDL falls back to drawing nowhere when no display answers.
        pygame.display.quit()
        raise RuntimeError(
            "render_mode='human' opens a window, but no display could be opened "
            f"(DISPLAY={os.environ.get('DISPLAY')!r}; SDL fell back to its {driver!r} "
            f"driver, which shows nothing): {_FIX}"
        )
    _owns_display = True


class HumanWindow:
    """One pool's window: the frame of env `render_env_id` after each reset and step.

    Made at `make` (a missing display is a RuntimeError there); the window
    opens at the first frame, at the frame's size, and closes with `close()`
    (or when this object is collected).
    """

    def __init__(self, spec: Any) -> None:
        global _live_windows
        self._pygame = _import_pygame()
        _open_display(self._pygame)
        _live_windows += 1
        self._live = True
        cfg = spec.config
        self.env_id = int(cfg.render_env_id)
        self._camera = int(cfg.render_camera_id)
        self.title = f"envpool {spec.id} env {self.env_id}"
        self._fps = int(spec.description["render_fps"] or 0)
        self._clock = self._pygame.time.Clock()
        self._window: Any = None
        self._renderer: Any = None
        self._texture: Any = None

    def show_batch(self, native_pool: Any, info: dict[str, Any]) -> None:
        """Show env `render_env_id`'s frame if this batch holds that env.

        (In async mode a batch holds some envs only; the others are in
        flight and cannot be drawn.)
        """
        if np.any(np.asarray(info["env_id"]) == self.env_id):
            self.show_current(native_pool)

    def show_current(self, native_pool: Any) -> None:
        """Draw env `render_env_id`'s frame now and show it."""
        self.show(native_pool.render(np.array([self.env_id]), self._camera)[0])

    def render(self, native_pool: Any, env_ids: Any) -> None:
        """`render()` in human mode: show the frame again; None, as gymnasium's envs return."""
        if env_ids is not None:
            ids = np.asarray(env_ids).reshape(-1)
            if ids.tolist() != [self.env_id]:
                raise ValueError(
                    f"render_mode='human' shows env render_env_id={self.env_id} only, "
                    f"got env_ids={ids.tolist()}: make the pool with render_env_id=<env> "
                    "to watch another env, or with render_mode='rgb_array' for the frames "
                    "of several"
                )
        self.show_current(native_pool)

    def show(self, frame: np.ndarray) -> None:
        """Show an `(H, W, 3)` uint8 frame, 1:1, then wait for the next frame time."""
        pygame = self._pygame
        from pygame._sdl2 import video

        height, width = frame.shape[:2]
        if self._window is None:
            self._window = video.Window(self.title, size=(width, height))
            # SDL's software renderer: the frame's bytes reach the window
            # unchanged (no GL texture filtering or colour conversion).
            self._renderer = video.Renderer(self._window, accelerated=0)
        pixels = np.ascontiguousarray(frame, dtype=np.uint8).tobytes()
        surface = pygame.image.frombuffer(pixels, (width, height), "RGB")
        if self._texture is None or self._texture.width != width or self._texture.height != height:
            self._texture = video.Texture(self._renderer, (width, height), streaming=True)
        self._texture.update(surface)
        self._renderer.clear()
        self._texture.draw()
        self._renderer.present()
        # Keep the window responsive, as gymnasium's envs do.
        pygame.event.pump()
        if self._fps > 0:
            self._clock.tick(self._fps)

    def close(self) -> None:
        """Close the window; the last one open quits the display it opened."""
        global _live_windows, _owns_display
        window, self._window = self._window, None
        self._texture = self._renderer = None
        if window is not None:
            window.destroy()
            # Let the X server see the window go now, not at the next event.
            self._pygame.event.pump()
        if self._live:
            self._live = False
            _live_windows -= 1
            if _live_windows == 0 and _owns_display:
                _owns_display = False
                self._pygame.display.quit()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # interpreter shutdown: pygame may be gone
            pass
