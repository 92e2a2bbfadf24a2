"""Alignment of the procgen family with procgen 0.10.7 itself.

procgen 0.10.7 only installs on Python <= 3.10, so the reference runs in a
subprocess under such a Python (`make procgen-reference` makes
`benchmark/.venv-procgen310`; PROCGEN_REFERENCE_PYTHON names another one):
`procgen_reference.py` steps `ProcgenGym3Env(num=1, rand_seed=s, ...)` with
a fixed action sequence and stores every frame, reward, first flag and info.
Our env made with seed s (procgen's rand_seed is the seed modulo 2**31)
must give the same, bit for bit: the reset frame, then every frame, reward,
done and info, for every id on a fixed level (num_levels=1, start_level=k),
for every option on a sample of games, and the same level sequence with
num_levels=0. Tests that need the reference skip, naming the reason, when no
such Python exists.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import envpool
from envpool.python.registry import find_entry

ROOT = Path(__file__).resolve().parents[3]
REFERENCE_SCRIPT = Path(__file__).resolve().parent / "procgen_reference.py"
MODES = {"Easy": "easy", "Hard": "hard", "Extreme": "extreme", "Memory": "memory"}
MODES["Exploration"] = "exploration"
IDS = [t for t in envpool.list_all_envs() if find_entry(t).family == "procgen"]
STEPS = 100


def reference_python() -> str | None:
    path = os.environ.get("PROCGEN_REFERENCE_PYTHON") or str(
        ROOT / "benchmark" / ".venv-procgen310" / "bin" / "python"
    )
    return path if os.path.exists(path) else None


def split_id(task_id: str) -> tuple[str, str]:
    name = task_id[: -len("-v0")]
    for mode in MODES:
        if name.endswith(mode):
            return name[: -len(mode)].lower(), mode
    raise AssertionError(task_id)


def actions(seed: int, n: int = STEPS) -> list[int]:
    return [int(a) for a in np.random.default_rng(seed).integers(0, 15, n)]


def fixed_level_case(index: int, task_id: str) -> dict:
    """The id on one fixed level (exploration ids have theirs)."""
    game, mode = split_id(task_id)
    ours: dict = {}
    ref: dict = {"distribution_mode": MODES[mode]}
    if mode != "Exploration":
        ours = {"num_levels": 1, "start_level": 10 + index}
        ref.update(ours)
    return {
        "name": f"fixed/{task_id}",
        "id": task_id,
        "game": game,
        "rand_seed": 100 + index,
        "ours": ours,
        "options": ref,
        "actions": actions(index),
    }


RAW_DEFAULTS = {
    "center_agent": True,
    "use_generated_assets": False,
    "use_monochrome_assets": False,
    "restrict_themes": False,
    "use_backgrounds": True,
    "paint_vel_info": False,
    "distribution_mode": 1,
}

# Every option of EnvPool's procgen spec, on a sample of games.
OPTION_CASES = [
    ("CoinrunHard-v0", {"center_agent": False, "paint_vel_info": True}),
    ("CoinrunEasy-v0", {"use_backgrounds": False, "restrict_themes": True}),
    ("HeistHard-v0", {"use_monochrome_assets": True}),
    ("MazeEasy-v0", {"use_generated_assets": True}),
    ("NinjaHard-v0", {"use_sequential_levels": True, "use_monochrome_assets": True}),
    ("StarpilotHard-v0", {"use_generated_assets": True, "restrict_themes": True}),
    ("BigfishEasy-v0", {"center_agent": False, "use_backgrounds": False}),
    ("ClimberEasy-v0", {"paint_vel_info": True, "restrict_themes": True}),
]


def option_case(index: int, task_id: str, options: dict) -> dict:
    game, mode = split_id(task_id)
    level = {"num_levels": 1, "start_level": 500 + index}
    return {
        "name": f"options/{index}/{task_id}",
        "id": task_id,
        "game": game,
        "rand_seed": 7 + index,
        "ours": {**level, **options},
        "options": {"distribution_mode": MODES[mode], **level, **options},
        "actions": actions(1000 + index),
    }


def easy_jump_case() -> dict:
    """use_easy_jump is no option of procgen's Python wrapper; the reference
    passes it to procgen's library beside the wrapper's own options."""
    raw = {**RAW_DEFAULTS, "distribution_mode": 0, "use_easy_jump": True}
    level = {"num_levels": 1, "start_level": 77}
    return {
        "name": "options/easy_jump/CoinrunEasy-v0",
        "id": "CoinrunEasy-v0",
        "game": "coinrun",
        "rand_seed": 5,
        "ours": {**level, "use_easy_jump": True},
        "options": {**level, "raw_options": raw},
        "actions": [8] * 30 + actions(2000, 70),
    }


# Level sequences from the seed (num_levels=0 and a level range): episodes
# that end by themselves (random actions on games with short episodes), and
# episodes ended by reset().
SEQUENCE_CASES = [
    ("StarpilotEasy-v0", {}, 3, 300),
    ("DodgeballEasy-v0", {}, 4, 300),
    ("LeaperEasy-v0", {"num_levels": 20, "start_level": 9}, 5, 300),
    ("BossfightEasy-v0", {}, 6, 300),
]
RESET_CASES = [
    ("CoinrunHard-v0", {}, 11),
    ("MinerEasy-v0", {"num_levels": 50, "start_level": 1000}, 12),
    ("JumperEasy-v0", {"use_sequential_levels": True}, 13),
]
NUM_RESETS = 25


def sequence_case(task_id: str, options: dict, seed: int, steps: int) -> dict:
    game, mode = split_id(task_id)
    return {
        "name": f"sequence/{task_id}",
        "id": task_id,
        "game": game,
        "rand_seed": seed,
        "ours": options,
        "options": {"distribution_mode": MODES[mode], **options},
        "actions": actions(seed, steps),
    }


def reset_case(task_id: str, options: dict, seed: int) -> dict:
    game, mode = split_id(task_id)
    return {
        "name": f"resets/{task_id}",
        "id": task_id,
        "game": game,
        "rand_seed": seed,
        "ours": options,
        "options": {"distribution_mode": MODES[mode], **options},
        "actions": [-1] * NUM_RESETS,
    }


# A max_episode_steps below procgen's timeout: the pool truncates, and the
# reset that follows is procgen's act(-1).
TRUNCATE_STEPS = 3
TRUNCATE_CASE = {
    "name": "truncate/HeistEasy-v0",
    "id": "HeistEasy-v0",
    "game": "heist",
    "rand_seed": 21,
    "ours": {"max_episode_steps": TRUNCATE_STEPS},
    "options": {"distribution_mode": "easy"},
    "actions": [a for k in range(6) for a in (*actions(300 + k, TRUNCATE_STEPS), -1)],
}

# env i of a pool made with seed s is procgen with rand_seed s + i.
POOL_SEED = 2**31 + 40  # taken modulo 2**31: rand_seed 40, 41, 42
POOL_CASES = [
    {
        "name": f"pool/{i}",
        "id": "FruitbotEasy-v0",
        "game": "fruitbot",
        "rand_seed": 40 + i,
        "ours": {},
        "options": {"distribution_mode": "easy"},
        "actions": actions(77, 60),
    }
    for i in range(3)
]

# render_mode="rgb_array": procgen's 512x512 frames (gym3's info["rgb"]) at
# the reset and after every step, on a sample of games and modes; -1 is a
# reset() in the middle of the episode (procgen's act(-1)), whose frame is
# the next level's first. The first two also run procgen's gym env
# (gym.make("procgen:procgen-<game>-v0", render_mode="rgb_array")), whose
# render(mode="rgb_array") must give the same frames as the gym3 env's.
RENDER_STEPS = 12
RENDER_CASES = [
    ("CoinrunHard-v0", {"num_levels": 1, "start_level": 4}),
    ("StarpilotEasy-v0", {}),
    ("MazeMemory-v0", {"num_levels": 1, "start_level": 9}),
    ("ChaserExtreme-v0", {}),
    ("HeistExploration-v0", {}),
    ("NinjaEasy-v0", {"use_backgrounds": False, "center_agent": False}),
    ("BossfightHard-v0", {"use_monochrome_assets": True}),
]


def render_case(index: int, task_id: str, options: dict) -> dict:
    game, mode = split_id(task_id)
    acts = actions(3000 + index, RENDER_STEPS)
    return {
        "name": f"render/{task_id}",
        "id": task_id,
        "game": game,
        "rand_seed": 60 + index,
        "ours": options,
        "options": {"distribution_mode": MODES[mode], **options},
        "actions": [*acts[:8], -1, *acts[8:]],
        "render": True,
        "gym": index < 2,
    }


CASES = (
    [fixed_level_case(i, t) for i, t in enumerate(IDS)]
    + [option_case(i, t, o) for i, (t, o) in enumerate(OPTION_CASES)]
    + [easy_jump_case()]
    + [sequence_case(*c) for c in SEQUENCE_CASES]
    + [reset_case(*c) for c in RESET_CASES]
    + POOL_CASES
    + [TRUNCATE_CASE]
    + [render_case(i, *c) for i, c in enumerate(RENDER_CASES)]
)
BY_NAME = {c["name"]: c for c in CASES}


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> dict[str, np.ndarray]:
    python = reference_python()
    if python is None:
        pytest.skip(
            "procgen 0.10.7 needs Python <= 3.10: run `make procgen-reference` "
            "(benchmark/.venv-procgen310) or set PROCGEN_REFERENCE_PYTHON"
        )
    folder = tmp_path_factory.mktemp("procgen_reference")
    cases = folder / "cases.json"
    keys = ("name", "game", "rand_seed", "options", "actions", "render", "gym")
    cases.write_text(json.dumps([{k: c[k] for k in keys if k in c} for c in CASES]))
    out = folder / "reference.npz"
    subprocess.run([python, str(REFERENCE_SCRIPT), str(cases), str(out)], check=True, timeout=600)
    with np.load(out) as data:
        return {k: data[k] for k in data.files}


def hwc(obs: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(np.moveaxis(obs, 0, -1))


def infos_of(info: dict, i: int = 0) -> list[int]:
    return [int(info[k][i]) for k in ("prev_level_seed", "prev_level_complete", "level_seed")]


def check_step(
    ref: dict[str, np.ndarray], name: str, t: int, obs, reward, done, info, i=0, frame_only=False
) -> None:
    """Step t of our env against the reference's observation t (with
    frame_only: its frame and info only)."""
    where = f"{name} step {t}"
    assert np.array_equal(hwc(obs), ref[f"{name}/frames"][t]), where + ": frame"
    assert infos_of(info, i) == ref[f"{name}/infos"][t].tolist(), where + ": info"
    if t > 0 and not frame_only:
        assert np.float32(reward) == ref[f"{name}/rewards"][t], where + ": reward"
        assert bool(done) == bool(ref[f"{name}/firsts"][t]), where + ": done"


def run_same_step(case: dict, ref: dict[str, np.ndarray]) -> int:
    """Steps our env in same_step mode, whose ending step returns the next
    episode's first frame as procgen does; returns the episodes ended."""
    env = envpool.make_gymnasium(
        case["id"], num_envs=1, seed=case["rand_seed"], autoreset_mode="same_step", **case["ours"]
    )
    name = case["name"]
    obs, info = env.reset()
    check_step(ref, name, 0, obs[0], 0.0, False, info)
    assert len(ref[f"{name}/frames"]) == len(case["actions"]) + 1
    ended = 0
    for t, action in enumerate(case["actions"], start=1):
        obs, reward, terminated, truncated, info = env.step(np.array([action]))
        done = terminated[0] or truncated[0]
        ended += int(done)
        check_step(ref, name, t, obs[0], reward[0], done, info)
    env.close()
    return ended


