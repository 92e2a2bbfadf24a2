"""minigrid (MiniGrid and BabyAI) against its reference, minigrid 3.2.0
(gymnasium 1.4).

Matched by seed alone: env i of `envpool.make(id, seed=s, num_envs=k)` is
stepped beside `gymnasium.make(id)` reset with `seed=s + i`, both given the
same actions, over whole episodes; when our env ends an episode, its next
step (next_step autoreset) is the next episode's first observation and the
reference is reset there without a seed, so both generators continue.  At
every step the image, direction, mission bytes, reward (as float32),
terminated, truncated, info["agent_pos"] and info["mission_id"] must be
equal, and at every reset the full grid (minigrid's Grid.encode(), read
through the get_state test hook) too.  No state is copied between them.

Every registered id but the WFC ids (test_wfc.py) is run.  To keep the run
short, the MiniGrid ids truncate at `max_episode_steps=min(default, 120)` on
both sides (the reference through gymnasium's TimeLimit), which leaves minigrid's own
max_steps, and so the reward, alone; truncation at the full default is
checked on small ids.  BabyAI ids (max_episode_steps 0: no pool limit) end
at the level's own max_steps, which BabyAI computes from the instruction;
the reference's mission strings (BabyAI's grammar) are compared byte for
byte, and its rejection-sampling retries must be the same for the layouts
to be.
"""

from __future__ import annotations

import itertools
import json
import warnings
from pathlib import Path

import gymnasium
import minigrid  # noqa: F401  (registers the reference ids)
import numpy as np
import pytest

import envpool
from envpool.minigrid.registration import _IDS

# The WFC ids, whose reference takes seconds a layout, have test_wfc.py.
REFERENCE = Path(__file__).resolve().parents[2] / "testing" / "reference"
IDS = sorted(i for i in _IDS if "-WFC-" not in i)
SHORT = 120
STEPS = 150
NO_LIMIT = 2**31 - 1  # BabyAI ids: the level's own max_steps ends episodes


def reference(task_id: str, max_episode_steps: int | None = None, **options):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        kwargs = {} if max_episode_steps is None else {"max_episode_steps": max_episode_steps}
        return gymnasium.make(task_id, disable_env_checker=True, **kwargs, **options)


def mission_bytes(text: str, length: int) -> np.ndarray:
    out = np.zeros(length, dtype=np.uint8)
    raw = text.encode()
    out[: len(raw)] = np.frombuffer(raw, dtype=np.uint8)[:length]
    return out


def mission_index(env) -> int:
    """The mission's index in the product of the mission space's placeholders."""
    if env.spec.id.startswith("BabyAI"):
        return -1
    space = env.unwrapped.observation_space["mission"]
    if not space.ordered_placeholders:
        return 0
    missions = [
        space.mission_func(*choice) for choice in itertools.product(*space.ordered_placeholders)
    ]
    return missions.index(env.unwrapped.mission)


def grid_of(state: np.ndarray) -> tuple[np.ndarray, tuple[int, int]]:
    width, height = int(state[-7]), int(state[-6])
    grid = np.asarray(state[: width * height * 3], dtype=np.uint8).reshape(width, height, 3)
    return grid, (int(state[-5]), int(state[-4]))


def policy(rng: np.random.Generator, n: int) -> int:
    # forward half of the time, so episodes reach goals, doors and lava
    return 2 if rng.random() < 0.45 else int(rng.integers(0, n))


