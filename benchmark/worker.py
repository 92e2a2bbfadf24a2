"""One benchmark measurement, run in its own process by `bench.py`.

Both this project and the published EnvPool are imported as `envpool`, so
each measurement runs in a fresh interpreter (the published one from its own
virtual environment) and prints one JSON object on stdout:

    python3 -P benchmark/worker.py step --backend envpool_sync --task CartPole-v1 \
        --num-envs 8 --seconds 1
    python3 -P benchmark/worker.py import
    python3 -P benchmark/worker.py limit --backend envpool_async --task CheetahRun-v1 \
        --num-envs 8 --cores 2
    python3 -P benchmark/worker.py ceiling --task CheetahRun-v1 --cores 2
    python3 -P benchmark/worker.py share --task CartPole-v1 --num-envs 1024 --cores 2

The gymnasium backends step the reference env of the task, see
`gym_reference`: `gymnasium.make(task)` where gymnasium registers the id
(CartPole-v1, Ant-v5, ...), and for an Atari id such as Pong-v5, which
gymnasium doesn't register, ale-py's `ALE/Pong-v5` wrapped to do the work
envpool's defaults do. A procgen id (CoinrunEasy-v0) has no gymnasium env:
its reference is procgen's own vector env, `ProcgenGym3Env`, which needs
procgen 0.10.7 and so Python <= 3.10 (`bench.py --reference-python`).
A dm_control id (CheetahRun-v1) has no gymnasium
env: its loop steps `dm_control.suite.load(domain, task)` (`dm_control_reference`),
and DmcSoccerBoxhead-v1 `dm_control.locomotion.soccer.load(...)`. The ids of
the families after the first nine step their own references: highway-env's
id of IntersectionMultiAgent-v1 (`intersection-multi-agent-v1`, its two
players' tuple action), gymnasium-robotics' ids and Meta-World 3.1.1's task
class, each with the one patch the project's tests apply to run it on mujoco
3.17 (`robotics_on_mujoco_317`, `metaworld_reference`). `MetaWorld/MT10` is a
pool of Meta-World's MT10 classes, env i playing class i % 10, in each
backend's form (`metaworld_mt10`, `mt10_pool_options`, `mt10_per_class_stepper`).

This file needs only the standard library, numpy and gymnasium (and envpool
for the envpool backends, ale-py for the Atari references), since the
published EnvPool's environment has no more than that.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import os
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

BACKENDS = ("loop", "gym_sync", "gym_async", "procgen_vec", "envpool_sync", "envpool_async")
"""Backends this file knows; `bench.py` maps the 1.2.5 ones onto the envpool ones."""

NUM_ACTION_SETS = 256
"""Random action batches drawn before timing and cycled through while timing."""

ATARI_STACK = 4
"""Frames stacked by the Atari reference, as envpool's default `stack_num`."""


# Reference libraries that register their ids with gymnasium when imported
# (highway-env's `highway-fast-v0`, gymnasium-robotics' `FetchPush-v4`).
GYMNASIUM_REGISTERING = ("highway_env", "gymnasium_robotics")


def gym_reference(task: str) -> tuple[Callable[[], Any], str]:
    """The gymnasium env the gymnasium backends step for `task`, and how it is built.

    A task id gymnasium registers is made as it is (MiniGrid and BabyAI ids
    once minigrid has registered them). An Atari id (gymnasium
    has no `Pong-v5`, ale-py registers `ALE/Pong-v5`) is made with
    `frameskip=1` and sticky actions off and wrapped in `AtariPreprocessing`
    and `FrameStackObservation`, the work envpool's defaults do: 30 no-ops
    at most on reset, frame skip 4 with the max of the last two frames,
    84x84 grayscale, 4 stacked frames, no life-loss termination and no
    reward clipping. Returns (a function making one env, a markdown line).
    """
    import gymnasium

    if task in HIGHWAY_MULTI_AGENT:
        return highway_multi_agent_reference(task)
    if task.startswith("MetaWorld/"):
        return metaworld_reference(task)
    if task.startswith(("MiniGrid-", "BabyAI-")):
        import minigrid  # registers its ids with gymnasium

        return (lambda: gymnasium.make(task)), (
            f"`gymnasium.make({task!r})` (minigrid {minigrid.__version__})"
        )
    if task not in gymnasium.registry:
        for name in GYMNASIUM_REGISTERING:
            with contextlib.suppress(ImportError):
                module = importlib.import_module(name)
                gymnasium.register_envs(module)
            if task in gymnasium.registry:
                break
    if task in gymnasium.registry:
        description = f"`gymnasium.make({task!r})`"
        if gymnasium.registry[task].entry_point.startswith("gymnasium_robotics"):
            description += robotics_on_mujoco_317()
        return (lambda: gymnasium.make(task)), description
    if task.endswith("-v1") and _vizdoom_scenario(task) is not None:
        return vizdoom_reference(task)
    import ale_py

    gymnasium.register_envs(ale_py)
    ale_id = f"ALE/{task}"
    if ale_id not in gymnasium.registry:
        raise ValueError(f"gymnasium registers neither {task!r} nor {ale_id!r}")

    def make() -> Any:
        env = gymnasium.make(ale_id, frameskip=1, repeat_action_probability=0.0)
        env = gymnasium.wrappers.AtariPreprocessing(
            env,
            noop_max=30,
            frame_skip=4,
            screen_size=84,
            terminal_on_life_loss=False,
            grayscale_obs=True,
        )
        return gymnasium.wrappers.FrameStackObservation(env, ATARI_STACK)

    description = (
        f"`FrameStackObservation(AtariPreprocessing(gymnasium.make({ale_id!r}, "
        "frameskip=1, repeat_action_probability=0.0), noop_max=30, frame_skip=4, "
        f"screen_size=84, terminal_on_life_loss=False, grayscale_obs=True), {ATARI_STACK})` "
        f"(ale-py {ale_py.__version__}); envpool's `use_fire_reset=True` (FIRE after each "
        "reset in games that have it) has no counterpart here, a few frames per episode"
    )
    return make, description


HIGHWAY_MULTI_AGENT = {"IntersectionMultiAgent-v1": "intersection-multi-agent-v1"}
"""This project's two-player highway ids -> highway-env's id."""


def highway_multi_agent_reference(task: str) -> tuple[Callable[[], Any], str]:
    """highway-env's two-player intersection, its per-agent flags reduced for a vector env.

    highway-env's `MultiAgentWrapper` returns a tuple of the agents' rewards
    and of their terminated flags, which gymnasium's vector envs cannot
    store; the wrapper here returns the sum of the rewards and "every agent
    terminated" (what ends an episode of this project's -v1 id). The action
    stays highway-env's tuple of the two players' `Discrete(3)` moves.
    """
    import gymnasium
    import highway_env

    gymnasium.register_envs(highway_env)
    reference_id = HIGHWAY_MULTI_AGENT[task]

    class AllAgents(gymnasium.Wrapper):
        def step(self, action: Any) -> tuple[Any, float, bool, bool, dict]:
            obs, reward, terminated, truncated, info = self.env.step(action)
            return obs, float(np.sum(reward)), bool(np.all(terminated)), bool(truncated), info

    def make() -> Any:
        return AllAgents(gymnasium.make(reference_id))

    return make, (
        f"`gymnasium.make({reference_id!r})` (highway-env {highway_env.__version__}, the "
        "two players' tuple action), wrapped to return the sum of the agents' rewards and "
        "'every agent terminated', which gymnasium's vector envs can store"
    )


