"""DmcSoccerHumanoid-v1 against dm_control 1.0.50's soccer, on mujoco 3.17.0.

`soccer.load(team_size, walker_type=soccer.WalkerType.HUMANOID, ...)`
starts every player from a random frame of the CMU mocap clip CMU_077_02
(`CMUMocapInitializer`), which dm_control reads from its 488 MB fit of the
CMU database to the CMU humanoid, downloaded at run time. This family reads
that one clip from the envpool-assets wheel's `mocap_2019.bin` (pinned by
sha256 in third_party/envpool_assets_mocap, shipped as
`assets/mocap/mocap_2019.bin`). So that dm_control's own initializer sees
the same clip, the tests write, in a temporary directory, the HDF5 file its
loader reads (`mocap/loader.py`'s `HDF5TrajectoryLoader`: per clip its `dt`
and `num_steps`, and per WalkerPose field a (dim, frames) dataset) from the
same file, the float32 samples as they are (dm_control's loader widens them
to float64 as it reads), and point `cmu_mocap_data.get_path_for_cmu` at it.

The installed protobuf (7.x) no longer has `FieldDescriptor.label`, which
dm_control 1.0.50's loader reads for the clip's scalar attributes; the
tests give the loader the same method reading `is_repeated` instead.

The same contract as the other soccer walkers (test_locomotion.py): env i of
a pool seeded s plays `np.random.seed(s + i)`,
`soccer.load(..., random_state=np.random.RandomState(s + i))`, draw for
draw (the pitch, the clip frames of both pose initializations of every
player, the ball and the players' places), every player's observation
within 1e-6, rewards and how episodes end, across NEXT_STEP autoresets.
"""

from __future__ import annotations

import json
import struct
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import locomotion_common as common  # this folder's test helpers
import numpy as np
import pytest
from locomotion_common import ALL

import envpool
from envpool.locomotion.registration import ASSET_DIR
from envpool.testing.published import check_spec
from envpool.testing.snapshots import check_snapshots

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    import h5py
    import mujoco
    from dm_control.locomotion import soccer
    from dm_control.locomotion.mocap import cmu_mocap_data, loader
    from google.protobuf import descriptor

TASK_ID = "DmcSoccerHumanoid-v1"
CLIP = "CMU_077_02"
SPECS = json.loads((Path(__file__).parent / "envpool127_soccer_specs.json").read_text())


def read_clip_file(path: Path) -> dict[str, tuple[int, float, dict[str, np.ndarray]]]:
    """The clips of an EPMOCAP1 file: name -> (frames, dt, field -> (frames, dim))."""
    data = path.read_bytes()
    assert data[:8] == b"EPMOCAP1"
    at = 8

    def take(fmt: str) -> Any:
        nonlocal at
        (value,) = struct.unpack_from(fmt, data, at)
        at += struct.calcsize(fmt)
        return value

    def name() -> str:
        nonlocal at
        length = take("<I")
        at += length
        return data[at - length : at].decode()

    clips = {}
    for _ in range(take("<I")):
        clip = name()
        frames, dt = take("<I"), take("<d")
        fields = {}
        for _ in range(take("<I")):
            field, dim = name(), take("<I")
            fields[field] = np.frombuffer(data, "<f4", frames * dim, at).reshape(frames, dim)
            at += 4 * frames * dim
        clips[clip] = (frames, dt, fields)
    assert at == len(data), "bytes after the last clip"
    return clips


def write_dm_control_h5(clips: dict[str, Any], path: Path) -> None:
    """The HDF5 layout dm_control's HDF5TrajectoryLoader reads."""
    with h5py.File(path, "w") as h5:
        for clip, (frames, dt, fields) in clips.items():
            group = h5.create_group(clip)
            group.attrs["dt"] = dt
            group.attrs["num_steps"] = frames
            group.create_group("props")
            walker = group.create_group("walkers").create_group("walker_0")
            walker.create_group("scaling")
            walker.create_group("markers")
            for field, values in fields.items():
                walker.create_dataset(field, data=np.ascontiguousarray(values.T))


def _fill_primitive_proto_fields(
    self: Any, proto: Any, h5_group: Any, skip_fields: tuple[str, ...] = ()
) -> None:
    # loader.py's method, `field.label == LABEL_REPEATED` read as
    # `field.is_repeated` (protobuf 7 dropped `label`).
    for field in proto.DESCRIPTOR.fields:
        if field.name in skip_fields or field.name not in h5_group.attrs:
            continue
        if field.type not in (
            descriptor.FieldDescriptor.TYPE_GROUP,
            descriptor.FieldDescriptor.TYPE_MESSAGE,
        ):
            if field.is_repeated:
                getattr(proto, field.name).extend(h5_group.attrs[field.name])
            else:
                setattr(proto, field.name, h5_group.attrs[field.name])