def run_aligned(
    task_id: str,
    seed: int,
    steps: int,
    max_episode_steps: int,
    options: dict | None = None,
    ref_options: dict | None = None,
) -> dict:
    """Our env made with `options` beside minigrid's made with `ref_options`
    (the same arguments in minigrid's form), seed for seed."""
    env = envpool.make(
        task_id,
        env_type="gymnasium",
        num_envs=1,
        seed=seed,
        max_episode_steps=max_episode_steps,
        **(options or {}),
    )
    ref = reference(
        task_id,
        None if max_episode_steps == NO_LIMIT else max_episode_steps,
        **(ref_options or {}),
    )
    n = env.action_space.n
    rng = np.random.default_rng(seed + 1000)
    counts = {"episodes": 0, "success": 0, "truncated": 0}

    def check_reset(obs, info, tag):
        ref_obs, _ = pending
        assert np.array_equal(obs["image"][0], ref_obs["image"]), tag
        assert int(obs["direction"][0]) == ref_obs["direction"], tag
        mission = mission_bytes(ref_obs["mission"], obs["mission"].shape[1])
        assert np.array_equal(obs["mission"][0], mission), tag
        grid, agent = grid_of(env._pool.get_state(0))
        assert np.array_equal(grid, ref.unwrapped.grid.encode()), tag
        assert agent == tuple(int(v) for v in ref.unwrapped.agent_pos), tag
        assert tuple(info["agent_pos"][0]) == agent, tag
        assert int(info["mission_id"][0]) == mission_index(ref), tag

    obs, info = env.reset()
    pending = ref.reset(seed=seed)
    check_reset(obs, info, (task_id, seed, "reset"))
    done = False
    for t in range(steps):
        action = policy(rng, n)
        obs, rew, term, trunc, info = env.step(np.array([action]))
        tag = (task_id, seed, t)
        if done:
            pending = ref.reset()
            check_reset(obs, info, tag)
            assert not term[0] and not trunc[0] and rew[0] == 0.0, tag
            done = False
            continue
        ref_obs, ref_rew, ref_term, ref_trunc, _ = ref.step(action)
        assert np.array_equal(obs["image"][0], ref_obs["image"]), tag
        assert int(obs["direction"][0]) == ref_obs["direction"], tag
        assert rew[0] == np.float32(ref_rew), (tag, rew[0], ref_rew)
        assert bool(term[0]) == ref_term and bool(trunc[0]) == ref_trunc, tag
        assert tuple(info["agent_pos"][0]) == tuple(int(v) for v in ref.unwrapped.agent_pos), tag
        assert int(info["mission_id"][0]) == mission_index(ref), tag
        if ref_term or ref_trunc:
            done = True
            counts["episodes"] += 1
            counts["success"] += int(ref_rew > 0)
            counts["truncated"] += int(ref_trunc)
    env.close()
    return counts


@pytest.mark.parametrize("task_id", IDS)
def test_same_seed_same_episodes_as_minigrid(task_id):
    default = envpool.make_spec(task_id).config.max_episode_steps
    limit = min(default, SHORT) if task_id.startswith("MiniGrid") else default
    for seed in (0, 17):
        run_aligned(task_id, seed, steps=STEPS, max_episode_steps=limit)


@pytest.mark.parametrize(
    "task_id, steps",
    [
        ("MiniGrid-Empty-5x5-v0", 400),
        ("MiniGrid-FourRooms-v0", 400),
        ("MiniGrid-PutNear-6x6-N2-v0", 120),
        ("BabyAI-GoToRedBallNoDists-v0", 300),
        ("BabyAI-OpenRedDoor-v0", 300),
        ("BabyAI-GoToObjS4-v0", 200),
    ],
)
def test_full_length_episodes_truncate_where_minigrid_does(task_id, steps):
    default = envpool.make_spec(task_id).config.max_episode_steps
    counts = run_aligned(task_id, 3, steps=steps, max_episode_steps=default)
    assert counts["episodes"] >= 2 and counts["truncated"] >= 1, counts


def test_random_episodes_reach_success_and_truncation():
    # The alignment runs above see the reward branch, not just zeros.
    counts = run_aligned("MiniGrid-Empty-5x5-v0", 5, steps=600, max_episode_steps=100)
    assert counts["success"] > 0 and counts["truncated"] > 0, counts
    counts = run_aligned("MiniGrid-Fetch-5x5-N2-v0", 5, steps=600, max_episode_steps=125)
    assert counts["success"] > 0, counts
    counts = run_aligned("BabyAI-GoToLocalS5N2-v0", 5, steps=600, max_episode_steps=NO_LIMIT)
    assert counts["success"] > 0 and counts["truncated"] > 0, counts