def robotics_on_mujoco_317() -> str:
    """Let gymnasium-robotics 1.4.2 run on mujoco 3.17, as the project's robotics tests do.

    Its `mujoco_utils` joint helpers assert `joint_type in (mjtJoint.mjJNT_HINGE, ...)`,
    False on 3.17 for a numpy int; they see plain ints for the four joint types
    instead, nothing else changes (envpool/robotics/tests/robotics_reference.py).
    Returns the note for the reference's description.
    """
    import types

    import mujoco
    from gymnasium_robotics.utils import mujoco_utils

    class PlainJointTypes(types.ModuleType):
        mjtJoint = types.SimpleNamespace(  # noqa: N815 (mujoco's own name)
            **{
                name: int(getattr(mujoco.mjtJoint, name))
                for name in ("mjJNT_FREE", "mjJNT_BALL", "mjJNT_SLIDE", "mjJNT_HINGE")
            }
        )

        def __getattr__(self, name: str) -> Any:
            return getattr(mujoco, name)

    mujoco_utils.mujoco = PlainJointTypes("mujoco")
    from importlib.metadata import version

    return (
        f" (gymnasium-robotics {version('gymnasium-robotics')} on mujoco {mujoco.__version__}, "
        "its `mujoco_utils` seeing plain-int joint types: the robotics tests' patch)"
    )


def metaworld_reference(task: str) -> tuple[Callable[[], Any], str]:
    """Meta-World 3.1.1's env of a `MetaWorld/<Task>-v3` id, built as the project's tests do.

    The task's class from `ALL_V3_ENVIRONMENTS`, the task vector unfrozen and
    drawn per reset from the env's seeded generator, 500-step episodes; on
    mujoco 3.17 its `reset_mocap_welds` writes its 11 numbers into the first
    11 of a weld's 12 (envpool/metaworld/tests, the one patch they apply).
    """
    import re
    from importlib.metadata import version

    import mujoco
    from metaworld.env_dict import ALL_V3_ENVIRONMENTS
    from metaworld.sawyer_xyz_env import SawyerMocapBase

    camel = task.removeprefix("MetaWorld/").removesuffix("-v3")
    task_name = re.sub(r"(?<!^)(?=[A-Z])", "-", camel).lower() + "-v3"
    if task_name not in ALL_V3_ENVIRONMENTS:
        raise ValueError(f"Meta-World has no task {task_name!r} (from {task!r})")

    def reset_mocap_welds(self: Any) -> None:
        if self.model.nmocap > 0 and self.model.eq_data is not None:
            for i in range(self.model.eq_data.shape[0]):
                if self.model.eq_type[i] == mujoco.mjtEq.mjEQ_WELD:
                    self.model.eq_data[i, :11] = [0, 0, 0, 0, 0, 0, -1, 0, 0, 0, 5]

    SawyerMocapBase.reset_mocap_welds = reset_mocap_welds

    def make() -> Any:
        env = ALL_V3_ENVIRONMENTS[task_name]()
        env._set_task_called = True
        env._freeze_rand_vec = False
        env.seeded_rand_vec = True
        env.max_path_length = 500
        return env

    return make, (
        f"Meta-World {version('metaworld')}'s `ALL_V3_ENVIRONMENTS[{task_name!r}]()`, task "
        "vector drawn per reset (`seeded_rand_vec`), 500-step episodes, on mujoco "
        f"{mujoco.__version__} with the tests' `reset_mocap_welds` patch"
    )


MT10_TASK = "MetaWorld/MT10"
"""The pseudo-task of an MT10 pool: env i plays class `MT10_CLASSES[i % 10]`."""

MT10_CLASSES = (
    "reach-v3",
    "push-v3",
    "pick-place-v3",
    "door-open-v3",
    "drawer-open-v3",
    "drawer-close-v3",
    "button-press-topdown-v3",
    "peg-insert-side-v3",
    "window-open-v3",
    "window-close-v3",
)
"""Meta-World's `env_dict.MT10_V3`, in its order (`metaworld_mt10` checks it), written out
here because EnvPool 1.2.7's venv has no metaworld."""

MT10_SEED = 0
"""The benchmark's seed (`metaworld.MT10(seed=...)`, this project's `benchmark_seed`)."""


def mt10_classes(num_envs: int) -> list[str]:
    """The class of each env of an MT10 pool of `num_envs`: env i plays class i % 10
    (N < 10: the first N classes; N = 16: classes 0-5 twice, 6-9 once)."""
    return [MT10_CLASSES[i % len(MT10_CLASSES)] for i in range(num_envs)]


def metaworld_id(class_name: str) -> str:
    """The envpool id of a Meta-World class: "button-press-topdown-v3" ->
    "MetaWorld/ButtonPressTopdown-v3"."""
    words = class_name.removesuffix("-v3").split("-")
    return "MetaWorld/" + "".join(w.capitalize() for w in words) + "-v3"


def metaworld_mt10(num_envs: int) -> tuple[list[Callable[[], Any]], str]:
    """Meta-World's MT10 envs for a pool of `num_envs`, built as its gymnasium
    registration builds them, and how.

    `gymnasium.make_vec("Meta-World/MT10", seed=s)` calls `make_mt_envs("MT10", seed=s)`:
    `metaworld.MT10(seed=s)`, then for each of the 10 classes
    `_init_each_env(env_cls, the class's 50 train tasks, seed=s, env_id, num_tasks=10)`
    (TimeLimit at 500 steps, the success-termination wrapper switched off,
    RecordEpisodeStatistics, `RandomTaskSelectWrapper`: a new task vector of the
    class per reset). It always makes exactly 10 envs; here env i is that call for
    class i % 10, so any N is made of the registration's own envs. The benchmark's
    task vectors are drawn with the hand's settling at reset cut to one step (the
    vectors do not depend on it: envpool/metaworld/tests/test_task_sampling.py);
    the envs stepped are unpatched but for the tests' `reset_mocap_welds` patch.
    Returns (one function making each env, a markdown line).
    """
    from functools import partial

    import metaworld
    from metaworld.env_dict import MT10_V3
    from metaworld.sawyer_xyz_env import SawyerXYZEnv

    metaworld_reference("MetaWorld/Reach-v3")  # the mujoco 3.17 patch
    if tuple(MT10_V3) != MT10_CLASSES:
        raise RuntimeError(f"MT10_CLASSES is not metaworld's MT10: {list(MT10_V3)}")
    settle = SawyerXYZEnv._reset_hand
    SawyerXYZEnv._reset_hand = lambda self, steps=50: settle(self, 1)
    try:
        benchmark = metaworld.MT10(seed=MT10_SEED)
    finally:
        SawyerXYZEnv._reset_hand = settle
    classes = list(benchmark.train_classes.items())
    makers: list[Callable[[], Any]] = []
    for name in mt10_classes(num_envs):
        env_id = MT10_CLASSES.index(name)
        tasks = [task for task in benchmark.train_tasks if task.env_name == name]
        makers.append(
            partial(
                metaworld._init_each_env,
                env_cls=classes[env_id][1],
                tasks=tasks,
                seed=MT10_SEED,
                env_id=env_id,
                num_tasks=len(MT10_CLASSES),
            )
        )
    from importlib.metadata import version

    description = (
        f"Meta-World {version('metaworld')}'s MT10 envs as `gymnasium.make_vec("
        f"'Meta-World/MT10', seed={MT10_SEED})` builds them (`make_mt_envs`: "
        f"`metaworld.MT10(seed={MT10_SEED})`, then `_init_each_env(env_cls, the class's "
        f"train tasks, seed={MT10_SEED}, env_id, num_tasks=10)` per class: TimeLimit 500, "
        "RecordEpisodeStatistics, `RandomTaskSelectWrapper`), env i of N playing class "
        "i % 10; the vector envs use metaworld's autoreset mode (`SAME_STEP`), and at N = 10 "
        "would be that entry point itself, which makes exactly 10; on mujoco "
        "3.17 with the tests' `reset_mocap_welds` patch"
    )
    return makers, description