@pytest.mark.parametrize("task_id", IDS)
def test_fixed_level_trajectory_equals_procgen(reference, task_id):
    run_same_step(BY_NAME[f"fixed/{task_id}"], reference)


@pytest.mark.parametrize("name", [c["name"] for c in CASES if c["name"].startswith("options/")])
def test_options_trajectory_equals_procgen(reference, name):
    run_same_step(BY_NAME[name], reference)


@pytest.mark.parametrize("task_id", [c[0] for c in SEQUENCE_CASES])
def test_level_sequence_of_ended_episodes_equals_procgen(reference, task_id):
    case = BY_NAME[f"sequence/{task_id}"]
    ended = run_same_step(case, reference)
    assert ended >= 2, "the sequence should cover several episodes"
    levels = set(reference[f"sequence/{task_id}/infos"][:, 2].tolist())
    assert len(levels) >= 2


@pytest.mark.parametrize("task_id", [c[0] for c in RESET_CASES])
def test_level_sequence_of_resets_equals_procgen(reference, task_id):
    """reset() in the middle of an episode is procgen's act(-1)."""
    case = BY_NAME[f"resets/{task_id}"]
    env = envpool.make_gymnasium(task_id, num_envs=1, seed=case["rand_seed"], **case["ours"])
    name = case["name"]
    obs, info = env.reset()
    check_step(reference, name, 0, obs[0], 0.0, False, info)
    for t in range(1, NUM_RESETS + 1):
        env.step(np.array([4]))  # mid-episode: reset() must end it
        obs, info = env.reset()
        check_step(reference, name, t, obs[0], 0.0, True, info)
    assert len(set(reference[f"{name}/infos"][:, 2].tolist())) > 5


