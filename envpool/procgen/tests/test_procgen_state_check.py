"""Crafted procgen states: refused with a ValueError, never an abort.

procgen's libenv `set_state` ends the process on a game it cannot read or
draw (its `fassert`s, vector sizes it cannot allocate, tables indexed with
what it read). A state whose checksum holds can still carry such bytes, so
the env walks them first (envpool/procgen/procgen_state.h). Each case below
rewrites one field of a real state, reseals the checksum, and requires
`set_state` to raise ValueError with the env unchanged and stepping on.
Without the check each of these ends the test process.
"""

from __future__ import annotations

import struct
from collections.abc import Callable

import numpy as np
import pytest
from procgen_state_layout import GameLayout, game_name, parse_game, split_state, with_game

import envpool
from envpool.python.snapshot import EnvState

GAMES = {
    "bigfish": "BigfishEasy-v0",
    "bossfight": "BossfightEasy-v0",
    "caveflyer": "CaveflyerEasy-v0",
    "chaser": "ChaserEasy-v0",
    "climber": "ClimberEasy-v0",
    "coinrun": "CoinrunHard-v0",
    "dodgeball": "DodgeballEasy-v0",
    "fruitbot": "FruitbotEasy-v0",
    "heist": "HeistEasy-v0",
    "jumper": "JumperEasy-v0",
    "leaper": "LeaperEasy-v0",
    "maze": "MazeEasy-v0",
    "miner": "MinerEasy-v0",
    "ninja": "NinjaEasy-v0",
    "plunder": "PlunderEasy-v0",
    "starpilot": "StarpilotEasy-v0",
}


def stepped_env(task_id: str, steps: int = 12, **options):
    env = envpool.make(task_id, env_type="gymnasium", num_envs=2, seed=3, **options)
    env.reset()
    rng = np.random.default_rng(0)
    for _ in range(steps):
        env.step(rng.integers(0, 15, size=2))
    return env


def put_int(data: bytes, at: int, value: int) -> bytes:
    return data[:at] + struct.pack("<i", value) + data[at + 4 :]


def entity_field(layout: GameLayout, index: int, field: int) -> int:
    """Where field `field` of entity `index` starts (Entity::serialize's order)."""
    return layout.offsets["first_entity"] + 4 * (31 * index + field)


TYPE, IMAGE_TYPE, IMAGE_THEME = 6, 7, 8

# Each case: (name, game, a function of (procgen's bytes, their layout) giving bad bytes).
Craft = Callable[[bytes, GameLayout], bytes]
CASES: list[tuple[str, str, Craft]] = [
    ("truncated in the header", "coinrun", lambda d, lay: d[:6]),
    ("truncated in an entity", "coinrun", lambda d, lay: d[: entity_field(lay, 0, 20)]),
    ("truncated in the grid", "coinrun", lambda d, lay: d[: lay.offsets["grid_cells"] + 40]),
    ("without the end marker", "coinrun", lambda d, lay: d[:-4]),
    ("bytes after the end marker", "coinrun", lambda d, lay: d + b"\0\0\0\0"),
    ("another end marker", "coinrun", lambda d, lay: put_int(d, lay.offsets["end_marker"], 7)),
    ("another format version", "coinrun", lambda d, lay: put_int(d, 0, 1)),
    ("another game's name", "coinrun", lambda d, lay: d[:8] + b"ninjaxx" + d[15:]),
    ("a negative name length", "coinrun", lambda d, lay: put_int(d, lay.offsets["name"], -5)),
    (
        "generated assets",
        "coinrun",
        lambda d, lay: put_int(d, lay.offsets["options"] + 4, 1),
    ),
    ("another option", "coinrun", lambda d, lay: put_int(d, lay.offsets["options"], 1)),
    ("another timeout", "coinrun", lambda d, lay: put_int(d, lay.offsets["timeout"], 5)),
    ("an unseeded generator", "coinrun", lambda d, lay: put_int(d, lay.offsets["game_seeded"], 0)),
    (
        "a generator that is not mt19937 text",
        "coinrun",
        lambda d, lay: (
            d[: lay.offsets["game_generator"] + 4]
            + b"x" * 8
            + d[lay.offsets["game_generator"] + 12 :]
        ),
    ),
    (
        "a huge generator text length",
        "coinrun",
        lambda d, lay: put_int(d, lay.offsets["level_generator"], 2**31 - 1),
    ),
    ("a negative entity count", "coinrun", lambda d, lay: put_int(d, lay.offsets["entities"], -1)),
    (
        "a huge entity count",
        "coinrun",
        lambda d, lay: put_int(d, lay.offsets["entities"], 2**31 - 1),
    ),
    ("a negative grid size", "coinrun", lambda d, lay: put_int(d, lay.offsets["grid_cells"], -3)),
    ("a huge grid size", "coinrun", lambda d, lay: put_int(d, lay.offsets["grid_cells"], 2**30)),
    (
        "a grid wider than its cells",
        "coinrun",
        lambda d, lay: put_int(d, lay.offsets["grid_width"], 1000),
    ),
    (
        "a world wider than its grid",
        "coinrun",
        lambda d, lay: put_int(d, lay.offsets["main_width"], 1000),
    ),
    ("a zero grid_size", "coinrun", lambda d, lay: put_int(d, lay.offsets["grid_size"], 0)),
    (
        "no player",
        "coinrun",
        lambda d, lay: put_int(d, entity_field(lay, lay.entity_types.index(0), TYPE), 42),
    ),
    (
        "waiting for a step",
        "coinrun",
        lambda d, lay: put_int(d, lay.offsets["is_waiting_for_step"], 1),
    ),
    ("theme 10", "coinrun", lambda d, lay: put_int(d, entity_field(lay, 0, IMAGE_THEME), 10)),
    (
        "a negative theme",
        "coinrun",
        lambda d, lay: put_int(d, entity_field(lay, 0, IMAGE_THEME), -7),
    ),
    ("image type 150", "coinrun", lambda d, lay: put_int(d, entity_field(lay, 0, IMAGE_TYPE), 150)),
    ("background 62", "coinrun", lambda d, lay: put_int(d, lay.offsets["background_index"], 62)),
    ("background 9 of 9", "heist", lambda d, lay: put_int(d, lay.offsets["background_index"], 9)),
    (
        "a negative background",
        "coinrun",
        lambda d, lay: put_int(d, lay.offsets["background_index"], -1),
    ),
    (
        "a grid cell of type 150",
        "coinrun",
        lambda d, lay: put_int(d, lay.offsets["grid_cells"] + 4, 150),
    ),
    (
        "a huge vector of the game",
        "bossfight",
        lambda d, lay: put_int(d, lay.offsets["member0"], 2**31 - 1),
    ),
    (
        "no boss",
        "bossfight",
        lambda d, lay: put_int(d, entity_field(lay, lay.entity_types.index(2), TYPE), 42),
    ),
    (
        "no goal",
        "jumper",
        lambda d, lay: put_int(d, entity_field(lay, lay.entity_types.index(1), TYPE), 42),
    ),
    ("no free cells", "chaser", lambda d, lay: _chaser_without_free_cells(d, lay)),
    (
        "a spawner of image type 150",
        "starpilot",
        lambda d, lay: _starpilot_spawner_image(d, lay, 150),
    ),
]


