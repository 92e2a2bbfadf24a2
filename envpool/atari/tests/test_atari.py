"""Atari against ale-py 0.11.2 (the ALE the C++ side compiles) with
gymnasium 1.4's Atari preprocessing, and against OpenCV's cv2.resize.

Alignment: the same ROM, the same actions (random, from a fixed seed), no
no-op starts, no FIRE reset and no sticky actions.  Every observation,
reward, life count and termination must be equal, for bounded episodes.

- `test_matches_gymnasium_atari_preprocessing`: the reference is
  gymnasium's AtariPreprocessing(noop_max=0, frame_skip=4, screen_size=84,
  terminal_on_life_loss=False) over ALE/<Game>-v5 (frameskip 1,
  repeat_action_probability 0), stacked by FrameStackObservation(4,
  padding_type="reset"); RGB frames are laid out channel-first.
- `test_matches_the_ale_reference`: the options gymnasium's wrapper has no
  counterpart for (image size, bilinear resize, episodic life, reward clip,
  FIRE reset, zero discount on life loss) are checked against
  `AleReference`, a direct reading of docs/atari.md over ale_py's
  ALEInterface and cv2.resize; the same reference also reproduces gymnasium's
  wrapper exactly (`test_ale_reference_is_gymnasium_preprocessing`).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import ale_py
import cv2
import gymnasium
import numpy as np
import pytest
from ale_py import roms
from gymnasium.wrappers import AtariPreprocessing, FrameStackObservation, TimeLimit

import envpool
from envpool.atari.registration import GAMES

gymnasium.register_envs(ale_py)

REFERENCE = Path(__file__).resolve().parents[2] / "testing" / "reference"
ALL_IDS = [f"{name}-v5" for name, _ in GAMES]
TASKS = dict((f"{name}-v5", task) for name, task in GAMES)
# No no-ops, no FIRE press, no sticky actions: the deterministic setting.
PLAIN = {"noop_max": 0, "use_fire_reset": False, "repeat_action_probability": 0.0}


def channel_first(frames: np.ndarray) -> np.ndarray:
    """(stack, H, W[, 3]) -> (stack * channels, H, W), as envpool lays out."""
    frames = np.asarray(frames)
    if frames.ndim == 3:
        return frames
    return frames.transpose(0, 3, 1, 2).reshape(-1, *frames.shape[1:3])


class AleReference:
    """docs/atari.md written over ale_py.ALEInterface, cv2.resize and numpy.

    It mirrors envpool's options one by one; `step` returns (obs, reward,
    terminated, lives, info) of one env.
    """

    def __init__(
        self,
        task,
        *,
        gray=True,
        size=(84, 84),
        area=True,
        frame_skip=4,
        stack=4,
        episodic_life=False,
        reward_clip=False,
        fire_reset=False,
        zero_discount_on_life_loss=False,
    ):
        self.ale = ale_py.ALEInterface()
        self.ale.setLoggerMode(ale_py.LoggerMode.Error)
        self.ale.setFloat("repeat_action_probability", 0.0)
        self.ale.loadROM(str(roms.get_rom_path(task)))
        self.actions = self.ale.getMinimalActionSet()
        self.fire_reset = fire_reset and ale_py.Action.FIRE in self.actions
        self.gray, self.size, self.frame_skip, self.stack = gray, size, frame_skip, stack
        self.interpolation = cv2.INTER_AREA if area else cv2.INTER_LINEAR
        self.episodic_life, self.reward_clip = episodic_life, reward_clip
        self.zero_discount = zero_discount_on_life_loss
        self.continue_game = False

    def screen(self) -> np.ndarray:
        return self.ale.getScreenGrayscale() if self.gray else self.ale.getScreenRGB()

    def processed(self) -> np.ndarray:
        h, w = self.size
        out = cv2.resize(self.buffers[0], (w, h), interpolation=self.interpolation)
        return out if self.gray else out.transpose(2, 0, 1)

    def observation(self) -> np.ndarray:
        return np.concatenate([f[None] if self.gray else f for f in self.frames])

    def reset(self) -> np.ndarray:
        if not self.continue_game:
            self.ale.reset_game()
        self.continue_game = False
        if self.fire_reset:
            for _ in range(self.frame_skip):
                self.ale.act(ale_py.Action.FIRE)
                if self.ale.game_over():
                    self.ale.reset_game()
                    break
        self.lives = self.ale.lives()
        screen = self.screen()
        self.buffers = [screen, np.zeros_like(screen)]
        self.frames = [self.processed()] * self.stack
        return self.observation()

    def step(self, action: int):
        total, game_over = 0, False
        for t in range(self.frame_skip):
            total += self.ale.act(self.actions[action])
            if self.ale.game_over():
                game_over = True
                break
            if t == self.frame_skip - 2:
                self.buffers[1] = self.screen()
            elif t == self.frame_skip - 1:
                self.buffers[0] = self.screen()
        if self.frame_skip > 1:
            self.buffers[0] = np.maximum(self.buffers[0], self.buffers[1])
        self.frames = [*self.frames[1:], self.processed()]
        lives = self.ale.lives()
        life_lost = lives < self.lives
        self.lives = lives
        life_over = self.episodic_life and life_lost and lives > 0
        terminated = game_over or life_over
        self.continue_game = life_over and not game_over
        reward = float(np.sign(total)) if self.reward_clip else float(total)
        discount = 0.0 if terminated or (self.zero_discount and life_lost) else 1.0
        info = {"reward": float(total), "terminated": game_over, "discount": discount}
        return self.observation(), reward, terminated, lives, info


def gymnasium_reference(game: str, gray: bool, render_mode: str | None = None):
    env = gymnasium.make(
        f"ALE/{game}-v5",
        frameskip=1,
        repeat_action_probability=0.0,
        full_action_space=False,
        render_mode=render_mode,
    )
    env = AtariPreprocessing(
        env,
        noop_max=0,
        frame_skip=4,
        screen_size=84,
        terminal_on_life_loss=False,
        grayscale_obs=gray,
    )
    return FrameStackObservation(env, 4, padding_type="reset")


def run_side_by_side(env, reset_ref, step_ref, num_actions, steps, seed=0):
    """Steps envpool (one env, next_step autoreset) and a reference with the
    same random actions; the reference resets where envpool autoresets.
    Returns the number of episodes that ended."""
    obs, info = env.reset()
    ref_obs = reset_ref()
    np.testing.assert_array_equal(obs[0], ref_obs, err_msg="reset")
    actions = np.random.default_rng(seed).integers(num_actions, size=steps)
    episodes = 0
    for i, action in enumerate(actions):
        # The raw batch: info["discount"] (what the dm type's discount is made
        # of) is not shown by the gymnasium type.
        obs, reward, terminated, truncated, info = env._step_raw(np.array([action]))
        ref_obs, ref_reward, ref_terminated, ref_lives, ref_info = step_ref(int(action))
        where = f"step {i}"
        np.testing.assert_array_equal(obs[0], ref_obs, err_msg=where)
        assert reward[0] == ref_reward, where
        assert terminated[0] == ref_terminated, where
        assert not truncated[0], where
        assert info["lives"][0] == ref_lives, where
        for key, value in ref_info.items():
            assert info[key][0] == value, (where, key)
        if ref_terminated:
            episodes += 1
            obs, reward, terminated, truncated, info = env.step(np.array([0]))
            np.testing.assert_array_equal(obs[0], reset_ref(), err_msg=f"{where} reset")
            assert reward[0] == 0 and not terminated[0] and info["elapsed_step"][0] == 0
    return episodes


@pytest.mark.parametrize(
    ("game", "gray"),
    [
        ("Pong", True),
        ("Breakout", True),
        ("SpaceInvaders", True),
        ("MontezumaRevenge", True),
        ("MsPacman", True),
        ("Breakout", False),
        ("Seaquest", False),
    ],
)
def test_matches_gymnasium_atari_preprocessing(game, gray):
    ref = gymnasium_reference(game, gray)
    env = envpool.make(f"{game}-v5", num_envs=1, gray_scale=gray, **PLAIN)

    def reset_ref():
        return channel_first(ref.reset(seed=0)[0])

    def step_ref(action):
        obs, reward, terminated, truncated, info = ref.step(action)
        assert not truncated
        return channel_first(obs), reward, terminated, info["lives"], {}

    # Breakout's random play loses its 5 lives within these steps.
    run_side_by_side(env, reset_ref, step_ref, ref.action_space.n, steps=300)
    env.close()
    ref.close()


@pytest.mark.parametrize("game", ["Pong", "Breakout", "Seaquest"])
def test_render_is_ale_py_render_frame_for_frame(game):
    # ale-py's render() is the RGB screen of the last emulated frame: after
    # each 4-frame step of both, the frames must be equal, pixel for pixel.
    ref = gymnasium_reference(game, True, render_mode="rgb_array")
    env = envpool.make(f"{game}-v5", num_envs=2, render_mode="rgb_array", **PLAIN)
    assert env.metadata["render_modes"] == ["rgb_array", "human"]
    assert env.metadata["render_fps"] == ref.metadata["render_fps"]
    ref.reset(seed=0)
    env.reset()
    frames = env.render(env_ids=[0, 1])
    assert frames.shape == (2, 210, 160, 3) and frames.dtype == np.uint8
    np.testing.assert_array_equal(frames[0], ref.render(), err_msg="reset")
    np.testing.assert_array_equal(frames[1], frames[0], err_msg="reset, env 1")
    actions = np.random.default_rng(1).integers(ref.action_space.n, size=200)
    for i, action in enumerate(actions):
        _, _, terminated, truncated, _ = ref.step(int(action))
        env.step(np.array([action, 0]))
        frame = env.render()  # render_env_id 0
        np.testing.assert_array_equal(frame[0], ref.render(), err_msg=f"step {i}")
        if terminated or truncated:
            break
    assert not np.array_equal(frame[0], frames[0]), "the screen never changed"
    env.close()
    ref.close()


def test_ale_reference_is_gymnasium_preprocessing():
    for game, gray in (("Breakout", True), ("Pong", False)):
        ref = gymnasium_reference(game, gray)
        ale_ref = AleReference(TASKS[f"{game}-v5"], gray=gray)
        np.testing.assert_array_equal(channel_first(ref.reset(seed=0)[0]), ale_ref.reset())
        actions = np.random.default_rng(1).integers(ref.action_space.n, size=300)
        for action in actions:
            obs, reward, terminated, _, info = ref.step(int(action))
            ale_obs, ale_reward, ale_terminated, lives, _ = ale_ref.step(int(action))
            np.testing.assert_array_equal(channel_first(obs), ale_obs)
            assert (reward, terminated, info["lives"]) == (ale_reward, ale_terminated, lives)
            if terminated:
                np.testing.assert_array_equal(channel_first(ref.reset()[0]), ale_ref.reset())
        ref.close()


VARIANTS = [
    # (id, options): image sizes hit every resize path (area with fractional
    # and integer factors, 2x2 halving, bilinear, upscaling, same size).
    ("Breakout-v5", {"episodic_life": True, "use_fire_reset": True}),
    ("MsPacman-v5", {"episodic_life": True, "zero_discount_on_life_loss": True}),
    ("Pong-v5", {"reward_clip": True, "use_inter_area_resize": False}),
    ("SpaceInvaders-v5", {"gray_scale": False, "img_height": 100, "img_width": 120}),
    ("Seaquest-v5", {"img_height": 105, "img_width": 80, "stack_num": 2}),
    ("Breakout-v5", {"img_height": 70, "img_width": 40, "frame_skip": 3}),
    ("Qbert-v5", {"gray_scale": False, "use_inter_area_resize": False, "frame_skip": 1}),
    ("Enduro-v5", {"img_height": 250, "img_width": 200, "reward_clip": True}),
    ("Asteroids-v5", {"img_height": 210, "img_width": 160, "gray_scale": False}),
    ("MontezumaRevenge-v5", {"use_fire_reset": True, "zero_discount_on_life_loss": True}),
]


@pytest.mark.parametrize(("task_id", "options"), VARIANTS)
def test_matches_the_ale_reference(task_id, options):
    kwargs = {**PLAIN, **options}
    env = envpool.make(task_id, num_envs=1, **kwargs)
    ref = AleReference(
        TASKS[task_id],
        gray=kwargs.get("gray_scale", True),
        size=(kwargs.get("img_height", 84), kwargs.get("img_width", 84)),
        area=kwargs.get("use_inter_area_resize", True),
        frame_skip=kwargs.get("frame_skip", 4),
        stack=kwargs.get("stack_num", 4),
        episodic_life=kwargs.get("episodic_life", False),
        reward_clip=kwargs.get("reward_clip", False),
        fire_reset=kwargs["use_fire_reset"],
        zero_discount_on_life_loss=kwargs.get("zero_discount_on_life_loss", False),
    )
    assert env.single_action_space.n == len(ref.actions)
    run_side_by_side(env, ref.reset, ref.step, len(ref.actions), steps=250)
    env.close()


def test_episodic_life_ends_an_episode_per_life_and_continues_the_game():
    env = envpool.make("Breakout-v5", num_envs=1, episodic_life=True, **PLAIN)
    env.reset()
    actions = np.random.default_rng(0).integers(4, size=2000)
    lives_at_end, game_overs = [], 0
    for action in actions:
        _, _, terminated, _, info = env.step(np.array([action]))
        if terminated[0]:
            lives_at_end.append(int(info["lives"][0]))
            if info["terminated"][0]:
                game_overs += 1
                break
            _, _, _, _, info = env.step(np.array([0]))  # the reset
            assert info["lives"][0] == lives_at_end[-1]  # the game went on
    assert lives_at_end == [4, 3, 2, 1, 0]
    assert game_overs == 1


def test_every_id_matches_the_reference_spec_and_runs():
    specs = json.loads((REFERENCE / "env_specs.json").read_text())
    assert sorted(t for t in specs if t in TASKS) == sorted(ALL_IDS)
    assert len(ALL_IDS) == 104
    for task_id in ALL_IDS:
        ref = specs[task_id]
        spec = envpool.make_spec(task_id)
        config = spec.config._asdict()
        for key, value in ref["config"].items():
            if key in config:
                assert config[key] == value, (task_id, key)
        assert list(spec.observation_space.shape) == ref["observation_space"]["shape"]
        assert spec.action_space.n == ref["action_space"]["n"], task_id
    # Loading a ROM takes ALE ~70 ms: reset the pools concurrently.
    actions = np.zeros(1, dtype=np.int64)
    for start in range(0, len(ALL_IDS), 16):
        envs = [envpool.make(t, num_envs=1, noop_max=2) for t in ALL_IDS[start : start + 16]]
        for env in envs:
            env.async_reset()
        for env in envs:
            obs = env.recv()[0]
            assert obs.shape == (1, 4, 84, 84) and obs.dtype == np.uint8
            for _ in range(2):
                info = env.step(actions)[4]
            assert set(info) >= {"lives", "reward", "terminated", "ram", "elapsed_step"}
            env.close()


def test_action_sets_are_ale_minimal_or_full():
    for task_id in ("Pong-v5", "Breakout-v5", "Skiing-v5"):
        ale = ale_py.ALEInterface()
        ale.setLoggerMode(ale_py.LoggerMode.Error)
        ale.loadROM(str(roms.get_rom_path(TASKS[task_id])))
        assert envpool.make_spec(task_id).action_space.n == len(ale.getMinimalActionSet())
        full = envpool.make_spec(task_id, full_action_space=True)
        assert full.action_space.n == len(ale.getLegalActionSet())


def test_rgb_observation_stacks_channels_first():
    spec = envpool.make_spec("Pong-v5", gray_scale=False, stack_num=3, img_height=60)
    assert spec.observation_space.shape == (9, 60, 84)


def seeded_rollout(seed, steps=150, **options):
    env = envpool.make(
        "Breakout-v5", num_envs=2, seed=seed, repeat_action_probability=0.25, **options
    )
    obs, _ = env.reset()
    frames = [obs]
    actions = np.random.default_rng(0).integers(4, size=(steps, 2))
    for action in actions:
        frames.append(env.step(action)[0])
    env.close()
    return np.stack(frames)


def test_same_seed_same_rollout_with_noops_and_sticky_actions():
    a = seeded_rollout(3)
    np.testing.assert_array_equal(a, seeded_rollout(3))
    assert not np.array_equal(a, seeded_rollout(4))


def test_reset_with_a_seed_repeats_the_rollout():
    env = envpool.make("Pong-v5", num_envs=1, repeat_action_probability=0.25)
    actions = np.random.default_rng(0).integers(6, size=100)

    def rollout():
        obs = [env.reset(seed=7)[0]]
        obs += [env.step(np.array([a]))[0] for a in actions]
        return np.stack(obs)

    first = rollout()
    np.testing.assert_array_equal(first, rollout())
    env.close()


def test_noop_starts_differ_between_envs():
    env = envpool.make("SpaceInvaders-v5", num_envs=4, noop_max=30, seed=0)
    obs, _ = env.reset()
    assert len({o.tobytes() for o in obs}) > 1
    env.close()


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"mode": 99}, "mode 99 is not available for pong"),
        ({"difficulty": 7}, "difficulty 7"),
        ({"stack_num": 0}, "stack_num"),
        ({"frame_skip": 0}, "frame_skip"),
        ({"img_height": 0}, "img_height"),
        ({"noop_max": -1}, "noop_max"),
        ({"repeat_action_probability": 1.5}, "repeat_action_probability"),
        ({"task": "no_such_game", "rom_dir": str(Path(roms.__file__).parent)}, "no_such_game"),
    ],
)
def test_bad_options_raise_value_error(options, message):
    with pytest.raises(ValueError, match=message):
        envpool.make("Pong-v5", **options)


def test_missing_rom_names_the_file_and_how_to_get_it(tmp_path):
    with pytest.raises(ValueError, match=r"pong\.bin.*pip install ale-py==0\.11\.2"):
        envpool.make("Pong-v5", rom_dir=str(tmp_path))
    # No ale-py at all: registration leaves rom_dir empty.
    with pytest.raises(ValueError, match=r"pip install ale-py==0\.11\.2"):
        envpool.make("Pong-v5", rom_dir="")


CORRUPT_ROMS = {
    "empty": lambda good: b"",
    "truncated": lambda good: good[: len(good) // 2],
    "random_bytes": lambda good: np.random.default_rng(0).bytes(len(good)),
    "one_flipped_byte": lambda good: good[:100] + bytes([good[100] ^ 0xFF]) + good[101:],
    "too_large": lambda good: good * 512,
}


@pytest.mark.parametrize("kind", sorted(CORRUPT_ROMS))
def test_corrupt_rom_is_refused_before_the_emulator_sees_it(tmp_path, kind):
    # Unchecked, an empty ROM makes ALE exit the process and random bytes can
    # run the emulator forever: run the make in a child with a time limit so a
    # regression fails here instead of taking pytest down.
    good = (Path(roms.__file__).parent / "pong.bin").read_bytes()
    (tmp_path / "pong.bin").write_bytes(CORRUPT_ROMS[kind](good))
    script = (
        "import envpool, sys\n"
        "try:\n"
        f"    envpool.make('Pong-v5', rom_dir={str(tmp_path)!r})\n"
        "except ValueError as e:\n"
        "    print('ValueError:', e); sys.exit(0)\n"
        "print('accepted'); sys.exit(3)\n"
    )
    child = subprocess.run(
        [sys.executable, "-P", "-c", script], capture_output=True, text=True, timeout=120
    )
    assert child.returncode == 0, child.stdout + child.stderr
    assert "pong.bin" in child.stdout and "ale-py==0.11.2" in child.stdout, child.stdout
    assert ("MD5" in child.stdout) or ("bytes" in child.stdout), child.stdout


def test_a_good_rom_copied_elsewhere_is_accepted(tmp_path):
    good = (Path(roms.__file__).parent / "pong.bin").read_bytes()
    (tmp_path / "pong.bin").write_bytes(good)
    env = envpool.make("Pong-v5", rom_dir=str(tmp_path), num_envs=1)
    obs, *_ = env.reset()
    assert obs.shape == (1, 4, 84, 84)


def test_game_modes_and_difficulties_are_passed_to_ale():
    env = envpool.make("SpaceInvaders-v5", num_envs=1, mode=1, difficulty=1, **PLAIN)
    obs, _ = env.reset()
    gym_env = gymnasium.make(
        "ALE/SpaceInvaders-v5",
        frameskip=1,
        repeat_action_probability=0.0,
        mode=1,
        difficulty=1,
    )
    ref = FrameStackObservation(
        AtariPreprocessing(gym_env, noop_max=0, terminal_on_life_loss=False),
        4,
        padding_type="reset",
    )
    ref_obs, _ = ref.reset(seed=0)
    np.testing.assert_array_equal(obs[0], ref_obs)
    for action in np.random.default_rng(0).integers(6, size=50):
        obs = env.step(np.array([action]))[0]
        np.testing.assert_array_equal(obs[0], ref.step(int(action))[0])
    env.close()
    ref.close()


def seeded_gymnasium_reference(game: str, sticky: float, noop_max: int):
    """ale-py's ALE/<game>-v5 with gymnasium's preprocessing, no-ops and sticky actions on."""
    env = gymnasium.make(
        f"ALE/{game}-v5",
        frameskip=1,
        repeat_action_probability=sticky,
        full_action_space=False,
    )
    env = AtariPreprocessing(
        env, noop_max=noop_max, frame_skip=4, screen_size=84, terminal_on_life_loss=False
    )
    return FrameStackObservation(env, 4, padding_type="reset")


@pytest.mark.parametrize(
    ("game", "sticky", "noop_max"),
    [("Pong", 0.25, 30), ("Breakout", 0.25, 30), ("SpaceInvaders", 0.0, 30), ("Seaquest", 0.25, 5)],
)
def test_same_seed_same_trajectory_as_ale_py(game, sticky, noop_max):
    episodes = run_seeded_side_by_side(game, sticky, noop_max, steps=250)
    if game == "Breakout":
        assert episodes > 0  # game overs, and the episodes after them, are compared too


def run_seeded_side_by_side(game: str, sticky: float, noop_max: int, steps: int) -> int:
    """Seeded like ale-py 0.11.2 (SeedSequence(seed) split into the no-op generator's seed
    and ALE's seed): env i of make(seed=s) plays as the reference reset with seed s + i,
    random no-ops and sticky actions included, across episode ends (the reference then
    resets without a seed, as the pool does)."""
    seed, n = 11, 2
    env = envpool.make(
        f"{game}-v5",
        num_envs=n,
        seed=seed,
        noop_max=noop_max,
        repeat_action_probability=sticky,
        use_fire_reset=False,
        episodic_life=False,
        reward_clip=False,
    )
    refs = [seeded_gymnasium_reference(game, sticky, noop_max) for _ in range(n)]
    obs, _ = env.reset()
    for i, ref in enumerate(refs):
        np.testing.assert_array_equal(obs[i], ref.reset(seed=seed + i)[0], err_msg=f"reset {i}")
    actions = np.random.default_rng(0).integers(env.single_action_space.n, size=(steps, n))
    ended = [False] * n
    episodes = 0
    for t, action in enumerate(actions):
        obs, reward, terminated, truncated, info = env.step(action)
        for i, ref in enumerate(refs):
            where = f"{game} env {i} step {t}"
            if ended[i]:
                ref_obs, _ = ref.reset()
                assert info["elapsed_step"][i] == 0 and reward[i] == 0, where
                ended[i] = False
            else:
                ref_obs, ref_reward, ref_term, _, _ = ref.step(int(action[i]))
                assert reward[i] == ref_reward and terminated[i] == ref_term, where
                ended[i] = bool(terminated[i] or truncated[i])
                episodes += ended[i]
            np.testing.assert_array_equal(obs[i], ref_obs, err_msg=where)
    env.close()
    return episodes


def test_reset_with_a_seed_reloads_like_ale_py():
    env = envpool.make(
        "Breakout-v5",
        num_envs=1,
        seed=0,
        repeat_action_probability=0.25,
        use_fire_reset=False,
        episodic_life=False,
    )
    ref = seeded_gymnasium_reference("Breakout", 0.25, 30)
    for seed in (3, 3, 8):
        obs, _ = env.reset(seed=seed)
        np.testing.assert_array_equal(obs[0], ref.reset(seed=seed)[0])
        for a in (1, 2, 3, 0, 1):
            obs = env.step(np.array([a]))[0]
            np.testing.assert_array_equal(obs[0], ref.step(a)[0])


# The games whose ALE screen is not 210 rows (all are 160 columns): their
# cartridge properties or PAL/SECAM TV format give ALE a taller screen.
TALL_SCREENS = {
    "Adventure-v5": 250,
    "AirRaid-v5": 250,
    "Carnival-v5": 214,
    "JourneyEscape-v5": 230,
    "KeystoneKapers-v5": 250,
    "KingKong-v5": 250,
    "Klax-v5": 250,
    "LaserGates-v5": 250,
    "MrDo-v5": 250,
    "Pacman-v5": 250,
    "Pooyan-v5": 220,
    "SirLancelot-v5": 250,
    "SpaceWar-v5": 250,
}


@pytest.mark.parametrize("task_id", ALL_IDS)
def test_every_game_is_seeded_as_ale_py(task_id):
    """Every id: env 0 of make(seed=s) against ale-py 0.11.2's AtariEnv of the same ROM
    with gymnasium's preprocessing, reset with seed s: random no-ops and sticky actions,
    episodes cut at 20 steps (then both reset without a seed), compared at every step.

    The 84x84 observations are ale-py's whole screens (whatever their height) through
    gymnasium's resize; render() is ale-py's getScreenRGB(), the game's own height, byte
    for byte at every reset and step."""
    import ale_py.env

    seed, steps, limit = 5, 45, 20
    base = ale_py.env.AtariEnv(game=TASKS[task_id], frameskip=1, repeat_action_probability=0.25)
    # gymnasium's no-op reset needs NOOP as the first action (not so in 2 games)
    noop_max = 30 if base.get_action_meanings()[0] == "NOOP" else 0
    env = envpool.make(
        task_id,
        num_envs=1,
        seed=seed,
        noop_max=noop_max,
        max_episode_steps=limit,
        repeat_action_probability=0.25,
        use_fire_reset=False,
        episodic_life=False,
        reward_clip=False,
        render_mode="rgb_array",
    )
    height = TALL_SCREENS.get(task_id, 210)
    assert (env.spec.config.render_height, env.spec.config.render_width) == (height, 160)
    ref = FrameStackObservation(
        TimeLimit(
            AtariPreprocessing(base, noop_max=noop_max, frame_skip=4, terminal_on_life_loss=False),
            max_episode_steps=limit,
        ),
        4,
        padding_type="reset",
    )

    def assert_same_screen(where: str) -> None:
        screen = base.ale.getScreenRGB()
        assert screen.shape == (height, 160, 3), where
        # the reference resizes the whole screen: nothing was cut or padded
        assert ref.env.env.obs_buffer[0].shape == (height, 160), where
        frame = env.render()
        assert frame.shape == (1, height, 160, 3) and frame.dtype == np.uint8, where
        np.testing.assert_array_equal(frame[0], screen, err_msg=f"{where} render")

    obs, _ = env.reset()
    np.testing.assert_array_equal(obs[0], ref.reset(seed=seed)[0], err_msg=f"{task_id} reset")
    assert_same_screen(f"{task_id} reset")
    actions = np.random.default_rng(seed).integers(env.single_action_space.n, size=steps)
    ended = False
    for t, action in enumerate(actions):
        obs, reward, terminated, truncated, _ = env.step(np.array([action]))
        where = f"{task_id} step {t}"
        if ended:
            ref_obs, _ = ref.reset()
            ended = False
        else:
            ref_obs, ref_reward, ref_term, ref_trunc, _ = ref.step(int(action))
            assert (reward[0], terminated[0], truncated[0]) == (ref_reward, ref_term, ref_trunc), (
                where
            )
            ended = bool(ref_term or ref_trunc)
        np.testing.assert_array_equal(obs[0], ref_obs, err_msg=where)
        assert_same_screen(where)
    env.close()
    ref.close()
