"""Meta-World's MT/ML benchmarks' task vectors and task sampling, against metaworld 3.1.1.

`metaworld.MT10(seed=s)` and the other benchmarks seed the global np.random
with `s` and reset a fresh env of each class 50 times, keeping each reset's
task vector (`_make_tasks`); the pools' `benchmark`, `split`,
`benchmark_seed`, `task_index`, `task_sampling` and `task_vector` options
(docs/metaworld.md) play those vectors. Compared bit for bit: the vectors
themselves, and lockstep episodes of a pool against Meta-World's env of each
task with `set_task` driven by its own RandomTaskSelectWrapper or
PseudoRandomTaskSelectWrapper.

The vectors do not depend on the physics (each class's reset_model draws
them from its reset space, redrawing while the object and goal are too
close), so make test builds the benchmarks with the reference's hand
settling (`_reset_hand`) cut to one of its 50 steps, which takes MT10 from 30 s to a
second; ENVPOOL_TEST_ALL builds them unpatched, and MT50 and ML45 too.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import envpool

mujoco = pytest.importorskip("mujoco")
metaworld = pytest.importorskip("metaworld")

ALL = bool(os.environ.get("ENVPOOL_TEST_ALL"))
INFO_KEYS = (
    "success",
    "near_object",
    "grasp_success",
    "grasp_reward",
    "in_place_reward",
    "obj_to_target",
    "unscaled_reward",
)


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


_BENCHMARKS: dict[tuple[str, int, bool, str, int], Any] = {}


def make_benchmark(
    name: str, seed: int, *, fast: bool, task_name: str = "", num_goals: int = 50
) -> Any:
    """Meta-World's benchmark `name` of seed `seed` (`fast`: the hand settling cut), made once.

    `num_goals` is Meta-World's module global `_N_GOALS` while it is made (what
    its MT registrations' `num_goals` sets), restored after.
    """
    key = (name, seed, fast, task_name, num_goals)
    if key not in _BENCHMARKS:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(metaworld, "_N_GOALS", num_goals)
            _BENCHMARKS[key] = _make_benchmark(name, seed, fast=fast, task_name=task_name)
    return _BENCHMARKS[key]


def _make_benchmark(name: str, seed: int, *, fast: bool, task_name: str) -> Any:
    cls = getattr(metaworld, name)
    if not fast:
        return cls(task_name, seed=seed) if task_name else cls(seed=seed)
    with fast_hand_settling():
        return cls(task_name, seed=seed) if task_name else cls(seed=seed)


@contextlib.contextmanager
def fast_hand_settling() -> Iterator[None]:
    """One physics step of the hand's 50 (it sets init_tcp, which some resets read)."""
    from metaworld.sawyer_xyz_env import SawyerXYZEnv

    settle = SawyerXYZEnv._reset_hand
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(SawyerXYZEnv, "_reset_hand", lambda self, steps=50: settle(self, 1))
        yield


def benchmark_vectors(benchmark: Any, split: str) -> list[np.ndarray]:
    """The split's task vectors, per class in the benchmark's order."""
    import pickle

    classes = benchmark.train_classes if split == "train" else benchmark.test_classes
    tasks = benchmark.train_tasks if split == "train" else benchmark.test_tasks
    return [
        np.array([pickle.loads(t.data)["rand_vec"] for t in tasks if t.env_name == name])
        for name in classes
    ]


def ours(
    name: str, split: str, seed: int, task_name: str = "", num_goals: int = 50
) -> list[np.ndarray]:
    from envpool.metaworld import _metaworld

    vectors = _metaworld._benchmark_task_vectors(name, split, task_name, seed, num_goals)
    return [np.array(c) for c in vectors]


CASES = [("MT10", "", 3), ("ML10", "", 5), ("ML1", "pick-place-v3", 7), ("MT1", "reach-v3", 0)]
if ALL:
    CASES += [("MT50", "", 0), ("ML45", "", 11), ("ML1", "sweep-into-v3", 4294967294)]


