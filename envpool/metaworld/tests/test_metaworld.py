"""metaworld against Meta-World 3.1.1 on the same mujoco 3.17.0.

Meta-World pins mujoco 3.3.0. On 3.17 a weld's eq_data row has 12 numbers
and its `reset_mocap_welds` assigns 11, which numpy refuses; the fixture
`reference_on_mujoco_317` makes it write the first 11 (`eq_data[i, :11]`),
and nothing else of the reference changes (docs/metaworld.md, option (a)).

The reference is built as docs/metaworld.md says: the task's class, the
goal hidden or shown, `seeded_rand_vec` on and the task vector unfrozen (so
each reset draws the object and goal positions from the env's np_random),
seeded with `seed(s + i)` for env i of a pool made with `seed=s`. Both take
the same float32 actions (beyond [-1, 1] now and then, so that clipping is
exercised) through whole episodes and the autoresets after them; every
observation, reward, terminated, truncated and info value must agree bit
for bit (TOLERANCE 0: the same MuJoCo, the same calls, numpy's roundings
reproduced), rewards to the float32 rounding of the reference's.
ENVPOOL_TEST_ALL=1 runs full 500-step episodes with more seeds.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import envpool
from envpool.python.registry import find_entry
from envpool.testing.memory import STATUS, rss_mib

mujoco = pytest.importorskip("mujoco")
metaworld = pytest.importorskip("metaworld")

ALL = bool(os.environ.get("ENVPOOL_TEST_ALL"))
SPECS = json.loads((Path(__file__).parent / "envpool127_specs.json").read_text())
TOLERANCE = 0.0
INFO_KEYS = (
    "success",
    "near_object",
    "grasp_success",
    "grasp_reward",
    "in_place_reward",
    "obj_to_target",
    "unscaled_reward",
)
OURS = sorted(t for t in envpool.list_all_envs() if find_entry(t).family == "metaworld")
# make test's sample: every TaskKind of envpool/metaworld/tasks.h (each a
# placement and a reward function) up to kHandInsert once across the two
# lockstep tests; of the tool tasks after it basketball's and stick-pull's
# (the most branches), assembly's, bin-picking's (its margin from the first
# step, across the autoreset) and box-close's; of the tasks whose rewards
# call np.exp or np.log three: drawer-close (the "gaussian" tolerance gated
# by the float32 effort; its expert episodes differ from the reference's at
# step 36 with libm's exp), door-open and pick-out-of-hole (np.log); numpy's
# exp and log themselves are compared over many inputs below (every id under
# ENVPOOL_TEST_ALL).
RANDOM_SAMPLE = [
    "MetaWorld/Basketball-v3",
    "MetaWorld/BinPicking-v3",
    "MetaWorld/ButtonPressTopdownWall-v3",
    "MetaWorld/ButtonPressWall-v3",
    "MetaWorld/CoffeeButton-v3",
    "MetaWorld/CoffeePush-v3",
    "MetaWorld/DoorOpen-v3",
    "MetaWorld/DoorUnlock-v3",
    "MetaWorld/HandInsert-v3",
    "MetaWorld/HandlePress-v3",
    "MetaWorld/HandlePullSide-v3",
    "MetaWorld/LeverPull-v3",
    "MetaWorld/PickPlace-v3",
    "MetaWorld/PickPlaceWall-v3",
    "MetaWorld/PlateSlideBackSide-v3",
    "MetaWorld/Push-v3",
    "MetaWorld/PushBack-v3",
    "MetaWorld/PushWall-v3",
    "MetaWorld/Reach-v3",
    "MetaWorld/ShelfPlace-v3",
    "MetaWorld/Soccer-v3",
    "MetaWorld/Sweep-v3",
    "MetaWorld/SweepInto-v3",
    "MetaWorld/WindowOpen-v3",
]
EXPERT_SAMPLE = [
    "MetaWorld/Assembly-v3",
    "MetaWorld/BoxClose-v3",
    "MetaWorld/ButtonPress-v3",
    "MetaWorld/ButtonPressTopdown-v3",
    "MetaWorld/DoorLock-v3",
    "MetaWorld/DrawerClose-v3",
    "MetaWorld/DrawerOpen-v3",
    "MetaWorld/HandlePressSide-v3",
    "MetaWorld/HandlePull-v3",
    "MetaWorld/PickOutOfHole-v3",
    "MetaWorld/PickPlace-v3",
    "MetaWorld/PlateSlide-v3",
    "MetaWorld/PlateSlideSide-v3",
    "MetaWorld/ReachWall-v3",
    "MetaWorld/StickPull-v3",
]


def _reset_mocap_welds_317(self: Any) -> None:
    """Meta-World's reset_mocap_welds, writing its 11 numbers into 3.17's 12-number rows."""
    if self.model.nmocap > 0 and self.model.eq_data is not None:
        for i in range(self.model.eq_data.shape[0]):
            if self.model.eq_type[i] == mujoco.mjtEq.mjEQ_WELD:
                self.model.eq_data[i, :11] = np.array(
                    [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, 5.0]
                )


@pytest.fixture(autouse=True)
def reference_on_mujoco_317(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The one patch the reference needs on mujoco 3.17 (docs/metaworld.md)."""
    from metaworld.sawyer_xyz_env import SawyerMocapBase

    monkeypatch.setattr(SawyerMocapBase, "reset_mocap_welds", _reset_mocap_welds_317)
    yield


