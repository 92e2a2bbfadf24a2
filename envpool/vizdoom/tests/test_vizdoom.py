"""The vizdoom family against vizdoom 1.3.2's own Python DoomGame.

Alignment: the reference is a DoomGame on the same cfg, wad and IWAD, in
synchronous PLAYER mode with no window and no sound, seeded with set_seed(s)
before init() (env i of a pool with seed=s gets s + i). Both take the same
button sequence (make_action(buttons, frame_skip)); at every step the stacked
observation (our resize against cv2.resize of the reference's screen buffer,
stacked the same way), the reward, the episode end and every info game
variable (get_game_variable) must be equal, over whole episodes and across
the autoreset into the next one (DoomGame.new_episode()).

The sample covers every option class: screen formats CRCGCB (Basic), GRAY8
(SimplerBasic) and RGB24 (a custom cfg through VizdoomCustom-v1: cfg_path,
wad_path), delta buttons (Deathmatch), death ending the episode
(DefendTheCenter, episodic_life), frame_skip, stack_num, img_height/img_width,
use_inter_area_resize, use_combined_action, force_speed, lmp_save_dir.
Engines are heavy: few envs, short episodes.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

import envpool

vzd = pytest.importorskip("vizdoom")

PACKAGE = Path(vzd.__file__).parent
SCENARIOS = PACKAGE / "scenarios"
CONFIG_PATH = os.devnull  # as the env: settings neither read nor saved


class Reference:
    """vizdoom's DoomGame, preprocessed as the env's options say."""

    def __init__(self, config: dict, seed: int, variables: list[str]) -> None:
        game = vzd.DoomGame()
        game.load_config(config["cfg_path"])
        game.set_vizdoom_path(config["vzd_path"])
        game.set_doom_game_path(config["iwad_path"])
        game.set_doom_scenario_path(config["wad_path"])
        game.set_doom_map(config["map_id"])
        if config["game_args"]:
            game.add_game_args(config["game_args"])
        game.set_doom_config_path(CONFIG_PATH)
        game.set_mode(vzd.Mode.PLAYER)
        game.set_window_visible(False)
        game.set_sound_enabled(False)
        game.set_seed(seed)
        game.init()
        self.game = game
        self.config = config
        self.frames: list[np.ndarray] = []
        self.variables = variables
        self.shaped_steps = 0

    def close(self) -> None:
        self.game.close()

    def frame(self) -> np.ndarray:
        screen = self.game.get_state().screen_buffer
        fmt = self.game.get_screen_format()
        if screen.ndim == 2:
            screen = screen[None]
        elif fmt not in (vzd.ScreenFormat.CRCGCB, vzd.ScreenFormat.CBCGCR):
            screen = screen.transpose(2, 0, 1)  # interleaved: H, W, C
        size = (self.config["img_width"], self.config["img_height"])
        interp = cv2.INTER_AREA if self.config["use_inter_area_resize"] else cv2.INTER_LINEAR
        return np.stack(
            [cv2.resize(np.ascontiguousarray(p), size, interpolation=interp) for p in screen]
        )

    def obs(self) -> np.ndarray:
        return np.concatenate(self.frames[-self.config["stack_num"] :])

    def reset(self, new_episode: bool) -> np.ndarray:
        if new_episode:
            self.game.new_episode()
        self.frames = [self.frame()] * self.config["stack_num"]
        self.last = self._shaping_variables()
        self.weapon = self._variable("SELECTED_WEAPON")
        self.weapon_run = 1
        return self.obs()

    def _variable(self, name: str) -> float:
        return self.game.get_game_variable(getattr(vzd.GameVariable, name))

    def _shaping_variables(self) -> dict[str, float]:
        return {k: self._variable(k) for k in self.config["reward_config"]}

    def shaping(self) -> float:
        """EnvPool's shaping terms (docs/vizdoom.md), from the game variables:
        gain * rise or loss * fall per reward_config variable, and the
        selected weapon's reward once it has been selected weapon_duration
        observations in a row with ammo left."""
        now = self._shaping_variables()
        reward = np.float32(0.0)  # EnvPool's precision: float32 sums of float64 terms
        table = self.config["reward_config"].items()
        for k, (gain, loss) in sorted(table, key=lambda kv: int(getattr(vzd.GameVariable, kv[0]))):
            d = now[k] - self.last[k]
            reward = np.float32(float(reward) + (d * gain if d > 0 else -d * loss))
        self.last = now
        weapon = self._variable("SELECTED_WEAPON")
        self.weapon_run = self.weapon_run + 1 if weapon == self.weapon else 1
        self.weapon = weapon
        table = self.config["selected_weapon_reward_config"]
        if (
            int(weapon) in table
            and self.weapon_run >= self.config["weapon_duration"]
            and self._variable("SELECTED_WEAPON_AMMO") > 0
        ):
            reward = reward + np.float32(table[int(weapon)])
        return float(reward)

    def step(self, buttons: list[float]) -> tuple[np.ndarray, float, bool]:
        reward = self.game.make_action(buttons, self.config["frame_skip"])
        done = self.game.is_episode_finished()
        dead = not done and self.game.is_player_dead()
        if dead and not self.config["episodic_life"]:
            self.game.respawn_player()
        shaped = self.config["reward_config"] or self.config["selected_weapon_reward_config"]
        if shaped and not done:  # the step that ends an episode is not shaped
            shaping = self.shaping()
            self.shaped_steps += shaping != 0.0
            reward += shaping
        self.frames.append(self.frames[-1] if done else self.frame())
        return self.obs(), reward, done or (dead and self.config["episodic_life"])

    def info(self) -> dict[str, float]:
        return {
            k: self.game.get_game_variable(getattr(vzd.GameVariable, k)) for k in self.variables
        }


def run_aligned(task_id: str, steps: int, seed: int = 7, buttons=None, stats=None, **kwargs) -> int:
    """Steps our env and the reference in lockstep; returns the episodes ended
    (and counts the steps the shaping changed the reward in `stats`)."""
    env = envpool.make_gymnasium(task_id, num_envs=1, seed=seed, **kwargs)
    config = env.spec.config._asdict()
    variables = [k[5:] for k in env.spec.state_array_spec if k.startswith("info:")]
    ref = Reference(config, seed, [k for k in variables if k not in ("env_id", "players.env_id")])
    rng = np.random.default_rng(seed)
    names = [str(b).split(".")[-1] for b in ref.game.get_available_buttons()]
    ended = 0
    try:
        obs, info = env.reset()
        want = ref.reset(new_episode=False)
        np.testing.assert_array_equal(obs[0], want)
        need_reset = False
        for t in range(steps):
            if buttons is not None:
                action, pressed = buttons(rng, names)
            else:
                pressed = [float(v) for v in rng.integers(0, 2, len(names))]
                for i, name in enumerate(names):
                    if name.endswith("_DELTA"):
                        pressed[i] = float(rng.integers(-10, 11))
                action = np.array([pressed])
            obs, rew, term, trunc, info = env.step(action)
            if need_reset:
                want = ref.reset(new_episode=True)
                assert not term[0] and not trunc[0] and rew[0] == 0.0
                need_reset = False
            else:
                want, want_rew, done = ref.step(pressed)
                assert rew[0] == np.float32(want_rew), (t, rew[0], want_rew)
                assert bool(term[0]) == done, t
                assert not trunc[0] or info["elapsed_step"][0] == config["max_episode_steps"]
                need_reset = done or bool(trunc[0])
                ended += done
            np.testing.assert_array_equal(obs[0], want, err_msg=f"step {t}")
            for k, v in ref.info().items():
                assert info[k][0] == v, (t, k, info[k][0], v)
    finally:
        env.close()
        ref.close()
    if stats is not None:
        stats["shaped_steps"] = ref.shaped_steps
    return ended


def test_basic_crcgcb_matches_doomgame_over_two_episodes():
    # basic.cfg: episode_timeout 300 tics, so an episode is about 72 steps.
    assert run_aligned("Basic-v1", 160) >= 2


def test_simpler_basic_gray_with_options_matches_doomgame():
    # GRAY8, frame_skip 2, stack 2, a non-square linear resize.
    ended = run_aligned(
        "SimplerBasic-v1",
        160,
        seed=3,
        frame_skip=2,
        stack_num=2,
        img_height=60,
        img_width=100,
        use_inter_area_resize=False,
    )
    assert ended >= 1


def test_deathmatch_delta_buttons_match_doomgame():
    run_aligned("Deathmatch-v1", 60, seed=11)


def test_hosted_deathmatch_maps_match_doomgame():
    # Cig and MultiDuel are hosted (game_args "-host 1 -deathmatch").
    run_aligned("Cig-v1", 40, seed=2)
    run_aligned("MultiDuel-v1", 40, seed=2)


def test_defend_the_center_death_ends_the_episode_as_in_doomgame():
    # Standing still and turning: the monsters kill the player.
    def turn(rng, names):
        pressed = [0.0] * len(names)
        pressed[names.index("TURN_LEFT")] = 1.0
        return np.array([pressed]), pressed

    ended = run_aligned("DefendTheCenter-v1", 200, seed=5, buttons=turn, episodic_life=True)
    assert ended >= 1


def test_custom_rgb24_cfg_matches_doomgame(tmp_path):
    cfg = tmp_path / "rgb.cfg"
    text = (SCENARIOS / "basic.cfg").read_text()
    cfg.write_text(text + "\nscreen_format = RGB24\nscreen_resolution = RES_160X120\n")
    run_aligned(
        "VizdoomCustom-v1",
        90,
        cfg_path=str(cfg),
        wad_path=str(SCENARIOS / "basic.wad"),
        img_height=48,
        img_width=64,
    )


# EnvPool's combined actions (docs/vizdoom.md), written out here on their own:
# one digit per group of the cfg's buttons, in ViZDoom's button order, the
# first the most significant; a group is none or one of its buttons.
COMBINED_GROUPS = [
    *[(b,) for b in ("ATTACK", "USE", "JUMP", "CROUCH", "TURN180", "ALTATTACK")],
    *[(b,) for b in ("RELOAD", "ZOOM", "SPEED", "STRAFE")],
    ("MOVE_RIGHT", "MOVE_LEFT"),
    ("MOVE_BACKWARD", "MOVE_FORWARD"),
    ("TURN_RIGHT", "TURN_LEFT"),
    ("LOOK_UP", "LOOK_DOWN"),
    ("MOVE_UP", "MOVE_DOWN"),
    ("LAND",),
    tuple(f"SELECT_WEAPON{k}" for k in (1, 2, 3, 4, 5, 6, 7, 8, 9, 0)),
    ("SELECT_NEXT_WEAPON", "SELECT_PREV_WEAPON"),
    ("SELECT_NEXT_ITEM", "SELECT_PREV_ITEM"),
]
DELTA_BUTTONS = [
    "LOOK_UP_DOWN_DELTA",
    "TURN_LEFT_RIGHT_DELTA",
    "MOVE_FORWARD_BACKWARD_DELTA",
    "MOVE_LEFT_RIGHT_DELTA",
    "MOVE_UP_DOWN_DELTA",
]


def combined_digits(names: list[str], deltas: dict) -> list[list[tuple[str, float]]]:
    digits = []
    for group in COMBINED_GROUPS:
        members = [b for b in group if b in names]
        if members:
            digits.append([("", 0.0)] + [(b, 1.0) for b in members])
    for b in DELTA_BUTTONS:
        if b in names and b in deltas:
            n, low, high = deltas[b]
            digits.append([(b, float(v)) for v in np.linspace(low, high, int(n))])
    return digits


def decode_combined(index: int, names: list[str], deltas: dict) -> list[float]:
    pressed = [0.0] * len(names)
    for digit in reversed(combined_digits(names, deltas)):
        button, value = digit[index % len(digit)]
        index //= len(digit)
        if button:
            pressed[names.index(button)] = value
    return pressed


# Discrete(n) of EnvPool 1.2.5 with use_combined_action=True.
ENVPOOL_COMBINED_N = {
    "Basic-v1": 6,
    "D1Basic-v1": 6,
    "D3Battle-v1": 108,
    "TakeCover-v1": 3,
    "MyWayHome-v1": 18,
    "DeadlyCorridor-v1": 54,
    "Deathmatch-v1": 4536,
}


@pytest.mark.parametrize("task_id, n", sorted(ENVPOOL_COMBINED_N.items()))
def test_combined_action_counts_are_envpools(task_id, n):
    assert envpool.make_spec(task_id, use_combined_action=True).action_space.n == n


def test_combined_action_indices_press_envpools_buttons():
    # D3_battle.cfg lists MOVE_FORWARD MOVE_BACKWARD MOVE_RIGHT MOVE_LEFT
    # TURN_LEFT TURN_RIGHT ATTACK SPEED; the buttons EnvPool 1.2.5 pressed for
    # these indices (read back from the demo it recorded).
    names = "MOVE_FORWARD MOVE_BACKWARD MOVE_RIGHT MOVE_LEFT TURN_LEFT TURN_RIGHT ATTACK SPEED"
    names = names.split()
    seen = {
        0: [],
        1: ["TURN_RIGHT"],
        2: ["TURN_LEFT"],
        3: ["MOVE_BACKWARD"],
        6: ["MOVE_FORWARD"],
        9: ["MOVE_RIGHT"],
        18: ["MOVE_LEFT"],
        27: ["SPEED"],
        54: ["ATTACK"],
        107: ["MOVE_FORWARD", "MOVE_LEFT", "TURN_LEFT", "ATTACK", "SPEED"],
    }
    for index, buttons in seen.items():
        want = [1.0 if b in buttons else 0.0 for b in names]
        assert decode_combined(index, names, {}) == want, index


def _combined(deltas: dict):
    def pick(rng, names):
        n = int(np.prod([len(d) for d in combined_digits(names, deltas)]))
        index = int(rng.integers(0, n))
        return np.array([index]), decode_combined(index, names, deltas)

    return pick


def test_combined_actions_match_doomgame():
    run_aligned("D3Battle-v1", 80, buttons=_combined({}), use_combined_action=True)
    run_aligned("Basic-v1", 80, buttons=_combined({}), use_combined_action=True)


def test_combined_delta_buttons_match_doomgame():
    deltas = {"TURN_LEFT_RIGHT_DELTA": [5, -10, 10], "LOOK_UP_DOWN_DELTA": [3, -2.5, 4]}
    spec = envpool.make_spec("Deathmatch-v1", use_combined_action=True, delta_button_config=deltas)
    assert spec.action_space.n == 4536 * 5 * 3
    run_aligned(
        "Deathmatch-v1",
        60,
        seed=3,
        buttons=_combined(deltas),
        use_combined_action=True,
        delta_button_config=deltas,
    )


def test_envpools_reward_shaping_is_added_to_the_scenarios_reward():
    from envpool.vizdoom import ENVPOOL_REWARD_CONFIG, ENVPOOL_SELECTED_WEAPON_REWARD_CONFIG

    shaping = {
        "reward_config": ENVPOOL_REWARD_CONFIG,
        "selected_weapon_reward_config": ENVPOOL_SELECTED_WEAPON_REWARD_CONFIG,
    }
    stats: dict = {}
    # Deathmatch: weapons switch, ammo is spent, health and armour change.
    run_aligned("Deathmatch-v1", 120, seed=5, stats=stats, weapon_duration=3, **shaping)
    assert stats["shaped_steps"] > 20, stats
    # Basic (living reward -1, kills): the scenario's reward and the shaping.
    run_aligned("Basic-v1", 120, stats=stats, **shaping)
    assert stats["shaped_steps"] > 60, stats


def test_force_speed_holds_speed():
    def no_speed(rng, names):
        pressed = [float(v) for v in rng.integers(0, 2, len(names))]
        for i, name in enumerate(names):
            if name.endswith("_DELTA"):
                pressed[i] = 0.0
        ours = np.array([pressed])
        pressed = list(pressed)
        pressed[names.index("SPEED")] = 1.0
        return ours, pressed

    run_aligned("Deathmatch-v1", 40, buttons=no_speed, force_speed=True)


def test_lmp_save_dir_records_each_episode_of_each_env(tmp_path):
    env = envpool.make_gymnasium("Basic-v1", num_envs=2, lmp_save_dir=str(tmp_path), frame_skip=8)
    env.reset()
    for _ in range(100):  # about 38 steps an episode: two ended, a third begun
        env.step(np.zeros((2, 3)))
    env.close()
    files = sorted(p.name for p in tmp_path.iterdir())
    want = ["env_0_0.lmp", "env_0_1.lmp", "env_1_0.lmp", "env_1_1.lmp"]
    assert [f for f in files if f in want] == want, files
    assert all((tmp_path / f).stat().st_size > 0 for f in want)
    # A recorded episode replays in ViZDoom's own DoomGame.
    game = vzd.DoomGame()
    game.load_config(str(SCENARIOS / "basic.cfg"))
    game.set_doom_scenario_path(str(SCENARIOS / "basic.wad"))
    game.set_doom_config_path(CONFIG_PATH)
    game.set_window_visible(False)
    game.set_sound_enabled(False)
    game.init()
    try:
        game.replay_episode(str(tmp_path / "env_1_0.lmp"))
        tics = 0
        while not game.is_episode_finished():
            game.advance_action()
            tics += 1
        assert tics > 100
    finally:
        game.close()


def test_episode_ends_at_the_scenarios_timeout_not_525_steps():
    # basic.cfg: episode_timeout 300 tics (counted from the map's start); 4 tics a step.
    env = envpool.make_gymnasium("Basic-v1", frame_skip=4)
    env.reset()
    steps = 0
    while True:
        _, _, term, trunc, info = env.step(np.zeros((1, 3)))
        steps += 1
        if term[0] or trunc[0]:
            break
    env.close()
    assert term[0] and not trunc[0]
    assert steps == info["elapsed_step"][0] < 525
    assert steps == 300 // 4, steps


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"cfg_path": "/nonexistent/x.cfg"}, "cfg_path.*pip install vizdoom==1.3.2"),
        ({"wad_path": "/nonexistent/x.wad"}, "wad_path"),
        ({"iwad_path": ""}, "iwad_path"),
        ({"vzd_path": "/nonexistent/vizdoom"}, "vzd_path"),
        ({"frame_skip": 0}, "frame_skip"),
        ({"img_height": -1}, "img_height"),
        ({"lmp_save_dir": "/nonexistent/dir"}, "lmp_save_dir"),
        ({"reward_config": {"NOPE": [1, 2]}}, "reward_config.*no game variable named NOPE"),
        ({"reward_config": {"HEALTH": [1]}}, "reward_config.*HEALTH"),
        ({"reward_config": {"HEALTH": [1, float("nan")]}}, "reward_config.*HEALTH"),
        ({"selected_weapon_reward_config": {12: 1.0}}, "selected_weapon_reward_config"),
        ({"selected_weapon_reward_config": {2: [1.0, 2.0]}}, "selected_weapon_reward_config"),
        ({"weapon_duration": -1}, "weapon_duration"),
        ({"delta_button_config": {"ATTACK": [3, -1, 1]}}, "ATTACK is not a delta button"),
        ({"delta_button_config": {"TURN_LEFT_RIGHT_DELTA": [3, -1, 1]}}, "available_buttons"),
        ({"delta_button_config": {"FOO": [3, -1, 1]}}, "no button named FOO"),
    ],
)
def test_bad_options_name_the_option(kwargs, match):
    with pytest.raises(ValueError, match=match):
        envpool.make_gymnasium("Basic-v1", **kwargs)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"reward_config": [("HEALTH", 1.0, 2.0)]},
        {"reward_config": {"HEALTH": ["a", "b"]}},
        {"reward_config": {("HEALTH",): [1, 2]}},
        {"delta_button_config": "TURN_LEFT_RIGHT_DELTA"},
    ],
)
def test_table_options_of_the_wrong_type_are_type_errors(kwargs):
    with pytest.raises(TypeError, match=next(iter(kwargs))):
        envpool.make_spec("Deathmatch-v1", **kwargs)


def test_delta_button_config_counts_of_values_are_checked():
    for row in ([0, -1, 1], [2.5, -1, 1], [3, -1]):
        with pytest.raises(ValueError, match="delta_button_config"):
            envpool.make_spec(
                "Deathmatch-v1",
                use_combined_action=True,
                delta_button_config={"TURN_LEFT_RIGHT_DELTA": row},
            )


def test_spaces_follow_the_cfg():
    assert envpool.make_spec("Basic-v1").observation_space.shape == (12, 84, 84)
    assert envpool.make_spec("SimplerBasic-v1").observation_space.shape == (4, 84, 84)
    assert envpool.make_spec("Deathmatch-v1").action_space.shape == (20,)
    space = envpool.make_spec("TakeCover-v1").action_space
    assert space.shape == (2,) and space.low[0] == -np.inf and space.high[0] == np.inf
    info = [
        k for k in envpool.make_spec("HealthGathering-v1").state_array_spec if k.startswith("info:")
    ][2:]
    assert info == sorted(info) and "info:HEALTH" in info


def _engines(parent: int, besides: tuple[int, ...] = ()) -> list[int]:
    out = subprocess.run(["ps", "-eo", "pid,ppid,comm"], capture_output=True, text=True).stdout
    return [
        int(p)
        for p, pp, comm in (line.split(None, 2) for line in out.splitlines()[1:])
        if int(pp) == parent and comm.strip() == "vizdoom" and int(p) not in besides
    ]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    status = Path(f"/proc/{pid}/status")
    return status.exists() and "State:\tZ" not in status.read_text()


def _shm_names(engines: list[int]) -> set[str]:
    """The /dev/shm names of these engines' instances (other processes'
    engines may come and go meanwhile)."""
    ids = []
    for pid in engines:
        args = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        ids.append(args[args.index(b"+viz_instance_id") + 1].decode())
    names = (
        {p.name for p in Path("/dev/shm").glob("ViZDoom*")} if Path("/dev/shm").is_dir() else set()
    )
    return {n for n in names if any(n.endswith(i) for i in ids)}


def test_close_and_garbage_collection_end_every_engine():
    import gc

    running = tuple(_engines(os.getpid()))
    env = envpool.make_gymnasium("Basic-v1", num_envs=2)
    env.reset()
    engines = _engines(os.getpid(), running)
    assert len(engines) == 2
    assert not _shm_names(engines)  # the names are gone while the engines run
    env.close()
    assert not any(_alive(p) for p in engines)
    env = envpool.make_gymnasium("Basic-v1", num_envs=2)
    env.reset()
    engines = _engines(os.getpid(), running)
    assert len(engines) == 2
    del env
    gc.collect()
    deadline = time.time() + 10
    while any(_alive(p) for p in engines) and time.time() < deadline:
        time.sleep(0.1)
    assert not any(_alive(p) for p in engines)


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_killed_python_process_leaves_no_engine(sig):
    script = textwrap.dedent(
        """
        import sys, time, envpool
        env = envpool.make_gymnasium("Basic-v1", num_envs=2)
        env.reset()
        print("ready", flush=True)
        time.sleep(120)
        """
    )
    proc = subprocess.Popen([sys.executable, "-P", "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "ready"
        engines = _engines(proc.pid)
        assert len(engines) == 2
        ids = [Path(f"/proc/{p}/cmdline").read_bytes().split(b"\0") for p in engines]
        ids = [a[a.index(b"+viz_instance_id") + 1].decode() for a in ids]
        proc.send_signal(sig)
        proc.wait(timeout=30)
    finally:
        proc.kill()
    deadline = time.time() + 10
    while any(_alive(p) for p in engines) and time.time() < deadline:
        time.sleep(0.1)
    assert not any(_alive(p) for p in engines)
    left = {p.name for p in Path("/dev/shm").glob("ViZDoom*")}
    assert not {n for n in left if any(n.endswith(i) for i in ids)}


def test_engines_starting_together_in_a_new_folder_all_start(tmp_path):
    """Each engine makes ./_vizdoom at start (a check, then a mkdir that is
    fatal if the folder appeared meanwhile): a pool of engines started in a
    folder without it lost one now and then until the env made it first."""
    script = textwrap.dedent(
        """
        import envpool
        env = envpool.make_gymnasium("Basic-v1", num_envs=8)
        env.reset(); env.close()
        print("made")
        """
    )
    for k in range(3):
        cwd = tmp_path / str(k)
        cwd.mkdir()
        out = subprocess.run(
            [sys.executable, "-P", "-c", script],
            cwd=cwd,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert out.returncode == 0 and out.stdout.strip() == "made", out.stderr[-2000:]
        assert (cwd / "_vizdoom").is_dir()


def test_pool_starts_its_engines_while_openblas_threads_run():
    """A pool forks its engines in parallel: fork() runs OpenBLAS's atfork
    handler (it joins BLAS's worker threads), and two at once hung the pool's
    construction, or crashed it, once numpy's or scipy's BLAS threads ran."""
    script = textwrap.dedent(
        """
        import numpy as np, scipy.linalg, envpool
        a = np.random.default_rng(0).random((300, 300))
        scipy.linalg.inv(a); a @ a  # both BLAS libraries start their threads
        for seed in range(3):
            env = envpool.make_gymnasium("Basic-v1", num_envs=8, seed=seed)
            env.reset(); env.close()
            scipy.linalg.inv(a)
        print("made")
        """
    )
    pytest.importorskip("scipy")
    try:
        out = subprocess.run(
            [sys.executable, "-P", "-c", script], capture_output=True, text=True, timeout=120
        )
    except subprocess.TimeoutExpired:
        pytest.fail("making a pool hung with OpenBLAS threads running")
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "made"


SPECS = json.loads(
    (Path(__file__).resolve().parents[2] / "testing" / "reference" / "env_specs.json").read_text()
)
OURS = [t for t in envpool.list_all_envs() if envpool.make_spec(t).entry.family == "vizdoom"]
# Defaults that differ from EnvPool's by design (docs/vizdoom.md): no reward
# shaping unless asked for (the reward is the scenario's, as DoomGame's).
NOT_DEFAULT = {"reward_config", "selected_weapon_reward_config"}
# Paths differ (EnvPool's own asset folder); pool options are the core's.
OWN_VALUES = {"cfg_path", "wad_path", "iwad_path", "vzd_path", "env_seed", "max_num_players"}


def test_async_pool_gives_the_engines_a_worker_per_core():
    # A step waits for the env's engine process, so an async pool has
    # min(batch_size, cores) workers by default, where a pool of envs that
    # step on its threads has one fewer and the caller steps too.
    cores = os.cpu_count() or 1
    if cores < 2:
        pytest.skip("one core: both defaults are one worker")
    doom = envpool.make("Basic-v1", num_envs=3, batch_size=2)
    cartpole = envpool.make("CartPole-v1", num_envs=3, batch_size=2)
    try:
        assert doom._pool.num_threads == min(2, cores)
        assert cartpole._pool.num_threads == min(2, cores) - 1
        doom.async_reset()
        served = set()
        for _ in range(6):
            obs, _, _, _, info = doom.recv()
            assert obs.shape[0] == 2
            served.update(info["env_id"].tolist())
            space = doom.action_space
            doom.send(np.zeros((2, *space.shape), dtype=space.dtype), info["env_id"])
        assert served == {0, 1, 2}
    finally:
        doom.close()
        cartpole.close()


def test_registered_ids_are_envpools():
    theirs = {t for t, s in SPECS.items() if "vzd_path" in s.get("config", {})} | {
        "VizdoomCustom-v1"
    }
    assert set(OURS) == theirs and len(OURS) == 21


@pytest.mark.parametrize("task_id", [t for t in OURS if "config" in SPECS.get(t, {})])
def test_defaults_and_spaces_are_envpools(task_id):
    ref = SPECS[task_id]
    config = envpool.make_spec(task_id).config._asdict()
    for key, value in ref["config"].items():
        if key in OWN_VALUES:
            continue
        if key in NOT_DEFAULT:
            assert config[key] == {}, key
            continue
        if key == "game_args" and task_id in ("Cig-v1", "MultiDuel-v1"):
            assert config[key] == "-host 1 -deathmatch"
            continue
        assert config[key] == value, (key, config[key], value)
    spec = envpool.make_spec(task_id)
    assert list(spec.observation_space.shape) == ref["observation_space"]["shape"]
    assert list(spec.action_space.shape) == ref["action_space"]["shape"]
    assert spec.action_space.dtype == np.dtype(ref["action_space"]["dtype"])


def test_an_engine_that_stops_answering_is_an_error_not_a_hang_nor_a_stuck_close():
    # A stopped engine neither answers nor runs: after 10 s of that the
    # client's wait ends, the engine is killed and the step raises, naming
    # it; a reset starts a new engine and the pool goes on. A close does not
    # wait for a stopped engine either.
    running = tuple(_engines(os.getpid()))
    env = envpool.make_gymnasium("Basic-v1", num_envs=2, seed=4)
    try:
        env.reset()
        engines = _engines(os.getpid(), running)
        assert len(engines) == 2
        os.kill(engines[0], signal.SIGSTOP)
        start = time.time()
        with pytest.raises(RuntimeError, match=r"stopped answering.*state T.*was killed"):
            env.step(np.ones((2, 3)))
        assert 10 <= time.time() - start < 60
        deadline = time.time() + 10
        while _alive(engines[0]) and time.time() < deadline:
            time.sleep(0.1)
        assert not _alive(engines[0])
        with pytest.raises(RuntimeError, match="reset the env"):
            env.step(np.ones((2, 3)))
        env.reset()
        for _ in range(3):
            _, _, _, _, info = env.step(np.ones((2, 3)))
        assert list(info["env_id"]) == [0, 1]
        engines = _engines(os.getpid(), running)
        assert len(engines) == 2
        # A stopped engine does not quit when asked: close kills it after 10 s.
        os.kill(engines[1], signal.SIGSTOP)
        start = time.time()
        env.close()
        assert time.time() - start < 60
        assert not any(_alive(p) for p in engines)
    finally:
        env.close()


def test_envpools_shaping_tables_are_its_defaults():
    from envpool.vizdoom import ENVPOOL_REWARD_CONFIG, ENVPOOL_SELECTED_WEAPON_REWARD_CONFIG

    ref = SPECS["D3Battle-v1"]["config"]
    assert ENVPOOL_REWARD_CONFIG == ref["reward_config"]
    weapons = {str(k): v for k, v in ENVPOOL_SELECTED_WEAPON_REWARD_CONFIG.items()}
    assert weapons == ref["selected_weapon_reward_config"]
    config = envpool.make_spec(
        "D3Battle-v1",
        reward_config=ENVPOOL_REWARD_CONFIG,
        selected_weapon_reward_config=ENVPOOL_SELECTED_WEAPON_REWARD_CONFIG,
    ).config
    assert config.reward_config == ENVPOOL_REWARD_CONFIG
    assert config.selected_weapon_reward_config == ENVPOOL_SELECTED_WEAPON_REWARD_CONFIG