def test_envs_of_one_pool_follow_seed_plus_i():
    env = envpool.make("MiniGrid-DoorKey-8x8-v0", num_envs=3, seed=40)
    obs, _ = env.reset()
    for i in range(3):
        ref = reference("MiniGrid-DoorKey-8x8-v0")
        ref_obs, _ = ref.reset(seed=40 + i)
        assert np.array_equal(obs["image"][i], ref_obs["image"])
        grid, _ = grid_of(env._pool.get_state(i))
        assert np.array_equal(grid, ref.unwrapped.grid.encode())


def test_babyai_mission_is_the_reference_surface_in_512_bytes():
    env = envpool.make("BabyAI-BossLevel-v0", num_envs=1, seed=9)
    obs, info = env.reset()
    ref = reference("BabyAI-BossLevel-v0")
    ref.reset(seed=9)
    text = bytes(obs["mission"][0]).rstrip(b"\0").decode()
    assert obs["mission"].shape == (1, 512)
    assert text == ref.unwrapped.mission and len(text) > 10
    assert info["mission_id"][0] == -1


def test_spaces_and_mission_layout():
    spec = envpool.make_spec("MiniGrid-Empty-5x5-v0")
    assert spec.observation_space["image"].shape == (7, 7, 3)
    assert spec.observation_space["mission"].shape == (96,)
    assert spec.action_space.n == 7
    assert envpool.make_spec("MiniGrid-Dynamic-Obstacles-8x8-v0").action_space.n == 3
    env = envpool.make("MiniGrid-DoorKey-5x5-v0", num_envs=1, seed=0)
    obs, _ = env.reset()
    text = bytes(obs["mission"][0]).rstrip(b"\0").decode()
    assert text == "use the key to open the door and then get to the goal"


def test_agent_view_size_option_changes_the_image():
    env = envpool.make("MiniGrid-Empty-8x8-v0", num_envs=1, seed=0, agent_view_size=5)
    ref = gymnasium.make("MiniGrid-Empty-8x8-v0", agent_view_size=5, disable_env_checker=True)
    obs, _ = env.reset()
    ref_obs, _ = ref.reset(seed=0)
    assert obs["image"].shape == (1, 5, 5, 3)
    assert np.array_equal(obs["image"][0], ref_obs["image"])


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"env_name": "nope"}, "env_name"),
        ({"agent_view_size": 4}, "agent_view_size"),
        ({"obstacle_type": "water"}, "obstacle_type"),
        ({"action_max": 3}, "action_max"),
        ({"size": 2}, "size"),
    ],
)
def test_bad_option_values_raise_value_error(kwargs, match):
    with pytest.raises(ValueError, match=match):
        envpool.make("MiniGrid-Empty-5x5-v0", num_envs=1, **kwargs)


@pytest.mark.parametrize(
    "task_id, kwargs",
    [
        ("MiniGrid-Fetch-5x5-N2-v0", {"num_objs": 20}),
        ("BabyAI-PutNextLocalS5N3-v0", {"num_objs": 20}),
    ],
)
def test_options_that_leave_no_layout_raise_instead_of_hanging(task_id, kwargs):
    # minigrid itself would draw forever here
    env = envpool.make(task_id, num_envs=1, **kwargs)
    with pytest.raises(RuntimeError, match=r"no free cell|no layout"):
        env.reset()


# -- the options EnvPool added for minigrid's constructors --------------------