def make_reference(
    task_name: str, seed: int, *, partially_observable: bool = True, **render: Any
) -> Any:
    """Meta-World's env of `task_name`, built and seeded as docs/metaworld.md says.

    `render`: the class's render_mode, width, height and camera options.
    """
    from metaworld.env_dict import ALL_V3_ENVIRONMENTS

    env = ALL_V3_ENVIRONMENTS[task_name](**render)
    if not partially_observable:
        env._partially_observable = False
        del env.sawyer_observation_space  # recomputed with the goal's bounds
    env._set_task_called = True
    env._freeze_rand_vec = False
    env.seeded_rand_vec = True
    env.seed(seed)
    return env


def random_policy(rng: np.random.Generator) -> Callable[[np.ndarray, list[Any]], np.ndarray]:
    def act(obs: np.ndarray, refs: list[Any]) -> np.ndarray:
        del refs
        return rng.uniform(-1.2, 1.2, size=(obs.shape[0], 4)).astype(np.float32)

    return act


def expert_policy(task_name: str, rng: np.random.Generator) -> Callable[..., np.ndarray]:
    """Meta-World's scripted policy of the task, given the goal, with some noise."""
    from metaworld.policies import ENV_POLICY_MAP

    policy = ENV_POLICY_MAP[task_name]()

    def act(obs: np.ndarray, refs: list[Any]) -> np.ndarray:
        actions = []
        for i, ref in enumerate(refs):
            seen = obs[i].copy()
            seen[-3:] = ref._target_pos
            action = policy.get_action(seen) + rng.normal(0.0, 0.1, size=4)
            actions.append(np.clip(action, -1.2, 1.2))
        return np.asarray(actions, dtype=np.float32)

    return act