def test_next_step_autoreset_repeats_procgens_first_frame(reference):
    """In next_step mode the step after an episode's end is the reset turn:
    it returns the frame procgen returned at the end (procgen has already
    started the next level), reward 0, elapsed_step 0."""
    case = BY_NAME["sequence/DodgeballEasy-v0"]
    name = case["name"]
    env = envpool.make_gymnasium(case["id"], num_envs=1, seed=case["rand_seed"])
    obs, info = env.reset()
    check_step(reference, name, 0, obs[0], 0.0, False, info)
    resets = 0
    done = False
    for t, action in enumerate(case["actions"], start=1):
        if done:
            obs, reward, terminated, truncated, info = env.step(np.array([0]))
            assert info["elapsed_step"][0] == 0 and reward[0] == 0.0
            assert not terminated[0] and not truncated[0]
            check_step(reference, name, t - 1, obs[0], 0.0, False, info, frame_only=True)
            resets += 1
        obs, reward, terminated, truncated, info = env.step(np.array([action]))
        done = bool(terminated[0] or truncated[0])
        check_step(reference, name, t, obs[0], reward[0], done, info)
    assert resets >= 2


def test_truncated_episode_resets_as_procgens_act_minus_one(reference):
    name = TRUNCATE_CASE["name"]
    env = envpool.make_gymnasium(
        TRUNCATE_CASE["id"], num_envs=1, seed=TRUNCATE_CASE["rand_seed"], **TRUNCATE_CASE["ours"]
    )
    obs, info = env.reset()
    check_step(reference, name, 0, obs[0], 0.0, False, info)
    for t, action in enumerate(TRUNCATE_CASE["actions"], start=1):
        obs, reward, terminated, truncated, info = env.step(np.array([max(action, 0)]))
        if action == -1:  # the reset turn after the truncation
            assert info["elapsed_step"][0] == 0
            check_step(reference, name, t, obs[0], 0.0, True, info, frame_only=True)
        else:
            assert truncated[0] == (t % (TRUNCATE_STEPS + 1) == TRUNCATE_STEPS)
            # procgen's episode goes on: done is termination only
            check_step(reference, name, t, obs[0], reward[0], terminated[0], info)
    levels = reference[f"{name}/infos"][:, 2]
    assert len(set(levels.tolist())) > 3


