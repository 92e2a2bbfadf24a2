"""What the locomotion tests share: the lockstep comparison with dm_control,
the model and reset-state checks, and the snapshot helpers.

The test modules of this folder import it by name (`from locomotion_common
import ...`): pytest runs with `--import-mode=append`, which puts each test
file's folder on `sys.path`. It is a module rather than a conftest.py so
that its name is this folder's alone (another family's conftest.py would
take that one).
"""

from __future__ import annotations

import dataclasses
import os
import struct
import warnings
from collections.abc import Callable, Collection, Iterable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import envpool
from envpool.locomotion.registration import ASSET_DIR

# dm_control picks its GL backend when it is first imported: every test
# module imports this one before dm_control, so that whichever module pytest
# loads first, the camera observations draw through EGL.
os.environ.setdefault("MUJOCO_GL", "egl")

TOLERANCE = 1e-6
CAMERA = "walker/egocentric_camera"
# Longer episodes and more seeds with ENVPOOL_TEST_ALL=1 (make test-all-ids).
ALL = bool(os.environ.get("ENVPOOL_TEST_ALL"))


def seeded_reference(
    factory: Callable[..., Any], seed: int, env_time_limit: float | None = None, **kwargs: Any
) -> Any:
    """The dm_control env that env `seed - s` of a pool seeded `s` plays:
    `factory(random_state=RandomState(seed), **kwargs)` after
    `np.random.seed(seed)`; `env_time_limit`, when given, set on the
    Composer env (the time_limit option of the tasks whose factory takes
    none)."""
    np.random.seed(seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env = factory(random_state=np.random.RandomState(seed), **kwargs)
    if env_time_limit is not None:
        env._time_limit = env_time_limit
    return env


class GlobalStreamReference:
    """A dm_control env (`seeded_reference(factory, seed, env_time_limit)`)
    with its own copy of the global np.random stream, for the tasks that
    draw from it at every reset or step: several references in one process
    each continue their own stream, as each env of a pool does."""

    def __init__(
        self, factory: Callable[..., Any], seed: int, env_time_limit: float | None = None
    ) -> None:
        self.env = seeded_reference(factory, seed, env_time_limit)
        self._global = np.random.get_state()

    def _call(self, method: Callable[..., Any], *args: Any) -> Any:
        np.random.set_state(self._global)
        result = method(*args)
        self._global = np.random.get_state()
        return result

    def reset(self) -> Any:
        return self._call(self.env.reset)

    def step(self, action: np.ndarray) -> Any:
        return self._call(self.env.step, action)

    @property
    def physics(self) -> Any:
        return self.env.physics


# The soccer ids' options that are soccer.load's arguments.
SOCCER_LOAD_OPTIONS = (
    "team_size",
    "time_limit",
    "disable_walker_contacts",
    "enable_field_box",
    "terminate_on_goal",
    "keep_aspect_ratio",
)


def soccer_load_kwargs(options: dict[str, Any]) -> dict[str, Any]:
    """soccer.load's arguments for a pool made with `options` (the pool's
    team_size: 2 by default)."""
    kwargs = {k: v for k, v in options.items() if k in SOCCER_LOAD_OPTIONS}
    kwargs.setdefault("team_size", 2)
    return kwargs


def lockstep(
    task_id: str, seed: int, num_envs: int, reference: Callable[[int], Any], **options: Any
) -> tuple[Any, list[Any], Any, Any, list[Any]]:
    """A pool seeded `seed` and its references (`reference(seed + i)` for env
    i), both reset: (env, refs, obs, info, the references' first steps)."""
    env = envpool.make(task_id, num_envs=num_envs, seed=seed, **options)
    refs = [reference(seed + i) for i in range(num_envs)]
    obs, info = env.reset()
    steps_ref = [ref.reset() for ref in refs]
    return env, refs, obs, info, steps_ref


def assert_frames_close(ours: np.ndarray, expected: np.ndarray, where: str) -> None:
    """The issue's camera tolerance: mean |diff| <= 1 level, at most 1% of
    the entries off by more than 32."""
    diff = np.abs(ours.astype(np.int64) - expected.astype(np.int64))
    assert diff.mean() <= 1.0, f"{where}: mean |diff| {diff.mean()}"
    assert (diff > 32).mean() <= 0.01, f"{where}: {(diff > 32).mean():.2%} pixels off"


def compare_observations(
    step: int,
    steps_ref: list[Any],
    obs: dict[str, np.ndarray],
    info: dict[str, Any],
    exact_keys: Collection[str] = (),
    camera_close: Callable[[np.ndarray, np.ndarray, str], None] = assert_frames_close,
) -> None:
    """Every reference's observation against its env's row of `obs`: the
    same keys and shapes, the camera (uint8) within `camera_close`, the
    `exact_keys` (int64) equal, every other entry within TOLERANCE."""
    for i, ts in enumerate(steps_ref):
        row = int(np.flatnonzero(info["env_id"] == i)[0])
        assert set(ts.observation) == set(obs)
        for key, expected in ts.observation.items():
            ours = obs[key][row]
            where = f"step {step} env {i} {key}"
            assert ours.shape == np.shape(expected), where
            if key == CAMERA:
                assert ours.dtype == np.uint8, where
                camera_close(ours, expected, where)
            elif key in exact_keys:
                assert ours.dtype == np.int64, where
                np.testing.assert_array_equal(ours, expected, err_msg=where)
            else:
                np.testing.assert_allclose(ours, expected, rtol=0, atol=TOLERANCE, err_msg=where)


def episode_steps(
    steps_ref: list[Any],
    reward: np.ndarray,
    terminated: np.ndarray,
    truncated: np.ndarray,
    info: dict[str, Any],
) -> Iterator[tuple[int, Any]]:
    """(row, reference's step) of every env whose step was not an
    autoreset; an autoreset's row must have reward 0 and end nothing."""
    for i, ts in enumerate(steps_ref):
        row = int(np.flatnonzero(info["env_id"] == i)[0])
        if ts.first():
            assert reward[row] == 0 and not terminated[row] and not truncated[row]
            continue
        yield row, ts


def play_random_actions(
    task_id: str,
    seed: int,
    steps: int,
    num_envs: int,
    reference: Callable[[int], Any],
    action_width: int,
    compare: dict[str, Any] | None = None,
    watch: Callable[[list[Any]], None] | None = None,
    **options: Any,
) -> Iterator[tuple[int, Any, Any, Any, Any]]:
    """A pool and its references (`lockstep`) given the same uniform(-1, 1)
    actions of RandomState(seed) for `steps` steps, their observations
    compared after the reset and every step (`compare_observations` with
    the `compare` arguments; `watch(refs)` after each comparison). Yields
    (step, reference's step, reward, terminated, truncated) of every env
    whose step was not an autoreset (`episode_steps`); closes the pool."""
    env, refs, obs, info, steps_ref = lockstep(task_id, seed, num_envs, reference, **options)
    rng = np.random.RandomState(seed)
    compare_observations(0, steps_ref, obs, info, **(compare or {}))
    if watch is not None:
        watch(refs)
    for step in range(1, steps + 1):
        action = rng.uniform(-1, 1, size=(num_envs, action_width))
        obs, reward, terminated, truncated, info = env.step(action)
        steps_ref = [ref.step(action[i]) for i, ref in enumerate(refs)]
        compare_observations(step, steps_ref, obs, info, **(compare or {}))
        if watch is not None:
            watch(refs)
        for row, ts in episode_steps(steps_ref, reward, terminated, truncated, info):
            yield step, ts, reward[row], terminated[row], truncated[row]
    env.close()


def compare_first_env(step: int, ts: Any, obs: dict[str, np.ndarray]) -> None:
    """A reference's observation against env 0's (a pool of one env): the
    camera within assert_frames_close, every other entry within TOLERANCE."""
    for key, expected in ts.observation.items():
        where = f"step {step} {key}"
        if key == CAMERA:
            assert_frames_close(obs[key][0], expected, where)
        else:
            np.testing.assert_allclose(obs[key][0], expected, rtol=0, atol=TOLERANCE, err_msg=where)


def count_fall_or_time_limit(
    step: int, ts: Any, terminated: Any, truncated: Any, counts: dict[str, int]
) -> None:
    """How a walker's episode ends: a fall (discount 0) terminates it, the
    time limit truncates it; counted in counts["falls"] and
    counts["time_limits"]. A step that ends nothing ends nothing here."""
    if ts.last():
        fall = float(ts.discount) == 0.0
        counts["falls" if fall else "time_limits"] += 1
        assert bool(terminated) == fall and bool(truncated) != fall, step
    else:
        assert not terminated and not truncated, step


def compare_player_observations(
    step: int, steps_ref: list[Any], obs: dict[str, np.ndarray], info: dict[str, Any], players: int
) -> None:
    """The soccer form: every player's observation of every reference
    against its row of `obs` (the players of env i in order), within
    TOLERANCE."""
    for i, ts in enumerate(steps_ref):
        rows = np.flatnonzero(info["players"]["env_id"] == i)
        assert len(rows) == players == len(ts.observation)
        for p, row in enumerate(rows):
            assert set(ts.observation[p]) == set(obs)
            for key, expected in ts.observation[p].items():
                ours = obs[key][row]
                assert ours.shape == expected.shape and ours.dtype == expected.dtype, key
                np.testing.assert_allclose(
                    ours.astype(np.float64),
                    expected.astype(np.float64),
                    rtol=0,
                    atol=TOLERANCE,
                    err_msg=f"step {step} env {i} player {p} {key}",
                )


def check_player_outcomes(
    step: int,
    steps_ref: list[Any],
    reward: np.ndarray,
    terminated: np.ndarray,
    truncated: np.ndarray,
    info: dict[str, Any],
    counts: dict[str, int],
) -> None:
    """The soccer form of a step's outcome: every player's reward, and how
    each episode ends (a goal: terminated, discount 0; the time limit:
    truncated), counted in `counts` ("goals": a goal, ending the episode or
    not; "time_limits")."""
    for i, ts in enumerate(steps_ref):
        rows = np.flatnonzero(info["players"]["env_id"] == i)
        row = int(np.flatnonzero(info["env_id"] == i)[0])
        if ts.first():
            assert not terminated[row] and not truncated[row]
            assert (reward[rows] == 0).all()
            continue
        np.testing.assert_array_equal(reward[rows], np.array(ts.reward, np.float64))
        if ts.last():
            goal = float(ts.discount) == 0.0
            counts["goals" if goal else "time_limits"] += 1
            assert bool(terminated[row]) == goal and bool(truncated[row]) != goal, step
        else:
            assert not terminated[row] and not truncated[row], step
            counts["goals"] += bool(np.any(np.asarray(ts.reward) != 0))


def assert_same_model(
    model: Any,
    expected: Any,
    skip: Collection[str] = (),
    tex_data: bytes | None = None,
) -> None:
    """Every array of mjModel equal but those in `skip` (tex_pathadr and
    skin_pathadr point into the asset file names, which Composer hashes);
    `tex_data`, when given, stands for the model's."""
    compared = 0
    for name in dir(expected):
        value = getattr(expected, name, None)
        if name.startswith("_") or name in skip or not isinstance(value, np.ndarray):
            continue
        if name == "tex_data" and tex_data is not None:
            ours = np.frombuffer(tex_data, np.uint8)
        else:
            ours = getattr(model, name)
        assert ours.shape == value.shape, name
        np.testing.assert_array_equal(ours, value, err_msg=name)
        compared += 1
    assert compared > 200


def model_files(text: str) -> dict[str, bytes]:
    """The files of the family's asset folder that a model's `text` names
    (only those: MuJoCo refuses two files of the same base name, as the
    sky_03 skybox's and the soccer ball's faces)."""
    files = {}
    for folder, _, names in os.walk(ASSET_DIR):
        for name in names:
            path = os.path.join(folder, name)
            relative = os.path.relpath(path, ASSET_DIR)
            if f'"{relative}"' in text:
                files[relative] = Path(path).read_bytes()
    return files


def rodent_model_files(text: str) -> dict[str, bytes]:
    """The files a rodent model's `text` names: model_files and the walker's
    prefixed skin."""
    from envpool.locomotion import _locomotion

    files = model_files(text)
    files["walkers/rodent_walker_skin_walker.skn"] = _locomotion.rodent_skin()
    return files


def assert_reset_states_match(
    task_id: str,
    seeds: Iterable[int],
    reference: Callable[[int], Any],
    whole_state: bool = False,
    compared: Collection[int] | None = None,
) -> None:
    """Env i of a pool seeded seeds[0] after its reset, bit for bit against
    `reference(seeds[i])` after its: qpos and qvel at the state's front, or
    with `whole_state` the state itself as qpos, qvel, act, qacc_warmstart;
    only the seeds in `compared` when given."""
    seeds = list(seeds)
    env = envpool.make(task_id, num_envs=len(seeds), seed=seeds[0])
    env.reset()
    for i, seed in enumerate(seeds):
        if compared is not None and seed not in compared:
            continue
        ref = reference(seed)
        ref.reset()
        state = np.array(env._pool.get_state(i))
        data = ref.physics.data
        if whole_state:
            expected = np.concatenate([data.qpos, data.qvel, data.act, data.qacc_warmstart])
            np.testing.assert_array_equal(state, expected, err_msg=f"seed {seed}")
            continue
        qpos, qvel = data.qpos, data.qvel
        np.testing.assert_array_equal(state[: qpos.size], qpos, err_msg=f"seed {seed}")
        np.testing.assert_array_equal(
            state[qpos.size : qpos.size + qvel.size], qvel, err_msg=f"seed {seed}"
        )
    env.close()


def check_restore_after_reset(
    task_id: str, action_width: int, keys: Iterable[str], steps: int = 3
) -> None:
    """A state saved right after a reset restored into a pool of another
    seed (seed 0 into seed 9): `steps` random actions then give the same
    `keys`, bit for bit."""
    env = envpool.make(task_id, num_envs=1, seed=0)
    twin = envpool.make(task_id, num_envs=1, seed=9)
    env.reset()
    twin.reset()
    state = env.get_state()
    actions = [np.random.RandomState(t).uniform(-1, 1, (1, action_width)) for t in range(steps)]
    later = [env.step(a)[0] for a in actions]
    twin.set_state(state)
    for action, want in zip(actions, later, strict=True):
        got = twin.step(action)[0]
        for key in keys:
            np.testing.assert_array_equal(got[key], want[key], err_msg=key)
    env.close()
    twin.close()


def rewritten(state: Any, old: bytes, new: bytes) -> Any:
    """`state` with the one occurrence of `old` in its body replaced by `new`.

    The engine's state is a header (magic, format, id, the body's FNV-1a
    checksum) and the body (envpool/core/pool.cc's SaveEnv): the checksum is
    computed anew.
    """
    data = state.data
    at = 8 + 4  # magic, format
    (id_length,) = struct.unpack_from("<Q", data, at)
    at += 8 + id_length
    body = data[at + 8 :]
    assert body.count(old) == 1
    body = body.replace(old, new)
    checksum = 14695981039346656037
    for byte in body:
        checksum = ((checksum ^ byte) * 1099511628211) % 2**64
    return dataclasses.replace(state, data=data[:at] + struct.pack("<Q", checksum) + body)


def assert_missing_model_named(
    monkeypatch: pytest.MonkeyPatch,
    folder: Path,
    task_id: str,
    message: str,
    kept: Iterable[str] = ("soccer",),
) -> None:
    """With the asset folder `folder` holding only the family's `kept`
    folders, making `task_id` is a ValueError matching `message` (the
    missing file and the fix); the family's real folder stays."""
    from envpool.locomotion import registration

    for name in kept:
        (folder / name).symlink_to(Path(ASSET_DIR) / name)
    monkeypatch.setattr(registration, "ASSET_DIR", str(folder))
    with pytest.raises(ValueError, match=message):
        envpool.make(task_id, seed=0)
    assert os.path.isdir(ASSET_DIR)