def run_lockstep(
    task_id: str,
    *,
    seed: int,
    num_envs: int,
    steps: int,
    policy: Callable[..., np.ndarray],
    max_episode_steps: int = 500,
    partially_observable: bool = True,
) -> dict[str, int]:
    """Steps a pool and one reference per env with the same actions and compares every step."""
    task_name = envpool.make_spec(task_id).config.task_name
    env = envpool.make(
        task_id,
        num_envs=num_envs,
        seed=seed,
        max_episode_steps=max_episode_steps,
        partially_observable=partially_observable,
    )
    refs = [
        make_reference(task_name, seed + i, partially_observable=partially_observable)
        for i in range(num_envs)
    ]
    for ref in refs:
        ref.max_path_length = max_episode_steps
    obs, info = env.reset()
    for i, ref in enumerate(refs):
        r_obs, _ = ref.reset()
        np.testing.assert_allclose(obs[i], r_obs, rtol=0, atol=TOLERANCE, err_msg=f"env {i} reset")
    done = np.zeros(num_envs, bool)
    seen = {"truncated": 0, "successes": 0, "grasps": 0, "autoresets": 0}
    for t in range(steps):
        actions = policy(obs, refs)
        obs, rew, term, trunc, info = env.step(actions)
        for i, ref in enumerate(refs):
            where = f"{task_id} seed {seed} env {i} step {t}"
            if done[i]:
                r_obs, r_info = ref.reset()
                r_rew, r_term, r_trunc = 0.0, False, False
                r_info = dict.fromkeys(INFO_KEYS, 0.0)
                done[i] = False
                seen["autoresets"] += 1
            else:
                r_obs, r_rew, r_term, r_trunc, r_info = ref.step(actions[i])
                done[i] = r_term or r_trunc
                seen["truncated"] += int(r_trunc)
                seen["successes"] += int(r_info["success"])
                seen["grasps"] += int(r_info["grasp_success"])
            np.testing.assert_allclose(obs[i], r_obs, rtol=0, atol=TOLERANCE, err_msg=where)
            assert rew[i] == np.float32(r_rew), (where, rew[i], r_rew)
            assert (bool(term[i]), bool(trunc[i])) == (r_term, r_trunc), where
            for key in INFO_KEYS:
                assert abs(info[key][i] - float(r_info[key])) <= TOLERANCE, (
                    where,
                    key,
                    info[key][i],
                    r_info[key],
                )
            assert info["task_id"][i] == SPECS_TASK_IDS[task_name], where
    env.close()
    return seen


def _task_ids() -> dict[str, int]:
    from metaworld.env_dict import ALL_V3_ENVIRONMENTS

    return {name: index for index, name in enumerate(ALL_V3_ENVIRONMENTS)}


SPECS_TASK_IDS = _task_ids()


# -- seeded alignment ------------------------------------------------------------------


@pytest.mark.parametrize("task_id", OURS if ALL else RANDOM_SAMPLE)
def test_same_seed_same_episodes_as_the_reference_across_autoresets(task_id: str) -> None:
    # Two episodes and the autoreset between them: short ones (the ids' own
    # 500 steps under ENVPOOL_TEST_ALL).
    length = 500 if ALL else 40
    for seed in (0, 7, 12345) if ALL else (3,):
        seen = run_lockstep(
            task_id,
            seed=seed,
            num_envs=3 if ALL else 2,
            steps=2 * length + 3,
            policy=random_policy(np.random.default_rng(seed)),
            max_episode_steps=length,
        )
        assert seen["autoresets"] > 0 and seen["truncated"] > 0, seen


@pytest.mark.parametrize("task_id", OURS if ALL else EXPERT_SAMPLE)
def test_the_expert_episodes_succeed_as_the_reference_with_the_goal_shown(task_id: str) -> None:
    # Meta-World's scripted policy grasps, places and reaches: the rewards'
    # grasp and success branches, on the goal-observable variant.
    task_name = envpool.make_spec(task_id).config.task_name
    length = 500 if ALL else 150
    seen = run_lockstep(
        task_id,
        seed=11,
        num_envs=2,
        steps=length + 2,
        policy=expert_policy(task_name, np.random.default_rng(1)),
        max_episode_steps=length,
        partially_observable=False,
    )
    assert seen["successes"] > 0, seen
    if task_name == "pick-place-v3":
        assert seen["grasps"] > 0, seen