def test_pool_env_i_is_procgen_with_rand_seed_seed_plus_i(reference):
    env = envpool.make_gymnasium("FruitbotEasy-v0", num_envs=3, seed=POOL_SEED, num_threads=3)
    obs, info = env.reset()
    for i in range(3):
        check_step(reference, f"pool/{i}", 0, obs[i], 0.0, False, info, i)
    for t, action in enumerate(POOL_CASES[0]["actions"], start=1):
        obs, reward, terminated, truncated, info = env.step(np.full(3, action))
        for i in range(3):
            done = terminated[i] or truncated[i]
            if done:
                pytest.fail("the fixed actions should not end a fruitbot episode")
            check_step(reference, f"pool/{i}", t, obs[i], reward[i], done, info, i)


@pytest.mark.parametrize("task_id", [c[0] for c in RENDER_CASES])
def test_render_equals_procgens_rgb_array_frames(reference, task_id):
    """render() is procgen's 512x512 render_mode="rgb_array" frame, pixel
    for pixel, at the reset and after every step and mid-episode reset; the
    observations stay procgen's."""
    case = BY_NAME[f"render/{task_id}"]
    name = case["name"]
    env = envpool.make_gymnasium(
        task_id,
        num_envs=1,
        seed=case["rand_seed"],
        autoreset_mode="same_step",
        render_mode="rgb_array",
        **case["ours"],
    )
    assert env.metadata["render_fps"] == 15
    renders = reference[f"{name}/renders"]
    assert renders.shape == (len(case["actions"]) + 1, 512, 512, 3)
    obs, info = env.reset()
    frames = [(obs[0], info)]
    ours = [env.render()]
    for action in case["actions"]:
        if action == -1:
            obs, info = env.reset()
        else:
            obs, _, _, _, info = env.step(np.array([action]))
        frames.append((obs[0], info))
        ours.append(env.render())
    env.close()
    for t, ((frame, info), image) in enumerate(zip(frames, ours, strict=True)):
        check_step(reference, name, t, frame, 0.0, False, info, frame_only=True)
        assert image.shape == (1, 512, 512, 3) and image.dtype == np.uint8
        diff = np.abs(image[0].astype(int) - renders[t].astype(int)).max()
        assert diff == 0, f"{name} step {t}: render differs by up to {diff}"
    # the frames change: a mid-episode reset shows another level
    assert not np.array_equal(renders[8], renders[9])
    if case["gym"]:
        # procgen's gym env renders the gym3 env's frames, so ours too
        gym_diff = reference[f"{name}/gym_render_diff"]
        assert gym_diff.shape == (len(renders),) and gym_diff.max() == 0, gym_diff