@pytest.mark.parametrize(("name", "task_name", "seed"), CASES)
def test_the_benchmarks_task_vectors_are_metaworlds_bit_for_bit(
    name: str, task_name: str, seed: int
) -> None:
    benchmark = make_benchmark(name, seed, fast=not ALL, task_name=task_name)
    for split in ("train", "test") if name.startswith("ML") else ("train",):
        theirs = benchmark_vectors(benchmark, split)
        mine = ours(name, split, seed, task_name)
        assert len(mine) == len(theirs), split
        for c, (a, b) in enumerate(zip(mine, theirs, strict=True)):
            assert a.shape == b.shape == (50, b.shape[1]), (split, c)
            np.testing.assert_array_equal(a, b, err_msg=f"{name} {split} class {c}")


def run_benchmark_lockstep(
    name: str,
    *,
    split: str,
    task_index: list[int],
    benchmark_seed: int,
    seed: int,
    task_sampling: str,
    episodes: int,
    length: int,
    task_name: str = "",
    task_vector: int = -1,
    per_class: int = -1,
    stride: int = 1,
    offsets: list[int] | None = None,
    num_goals: int = 50,
    render: bool = False,
) -> set[tuple[int, bytes]]:
    """A pool on benchmark tasks and, per env, Meta-World's env with its task-select wrapper.

    `render`: every env's frame (64 x 48) compared too.
    """
    from metaworld.wrappers import PseudoRandomTaskSelectWrapper, RandomTaskSelectWrapper

    partially_observable = name.startswith("ML")
    num_envs = len(task_index)
    offsets = offsets or [0] * num_envs
    env = envpool.make(
        f"MetaWorld/{'PickPlace' if not task_name else 'Reach'}-v3",
        num_envs=num_envs,
        seed=seed,
        max_episode_steps=length,
        benchmark=name,
        split=split,
        benchmark_seed=benchmark_seed,
        task_index=task_index,
        task_sampling=task_sampling,
        task_vector=task_vector,
        task_vectors_per_class=per_class,
        task_vector_stride=stride,
        task_vector_offset=offsets,
        num_goals=num_goals,
        partially_observable=partially_observable,
        **({"task_name": task_name} if task_name else {}),
        **({"render_mode": "rgb_array", "render_width": 64, "render_height": 48} if render else {}),
    )
    sizes = {"render_mode": "rgb_array", "width": 64, "height": 48} if render else {}
    benchmark = make_benchmark(
        name, benchmark_seed, fast=True, task_name=task_name, num_goals=num_goals
    )
    split_classes = benchmark.train_classes if split == "train" else benchmark.test_classes
    classes = list(split_classes.items())
    all_tasks = benchmark.train_tasks if split == "train" else benchmark.test_tasks
    refs, wrapped = [], []
    for i, index in enumerate(task_index):
        class_name, cls = classes[index]
        tasks = [t for t in all_tasks if t.env_name == class_name]
        assert len(tasks) == num_goals
        if task_vector < 0:  # make_ml_envs' split of the class among envs
            tasks = tasks[: None if per_class < 0 else per_class][offsets[i] :: stride]
        ref = cls(**sizes)
        ref.seed(seed + i)
        ref.max_path_length = length
        if task_vector >= 0:
            ref.set_task(tasks[task_vector])
            wrapped.append(ref)
        elif task_sampling == "random":
            wrapped.append(RandomTaskSelectWrapper(ref, tasks))
        else:
            wrapped.append(PseudoRandomTaskSelectWrapper(ref, tasks, sample_tasks_on_reset=True))
        refs.append(ref)
    from metaworld.env_dict import ALL_V3_ENVIRONMENTS

    task_ids = [
        next(k for k, c in enumerate(ALL_V3_ENVIRONMENTS.values()) if type(r) is c) for r in refs
    ]
    played: set[tuple[int, bytes]] = set()

    def same_frames(where: str) -> None:
        if render:
            frames = env.render(env_ids=list(range(num_envs)))
            for i, ref in enumerate(wrapped):
                # Each reference draws in its own GL context, which gymnasium
                # makes current only when one env has two viewers: make it so
                # (another task's context holds another model's meshes).
                viewer = ref.unwrapped.mujoco_renderer.viewer
                if viewer is not None:
                    viewer.make_context_current()
                np.testing.assert_array_equal(frames[i], ref.render(), err_msg=f"{where} env {i}")

    obs, info = env.reset()
    for i, ref in enumerate(wrapped):
        r_obs, _ = ref.reset()
        np.testing.assert_array_equal(obs[i], r_obs, err_msg=f"{name} env {i} reset")
        played.add((i, refs[i]._last_rand_vec.tobytes()))
    same_frames("reset")
    np.testing.assert_array_equal(info["task_id"], task_ids)
    rng = np.random.default_rng(seed)
    done = np.zeros(num_envs, bool)
    for t in range(episodes * (length + 1) - 1):
        actions = rng.uniform(-1.2, 1.2, size=(num_envs, 4)).astype(np.float32)
        obs, rew, term, trunc, info = env.step(actions)
        for i, ref in enumerate(wrapped):
            where = f"{name} {split} env {i} (class {task_index[i]}) step {t}"
            if done[i]:
                r_obs, _ = ref.reset()
                r_rew, r_term, r_trunc = 0.0, False, False
                r_info = dict.fromkeys(INFO_KEYS, 0.0)
                done[i] = False
                played.add((i, refs[i]._last_rand_vec.tobytes()))
            else:
                r_obs, r_rew, r_term, r_trunc, r_info = ref.step(actions[i])
                done[i] = r_term or r_trunc
            np.testing.assert_array_equal(obs[i], r_obs, err_msg=where)
            assert rew[i] == np.float32(r_rew), (where, rew[i], r_rew)
            assert (bool(term[i]), bool(trunc[i])) == (r_term, r_trunc), where
            for key in INFO_KEYS:
                assert info[key][i] == float(r_info[key]), (where, key, info[key][i], r_info[key])
            assert info["task_id"][i] == task_ids[i], where
        same_frames(f"step {t}")
    env.close()
    for ref in wrapped:
        ref.close()
    return played