def test_the_rewards_exp_and_log_are_numpys_own_bit_for_bit() -> None:
    # The "gaussian" tolerance's np.exp and door-open's np.log: numpy's own
    # float64 loops (SIMD ones on AVX-512 machines, which round otherwise
    # than libm now and then), called one number at a time as the envs call
    # them, over inputs where the two differ.
    from envpool.metaworld import _metaworld

    assert {"exp", "log"} <= set(_metaworld.numpy_kernels())
    rng = np.random.default_rng(0)
    # exp: the tolerance's -0.5 * (d * scale) ** 2 for d up to 5 margins.
    exp_inputs = -0.5 * (rng.uniform(0.0, 5.0, 50_000) * 2.145966026289347) ** 2
    # log: door-open's distances beyond its 0.12 threshold, and wide ranges.
    log_inputs = np.concatenate(
        [
            rng.uniform(1e-9, 1.5, 50_000),
            np.exp(rng.uniform(-700.0, 700.0, 50_000)),
            [0.1, 1.0, 2.0, 1e-300],
        ]
    )
    for name, inputs in (("exp", exp_inputs), ("log", log_inputs)):
        ours = np.array(_metaworld._numpy_kernel(name, inputs.tolist()))
        expected = getattr(np, name)(inputs)
        differ = np.flatnonzero(ours.view(np.int64) != expected.view(np.int64))
        assert differ.size == 0, (name, inputs[differ[:5]], ours[differ[:5]], expected[differ[:5]])
    with pytest.raises(ValueError, match="'exp'"):
        _metaworld._numpy_kernel("arctan2", [0.5])


# -- ids, options, spaces --------------------------------------------------------------


def test_the_registered_ids_are_envpool_1_2_7_ids() -> None:
    assert len(SPECS) == 50
    assert OURS and set(OURS) <= set(SPECS)
    assert set(RANDOM_SAMPLE) | set(EXPERT_SAMPLE) <= set(OURS)


@pytest.mark.parametrize("task_id", OURS)
def test_config_and_spaces_match_envpool_1_2_7_where_the_reference_agrees(task_id: str) -> None:
    want = SPECS[task_id]
    spec = envpool.make_spec(task_id)
    config = spec.config._asdict()
    for name, value in want["config"].items():
        if name in config:
            assert config[name] == value, (name, config[name], value)
    assert not set(want["config"]) - set(config) - {"env_seed", "reward_threshold"}
    assert spec.reward_threshold == want["config"]["reward_threshold"]
    assert spec.action_space.shape == (4,) and spec.action_space.dtype == np.float32
    assert np.all(spec.action_space.low == -1.0) and np.all(spec.action_space.high == 1.0)
    # The observation: EnvPool declares it unbounded; the reference's
    # bounds win (docs/metaworld.md).
    for partially_observable in (True, False):
        space = envpool.make_spec(
            task_id, partially_observable=partially_observable
        ).observation_space
        # The space the reference clips its observations to.
        ref = make_reference(
            spec.config.task_name, 0, partially_observable=partially_observable
        ).sawyer_observation_space
        assert space.shape == (39,) and space.dtype == np.float64
        np.testing.assert_array_equal(space.low, ref.low)
        np.testing.assert_array_equal(space.high, ref.high)
    assert spec.max_episode_steps == 500


def test_info_keys_are_envpool_1_2_7s() -> None:
    env = envpool.make("MetaWorld/PickPlace-v3", num_envs=2)
    _, info = env.reset()
    for key in INFO_KEYS:
        assert info[key].dtype == np.float64 and info[key].shape == (2,), key
    assert info["task_id"].dtype == np.int32
    np.testing.assert_array_equal(info["task_id"], [30, 30])


