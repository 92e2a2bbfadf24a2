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
import re
import warnings
import xml.etree.ElementTree as ET
from typing import Any

import numpy as np
import pytest

os.environ.setdefault("MUJOCO_GL", "egl")  # dm_control renders the CMU camera

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    import labmaze
    import mujoco
    from dm_control.locomotion.arenas import covering
    from dm_control.locomotion.examples import basic_cmu_2019, basic_rodent_2020

import locomotion_common as common  # this folder's test helpers
from locomotion_common import ALL

import envpool
from envpool.locomotion import _locomotion

# (height, width, max_rooms, room_min_size, room_max_size, spawns_per_room,
# objects_per_room, max_variations, simplify): the random mazes of
# basic_rodent_2020.rodent_maze_forage and basic_cmu_2019.cmu_humanoid_maze_forage
# (the same arguments), labmaze's defaults and other sizes.
MAZES = [
    (11, 11, 4, 4, 5, 1, 3, 26, True),  # rodent_maze_forage, cmu_humanoid_maze_forage
    (11, 11, 4, 3, 5, 1, 3, 26, True),  # rooms of 3 to 5 cells
    (11, 11, 4, 3, 5, 1, 2, 26, True),  # two targets a room
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


def test_a_generator_before_its_first_maze_is_a_value_error() -> None:
    # A snapshot's generator state is (seed, mazes made); the constructor
    # makes the first, so fewer than one cannot be restored.
    with pytest.raises(ValueError, match="at least its first maze"):
        _locomotion.labmaze_layers(*MAZES[0], 0, 0)


@pytest.mark.parametrize(
    ("index", "value", "message"),
    [
        (0, 10, "height is a positive odd"),
        (1, -3, "width is a positive odd"),
        (4, 3, "room_max_size is at least room_min_size"),
        (7, 27, "max_variations is 0 to 26"),
    ],
)
def test_bad_maze_arguments_are_value_errors(index: int, value: int, message: str) -> None:
    # labmaze.RandomMaze refuses them (its C++ generator alone would make a
    # maze of another shape than asked).
    params = list(MAZES[0])
    params[index] = value
    with pytest.raises(ValueError, match=message):
        _locomotion.labmaze_layers(*params, 0, 1)


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


def _walker_owned(element: ET.Element) -> bool:
    return any(element.get(key, "").startswith("walker/") for key in ("name", "class"))


def _normalized(element: ET.Element) -> tuple:
    # An element as (tag, attributes in order, children); texture files by
    # their name, without the content hash dm_control adds (a skybox's six
    # faces too: fileright, fileleft, ...).
    attributes = []
    for key, value in element.attrib.items():
        if key.startswith("file"):
            value = re.sub(r"-[0-9a-f]{40}(\.\w+)$", r"\1", os.path.basename(value))
        attributes.append((key, value))
    return (element.tag, tuple(attributes), tuple(_normalized(c) for c in element))


def _split_around_walker(section: ET.Element) -> tuple[list, list]:
    children = list(section)
    owned = [i for i, child in enumerate(children) if _walker_owned(child)]
    assert owned and owned == list(range(owned[0], owned[-1] + 1)), section.tag
    before = [_normalized(c) for c in children[: owned[0]]]
    after = [_normalized(c) for c in children[owned[-1] + 1 :]]
    return before, after


def _parts(text: str) -> list:
    return [_normalized(c) for c in ET.fromstring(f"<parts>{text}</parts>")]


def _assert_arena_is_composers(ours: list, env: object, seed: int) -> None:
    # The arena's defaults, assets and worldbody elements on either side of
    # the walker's, as Composer writes them at each reset (the maze, its wall
    # and floor textures from the global stream, the targets shuffled).
    for episode in range(len(ours)):
        env.reset()
        root = ET.fromstring(env.task.root_entity.mjcf_model.to_xml_string())
        (
            defaults_before,
            defaults_after,
            assets_before,
            assets_after,
            world_before,
            world_after,
        ) = ours[episode]
        where = f"seed {seed}, episode {episode}"
        for tag, before, after in (
            ("default", defaults_before, defaults_after),
            ("asset", assets_before, assets_after),
            ("worldbody", world_before, world_after),
        ):
            section = root.find(tag)
            theirs_before, theirs_after = _split_around_walker(section)
            assert _parts(before) == theirs_before, (where, tag)
            assert _parts(after) == theirs_after, (where, tag)


@pytest.mark.parametrize("seed", [0, 5] + ([1, 2, 3, 4, 6, 7, 8, 9] if ALL else []))
def test_rodent_maze_arena_is_composers_episode_after_episode(seed: int) -> None:
    # np.random.seed(s) and RandomState(s), as env 0 of a pool seeded s.
    ours = _locomotion.rodent_maze_arena_xml(seed, 3)
    np.random.seed(seed)
    env = basic_rodent_2020.rodent_maze_forage(random_state=np.random.RandomState(seed))
    _assert_arena_is_composers(ours, env, seed)


@pytest.mark.parametrize("seed", [0, 5] + ([1, 2, 3, 4, 6, 7, 8, 9] if ALL else []))
def test_cmu_maze_arena_is_composers_episode_after_episode(seed: int) -> None:
    # cmu_humanoid_maze_forage's arena: cells of 3 m, labmaze's sky_03
    # skybox and style_01 floor textures (six to draw from) as attached
    # entities in place of outdoor_natural's sky and grass.
    ours = _locomotion.cmu_maze_arena_xml(seed, 3)
    np.random.seed(seed)
    env = basic_cmu_2019.cmu_humanoid_maze_forage(random_state=np.random.RandomState(seed))
    _assert_arena_is_composers(ours, env, seed)


def _assert_episode_model_is_dm_controls(
    factory: Any, seed: int, episodes: int, xml: str, files: dict[str, bytes]
) -> None:
    """Our text of episode `episodes` of seed `seed`, compiled with `files`,
    has every array of dm_control's compile of Composer's text for the
    same episode of `factory` (but the texture file names)."""
    np.random.seed(seed)
    env = factory(random_state=np.random.RandomState(seed))
    for _ in range(episodes):
        env.reset()
    root = env.task.root_entity.mjcf_model
    expected = mujoco.MjModel.from_xml_string(root.to_xml_string(), root.get_assets())
    model = mujoco.MjModel.from_xml_string(xml, files)
    common.assert_same_model(model, expected, skip=("tex_pathadr",))


@pytest.mark.parametrize(("seed", "episodes"), [(3, 2)] + ([(0, 1), (7, 3)] if ALL else []))
def test_rodent_maze_model_is_dm_controls(seed: int, episodes: int) -> None:
    # The episode's model, walker and arena, compiled: every array equal to
    # dm_control's compile of Composer's text (but the texture file names).
    envpool.make_spec("DmcRodentTwoTouch-v1")  # the family's asset folder
    xml = _locomotion.rodent_maze_xml(seed, episodes)
    _assert_episode_model_is_dm_controls(
        basic_rodent_2020.rodent_maze_forage, seed, episodes, xml, common.rodent_model_files(xml)
    )


@pytest.mark.parametrize(("seed", "episodes"), [(3, 2)] + ([(0, 1), (7, 3)] if ALL else []))
def test_cmu_maze_model_is_dm_controls(seed: int, episodes: int) -> None:
    # cmu_humanoid_maze_forage's episode model, the CMU humanoid and the
    # arena, compiled: every array equal to dm_control's (but the texture
    # file names).
    envpool.make_spec("DmcCmuHumanoidRunWalls-v1")  # the family's asset folder
    xml = _locomotion.cmu_maze_xml(seed, episodes)
    _assert_episode_model_is_dm_controls(
        basic_cmu_2019.cmu_humanoid_maze_forage, seed, episodes, xml, common.model_files(xml)
    )


@pytest.mark.parametrize("seed", [0, 5] + ([1, 2, 3, 4, 6, 7, 8, 9] if ALL else []))
def test_cmu_heterogeneous_arena_is_composers_episode_after_episode(seed: int) -> None:
    # cmu_humanoid_heterogeneous_forage's arena: labmaze's
    # FixedMazeWithRandomGoals (the spawn and six targets drawn from the
    # global stream at construction and at every episode) in a
    # MazeWithTargets, and two target types whose colours are shuffled.
    ours = _locomotion.cmu_heterogeneous_arena_xml(seed, 3)
    np.random.seed(seed)
    env = basic_cmu_2019.cmu_humanoid_heterogeneous_forage(random_state=np.random.RandomState(seed))
    _assert_arena_is_composers(ours, env, seed)


@pytest.mark.parametrize(("seed", "episodes"), [(3, 2)] + ([(0, 1), (7, 3)] if ALL else []))
def test_cmu_heterogeneous_model_is_dm_controls(seed: int, episodes: int) -> None:
    # Its episode model (the physics timestep of 1 ms included), compiled:
    # every array equal to dm_control's (but the texture file names).
    envpool.make_spec("DmcCmuHumanoidRunWalls-v1")  # the family's asset folder
    xml = _locomotion.cmu_heterogeneous_xml(seed, episodes)
    _assert_episode_model_is_dm_controls(
        basic_cmu_2019.cmu_humanoid_heterogeneous_forage,
        seed,
        episodes,
        xml,
        common.model_files(xml),
    )