def bench_mt10_loop(num_envs: int, seconds: float, warmup: float) -> tuple[int, float]:
    """Step Meta-World's MT10 envs of a pool of `num_envs` round-robin in a Python for-loop,
    resetting one when its episode ends."""
    envs = [make() for make in metaworld_mt10(num_envs)[0]]
    for env in envs:
        env.reset(seed=MT10_SEED)
    actions = draw_actions(envs[0].action_space, None, seed=0)

    def step(i: int) -> int:
        for k, env in enumerate(envs):
            _, _, terminated, truncated, _ = env.step(actions[(i + k) % NUM_ACTION_SETS])
            if terminated or truncated:
                env.reset()
        return num_envs

    try:
        return timed(step, seconds, warmup)
    finally:
        for env in envs:
            env.close()


def mt10_pool_options(envpool: Any, num_envs: int) -> dict[str, Any] | None:
    """This project's options making one pool of MT10's classes, env i class i % 10
    (the goal shown, as Meta-World's MT benchmarks show it); None for an envpool that
    has no benchmark options (EnvPool 1.2.7: one `task_name` per pool)."""
    config = envpool.make_spec(metaworld_id(MT10_CLASSES[0])).config
    if "benchmark" not in getattr(config, "_fields", ()):
        return None
    return {
        "benchmark": "MT10",
        "benchmark_seed": MT10_SEED,
        "task_index": [i % len(MT10_CLASSES) for i in range(num_envs)],
        "partially_observable": False,
    }