def test_an_mt10_pool_plays_one_task_per_env_as_metaworld_with_random_task_select() -> None:
    # MT10's classes reach, push, pick-place, drawer-open, button-press-topdown
    # (goal shown, as Meta-World's MT override), a task vector drawn per reset.
    played = run_benchmark_lockstep(
        "MT10",
        split="train",
        task_index=[0, 1, 2, 4, 6],
        benchmark_seed=3,
        seed=21,
        task_sampling="random",
        episodes=4,
        length=12,
    )
    # Each env played several of its class's vectors.
    for i in range(5):
        assert len({v for e, v in played if e == i}) >= 3, played


def test_an_mt10_pool_renders_as_metaworlds_envs(monkeypatch: pytest.MonkeyPatch) -> None:
    # reach and window-open (door-open too under ENVPOOL_TEST_ALL), the goal
    # shown, a vector drawn per reset: frames at the resets, every step and
    # across the autoresets.
    monkeypatch.setenv("MUJOCO_GL", "egl")
    played = run_benchmark_lockstep(
        "MT10",
        split="train",
        task_index=[0, 3, 8] if ALL else [0, 8],
        benchmark_seed=1,
        seed=6,
        task_sampling="random",
        episodes=2,
        length=3,
        render=True,
    )
    assert len(played) >= 3, played


def test_ml10_test_tasks_play_as_metaworld_with_pseudorandom_task_select() -> None:
    # ML10's test classes drawer-open, sweep-into, lever-pull (goal hidden),
    # the wrapper's shuffled cycle through a class's vectors, split as
    # make_ml_envs(total_tasks_per_cls=20) splits it between two envs
    # (tasks[:20][i::2]) for drawer-open, all 50 for the others.
    played = run_benchmark_lockstep(
        "ML10",
        split="test",
        task_index=[0, 0, 3, 4],
        per_class=20,
        stride=2,
        offsets=[0, 1, 0, 0],
        benchmark_seed=5,
        seed=2,
        task_sampling="pseudorandom",
        episodes=4,
        length=10,
    )
    assert len(played) == 16, played
    vectors = ours("ML10", "test", 5)
    for env_id, first in ((0, 0), (1, 1)):
        allowed = {vectors[0][j].tobytes() for j in range(first, 20, 2)}
        assert {v for e, v in played if e == env_id} <= allowed


def test_ml1_pins_one_test_vector_per_env_as_set_task() -> None:
    played = run_benchmark_lockstep(
        "ML1",
        split="test",
        task_index=[0, 0],
        benchmark_seed=7,
        seed=0,
        task_sampling="random",
        episodes=2,
        length=10,
        task_name="push-v3",
        task_vector=9,
    )
    assert len({v for _, v in played}) == 1, played
    vectors = ours("ML1", "test", 7, "push-v3")
    assert {v for _, v in played} == {vectors[0][9].tobytes()}