def test_render_pool_draws_each_env_and_keeps_stepping_unchanged():
    """render(env_ids) of a pool gives each env's own frame (the frame of
    env i alone), and a pool that renders steps as one that does not."""
    seeds = [3, 4, 5]
    acts = np.random.default_rng(1).integers(0, 15, (6, 3))
    pool = envpool.make_gymnasium(
        "DodgeballEasy-v0", num_envs=3, seed=seeds, num_threads=3, render_mode="rgb_array"
    )
    plain = envpool.make_gymnasium("DodgeballEasy-v0", num_envs=3, seed=seeds)
    assert np.array_equal(pool.reset()[0], plain.reset()[0])
    for a in acts:
        assert np.array_equal(pool.step(a)[0], plain.step(a)[0])
    batch = pool.render(env_ids=[2, 0, 1])
    assert batch.shape == (3, 512, 512, 3)
    single = envpool.make_gymnasium(
        "DodgeballEasy-v0", num_envs=1, seed=seeds[2], render_mode="rgb_array"
    )
    single.reset()
    for a in acts:
        single.step(a[2:3])
    assert np.array_equal(batch[0], single.render()[0])
    assert not np.array_equal(batch[0], batch[1])


def test_render_options():
    env = envpool.make_gymnasium("CoinrunEasy-v0", num_envs=1, render_mode="rgb_array")
    assert env.render_mode == "rgb_array"
    assert "rgb_array" in env.metadata["render_modes"]
    with pytest.raises(ValueError, match="render_width"):
        envpool.make_gymnasium("CoinrunEasy-v0", render_mode="rgb_array", render_width=64)
    with pytest.raises(ValueError, match="render_mode"):
        envpool.make_gymnasium("CoinrunEasy-v0", render_mode="ansi")
    plain = envpool.make_gymnasium("CoinrunEasy-v0", num_envs=1)
    plain.reset()
    with pytest.raises(RuntimeError, match="render_mode"):
        plain.render()