# (id, our option, minigrid's argument): a value other than the id's default,
# each checked against minigrid built with the same argument.
OPTION_CASES = [
    ("MiniGrid-Empty-8x8-v0", {"agent_start_pos": [3, 2]}, {"agent_start_pos": (3, 2)}),
    (
        "MiniGrid-Dynamic-Obstacles-8x8-v0",
        {"agent_start_pos": (2, 4), "agent_start_dir": 3},
        {"agent_start_pos": (2, 4), "agent_start_dir": 3},
    ),
    ("MiniGrid-DistShift1-v0", {"agent_start_pos": [3, 1]}, {"agent_start_pos": (3, 1)}),
    ("MiniGrid-ObstructedMaze-Full-v0", {"agent_room": [0, 2]}, {"agent_room": (0, 2)}),
    ("MiniGrid-ObstructedMaze-Full-v1", {"agent_room": [2, 0]}, {"agent_room": (2, 0)}),
    ("BabyAI-BossLevel-v0", {"action_kinds": "open,goto"}, {"action_kinds": ["open", "goto"]}),
    ("BabyAI-SynthLoc-v0", {"action_kinds": "pickup"}, {"action_kinds": ["pickup"]}),
    ("BabyAI-BossLevel-v0", {"instr_kinds": "seq"}, {"instr_kinds": ["seq"]}),
    ("BabyAI-GoToSeq-v0", {"instr_kinds": "and,action"}, {"instr_kinds": ["and", "action"]}),
    ("BabyAI-BossLevel-v0", {"locations": False}, {"locations": False}),
    ("BabyAI-MiniBossLevel-v0", {"unblocking": False}, {"unblocking": False}),
    ("BabyAI-BossLevel-v0", {"implicit_unlock": False}, {"implicit_unlock": False}),
    ("BabyAI-PickupLoc-v0", {"implicit_unlock": False}, {"implicit_unlock": False}),
    ("BabyAI-BossLevel-v0", {"locked_room_prob": 1.0}, {"locked_room_prob": 1.0}),
    ("BabyAI-Synth-v0", {"locked_room_prob": 0}, {"locked_room_prob": 0}),
    (
        "BabyAI-BossLevel-v0",
        {"room_size": 6, "num_rows": 2, "num_dists": 5},
        {"room_size": 6, "num_rows": 2, "num_dists": 5},
    ),
]


@pytest.mark.parametrize(
    "task_id, options, ref_options",
    OPTION_CASES,
    ids=[f"{case[0]}-{'-'.join(case[1])}" for case in OPTION_CASES],
)
def test_option_values_match_minigrid_built_with_the_same_arguments(task_id, options, ref_options):
    default = envpool.make_spec(task_id).config.max_episode_steps
    limit = min(default, SHORT) if task_id.startswith("MiniGrid") else default
    for seed in (1, 23):
        run_aligned(task_id, seed, 80, limit, options, ref_options)


def test_option_values_change_the_layout():
    # The cases above could pass with the option ignored if the default drew
    # the same layouts: these do not.
    def first_grid(task_id, **options):
        # 30 layouts and missions: the seeds' first ones can agree by chance
        env = envpool.make(task_id, num_envs=1, seed=4, **options)
        seen = []
        for seed in range(30):
            obs, _ = env.reset(seed=seed)
            seen += [env._pool.get_state(0), obs["mission"][0]]
        return np.concatenate(seen)

    for task_id, options, _ in OPTION_CASES:
        if task_id == "BabyAI-PickupLoc-v0":
            continue  # no locked room (locked_room_prob 0): implicit_unlock is moot
        assert not np.array_equal(first_grid(task_id), first_grid(task_id, **options)), (
            task_id,
            options,
        )


@pytest.mark.parametrize(
    "task_id, options",
    [
        ("BabyAI-GoToLocal-v0", {"locations": False}),
        ("BabyAI-GoToLocal-v0", {"action_kinds": "goto"}),
        ("BabyAI-BossLevelNoUnlock-v0", {"locked_room_prob": 0.25}),
        ("BabyAI-BossLevelNoUnlock-v0", {"implicit_unlock": False}),
        ("BabyAI-MiniBossLevel-v0", {"locked_room_prob": 0.1}),
        ("BabyAI-Synth-v0", {"instr_kinds": "seq"}),
        ("BabyAI-SynthSeq-v0", {"unblocking": False}),
        ("BabyAI-GoToSeq-v0", {"action_kinds": "open"}),
        ("BabyAI-GoToSeq-v0", {"unblocking": False}),
        ("BabyAI-PickupLoc-v0", {"locked_room_prob": 0.2}),
        ("MiniGrid-DoorKey-8x8-v0", {"agent_start_pos": [2, 2]}),
        ("MiniGrid-Empty-8x8-v0", {"agent_room": [0, 0]}),
        ("MiniGrid-ObstructedMaze-1Dl-v0", {"agent_room": [1, 0]}),
        ("MiniGrid-Empty-8x8-v0", {"wfc_preset": "RoomsFabric"}),
        ("MiniGrid-Empty-8x8-v0", {"ensure_connected": False}),
    ],
)
def test_options_a_level_does_not_take_raise_value_error(task_id, options):
    # minigrid's constructor of the level refuses the argument (or fixes it)
    with pytest.raises(ValueError, match=f"{next(iter(options))}.*has no meaning"):
        envpool.make(task_id, num_envs=1, **options)