# -- num_goals: Meta-World's _N_GOALS -------------------------------------------------

# Two numbers other than 50 with four seeds; ENVPOOL_TEST_ALL adds the other
# seeds and the other benchmarks, with 1 to 200 vectors.
NUM_GOALS_CASES = [("MT10", 7, 0), ("MT10", 64, 8), ("ML10", 7, 5), ("ML10", 64, 2)]
if ALL:
    NUM_GOALS_CASES += [
        ("MT10", 7, 3),
        ("MT10", 64, 0),
        ("ML10", 7, 1),
        ("ML10", 64, 5),
        ("MT50", 3, 0),
        ("ML45", 101, 4),
        ("ML1", 1, 6),
        ("MT1", 200, 9),
    ]


@pytest.mark.parametrize(("name", "num_goals", "seed"), NUM_GOALS_CASES)
def test_num_goals_makes_metaworlds_vectors_bit_for_bit(
    name: str, num_goals: int, seed: int
) -> None:
    # Meta-World with _N_GOALS = num_goals resets each class num_goals times:
    # the stream enters every later class elsewhere, so their vectors are
    # others than the default's, not only more or fewer.
    task_name = "push-v3" if name in ("MT1", "ML1") else ""
    # The hand's settling cut even under ENVPOOL_TEST_ALL: the vectors do not
    # depend on it (the unpatched references of 50 show), and ML45 with 101
    # would take minutes.
    benchmark = make_benchmark(name, seed, fast=True, task_name=task_name, num_goals=num_goals)
    for split in ("train", "test") if name.startswith("ML") else ("train",):
        theirs = benchmark_vectors(benchmark, split)
        mine = ours(name, split, seed, task_name, num_goals)
        assert len(mine) == len(theirs), split
        for c, (a, b) in enumerate(zip(mine, theirs, strict=True)):
            assert a.shape == b.shape == (num_goals, b.shape[1]), (split, c)
            np.testing.assert_array_equal(a, b, err_msg=f"{name} {split} class {c}")
    train = ours(name, "train", seed, task_name, num_goals)
    if len(train) > 1:
        default = ours(name, "train", seed)
        shared = min(num_goals, 50)
        np.testing.assert_array_equal(default[0][:shared], train[0][:shared])
        assert not np.array_equal(default[1][:shared], train[1][:shared])


def test_an_mt10_pool_with_num_goals_plays_metaworlds_fewer_vectors() -> None:
    played = run_benchmark_lockstep(
        "MT10",
        split="train",
        task_index=[0, 3, 9],
        benchmark_seed=3,
        seed=11,
        task_sampling="random",
        episodes=5,
        length=6,
        num_goals=7,
    )
    vectors = ours("MT10", "train", 3, num_goals=7)
    for env_id, class_index in enumerate((0, 3, 9)):
        mine = {v for e, v in played if e == env_id}
        assert len(mine) >= 3, played
        assert mine <= {vectors[class_index][j].tobytes() for j in range(7)}


def test_ml10_test_tasks_with_num_goals_cycle_through_all_of_them_as_metaworld() -> None:
    # PseudoRandomTaskSelectWrapper over a class's 12 vectors: 13 episodes
    # play all 12 and start a second shuffled cycle.
    played = run_benchmark_lockstep(
        "ML10",
        split="test",
        task_index=[1, 4],
        benchmark_seed=5,
        seed=2,
        task_sampling="pseudorandom",
        episodes=13,
        length=3,
        num_goals=12,
    )
    vectors = ours("ML10", "test", 5, num_goals=12)
    for env_id, class_index in enumerate((1, 4)):
        mine = {v for e, v in played if e == env_id}
        assert mine == {vectors[class_index][j].tobytes() for j in range(12)}


