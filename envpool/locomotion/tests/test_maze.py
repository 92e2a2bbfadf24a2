"""The mazes of the locomotion family against labmaze 1.0.6 and dm_control 1.0.50.

dm_control's RandomMazeWithTargets makes its text mazes with labmaze's C++
generator (seeded with `np.random.randint(2**31)`, regenerated at every
episode); this family builds the same generator from labmaze's pinned sdist,
so the same seed must give the same mazes, maze after maze. The walls and
floor tiles are dm_control's greedy cover of those mazes
(`covering.make_walls`), and each episode's textures come from the global
np.random in the arena's order.
"""

from __future__ import annotations

import os
import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    import labmaze
    from dm_control.locomotion.arenas import covering

from envpool.locomotion import _locomotion

# More seeds with ENVPOOL_TEST_ALL=1 (make test-all-ids).
ALL = bool(os.environ.get("ENVPOOL_TEST_ALL"))

# (height, width, max_rooms, room_min_size, room_max_size, spawns_per_room,
# objects_per_room, max_variations, simplify): the rodent's and the CMU
# humanoid's mazes (basic_rodent_2020, basic_cmu_2019), labmaze's defaults and
# other sizes.
MAZES = [
    (11, 11, 4, 4, 5, 1, 3, 26, True),  # rodent_maze_forage
    (11, 11, 4, 3, 5, 1, 3, 26, True),  # cmu_humanoid_maze_forage
    (11, 11, 4, 3, 5, 1, 2, 26, True),  # cmu_humanoid_heterogeneous_forage
    (11, 11, 4, 3, 5, 0, 0, 26, True),  # labmaze's defaults
    (15, 21, 6, 3, 7, 2, 4, 3, True),
    (21, 15, 3, 5, 5, 1, 1, 26, False),
    (7, 9, 2, 3, 3, 1, 1, 1, True),
]
SEEDS = [0, 1, 2, 7, 12345, 2**31 - 1] + ([3, 4, 5, 6, 99, 2**30] if ALL else [])
GENERATIONS = 12 if ALL else 4


def labmaze_reference(params: tuple, seed: int) -> labmaze.RandomMaze:
    height, width, max_rooms, min_size, max_size, spawns, objects, variations, simplify = params
    return labmaze.RandomMaze(
        height=height,
        width=width,
        max_rooms=max_rooms,
        room_min_size=min_size,
        room_max_size=max_size,
        spawns_per_room=spawns,
        objects_per_room=objects,
        max_variations=variations,
        simplify=simplify,
        random_seed=seed,
    )


@pytest.mark.parametrize("params", MAZES)
def test_mazes_are_labmazes_maze_after_maze(params: tuple) -> None:
    for seed in SEEDS:
        reference = labmaze_reference(params, seed)
        for generations in range(1, GENERATIONS + 1):
            if generations > 1:
                reference.regenerate()
            entity, variations = _locomotion.labmaze_layers(*params, seed, generations)
            where = f"maze {params}, seed {seed}, maze {generations}"
            assert entity == str(reference.entity_layer), where
            assert variations == str(reference.variations_layer), where


def dm_control_cover(grid: labmaze.TextGrid, char: str) -> list[list[int]]:
    walls = covering.make_walls(grid, wall_char=char, make_odd_sized_walls=True)
    return [[w.start.y, w.start.x, w.end.y, w.end.x] for w in walls]


@pytest.mark.parametrize("params", MAZES)
def test_walls_and_floor_tiles_are_dm_controls_cover(params: tuple) -> None:
    # The walls ('*' of the entity layer) and each floor variation's tiles
    # ('.', 'A', ... of the variations layer), as MazeWithTargets covers them.
    covered = 0
    for seed in SEEDS:
        reference = labmaze_reference(params, seed)
        for _ in range(2):
            reference.regenerate()
            layers = {
                "*": reference.entity_layer,
                **{c: reference.variations_layer for c in ".ABCDEFGHIJKLMNOPQRSTUVWXYZ"},
            }
            for char, grid in layers.items():
                ours = [list(w) for w in _locomotion.maze_cover(str(grid), char)]
                assert ours == dm_control_cover(grid, char), (params, seed, char)
                covered += len(ours)
    assert covered > 0


def test_cover_of_uneven_shapes_is_dm_controls() -> None:
    # Shapes random mazes rarely make: even-sized blocks, a ragged edge.
    text = "*****.\n****..\n**.***\n******\n.*****\n"
    grid = labmaze.TextGrid(text)
    for char in "*.":
        ours = [list(w) for w in _locomotion.maze_cover(text, char)]
        assert ours == dm_control_cover(grid, char)