@pytest.fixture(scope="module", autouse=True)
def mocap_file(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """dm_control's CMU file for version 2019, holding the wheel's clip."""
    path = tmp_path_factory.mktemp("mocap") / "cmu_2019.h5"
    write_dm_control_h5(read_clip_file(Path(ASSET_DIR) / "mocap" / "mocap_2019.bin"), path)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(cmu_mocap_data, "get_path_for_cmu", lambda version="2020": str(path))
        if not hasattr(descriptor.FieldDescriptor, "label"):
            patch.setattr(
                loader.HDF5TrajectoryLoader,
                "_fill_primitive_proto_fields",
                _fill_primitive_proto_fields,
            )
        yield path


def reference(seed: int, **options: Any) -> Any:
    """The dm_control env that env `seed - s` of a pool seeded `s` plays."""
    return common.seeded_reference(
        soccer.load,
        seed,
        walker_type=soccer.WalkerType.HUMANOID,
        **common.soccer_load_kwargs(options),
    )


def test_the_clip_is_what_dm_controls_loader_reads(mocap_file: Path) -> None:
    envpool.make_spec(TASK_ID)
    from envpool.locomotion import _locomotion

    trajectory = loader.HDF5TrajectoryLoader(str(mocap_file)).get_trajectory(CLIP)
    fields = trajectory.as_dict()
    assert trajectory.num_steps == 518 and trajectory.dt == 0.03
    for field in ("joints", "joints_velocity", "velocity", "angular_velocity"):
        frames, dt, dim, values = _locomotion.mocap_clip_field(CLIP, field)
        assert (frames, dt) == (trajectory.num_steps, trajectory.dt)
        expected = fields[f"walker/{field}"]
        assert expected.dtype == np.float64 and expected.shape == (frames, dim)
        np.testing.assert_array_equal(np.reshape(values, (frames, dim)), expected)
        # float32 samples, as the wheel's file says.
        np.testing.assert_array_equal(expected.astype(np.float32).astype(np.float64), expected)
    # The last frame's velocities are zeroed by the trajectory (the
    # initializer's frame 517), its joints are the clip's.
    last = trajectory.get_timestep_data(trajectory.dt * 517).walkers[0]
    assert not np.any(last.joints_velocity) and np.any(last.joints)


def prefixed_skin(skin: bytes, prefix: str) -> bytes:
    """jersey.skn with its bones' body names prefixed, as Composer writes it."""
    nvertex, ntexcoord, nface, nbone = struct.unpack_from("<4i", skin, 0)
    at = 16 + 4 * (3 * nvertex + 2 * ntexcoord + 3 * nface)
    out = bytearray(skin[:at])
    for _ in range(nbone):
        name = skin[at : at + 40].split(b"\0")[0]
        out += (prefix.encode() + name).ljust(40, b"\0")
        at += 40
        (count,) = struct.unpack_from("<i", skin, at + 28)
        out += skin[at : at + 32 + 8 * count]
        at += 32 + 8 * count
    assert at == len(skin)
    return bytes(out)


def model_assets(xml: str, team_size: int) -> dict[str, bytes]:
    assets = common.model_files(xml)
    skin = (Path(ASSET_DIR) / "soccer" / "humanoid" / "jersey.skn").read_bytes()
    for team in ("home", "away"):
        for i in range(team_size):
            name = f"{team}{i}"
            assets[f"soccer/humanoid/jersey_{name}.skn"] = prefixed_skin(skin, name + "/")
    return assets


@pytest.mark.parametrize(
    ("seed", "options"),
    [
        (3, {"team_size": 1, "disable_walker_contacts": True, "enable_field_box": True}),
        *([(0, {})] if ALL else []),
    ],
)
def test_model_is_dm_controls(seed: int, options: dict[str, Any]) -> None:
    # The walker is humanoid_CMU_V2019.xml of the wheel as soccer's Humanoid
    # changes it; the text keeps the file's spelling, so the compiled models
    # are compared, names and every array.
    envpool.make_spec(TASK_ID)
    from envpool.locomotion import _locomotion

    ref = reference(seed, **options)
    ref.reset()
    length, width = ref.task.arena.size
    team_size = options.get("team_size", 2)
    ours = _locomotion.soccer_humanoid_xml(
        team_size,
        options.get("disable_walker_contacts", False),
        options.get("enable_field_box", False),
        length,
        width,
    )
    model = mujoco.MjModel.from_xml_string(ours, model_assets(ours, team_size))
    # tex_pathadr and skin_pathadr point into the asset file names
    # (Composer's are content hashes).
    common.assert_same_model(model, ref.physics.model._model, skip=("tex_pathadr", "skin_pathadr"))


def play(seed: int, steps: int, num_envs: int = 1, **options: Any) -> dict[str, int]:
    """Steps a pool and its references in lockstep; counts what happened."""
    env, refs, obs, info, steps_ref = common.lockstep(
        TASK_ID, seed, num_envs, lambda s: reference(s, **options), **options
    )
    players = env.spec.config.max_num_players
    width = env.spec.action_space.shape[-1]
    rng = np.random.RandomState(seed)
    counts = {"goals": 0, "time_limits": 0}

    def compare(step: int) -> None:
        common.compare_player_observations(step, steps_ref, obs, info, players)

    compare(0)
    for step in range(1, steps + 1):
        action = rng.uniform(-1.2, 1.2, size=(num_envs, players, width))
        obs, reward, terminated, truncated, info = env.step(action.reshape(-1, width))
        steps_ref = [ref.step(list(action[i])) for i, ref in enumerate(refs)]
        compare(step)
        common.check_player_outcomes(step, steps_ref, reward, terminated, truncated, info, counts)
    env.close()
    return counts


def test_reset_states_are_dm_controls_bit_for_bit() -> None:
    # The clip frames of both pose initializations and the placement: qpos
    # and qvel after the reset.
    common.assert_reset_states_match(TASK_ID, (0, 1, 2, 3) if ALL else (1,), reference)


@pytest.mark.parametrize(
    ("seed", "num_envs", "options"),
    [
        (0, 2, {"time_limit": 0.25}),
        (
            5,
            1,
            {
                "time_limit": 0.25,
                "team_size": 1,
                "disable_walker_contacts": True,
                "enable_field_box": True,
                "keep_aspect_ratio": True,
                "terminate_on_goal": False,
            },
        ),
    ],
)
def test_episodes_play_dm_controls_across_autoresets(
    seed: int, num_envs: int, options: dict[str, Any]
) -> None:
    # 10 steps of 25 ms an episode: 2 autoresets within 21 steps (more with
    # ENVPOOL_TEST_ALL).
    counts = play(seed, 60 if ALL else 21, num_envs, **options)
    assert counts["time_limits"] >= 2 * num_envs, counts


@pytest.mark.skipif(not ALL, reason="more seeds with ENVPOOL_TEST_ALL=1")
def test_more_seeds_play_dm_controls() -> None:
    for seed in (11, 23, 42):
        counts = play(seed, 60, 1, time_limit=0.25)
        assert counts["time_limits"] >= 5, counts


def test_spaces_and_options_are_envpool_127s() -> None:
    for task_id in (TASK_ID, "dm_control/locomotion/soccer_humanoid"):
        check_spec(task_id, SPECS[TASK_ID])


def test_keys_and_actions() -> None:
    env = envpool.make(TASK_ID, num_envs=1, seed=0, team_size=1)
    obs, _ = env.reset()
    assert obs["joints_pos"].shape == (2, 1, 56)
    assert obs["appendages_pos"].shape == (2, 1, 15)
    assert obs["actuator_activation"].shape == (2, 1, 0)
    assert obs["opponent_0_ego_end_effectors_pos"].shape == (2, 1, 12)
    with pytest.raises(ValueError, match="action"):
        env.step(np.zeros((2, 3)))
    obs, reward, terminated, _, _ = env.step(np.zeros((2, 56)))
    assert reward.shape == (2,) and not terminated.any()
    env.close()


def test_pettingzoo_parallel_api() -> None:
    from pettingzoo.test import parallel_api_test

    par = envpool.make(TASK_ID, env_type="pettingzoo", seed=0, time_limit=0.25)
    observations, _ = par.reset()
    assert par.agents == ["player_0", "player_1", "player_2", "player_3"]
    assert observations["player_3"]["appendages_pos"].shape == (1, 15)
    assert par.action_space("player_1").shape == (56,)
    parallel_api_test(par, num_cycles=30)
    par.close()


def test_snapshots_restore_exactly() -> None:
    check_snapshots(TASK_ID, num_envs=2, before=6, after=16, team_size=1)


def test_a_missing_clip_names_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from envpool.locomotion import registration

    # The soccer textures and the walker's model are there, the clip is not.
    for folder in ("soccer", "walkers"):
        (tmp_path / folder).symlink_to(Path(ASSET_DIR) / folder)
    monkeypatch.setattr(registration, "ASSET_DIR", str(tmp_path))
    with pytest.raises(ValueError, match=r"mocap_2019\.bin.*reinstall envpool"):
        envpool.make(TASK_ID, seed=0)


def test_frames_are_physics_render() -> None:
    # render_mode="rgb_array": dm_control's physics.render (320x240, its free
    # camera), pixel for pixel, at the reset and two steps of the four
    # humanoids (their skins drawn).
    env = envpool.make(TASK_ID, num_envs=1, seed=2, render_mode="rgb_array")
    ref = reference(2)
    env.reset()
    ref.reset()
    rng = np.random.RandomState(2)
    for step in range(3):
        if step > 0:
            action = [rng.uniform(-1, 1, s.shape) for s in ref.action_spec()]
            env.step(np.stack(action))
            ref.step(action)
        [frame] = env.render()
        np.testing.assert_array_equal(frame, ref.physics.render(240, 320), err_msg=str(step))
    env.close()