@pytest.mark.parametrize(
    "options, match",
    [
        ({"action_kinds": "goto,jump"}, "action_kinds"),
        ({"action_kinds": ""}, "action_kinds"),
        ({"instr_kinds": "action,or"}, "instr_kinds"),
        ({"locked_room_prob": 1.5}, "locked_room_prob"),
        ({"agent_room": [1, 1, 1]}, "agent_room"),
        ({"agent_start_pos": [30, 1]}, "agent_start_pos"),
    ],
)
def test_bad_values_of_the_constructor_options_raise_value_error(options, match):
    with pytest.raises(ValueError, match=match):
        envpool.make("BabyAI-BossLevel-v0", num_envs=1, **options)


@pytest.mark.parametrize(
    "options", [{"agent_start_pos": 3}, {"agent_start_pos": [1.5, 2]}, {"agent_room": "1,1"}]
)
def test_ill_typed_pair_options_raise_type_error(options):
    with pytest.raises(TypeError, match=next(iter(options))):
        envpool.make("MiniGrid-Empty-8x8-v0", num_envs=1, **options)


def test_pair_options_take_numpy_and_tuples_and_read_back_as_lists():
    spec = envpool.make_spec("MiniGrid-Empty-8x8-v0", agent_start_pos=np.array([2, 3]))
    assert spec.config.agent_start_pos == [2, 3]
    spec = envpool.make_spec("MiniGrid-Empty-8x8-v0", agent_start_pos=(np.int64(4), 1))
    assert spec.config.agent_start_pos == [4, 1]


# Where this project's config differs from EnvPool 1.2.5's (docs/minigrid.md):
# minigrid's start room of ObstructedMaze-Full and the core's no-limit default
# for BabyAI's max_episode_steps.
CONFIG_DIFFERENCES = {
    ("MiniGrid-ObstructedMaze-Full-v0", "agent_room"),
    ("MiniGrid-ObstructedMaze-Full-v1", "agent_room"),
}


def test_config_has_every_option_of_envpool_with_its_value():
    specs = json.loads((REFERENCE / "env_specs.json").read_text())
    checked = 0
    for task_id in sorted(_IDS):
        ref = specs[task_id]["config"]
        config = envpool.make_spec(task_id).config._asdict()
        for key, value in ref.items():
            if key == "env_seed":  # EnvPool's internal list; `seed` takes lists here
                continue
            assert key in config, (task_id, key)
            if (task_id, key) in CONFIG_DIFFERENCES:
                assert config[key] != value, (task_id, key)
            elif key == "max_episode_steps" and task_id.startswith("BabyAI"):
                assert value == 0 and config[key] == NO_LIMIT, task_id
            else:
                assert config[key] == value, (task_id, key, config[key], value)
            checked += 1
    assert len(_IDS) == 177 and checked == 177 * 54  # every key but env_seed


def level_names() -> list[str]:
    """The levels of the C++ level table (level_table.h), in its order."""
    envpool.make_spec("MiniGrid-Empty-5x5-v0")  # loads the family's native module
    from envpool.minigrid import _minigrid

    return list(_minigrid.level_names())


def test_ids_name_exactly_the_levels_of_the_level_table():
    # a level is named once, in the C++ table; registration.py's ids only use
    # those names, and a level no id uses is dead code
    levels = level_names()
    assert len(levels) == len(set(levels)) == 64
    used = {overrides["env_name"] for overrides in _IDS.values()}
    assert used - set(levels) == set(), "ids name levels the C++ table lacks"
    assert set(levels) - used == set(), "levels of the C++ table no id uses"