# -- bad input -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"task_name": "pick-place-v2"}, "option 'task_name' must be one of"),
        ({"frame_stack": 4}, "option 'frame_stack' must be 1"),
        ({"frame_skip": 0}, "option 'frame_skip'"),
        ({"max_episode_steps": 501}, r"option 'max_episode_steps' must be in \[1, 500\]"),
    ],
)
def test_bad_options_are_value_errors_naming_them(options: dict[str, Any], words: str) -> None:
    with pytest.raises(ValueError, match=words):
        envpool.make("MetaWorld/Reach-v3", num_envs=1, **options)
    envpool.make("MetaWorld/Reach-v3", num_envs=1).reset()


def test_unknown_option_is_a_type_error_naming_the_valid_ones() -> None:
    with pytest.raises(TypeError, match="task_name"):
        envpool.make("MetaWorld/Reach-v3", num_envs=1, task=1)


def test_nan_action_is_an_error_and_the_pool_goes_on() -> None:
    env = envpool.make("MetaWorld/PickPlace-v3", num_envs=1)
    env.reset()
    with pytest.raises(ValueError, match="finite"):
        env.step(np.array([[0.0, np.nan, 0.0, 0.0]], np.float32))
    env.reset()
    obs, *_ = env.step(np.zeros((1, 4), np.float32))
    assert np.all(np.isfinite(obs))


# -- snapshots -------------------------------------------------------------------------


def test_a_snapshot_mid_episode_replays_bit_for_bit() -> None:
    env = envpool.make("MetaWorld/PickPlace-v3", num_envs=2, seed=1)
    env.reset()
    rng = np.random.default_rng(2)
    for _ in range(7):
        env.step(rng.uniform(-1, 1, size=(2, 4)).astype(np.float32))
    saved = env.get_state()
    actions = [rng.uniform(-1, 1, size=(2, 4)).astype(np.float32) for _ in range(40)]
    first = [env.step(a) for a in actions]
    env.set_state(saved)
    again = [env.step(a) for a in actions]
    for t, (one, two) in enumerate(zip(first, again, strict=True)):
        for k in range(4):
            np.testing.assert_array_equal(one[k], two[k], err_msg=f"step {t} {k}")
        for key in INFO_KEYS:
            np.testing.assert_array_equal(one[4][key], two[4][key], err_msg=f"step {t} {key}")


@pytest.mark.skipif(not STATUS.exists(), reason="reads VmRSS from /proc")
def test_the_envs_of_a_pool_share_their_tasks_model() -> None:
    # Each env once held a full copy of its model (18.7 MB for pick-place,
    # its meshes and textures), 300 MB for 16 envs, whose collision meshes
    # then crowded each other out of the cache; now they share it but for
    # the arrays they write, and a second pool adds little more than the
    # envs' mjData. A pool of 16 made after one of 1 (the model loaded).
    first = envpool.make("MetaWorld/PickPlace-v3", num_envs=1)
    first.reset()
    before = rss_mib()
    pool = envpool.make("MetaWorld/PickPlace-v3", num_envs=16, num_threads=1)
    pool.reset()
    grown = rss_mib() - before
    pool.close()
    first.close()
    assert grown < 2 * 18.7, f"16 envs grew the process by {grown:.0f} MiB"


# -- rendering -------------------------------------------------------------------------

# The reset's frame shows the goal marker where the reference's last
# kinematics left it: reach places it after its last mj_forward (so it is
# where the first reset_model() put it), door-open before it (the goal);
# coffee-pull's marker is its "mug_goal"; test_task_sampling.py's MT10 pool
# adds window-open (no mj_forward after the window moved). A frame costs
# little; each thread's first frame of a task uploads the model's meshes and
# textures (both sides, seconds on a software renderer), so make test draws
# these three, ENVPOOL_TEST_ALL every id.
RENDER_SAMPLE = ["MetaWorld/CoffeePull-v3", "MetaWorld/DoorOpen-v3", "MetaWorld/Reach-v3"]


def reference_frame(ref: Any) -> np.ndarray:
    """The reference's frame, drawn in its own GL context.

    gymnasium makes an env's context current only when the env has two
    viewers; with several references in one process the last one made would
    draw the others (with its own model's meshes).
    """
    viewer = ref.unwrapped.mujoco_renderer.viewer
    if viewer is not None:
        viewer.make_context_current()
    return ref.render()