def mt10_per_class_stepper(
    num_envs: int, asynchronous: bool, num_threads: int
) -> tuple[Any, Callable[[int], int], str]:
    """EnvPool 1.2.7's closest to an MT10 pool: one pool per class (it takes one
    `task_name` per pool and refuses a list), each of the envs that play the class.

    Sync: `send` to every pool, then `recv` from every pool (all pools step at
    once on their own threads). Async: each pool's batch_size is half its envs (at
    least 1), and the pools take turns, `recv` then `send`. Returns (an object whose
    `close` closes the pools, the step function, a markdown line).
    """
    import envpool

    counts: dict[str, int] = {}
    for name in mt10_classes(num_envs):
        counts[name] = counts.get(name, 0) + 1
    pools = []
    batches = [max(1, count // 2) if asynchronous else count for count in counts.values()]
    for (name, count), batch_size in zip(counts.items(), batches, strict=True):
        env = envpool.make(
            metaworld_id(name),
            env_type="gymnasium",
            num_envs=count,
            batch_size=batch_size,
            num_threads=num_threads,
            seed=0,
            partially_observable=False,
        )
        actions = draw_actions(env.single_action_space, batch_size, seed=0)
        pools.append((env, batch_size, actions))
    for env, _, _ in pools:
        env.async_reset()

    if asynchronous:

        def step(i: int) -> int:
            for env, _, actions in pools:
                info = env.recv()[4]
                env.send(actions[i % NUM_ACTION_SETS], info["env_id"])
            return sum(batch_size for _, batch_size, _ in pools)

        for i in range(max(-(-n // b) for n, b in zip(counts.values(), batches, strict=True))):
            step(i)  # every env's first reset, untimed
    else:
        for env, _, _ in pools:
            env.recv()

        def step(i: int) -> int:
            for env, _, actions in pools:
                env.send(actions[i % NUM_ACTION_SETS])
            for env, _, _ in pools:
                env.recv()
            return num_envs

    class Pools:
        def close(self) -> None:
            for env, _, _ in pools:
                env.close()

    description = (
        f"{len(pools)} pools, one per class of the N envs' (env i class i % 10), each of "
        "the envs playing it; "
        + (
            "batch_size half each pool's envs (at least 1), the pools taking turns "
            "`recv` then `send`"
            if asynchronous
            else "`send` to every pool, then `recv` from every pool"
        )
    )
    return Pools(), step, description


PROCGEN_GAMES = (
    "bigfish",
    "bossfight",
    "caveflyer",
    "chaser",
    "climber",
    "coinrun",
    "dodgeball",
    "fruitbot",
    "heist",
    "jumper",
    "leaper",
    "maze",
    "miner",
    "ninja",
    "plunder",
    "starpilot",
)
PROCGEN_MODES = ("Easy", "Hard", "Extreme", "Memory", "Exploration")


def procgen_task(task: str) -> tuple[str, str] | None:
    """(game, distribution mode) of a procgen id such as CoinrunEasy-v0, else None."""
    name = task.removesuffix("-v0")
    for mode in PROCGEN_MODES:
        game = name.removesuffix(mode).lower()
        if name != task and name.endswith(mode) and game in PROCGEN_GAMES:
            return game, mode.lower()
    return None


def procgen_threads(num_envs: int, num_threads: int) -> int:
    """procgen's own worker threads: as asked, else none for one env, one per core for more."""
    if num_threads > 0:
        return num_threads
    return 0 if num_envs == 1 else os.cpu_count() or 1


def procgen_description(task: str) -> str:
    game, mode = procgen_task(task) or ("?", "?")
    return (
        f"procgen 0.10.7 `ProcgenGym3Env(num=N, env_name={game!r}, distribution_mode={mode!r}, "
        "num_threads=T)` (T: 0 at N=1, else one per core), stepped with gym3's act/observe; "
        "it restarts ended episodes itself"
    )


def bench_procgen(
    task: str, num_envs: int, seconds: float, warmup: float, num_threads: int
) -> tuple[int, float]:
    """Step procgen's own vector env of `num_envs` games (its C++ threads)."""
    from procgen import ProcgenGym3Env

    game, mode = procgen_task(task) or (None, None)
    if game is None:
        raise ValueError(f"{task!r} is not a procgen id")
    env = ProcgenGym3Env(
        num=num_envs,
        env_name=game,
        distribution_mode=mode,
        rand_seed=0,
        num_threads=procgen_threads(num_envs, num_threads),
    )
    rng = np.random.default_rng(0)
    actions = [rng.integers(0, 15, num_envs).astype(np.int32) for _ in range(NUM_ACTION_SETS)]

    def step(i: int) -> int:
        env.act(actions[i % NUM_ACTION_SETS])
        env.observe()
        return num_envs

    try:
        return timed(step, seconds, warmup)
    finally:
        env.close()


SOCCER_WALKERS = {
    "DmcSoccerBoxhead-v1": "BOXHEAD",
    "DmcSoccerAnt-v1": "ANT",
    "DmcSoccerHumanoid-v1": "HUMANOID",
}
"""dm_control soccer ids -> the walker of `soccer.load` (team_size 2, this project's default)."""

LOCOMOTION_EXAMPLES = {"DmcCmuHumanoid": "basic_cmu_2019", "DmcRodent": "basic_rodent_2020"}
"""Prefixes of the one-walker locomotion ids -> the dm_control example module whose factory
(`cmu_humanoid_run_walls` for DmcCmuHumanoidRunWalls-v1) builds the env."""


def dm_control_reference(task: str) -> tuple[Callable[[], Any], str] | None:
    """dm_control's suite env of a dm_control id (`CheetahRun-v1` is
    `suite.load("cheetah", "run")`), or None for another id."""
    try:
        from dm_control import suite
    except ImportError:
        return None

    def camel(name: str) -> str:
        return "".join(part[:1].upper() + part[1:] for part in name.split("_"))

    if task in SOCCER_WALKERS:
        from importlib.metadata import version

        from dm_control.locomotion import soccer

        walker = SOCCER_WALKERS[task]

        def make_soccer() -> Any:
            return soccer.load(
                team_size=2,
                walker_type=soccer.WalkerType[walker],
                random_state=np.random.RandomState(0),
            )

        return make_soccer, (
            f"`dm_control.locomotion.soccer.load(team_size=2, walker_type=WalkerType.{walker})` "
            f"(dm-control {version('dm-control')}; 4 players acting at once, one env step "
            "counted per step of the 4)"
        )
    for prefix, module in LOCOMOTION_EXAMPLES.items():
        if task.startswith(prefix) and task.endswith("-v1"):
            from importlib import import_module
            from importlib.metadata import version

            words = "".join("_" + c.lower() if c.isupper() else c for c in task[3:-3])
            factory = getattr(import_module(f"dm_control.locomotion.examples.{module}"), words[1:])

            def make_example(factory: Callable[..., Any] = factory) -> Any:
                np.random.seed(0)  # the arenas draw from the global stream too
                return factory(random_state=np.random.RandomState(0))

            return make_example, (
                f"`dm_control.locomotion.examples.{module}.{words[1:]}` "
                f"(dm-control {version('dm-control')})"
            )
    for domain, name in suite.ALL_TASKS:
        if f"{camel(domain)}{camel(name)}-v1" == task:
            from importlib.metadata import version

            def make(domain: str = domain, name: str = name) -> Any:
                return suite.load(domain, name, task_kwargs={"random": 0})

            return make, (
                f"`dm_control.suite.load({domain!r}, {name!r})` (dm-control "
                f"{version('dm-control')})"
            )
    return None


def bench_dm_control_loop(
    make: Callable[[], Any], seconds: float, warmup: float
) -> tuple[int, float]:
    """Step ONE dm_control env in a Python loop, resetting it after its LAST step."""
    env = make()
    env.reset()
    spec = env.action_spec()
    rng = np.random.RandomState(0)

    def draw(spec: Any) -> np.ndarray:
        low, high = np.maximum(spec.minimum, -1), np.minimum(spec.maximum, 1)
        return rng.uniform(low, high)

    # A multi-player env (soccer) has one spec per player and takes a list.
    specs = spec if isinstance(spec, list | tuple) else None
    actions = [
        [draw(s) for s in specs] if specs is not None else draw(spec)
        for _ in range(NUM_ACTION_SETS)
    ]

    def step(i: int) -> int:
        if env.step(actions[i % NUM_ACTION_SETS]).last():
            env.reset()
        return 1

    return timed(step, seconds, warmup)


def _vizdoom_scenario(task: str) -> str | None:
    """The scenario cfg of a ViZDoom id: the one the id's spec names (its wad
    beside it), so the D scenarios, which ship with envpool and not with
    vizdoom, are found too; else vizdoom's own ("DefendTheCenter-v1":
    scenarios/defend_the_center.cfg)."""
    import importlib.util
    import os
    import re

    try:
        import envpool

        spec = envpool.make_spec(task)
        if spec.entry.family == "vizdoom" and os.path.isfile(spec.config.cfg_path):
            return spec.config.cfg_path
    except Exception:  # envpool missing here, or not one of its ids
        pass
    found = importlib.util.find_spec("vizdoom")
    if found is None or not found.submodule_search_locations:
        return None
    name = re.sub(r"(?<!^)(?=[A-Z])", "_", task[: -len("-v1")]).lower()
    cfg = os.path.join(next(iter(found.submodule_search_locations)), "scenarios", name + ".cfg")
    return cfg if os.path.isfile(cfg) else None


def vizdoom_reference(task: str) -> tuple[Callable[[], Any], str]:
    """vizdoom's DoomGame doing what envpool's ViZDoom defaults do, as a gymnasium env.

    Synchronous PLAYER mode, no window, no sound; `make_action(buttons, 4)`;
    the screen buffer resized per plane by `cv2.resize(INTER_AREA)` to 84x84,
    4 frames stacked; a new episode when one ends.
    """
    import os

    import cv2
    import gymnasium
    import vizdoom as vzd

    cfg = _vizdoom_scenario(task)
    assert cfg is not None
    hosted = os.path.basename(cfg) in ("cig.cfg", "multi_duel.cfg")

    class DoomReference(gymnasium.Env):
        def __init__(self) -> None:
            game = vzd.DoomGame()
            game.load_config(cfg)
            game.set_doom_scenario_path(cfg[: -len(".cfg")] + ".wad")
            if hosted:
                game.add_game_args("-host 1 -deathmatch")
            game.set_mode(vzd.Mode.PLAYER)
            game.set_window_visible(False)
            game.set_sound_enabled(False)
            self.game = game
            self.started = False
            n = game.get_available_buttons_size()
            self.action_space = gymnasium.spaces.Box(-np.inf, np.inf, (n,), np.float64)
            self.frames: list[np.ndarray] = []

        def frame(self) -> np.ndarray:
            screen = self.game.get_state().screen_buffer
            if screen.ndim == 2:
                screen = screen[None]
            return np.stack([cv2.resize(p, (84, 84), interpolation=cv2.INTER_AREA) for p in screen])

        def reset(self, *, seed: int | None = None, options: Any = None) -> tuple[Any, dict]:
            if seed is not None:
                self.game.set_seed(seed)
            if self.started:
                self.game.new_episode()
            else:
                self.game.init()
                self.started = True
            self.frames = [self.frame()] * ATARI_STACK
            return np.concatenate(self.frames), {}

        def step(self, action: Any) -> tuple[Any, float, bool, bool, dict]:
            reward = self.game.make_action(list(map(float, action)), 4)
            done = self.game.is_episode_finished()
            if not done and self.game.is_player_dead():
                self.game.respawn_player()
            self.frames = [*self.frames[1:], self.frames[-1] if done else self.frame()]
            return np.concatenate(self.frames), reward, done, False, {}

        def close(self) -> None:
            self.game.close()

    description = (
        f"vizdoom {vzd.__version__}'s `DoomGame` on `{os.path.basename(cfg)}` (PLAYER mode, no "
        "window), `make_action(buttons, 4)`, `cv2.resize(INTER_AREA)` to 84x84 per plane, "
        "4 frames stacked"
    )
    return DoomReference, description


def draw_actions(space: Any, rows: int | None, seed: int) -> list[Any]:
    """Draw `NUM_ACTION_SETS` random actions from `space` before timing starts.

    With `rows` set, each draw is a numpy batch of `rows` single actions,
    as a vector env takes them; with `rows=None`, one single action.
    """
    space.seed(seed)
    if rows is None:
        return [space.sample() for _ in range(NUM_ACTION_SETS)]
    return [np.stack([space.sample() for _ in range(rows)]) for _ in range(NUM_ACTION_SETS)]


def timed(step: Callable[[int], int], seconds: float, warmup: float) -> tuple[int, float]:
    """Call `step(i)` for `warmup` s, then for `seconds` s; return (env steps, seconds).

    `step` returns how many env steps its call made, so batched backends
    count every env they stepped.
    """
    i = 0
    end = time.perf_counter() + warmup
    while time.perf_counter() < end:
        step(i)
        i += 1
    steps = 0
    start = time.perf_counter()
    end = start + seconds
    now = start
    while now < end:
        steps += step(i)
        i += 1
        now = time.perf_counter()
    return steps, now - start


def bench_loop(task: str, seconds: float, warmup: float) -> tuple[int, float]:
    """Step ONE reference env in a Python loop, resetting it when an episode ends."""
    if procgen_task(task):
        return bench_procgen(task, 1, seconds, warmup, 0)
    env = gym_reference(task)[0]()
    env.reset(seed=0)
    actions = draw_actions(env.action_space, None, seed=0)

    def step(i: int) -> int:
        _, _, terminated, truncated, _ = env.step(actions[i % NUM_ACTION_SETS])
        if terminated or truncated:
            env.reset()
        return 1

    try:
        return timed(step, seconds, warmup)
    finally:
        env.close()


def bench_gym_vector(
    task: str, num_envs: int, seconds: float, warmup: float, asynchronous: bool
) -> tuple[int, float]:
    """Step gymnasium's SyncVectorEnv or AsyncVectorEnv of `num_envs` reference envs (autoreset)."""
    import gymnasium

    # Meta-World's MT10 entry point vectorizes its envs with autoreset mode SAME_STEP.
    mode = {}
    if task == MT10_TASK:
        fns = metaworld_mt10(num_envs)[0]
        mode = {"autoreset_mode": gymnasium.vector.AutoresetMode.SAME_STEP}
    else:
        fns = [gym_reference(task)[0]] * num_envs
    # minigrid's mission is a Text space, which shared memory cannot hold.
    shared_memory = not task.startswith(("MiniGrid-", "BabyAI-"))
    env = (
        gymnasium.vector.AsyncVectorEnv(fns, shared_memory=shared_memory, **mode)
        if asynchronous
        else gymnasium.vector.SyncVectorEnv(fns, **mode)
    )
    env.reset(seed=0)
    if isinstance(env.single_action_space, gymnasium.spaces.Tuple | gymnasium.spaces.Dict):
        # A tuple action (highway-env's two players) is batched per member, not stacked.
        env.action_space.seed(0)
        actions = [env.action_space.sample() for _ in range(NUM_ACTION_SETS)]
    else:
        actions = draw_actions(env.single_action_space, num_envs, seed=0)

    def step(i: int) -> int:
        env.step(actions[i % NUM_ACTION_SETS])
        return num_envs

    try:
        return timed(step, seconds, warmup)
    finally:
        env.close()


def action_rows_per_env(env: Any) -> int:
    """Action rows an env takes: one per player where every player acts at once.

    Players acting at once (highway-env's intersection, soccer) take one row
    each, in this project and in EnvPool 1.2.7 alike; a turn-based game
    (pgx, with a legal-action mask) takes one per env, its current player's.
    The rate still counts env steps, not player steps.
    """
    players = int(getattr(env.spec.config, "max_num_players", 1))
    turn_based = "info:legal_action_mask" in env.spec.state_array_spec
    return players if players > 1 and not turn_based else 1


def random_legal(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly drawn legal action per row of `mask` (every row has one)."""
    counts = mask.sum(axis=1)
    legal = np.flatnonzero(mask)  # row by row, in order
    first = np.cumsum(counts) - counts
    pick = legal[first + rng.integers(0, 1 << 30, len(mask)) % counts]
    return pick - np.arange(len(mask)) * mask.shape[1]


def envpool_stepper(
    task: str,
    num_envs: int,
    asynchronous: bool,
    num_threads: int,
    affinity_offset: int = -1,
    untimed_first_resets: bool = False,
    env_type: str = "gymnasium",
) -> tuple[Any, Callable[[int], int]]:
    """An envpool pool and its step function, as `bench_envpool` times them.

    Sync: `step` of every env (batch_size = num_envs). Async: `recv` then
    `send` with batch_size = num_envs // 2. Works with this project and with
    the published EnvPool alike, whichever `envpool` the running interpreter
    imports. Returns (the pool, a function stepping one batch and returning
    how many env steps it made). `affinity_offset` >= 0 pins worker i to
    core offset + i (`thread_affinity_offset`); -1 leaves it unset.

    `untimed_first_resets`: the async pool's `recv`s collect every env's first
    reset here, before the caller times anything, as the sync pool's `reset`
    is; else the first recvs of the warm-up and of the timed part wait for
    them (a soccer reset builds a new model, seconds for 16 envs, more than a
    short measurement).

    `env_type="dm"` (this project's dm pools): the same actions, the batches
    TimeSteps.
    """
    import envpool

    batch_size = max(1, num_envs // 2) if asynchronous else num_envs
    pinning = {"thread_affinity_offset": affinity_offset} if affinity_offset >= 0 else {}
    if task == MT10_TASK:
        options = mt10_pool_options(envpool, num_envs)
        if options is None:
            raise ValueError(
                f"this envpool ({envpool.__version__}) cannot make one pool of MT10's classes: "
                "use mt10_per_class_stepper"
            )
        pinning.update(options)
        task = metaworld_id(MT10_CLASSES[0])
    env = envpool.make(
        task,
        env_type=env_type,
        num_envs=num_envs,
        batch_size=batch_size,
        num_threads=num_threads,
        seed=0,
        **pinning,
    )
    dm = env_type == "dm"
    if "info:legal_action_mask" in env.spec.state_array_spec:
        if dm:
            env.close()
            raise ValueError(f"{task}: the legal-move stepper steps gymnasium pools only")
        return env, legal_move_stepper(
            env, num_envs, batch_size, asynchronous, untimed_first_resets
        )
    space = env.spec.action_space if dm else env.single_action_space
    actions = draw_actions(space, batch_size * action_rows_per_env(env), seed=0)

    if asynchronous:
        env.async_reset()

        if dm:

            def step(i: int) -> int:
                env_id = env.recv().observation.env_id
                env.send(actions[i % NUM_ACTION_SETS], env_id)
                return batch_size

        else:

            def step(i: int) -> int:
                info = env.recv()[4]
                env.send(actions[i % NUM_ACTION_SETS], info["env_id"])
                return batch_size

        if untimed_first_resets:
            for i in range(-(-num_envs // batch_size)):
                step(i)

    else:
        env.reset()

        def step(i: int) -> int:
            env.step(actions[i % NUM_ACTION_SETS])
            return num_envs

    return env, step


def legal_move_stepper(
    env: Any,
    num_envs: int,
    batch_size: int,
    asynchronous: bool,
    untimed_first_resets: bool = False,
) -> Callable[[int], int]:
    """The step function of a turn-based pool (pgx): random legal moves.

    A game refuses a masked-out move, so actions cannot be drawn before
    timing: each step draws one legal move per env from the legal-action
    mask the last step gave (a few microseconds of numpy per batch, timed
    alike for every engine), seeded the same for every build.
    `untimed_first_resets` as `envpool_stepper`'s.
    """
    rng = np.random.default_rng(0)
    if asynchronous:
        env.async_reset()

        def step(i: int) -> int:
            info = env.recv()[4]
            env.send(random_legal(info["legal_action_mask"], rng), info["env_id"])
            return batch_size

        if untimed_first_resets:
            for i in range(-(-num_envs // batch_size)):
                step(i)
        return step

    info = env.reset()[1]
    actions = np.empty(num_envs, np.int64)

    def step(i: int) -> int:
        nonlocal info
        # A sync batch's rows come in the order of its `env_id`; `step` takes
        # the actions in env order.
        actions[info["env_id"]] = random_legal(info["legal_action_mask"], rng)
        info = env.step(actions)[4]
        return num_envs

    return step


def bench_envpool(
    task: str,
    num_envs: int,
    seconds: float,
    warmup: float,
    asynchronous: bool,
    num_threads: int,
    affinity_offset: int = -1,
    untimed_first_resets: bool = False,
) -> tuple[int, float]:
    """Step an envpool pool: sync `step`, or async `send`/`recv` with batch_size = num_envs // 2."""
    env, step = envpool_stepper(
        task, num_envs, asynchronous, num_threads, affinity_offset, untimed_first_resets
    )
    try:
        return timed(step, seconds, warmup)
    finally:
        env.close()


def measure_paired_limit(args: argparse.Namespace) -> dict[str, Any]:
    """This engine's share of the machine's limit, timed in alternation in one process.

    The limit is `cores` x the raw rate of one env (an `envpool_sync` pool of
    one env, which steps inline on the calling thread). One process holds
    that pool and the measured pool (`args.backend` with `args.num_envs`) and
    times slices of `args.seconds` in the order one env, the pool, one env,
    the pool, ..., one env. Each of the `args.rounds` slices of the pool is
    divided by `cores` x the mean of the two one-env slices beside it, so
    that the machine's drift from minute to minute, which moves both rates,
    cancels in each ratio instead of landing in one of two separately timed
    medians.
    """
    one, step_one = envpool_stepper(args.task, 1, False, 0)
    pool, step_pool = envpool_stepper(
        args.task, args.num_envs, args.backend == "envpool_async", args.num_threads
    )
    try:
        timed(step_one, args.warmup, 0.0)
        timed(step_pool, args.warmup, 0.0)
        singles = [timed(step_one, args.seconds, 0.0)]
        pooled = []
        for _ in range(args.rounds):
            pooled.append(timed(step_pool, args.seconds, 0.0))
            singles.append(timed(step_one, args.seconds, 0.0))
    finally:
        pool.close()
        one.close()
    single_rates = [steps / elapsed for steps, elapsed in singles]
    pool_rates = [steps / elapsed for steps, elapsed in pooled]
    shares = [
        rate / (args.cores * (single_rates[k] + single_rates[k + 1]) / 2)
        for k, rate in enumerate(pool_rates)
    ]
    return {
        "single_rates": single_rates,
        "pool_rates": pool_rates,
        "shares": shares,
        "seconds": args.seconds,
    }


def inline_stepper(task: str, games: int) -> tuple[Any, Callable[[int], int]]:
    """`games` envs stepped in turn on the calling thread, with no thread of the pool.

    A sync pool of one env, or of several with `num_threads=1`, steps its
    envs inline in `send`: one loop over the games, the work of one core.
    """
    return envpool_stepper(task, games, False, 0 if games == 1 else 1)


def _ceiling_child(task: str, games: int, ready: Any, go: Any, done: Any) -> None:
    """One process of `measure_parallel_ceiling`: step its games for each slice it is sent.

    It puts None on `ready` once it can step, or the error that stopped it.
    """
    try:
        _, step = inline_stepper(task, games)
        timed(step, 0.2, 0.0)
    except Exception as error:  # handed to the parent, which raises it
        ready.put(f"{type(error).__name__}: {error}")
        return
    ready.put(None)
    while (seconds := go.get()) is not None:
        steps, elapsed = timed(step, seconds, 0.0)
        done.put(steps / elapsed)


class _CeilingChildren:
    """`count` forked `_ceiling_child` processes, each stepping `games` envs of `task`.

    Fork them before this process makes an env. Use as a context manager:
    entering waits until each can step (raising the error that stopped one),
    leaving tells them to end and ends any that does not.
    """

    def __init__(self, task: str, games: int, count: int) -> None:
        import multiprocessing

        context = multiprocessing.get_context("fork")
        self.task = task
        self.ready, self.go, self.done = context.Queue(), context.Queue(), context.Queue()
        self.children = [
            context.Process(
                target=_ceiling_child,
                args=(task, games, self.ready, self.go, self.done),
                daemon=True,
            )
            for _ in range(count)
        ]
        for child in self.children:
            child.start()

    def __enter__(self) -> _CeilingChildren:
        try:
            for _ in self.children:
                if (error := self.ready.get(timeout=120)) is not None:
                    raise RuntimeError(f"a ceiling process could not step {self.task}: {error}")
        except BaseException:
            self.__exit__()
            raise
        return self

    def slice(self, step: Callable[[int], int], seconds: float) -> float:
        """Steps/s of `step` here and of every child, stepping for `seconds` at once, summed."""
        for _ in self.children:
            self.go.put(seconds)
        steps, elapsed = timed(step, seconds, 0.0)
        return steps / elapsed + sum(self.done.get(timeout=60) for _ in self.children)

    def __exit__(self, *exc: object) -> None:
        for _ in self.children:
            self.go.put(None)
        for child in self.children:
            child.join(timeout=10)
            if child.is_alive():
                child.terminate()


def measure_parallel_ceiling(args: argparse.Namespace) -> dict[str, Any]:
    """What `cores` cores give one task at once, against `cores` x one core alone.

    The limit of `measure_paired_limit` assumes that the cores are
    independent: `cores` envs stepping at once each as fast as one alone.
    On a virtual machine whose vCPUs share physical cores, caches or memory
    bandwidth, they are not, and no engine reaches that limit. This times
    `cores` processes, each stepping one env inline (a pool of one env, no
    thread of the pool), in the order one alone, all at once, one alone, ...
    and divides each slice's summed rate of all the processes at once by
    `cores` x the mean of the two one-alone slices beside it: the share of
    the limit that the machine itself gives, with no pool at all.

    With `games` > 1 each process steps that many envs in turn on its one
    thread instead (the one-alone slices still step one env): the ceiling
    for `cores` x `games` envs, where the envs' state, more than one core's
    caches hold, slows each step whatever steps them.
    """
    with _CeilingChildren(args.task, args.games, args.cores - 1) as children:
        _, step = envpool_stepper(args.task, 1, False, 0)
        timed(step, args.warmup, 0.0)
        step_games = step
        if args.games > 1:
            _, step_games = inline_stepper(args.task, args.games)
            timed(step_games, args.warmup, 0.0)

        def alone() -> float:
            steps, elapsed = timed(step, args.seconds, 0.0)
            return steps / elapsed

        singles = [alone()]
        together = []
        for _ in range(args.rounds):
            together.append(children.slice(step_games, args.seconds))
            singles.append(alone())
    shares = [
        rate / (args.cores * (singles[k] + singles[k + 1]) / 2) for k, rate in enumerate(together)
    ]
    return {
        "single_rates": singles,
        "together_rates": together,
        "shares": shares,
        "seconds": args.seconds,
        "games": args.games,
    }


def measure_ceiling_share(args: argparse.Namespace) -> dict[str, Any]:
    """The sync and the async pool of `num_envs` envs against the no-pool ceiling, in turn.

    The ceiling is `cores` processes each stepping `num_envs / cores` envs in
    turn on its one thread (`measure_parallel_ceiling --games`): the same
    work as the pool's, with no pool. This times slices of `args.seconds` in
    the order ceiling, sync pool, async pool, ceiling, ... (the two pools'
    order swapped every other round) and divides each pool slice by the mean
    of the two ceiling slices beside it. The machine's slow spells, seconds
    long, fall on a few slices and not on one whole process's run, and the
    median of many short rounds stands apart from them, where separately
    timed runs of 1.5 s each swung a share from 0.3 to 1.2.

    Beside each pool slice it reads the machine's core-to-core latency
    (`round_trip_ns`): the development machine's two vCPUs pass a cache
    line to each other in 55-95 ns most of the time and in 330 ns and more
    for seconds at a time (presumably run on cores that share no cache
    then), which slows the pool's threads, which pass lines every batch, and
    not the ceiling's processes, which share nothing. `fast_shares` are the
    shares of the slices read under 1.6 x the run's least latency (all of
    them where the whole run was slow: see `least_round_trip_ns`).
    """
    games = args.num_envs // args.cores
    if games * args.cores != args.num_envs:
        raise ValueError(f"--num-envs {args.num_envs} is not a multiple of --cores {args.cores}")
    pools: dict[str, Any] = {}
    # The children are forked before this process makes an env.
    with _CeilingChildren(args.task, games, args.cores - 1) as children:
        _, step_games = inline_stepper(args.task, games)
        timed(step_games, args.warmup, 0.0)
        try:
            steppers = {}
            for mode in ("sync", "async"):
                pools[mode], steppers[mode] = envpool_stepper(
                    args.task, args.num_envs, mode == "async", 0, untimed_first_resets=True
                )
                timed(steppers[mode], args.warmup, 0.0)
            round_trip = round_trip_probe()
            ceilings = [children.slice(step_games, args.seconds)]
            rates: dict[str, list[float]] = {"sync": [], "async": []}
            trips: dict[str, list[float]] = {"sync": [], "async": []}
            for k in range(args.rounds):
                for mode in ("sync", "async") if k % 2 == 0 else ("async", "sync"):
                    before = round_trip()
                    steps, elapsed = timed(steppers[mode], args.seconds, 0.0)
                    rates[mode].append(steps / elapsed)
                    trips[mode].append(max(before, round_trip()))
                ceilings.append(children.slice(step_games, args.seconds))
        finally:
            for pool in pools.values():
                pool.close()
    shares = {
        mode: [rate / ((ceilings[k] + ceilings[k + 1]) / 2) for k, rate in enumerate(mode_rates)]
        for mode, mode_rates in rates.items()
    }
    least = min(min(values) for values in trips.values())
    fast = {
        mode: [
            share
            for share, trip in zip(shares[mode], trips[mode], strict=True)
            if trip < 1.6 * least
        ]
        for mode in shares
    }
    return {
        "ceiling_rates": ceilings,
        "pool_rates": rates,
        "shares": shares,
        "median_shares": {mode: float(np.median(values)) for mode, values in shares.items()},
        "round_trip_ns": trips,
        "least_round_trip_ns": least,
        "fast_shares": fast,
        "median_fast_shares": {
            mode: float(np.median(values)) if values else None for mode, values in fast.items()
        },
        "seconds": args.seconds,
        "games": games,
    }


def round_trip_probe() -> Callable[[], float]:
    """A function reading the machine's core-to-core round trip, in ns (`_round_trip.so`).

    It returns NaN where this envpool lacks the probe (the published one).
    """
    import ctypes

    import envpool

    path = os.path.join(os.path.dirname(envpool.__file__), "testing", "_round_trip.so")
    if not os.path.exists(path):
        return lambda: float("nan")
    probe = ctypes.CDLL(path).envpool_round_trip_ns
    probe.restype = ctypes.c_double
    probe.argtypes = [ctypes.c_int]
    return lambda: float(probe(20000))


def measure_steps(args: argparse.Namespace) -> dict[str, Any]:
    """Run one steps/s measurement of `args.backend` and describe it.

    The gymnasium backends also say which reference env they stepped.
    """
    extra: dict[str, Any] = {}
    if args.task == MT10_TASK:
        return measure_mt10_steps(args)
    dm_reference = dm_control_reference(args.task) if args.backend == "loop" else None
    if dm_reference is not None:
        steps, elapsed = bench_dm_control_loop(dm_reference[0], args.seconds, args.warmup)
        extra["reference"] = dm_reference[1]
    elif args.backend == "loop" and procgen_task(args.task):
        steps, elapsed = bench_loop(args.task, args.seconds, args.warmup)
        extra["reference"] = procgen_description(args.task)
    elif args.backend == "procgen_vec":
        steps, elapsed = bench_procgen(
            args.task, args.num_envs, args.seconds, args.warmup, args.num_threads
        )
        extra["reference"] = procgen_description(args.task)
    elif args.backend == "loop":
        steps, elapsed = bench_loop(args.task, args.seconds, args.warmup)
        extra["reference"] = gym_reference(args.task)[1]
    elif args.backend in ("gym_sync", "gym_async"):
        steps, elapsed = bench_gym_vector(
            args.task, args.num_envs, args.seconds, args.warmup, args.backend == "gym_async"
        )
        extra["reference"] = gym_reference(args.task)[1]
    else:
        steps, elapsed = bench_envpool(
            args.task,
            args.num_envs,
            args.seconds,
            args.warmup,
            args.backend == "envpool_async",
            args.num_threads,
            args.thread_affinity_offset,
            args.untimed_first_resets,
        )
    return {"steps": steps, "seconds": elapsed, "steps_per_s": steps / elapsed, **extra}


def measure_mt10_steps(args: argparse.Namespace) -> dict[str, Any]:
    """`measure_steps` of an MT10 pool: each backend's form of one, and what it was."""
    extra: dict[str, Any] = {}
    if args.backend == "loop":
        steps, elapsed = bench_mt10_loop(args.num_envs, args.seconds, args.warmup)
        extra["reference"] = metaworld_mt10(1)[1]
    elif args.backend in ("gym_sync", "gym_async"):
        steps, elapsed = bench_gym_vector(
            MT10_TASK, args.num_envs, args.seconds, args.warmup, args.backend == "gym_async"
        )
        extra["reference"] = metaworld_mt10(1)[1]
    elif args.backend in ("envpool_sync", "envpool_async"):
        import envpool

        asynchronous = args.backend == "envpool_async"
        if mt10_pool_options(envpool, args.num_envs) is not None:
            steps, elapsed = bench_envpool(
                MT10_TASK,
                args.num_envs,
                args.seconds,
                args.warmup,
                asynchronous,
                args.num_threads,
                args.thread_affinity_offset,
                args.untimed_first_resets,
            )
            extra["pool"] = (
                "one pool, `benchmark='MT10'`, `task_index=[i % 10 for i in range(N)]`, "
                "`partially_observable=False`"
            )
        else:
            pools, step, extra["pool"] = mt10_per_class_stepper(
                args.num_envs, asynchronous, args.num_threads
            )
            try:
                steps, elapsed = timed(step, args.seconds, args.warmup)
            finally:
                pools.close()
    else:
        raise ValueError(f"{args.backend!r} has no MT10 pool")
    return {"steps": steps, "seconds": elapsed, "steps_per_s": steps / elapsed, **extra}


def rss_kib() -> int:
    """This process's resident set size in KiB, from /proc (Linux)."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS in /proc/self/status")


def measure_import(task: str) -> dict[str, Any]:
    """Time `import envpool` and its RSS growth after `import numpy, gymnasium`.

    Also times the first `make` of `task` (the published EnvPool loads every
    family at import; this project loads a family on its first make).
    """
    import gymnasium

    before = rss_kib()
    start = time.perf_counter()
    import envpool

    import_s = time.perf_counter() - start
    after_import = rss_kib()
    start = time.perf_counter()
    if task == MT10_TASK:
        task = metaworld_id(MT10_CLASSES[0])
    env = envpool.make(task, env_type="gymnasium", num_envs=1)
    make_s = time.perf_counter() - start
    after_make = rss_kib()
    env.close()
    return {
        "import_s": import_s,
        "import_rss_kib": after_import - before,
        "make_s": make_s,
        "make_rss_kib": after_make - after_import,
        "envpool_version": getattr(envpool, "__version__", "?"),
        "numpy_version": np.__version__,
        "gymnasium_version": gymnasium.__version__,
        "python_version": sys.version.split()[0],
    }


def main() -> None:
    """Parse the command line, run one measurement and print it as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    step = sub.add_parser("step", help="measure steps/s of one backend")
    step.add_argument("--backend", choices=BACKENDS, required=True)
    step.add_argument("--task", default="CartPole-v1")
    step.add_argument("--num-envs", type=int, default=1)
    step.add_argument("--num-threads", type=int, default=0, help="envpool threads; 0 = its default")
    step.add_argument(
        "--thread-affinity-offset",
        type=int,
        default=-1,
        help="envpool: pin worker i to core offset + i; -1 = unset (the library's default)",
    )
    step.add_argument(
        "--untimed-first-resets",
        action="store_true",
        help="envpool_async: collect every env's first reset before timing, as sync's reset "
        "(bench.py passes it)",
    )
    step.add_argument("--seconds", type=float, default=1.0)
    step.add_argument("--warmup", type=float, default=0.2)
    paired = sub.add_parser(
        "limit", help="an envpool pool's share of cores x one env's rate, timed in alternation"
    )
    paired.add_argument("--backend", choices=("envpool_sync", "envpool_async"), required=True)
    paired.add_argument("--task", default="CartPole-v1")
    paired.add_argument("--num-envs", type=int, default=8)
    paired.add_argument("--num-threads", type=int, default=0, help="0 = envpool's default")
    paired.add_argument("--cores", type=int, required=True, help="usable cores of the limit")
    paired.add_argument("--rounds", type=int, default=10)
    paired.add_argument("--seconds", type=float, default=0.5, help="length of one slice")
    paired.add_argument("--warmup", type=float, default=0.2)
    ceiling = sub.add_parser(
        "ceiling", help="cores processes each stepping one env at once, against one alone"
    )
    ceiling.add_argument("--task", default="CartPole-v1")
    ceiling.add_argument("--cores", type=int, required=True, help="processes stepping at once")
    ceiling.add_argument("--games", type=int, default=1, help="envs each process steps in turn")
    ceiling.add_argument("--rounds", type=int, default=10)
    ceiling.add_argument("--seconds", type=float, default=0.5, help="length of one slice")
    ceiling.add_argument("--warmup", type=float, default=0.2)
    share = sub.add_parser(
        "share", help="the sync and the async pool against the no-pool ceiling, in turn"
    )
    share.add_argument("--task", default="CartPole-v1")
    share.add_argument("--num-envs", type=int, default=1024)
    share.add_argument("--cores", type=int, required=True, help="processes of the ceiling")
    share.add_argument("--rounds", type=int, default=30)
    share.add_argument("--seconds", type=float, default=0.25, help="length of one slice")
    share.add_argument("--warmup", type=float, default=0.3)
    imp = sub.add_parser("import", help="measure `import envpool` time and memory")
    imp.add_argument("--task", default="CartPole-v1")
    args = parser.parse_args()
    if args.command == "step":
        result = measure_steps(args)
    elif args.command == "limit":
        result = measure_paired_limit(args)
    elif args.command == "ceiling":
        result = measure_parallel_ceiling(args)
    elif args.command == "share":
        result = measure_ceiling_share(args)
    else:
        result = measure_import(args.task)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