def _chaser_without_free_cells(data: bytes, layout: GameLayout) -> bytes:
    at = layout.offsets["member0"]
    (n,) = struct.unpack_from("<i", data, at)
    return data[:at] + struct.pack("<i", 0) + data[at + 4 + 4 * n :]


def _starpilot_spawner_image(data: bytes, layout: GameLayout, image_type: int) -> bytes:
    at = layout.offsets["member0"]
    (n,) = struct.unpack_from("<i", data, at)
    assert n > 0, "starpilot keeps spawners early in a level"
    return put_int(data, at + 4 + 4 * IMAGE_TYPE, image_type)


@pytest.mark.parametrize("name,game,craft", CASES, ids=[c[0] for c in CASES])
def test_crafted_state_raises_and_the_pool_goes_on(name, game, craft):
    env = stepped_env(GAMES[game])
    state = env.get_state([0])[0]
    _, _, game_bytes = split_state(state)
    layout = parse_game(game, game_bytes)
    assert layout.size == len(game_bytes)
    bad = with_game(state, craft(game_bytes, layout))
    before = env.get_state()
    with pytest.raises(ValueError, match="corrupt"):
        env.set_state([bad], env_ids=[1])
    assert [s.data for s in env.get_state()] == [s.data for s in before]
    obs, *_ = env.step(np.zeros(2, dtype=np.int64))
    assert obs.shape[0] == 2


@pytest.mark.parametrize("game", sorted(GAMES))
def test_resealed_states_of_every_game_restore_exactly(game):
    """The check reads every game's layout: a real state, resealed, restores."""
    env = stepped_env(GAMES[game], steps=30)
    state = env.get_state([0])[0]
    assert game_name(state) == game
    _, _, game_bytes = split_state(state)
    assert parse_game(game, game_bytes).size == len(game_bytes)
    twin = stepped_env(GAMES[game], steps=3)
    twin.set_state([with_game(state, game_bytes)], env_ids=[1])
    actions = np.random.default_rng(1).integers(0, 15, size=20)
    for a in actions:
        ours = env.step(np.array([a], dtype=np.int64), env_id=np.array([0]))
        theirs = twin.step(np.array([a], dtype=np.int64), env_id=np.array([1]))
        np.testing.assert_array_equal(ours[0], theirs[0])
        np.testing.assert_array_equal(ours[1], theirs[1])


@pytest.mark.parametrize("options", [dict(use_monochrome_assets=True), dict(restrict_themes=True)])
def test_states_with_drawing_options_restore(options):
    env = stepped_env("StarpilotHard-v0", steps=40, **options)
    env.set_state(env.get_state())


def test_generated_assets_have_no_snapshots():
    """procgen cannot serialize generated assets (its serialize ends the process)."""
    env = envpool.make(
        "CoinrunHard-v0", env_type="gymnasium", num_envs=1, use_generated_assets=True
    )
    env.reset()
    with pytest.raises(NotImplementedError):
        env.get_state()


def test_a_state_of_other_assets_is_refused():
    """Monochrome and coloured games share the id: the game's own options decide."""
    mono = stepped_env("CoinrunHard-v0", use_monochrome_assets=True)
    state: EnvState = mono.get_state([0])[0]
    plain = stepped_env("CoinrunHard-v0")
    with pytest.raises(ValueError):
        plain.set_state([state], env_ids=[0])