@pytest.mark.parametrize("task_id", OURS if ALL else RENDER_SAMPLE)
def test_render_is_the_references_frame_for_frame(
    task_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Two envs (their frames drawn from the shared model, each with its own
    # bodies and sites) against one reference each: frames and observations
    # at the reset, every step and across the autoreset (whose first
    # reset_model() runs on the last episode's state).
    monkeypatch.setenv("MUJOCO_GL", "egl")
    task_name = envpool.make_spec(task_id).config.task_name
    length, seed = 4, 5
    env = envpool.make(
        task_id,
        num_envs=2,
        seed=seed,
        max_episode_steps=length,
        render_mode="rgb_array",
        render_width=96,
        render_height=64,
    )
    refs = [
        make_reference(task_name, seed + i, render_mode="rgb_array", width=96, height=64)
        for i in range(2)
    ]
    assert env.metadata["render_fps"] == refs[0].metadata["render_fps"] == 80
    for ref in refs:
        ref.max_path_length = length
    obs, _ = env.reset()
    frames = env.render(env_ids=[0, 1])
    assert frames.shape == (2, 64, 96, 3) and frames.dtype == np.uint8
    for i, ref in enumerate(refs):
        np.testing.assert_array_equal(obs[i], ref.reset()[0], err_msg=f"env {i} reset")
        np.testing.assert_array_equal(frames[i], reference_frame(ref), err_msg=f"env {i} reset")
    rng = np.random.default_rng(seed)
    done = np.zeros(2, bool)
    for t in range(2 * (length + 1)):
        actions = rng.uniform(-1.2, 1.2, size=(2, 4)).astype(np.float32)
        obs = env.step(actions)[0]
        frames = env.render(env_ids=[0, 1])
        for i, ref in enumerate(refs):
            if done[i]:
                r_obs, done[i] = ref.reset()[0], False
            else:
                r_obs, _, r_term, r_trunc, _ = ref.step(actions[i])
                done[i] = r_term or r_trunc
            np.testing.assert_array_equal(obs[i], r_obs, err_msg=f"env {i} step {t}")
            np.testing.assert_array_equal(
                frames[i], reference_frame(ref), err_msg=f"env {i} step {t}"
            )
    env.close()
    for ref in refs:
        ref.close()


def test_render_camera_id_is_the_references_named_camera(monkeypatch: pytest.MonkeyPatch) -> None:
    # Every model has xyz_base.xml's cameras, in this order.
    monkeypatch.setenv("MUJOCO_GL", "egl")
    names = ["topview", "corner", "corner2", "corner3", "corner4", "behindGripper", "gripperPOV"]
    for camera_id in (1, 6) if ALL else (1,):
        env = envpool.make(
            "MetaWorld/PickPlace-v3",
            num_envs=1,
            seed=2,
            render_mode="rgb_array",
            render_width=80,
            render_height=60,
            render_camera_id=camera_id,
        )
        ref = make_reference(
            "pick-place-v3",
            2,
            render_mode="rgb_array",
            width=80,
            height=60,
            camera_name=names[camera_id],
        )
        assert [ref.model.camera(k).name for k in range(ref.model.ncam)] == names
        env.reset()
        ref.reset()
        np.testing.assert_array_equal(env.render()[0], ref.render(), err_msg=names[camera_id])
        action = np.array([[0.5, -0.3, 0.2, 1.0]], np.float32)
        env.step(action)
        ref.step(action[0])
        np.testing.assert_array_equal(env.render()[0], ref.render(), err_msg=names[camera_id])
        env.close()
        ref.close()
    with pytest.raises(ValueError, match="render_camera_id"):
        envpool.make("MetaWorld/Reach-v3", render_mode="rgb_array", render_camera_id=7)