def test_num_goals_is_the_num_goals_of_metaworlds_mt_registration_but_per_pool(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import pickle

    import gymnasium

    # Meta-World's vector entry point sets its module global _N_GOALS (and
    # leaves it set: every later benchmark of the process has 7 vectors per
    # class); the fixture restores it.
    monkeypatch.setattr(metaworld, "_N_GOALS", 50)
    with fast_hand_settling():
        envs = gymnasium.make_vec("Meta-World/MT10", num_goals=7, seed=4)
    assert metaworld._N_GOALS == 7
    mine = ours("MT10", "train", 4, num_goals=7)
    for c, env in enumerate(envs.envs):
        tasks = env.get_wrapper_attr("tasks")
        theirs = np.array([pickle.loads(t.data)["rand_vec"] for t in tasks])
        np.testing.assert_array_equal(mine[c], theirs, err_msg=f"class {c}")
    envs.close()
    # Here the number is an option of the pool: a pool made after one with 7
    # has its own 50 (reach's goal, shown, is its vector's last three).
    pools = {
        n: envpool.make(
            "MetaWorld/Reach-v3",
            num_envs=1,
            benchmark="MT10",
            num_goals=n,
            task_vector=n - 1,
            partially_observable=False,
        )
        for n in (7, 50)
    }
    for n, pool in pools.items():
        obs, _ = pool.reset()
        np.testing.assert_array_equal(
            obs[0, -3:], ours("MT10", "train", 0, num_goals=n)[0][n - 1][3:]
        )
        pool.close()


def test_the_goal_shown_space_is_the_union_of_the_benchmarks_goal_boxes() -> None:
    from metaworld.env_dict import MT10_V3

    env = envpool.make(
        "MetaWorld/Reach-v3",
        num_envs=2,
        benchmark="MT10",
        task_index=[0, 9],
        partially_observable=False,
    )
    boxes = [cls().goal_space for cls in MT10_V3.values()]
    space = env.observation_space
    np.testing.assert_array_equal(space.low[-3:], np.min([b.low for b in boxes], axis=0))
    np.testing.assert_array_equal(space.high[-3:], np.max([b.high for b in boxes], axis=0))
    env.close()


def test_a_snapshot_replays_the_pseudorandom_task_cycle() -> None:
    env = envpool.make(
        "MetaWorld/Reach-v3",
        num_envs=2,
        seed=4,
        max_episode_steps=3,
        benchmark="MT1",
        task_sampling="pseudorandom",
    )
    env.reset()
    zeros = np.zeros((2, 4), np.float32)
    for _ in range(6):
        env.step(zeros)
    saved = env.get_state()
    first = [env.step(zeros)[0] for _ in range(12)]
    env.set_state(saved)
    again = [env.step(zeros)[0] for _ in range(12)]
    np.testing.assert_array_equal(np.array(first), np.array(again))
    env.close()


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"benchmark": "MT20"}, "option 'benchmark' must be"),
        ({"benchmark": "MT10", "split": "test"}, "no test tasks"),
        ({"benchmark": "ML10", "split": "validation"}, "option 'split'"),
        ({"benchmark": "MT10", "task_index": 10}, r"option 'task_index' must be in \[0, 10\)"),
        ({"benchmark": "MT1", "benchmark_seed": -1}, "option 'benchmark_seed'"),
        ({"benchmark": "MT1", "task_vector": 50}, "option 'task_vector'"),
        ({"benchmark": "MT1", "task_sampling": "cyclic"}, "option 'task_sampling'"),
        ({"task_index": 3}, "give option 'benchmark' too"),
        ({"task_vector": 3}, "give option 'benchmark' too"),
        ({"benchmark": "ML1", "task_vectors_per_class": 0}, "option 'task_vectors_per_class'"),
        (
            {"benchmark": "ML1", "task_vector_stride": 2, "task_vector_offset": 2},
            "got k = 2, i = 2",
        ),
        ({"task_vector_stride": 2}, "give option 'benchmark' too"),
        ({"num_goals": 7}, "give option 'benchmark' too"),
        ({"benchmark": "MT10", "num_goals": 0}, r"option 'num_goals' .* must be in \[1, 10000\]"),
        ({"benchmark": "MT10", "num_goals": 10001}, "option 'num_goals'"),
        ({"benchmark": "MT1", "num_goals": 10, "task_vector": 10}, r"in \[0, 10\) \(num_goals\)"),
        (
            {"benchmark": "ML1", "num_goals": 10, "task_vectors_per_class": 11},
            r"option 'task_vectors_per_class' must be -1 \(all num_goals\) or in \[1, 10\]",
        ),
    ],
)
def test_bad_benchmark_options_are_value_errors_naming_them(
    options: dict[str, Any], words: str
) -> None:
    with pytest.raises(ValueError, match=words):
        envpool.make("MetaWorld/Reach-v3", num_envs=1, **options)
    envpool.make("MetaWorld/Reach-v3", num_envs=1, benchmark="MT1").reset()