# Without the reference ------------------------------------------------------


def test_registers_the_50_ids_of_the_reference():
    import csv

    with open(ROOT / "envpool" / "testing" / "reference" / "env_ids.tsv") as f:
        rows = [r for r in csv.reader(f, delimiter="\t") if r and r[0] == "procgen"]
    assert sorted(IDS) == sorted(r[1] for r in rows)
    for row in rows:
        overrides = json.loads(row[3])
        config = envpool.make_spec(row[1]).config._asdict()
        for key, value in overrides.items():
            assert config[key] == value, (row[1], key)


def test_timeout_ends_the_episode_as_truncation():
    """procgen ends a maze episode after 500 steps; the pool's limit is the
    same, so that step is truncated, not terminated."""
    env = envpool.make_gymnasium("MazeEasy-v0", num_envs=1, seed=0, num_levels=1, start_level=3)
    env.reset()
    for t in range(1, 501):
        _, _, terminated, truncated, _ = env.step(np.array([4]))  # no-op
        assert not terminated[0]
        assert truncated[0] == (t == 500)
    obs_end = env.step(np.array([4]))[0]
    first = envpool.make_gymnasium("MazeEasy-v0", num_envs=1, seed=0, num_levels=1, start_level=3)
    assert np.array_equal(obs_end, first.reset()[0])


def test_channel_last_observation_is_the_same_frame():
    a = envpool.make_gymnasium("CoinrunEasy-v0", num_envs=1, seed=3)
    b = envpool.make_gymnasium("CoinrunEasy-v0", num_envs=1, seed=3, channel_first=False)
    assert b.observation_space.shape == (64, 64, 3)
    oa, ob = a.reset()[0], b.reset()[0]
    assert np.array_equal(hwc(oa[0]), ob[0])
    for action in actions(3, 20):
        oa = a.step(np.array([action]))[0]
        ob = b.step(np.array([action]))[0]
        assert np.array_equal(hwc(oa[0]), ob[0])


def test_exploration_mode_is_its_fixed_level():
    env = envpool.make_gymnasium("CoinrunExploration-v0", num_envs=2, seed=5)
    _, info = env.reset()
    assert info["level_seed"].tolist() == [1949448038, 1949448038]


