"""procgen 0.10.7's serialized game, read field by field, for tests that craft states.

The layout is procgen's (Game, BasicAbstractGame, each game's members, then the
end marker), as envpool/procgen/procgen_state.h walks it. `GameLayout` keeps
where each field starts, so that a test can rewrite one and reseal the state.
"""

from __future__ import annotations

import dataclasses
import struct

from envpool.python.snapshot import EnvState

# Each game's own members: i an int or bool, f a float, v a vector, e entities.
GAME_MEMBERS = {
    "bigfish": "if",
    "bossfight": "viiiiiiiiiiiiiiiffffffff",
    "caveflyer": "",
    "chaser": "vviiiiiii",
    "climber": "iiiiiff",
    "coinrun": "fiiiiff",
    "dodgeball": "ffffiii",
    "fruitbot": "ffi",
    "heist": "iiv",
    "jumper": "iiiiiif",
    "leaper": "ivivi",
    "maze": "ii",
    "miner": "i",
    "ninja": "iiiiffff",
    "plunder": "ivvvviiiifffff",
    "starpilot": "e",
}
ENTITY_INTS = 31
OPTIONS = 12


@dataclasses.dataclass
class GameLayout:
    """Offsets (in the game's bytes) of the fields a test rewrites."""

    offsets: dict[str, int]
    entity_types: list[int]
    entity_image_types: list[int]
    entity_themes: list[int]
    grid: list[int]
    size: int


def parse_game(game: str, data: bytes) -> GameLayout:
    """Walk procgen's bytes of `game` and note where each field starts."""
    pos = 0
    offsets: dict[str, int] = {}

    def take_int(name: str | None = None) -> int:
        nonlocal pos
        if name is not None:
            offsets[name] = pos
        (v,) = struct.unpack_from("<i", data, pos)
        pos += 4
        return v

    def skip(n: int) -> None:
        for _ in range(n):
            take_int()

    def take_string(name: str) -> None:
        nonlocal pos
        n = take_int(name)
        pos += n

    take_int("version")
    take_string("name")
    offsets["options"] = pos
    skip(OPTIONS)
    skip(5)  # grid_step, level_seed_low/high, game_type, game_n
    take_int("level_seeded")
    take_string("level_generator")
    take_int("game_seeded")
    take_string("game_generator")
    skip(3)
    take_int("action")
    take_int("timeout")
    skip(6)
    take_int("default_action")
    take_int("fixed_asset_seed")
    take_int("cur_time")
    take_int("is_waiting_for_step")
    take_int("grid_size")
    count = take_int("entities")
    offsets["first_entity"] = pos
    types, image_types, themes = [], [], []
    for _ in range(count):
        fields = struct.unpack_from(f"<{ENTITY_INTS}i", data, pos)
        types.append(fields[6])
        image_types.append(fields[7])
        themes.append(fields[8])
        pos += 4 * ENTITY_INTS
    take_int("use_procgen_background")
    take_int("background_index")
    skip(17)
    take_int("asset_seeded")
    take_string("asset_generator")
    take_int("main_width")
    take_int("main_height")
    take_int("out_of_bounds_object")
    skip(6)
    take_int("grid_width")
    take_int("grid_height")
    cells = take_int("grid_cells")
    grid = list(struct.unpack_from(f"<{cells}i", data, pos))
    pos += 4 * cells
    for i, kind in enumerate(GAME_MEMBERS[game]):
        if kind in "if":
            take_int(f"member{i}")
        elif kind == "v":
            skip(take_int(f"member{i}"))
        else:
            n = take_int(f"member{i}")
            pos += 4 * ENTITY_INTS * n
    take_int("end_marker")
    return GameLayout(offsets, types, image_types, themes, grid, pos)


def _fnv1a(data: bytes) -> int:
    h = 14695981039346656037
    for b in data:
        h = ((h ^ b) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return h


def split_state(state: EnvState) -> tuple[bytes, bytes, bytes]:
    """(the header and checksum, the body before procgen's bytes, procgen's bytes)."""
    data = state.data
    # magic (8), format (4), the id (8 + n), the checksum (8)
    (id_len,) = struct.unpack_from("<Q", data, 12)
    body_at = 12 + 8 + id_len + 8
    body = data[body_at:]
    # procgen's bytes are the body's last string: version 0, then the game's name.
    game = state.task_id.split("Easy")[0].split("Hard")[0].split("Extreme")[0]
    game = game.split("Memory")[0].split("Exploration")[0].lower()
    marker = struct.pack("<ii", 0, len(game)) + game.encode()
    start = body.rindex(marker)
    (n,) = struct.unpack_from("<Q", body, start - 8)
    assert start + n == len(body), "procgen's bytes end the state"
    return data[:body_at], body[: start - 8], body[start:]


def with_game(state: EnvState, game_bytes: bytes) -> EnvState:
    """`state` with procgen's bytes replaced, its checksum made to hold."""
    header, before, _ = split_state(state)
    body = before + struct.pack("<Q", len(game_bytes)) + game_bytes
    header = header[:-8] + struct.pack("<Q", _fnv1a(body))
    return dataclasses.replace(state, data=header + body)


def game_name(state: EnvState) -> str:
    """The procgen game of a state's id."""
    _, _, game = split_state(state)
    (n,) = struct.unpack_from("<i", game, 4)
    return game[8 : 8 + n].decode()