@pytest.mark.parametrize(
    ("task_id", "options"),
    [
        ("CoinrunExploration-v0", {"num_levels": 1}),
        ("CoinrunExploration-v0", {"start_level": 7}),
        # procgen refuses either option when passed at all, its default included
        ("MazeExploration-v0", {"num_levels": 0}),
        ("HeistExploration-v0", {"start_level": 0}),
        ("NinjaEasy-v0", {"distribution_mode": 20, "num_levels": 5}),
    ],
)
def test_exploration_mode_refuses_num_levels_and_start_level(task_id, options):
    """As procgen's ProcgenGym3Env ("exploration mode overrides num_levels"): a ValueError
    naming the option, not the option silently ignored; the pool class goes on."""
    (name,) = options.keys() - {"distribution_mode"}
    with pytest.raises(ValueError, match=f"exploration mode overrides {name}"):
        envpool.make_gymnasium(task_id, **options)
    with pytest.raises(ValueError, match=f"exploration mode overrides {name}"):
        envpool.make_spec(task_id, **options)
    # the same options with another mode, and the mode without them, are fine
    envpool.make_spec(task_id, **{**options, "distribution_mode": 1})
    assert envpool.make_spec(task_id, num_envs=2).config.num_levels == 0


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"env_name": "pong"}, "env_name"),
        ({"distribution_mode": 10}, "distribution_mode"),
        ({"distribution_mode": 3}, "distribution_mode"),
        ({"num_levels": -1}, "num_levels"),
        ({"start_level": 2**31}, "start_level"),
        ({"data_dir": "/nonexistent/procgen"}, "libenv.so"),
    ],
)
def test_bad_options_raise_value_error(options, message):
    with pytest.raises(ValueError, match=message):
        envpool.make_gymnasium("CoinrunEasy-v0", **options)


def test_many_envs_on_many_threads_step_as_one():
    """Instances made and stepped on several worker threads at once give
    what one env alone gives."""
    seeds = list(range(8))
    acts = np.random.default_rng(0).integers(0, 15, (40, 8))
    pool = envpool.make_gymnasium("StarpilotHard-v0", num_envs=8, seed=seeds, num_threads=4)
    frames = [pool.reset()[0]]
    frames += [pool.step(a)[0] for a in acts]
    for i in (0, 5):
        single = envpool.make_gymnasium("StarpilotHard-v0", num_envs=1, seed=seeds[i])
        alone = [single.reset()[0][0]] + [single.step(a[i : i + 1])[0][0] for a in acts]
        for t, frame in enumerate(alone):
            assert np.array_equal(frame, frames[t][i]), (i, t)


COPIES_SCRIPT = """
import sys
import numpy as np
import envpool

acts = np.random.default_rng(0).integers(0, 15, (40, 8))
pool = envpool.make_gymnasium("StarpilotHard-v0", num_envs=8, seed=list(range(8)), num_threads=4)
frames = [pool.reset()[0]] + [pool.step(a)[0] for a in acts]
maps = open("/proc/self/maps").read().splitlines()
libraries = {line.split()[-2] if line.endswith("(deleted)") else line.split()[-1]
             for line in maps if "libenv.so" in line}
np.savez(sys.argv[1], frames=np.stack(frames), libraries=len(libraries))
"""


def run_with_copies(copies: str, out: Path, **extra: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, ENVPOOL_PROCGEN_LIBRARY_COPIES=copies, **extra)
    return subprocess.run(
        [sys.executable, "-P", "-c", COPIES_SCRIPT, str(out)],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_envs_spread_over_library_copies_step_as_on_one(tmp_path):
    """ENVPOOL_PROCGEN_LIBRARY_COPIES=3 loads three copies of libenv.so and
    gives every frame that one copy gives."""
    results = {}
    for copies in ("1", "3"):
        proc = run_with_copies(copies, tmp_path / f"{copies}.npz")
        assert proc.returncode == 0, proc.stderr
        results[copies] = np.load(tmp_path / f"{copies}.npz")
    assert int(results["1"]["libraries"]) == 1
    assert int(results["3"]["libraries"]) == 3
    assert np.array_equal(results["1"]["frames"], results["3"]["frames"])


def test_bad_library_copies_raise(tmp_path):
    proc = run_with_copies("zero", tmp_path / "x.npz")
    assert proc.returncode != 0
    assert "ENVPOOL_PROCGEN_LIBRARY_COPIES must be a positive integer" in proc.stderr


def test_library_copies_without_a_temporary_folder_use_the_one_library(tmp_path):
    """Where no copy can be written, every env runs on the shipped library."""
    out = tmp_path / "x.npz"
    proc = run_with_copies("3", out, TMPDIR=str(tmp_path / "missing"))
    assert proc.returncode == 0, proc.stderr
    assert int(np.load(out)["libraries"]) == 1
