"""The Python API contract (DESIGN.md sections 2 and 3), on CartPole-v1."""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
from pathlib import Path

import dm_env
import gymnasium
import numpy as np
import pytest
from gymnasium.vector.utils import batch_space

import envpool
from envpool.testing import pool_threads

REFERENCE = Path(__file__).resolve().parents[2] / "testing" / "reference"


def cartpole(**kwargs):
    kwargs.setdefault("num_envs", 4)
    return envpool.make("CartPole-v1", env_type="gymnasium", **kwargs)


# -- registry and options ----------------------------------------------------


def test_unknown_id_raises_value_error_naming_close_matches():
    with pytest.raises(ValueError, match="CartPole-v1"):
        envpool.make("CartPol-v1")


@pytest.mark.parametrize(
    ("task_id", "suggested"),
    [
        ("PongNoFrameskip-v4", "did you mean Pong-v5 with frame_skip=1"),
        ("BreakoutDeterministic-v4", "did you mean Breakout-v5 with frame_skip=4"),
        ("ALE/Pong-v5", "did you mean Pong-v5"),
        ("Pong-v4", "did you mean Pong-v5"),
        ("pong-v5", "did you mean Pong-v5"),
        ("Acrobot-v0", "did you mean Acrobot-v1"),
        ("HalfCheetah-v9", "did you mean HalfCheetah-v"),
    ],
)
def test_unknown_id_suggests_the_family_id_for_reference_names(task_id, suggested):
    with pytest.raises(ValueError, match=suggested) as e:
        envpool.make(task_id)
    assert "Ant" not in str(e.value)


@pytest.mark.parametrize(
    ("task_id", "option", "suggested"),
    [
        ("Pong-v5", "frameskip", "frame_skip"),
        ("Pong-v5", "grayscale_obs", "gray_scale"),
        ("Pong-v5", "repeat_action_prob", "repeat_action_probability"),
        ("CartPole-v1", "n_envs", "num_envs"),
        ("CartPole-v1", "maxepisodesteps", "max_episode_steps"),
    ],
)
def test_unknown_option_suggests_the_reference_name(task_id, option, suggested):
    with pytest.raises(TypeError, match=f"did you mean '{suggested}'"):
        envpool.make(task_id, **{option: 1})


def test_unknown_option_raises_type_error_naming_valid_options():
    with pytest.raises(TypeError, match="num_envs"):
        cartpole(num_env=3)


def test_ill_typed_option_raises_type_error():
    with pytest.raises(TypeError, match="max_episode_steps"):
        cartpole(max_episode_steps="long")
    with pytest.raises(TypeError, match="num_envs"):
        cartpole(num_envs=2.5)


@pytest.mark.parametrize(
    "kwargs",
    [{"num_envs": 0}, {"num_envs": 2, "batch_size": 3}, {"num_threads": -1}],
)
def test_bad_pool_sizes_raise_value_error(kwargs):
    with pytest.raises(ValueError):
        cartpole(**kwargs)


def test_unknown_env_type_raises_value_error():
    with pytest.raises(ValueError, match="env_type"):
        envpool.make("CartPole-v1", env_type="gym3")


def test_config_and_spaces_match_the_reference_spec():
    specs = json.loads((REFERENCE / "env_specs.json").read_text())
    for task_id in ("CartPole-v0", "CartPole-v1", "phys2d/CartPole-v1"):
        ref = specs[task_id]
        spec = envpool.make_spec(task_id)
        config = spec.config._asdict()
        for key in ("batch_size", "max_episode_steps", "num_envs", "num_threads", "seed"):
            assert config[key] == ref["config"][key], (task_id, key)
        assert spec.reward_threshold == ref["config"]["reward_threshold"]
        assert spec.observation_space.dtype == np.dtype(ref["observation_space"]["dtype"])
        assert list(spec.observation_space.shape) == ref["observation_space"]["shape"]
        assert spec.action_space.n == ref["action_space"]["n"]


def test_all_lists_the_public_types_in_envpools_order():
    names = envpool.__all__
    order = [names.index(n) for n in ("EnvSpec", "EnvPool", "DMEnvPool", "GymnasiumEnvPool")]
    assert order == sorted(order)
    for name in names:
        assert getattr(envpool, name) is not None


def test_spec_offers_envpools_space_names_and_pickles():
    import pickle

    spec = envpool.make_spec("CartPole-v1", num_envs=3, seed=[1, 2, 3])
    assert spec.gymnasium_observation_space == spec.observation_space
    assert spec.gymnasium_action_space == spec.action_space
    assert spec.gym_observation_space == spec.observation_space
    assert spec.gym_action_space == spec.action_space
    again = pickle.loads(pickle.dumps(spec))
    assert again.id == spec.id and again.config == spec.config
    assert again.observation_space == spec.observation_space


@pytest.mark.parametrize("env_type", ["gymnasium", "dm"])
def test_pools_refuse_pickle_and_copies_with_a_clear_error(env_type):
    import copy
    import pickle

    env = envpool.make("CartPole-v1", env_type=env_type, num_envs=2)
    for attempt in (pickle.dumps, copy.copy, copy.deepcopy):
        with pytest.raises(TypeError, match=r"envpool\.make\('CartPole-v1'"):
            attempt(env)
    env.reset()  # the pool is untouched
    env.close()


def test_dm_seed_is_a_deprecated_no_op():
    env = envpool.make_dm("CartPole-v1", num_envs=2)
    with pytest.warns(UserWarning, match="seed"):
        env.seed(3)


def test_dm_reward_and_discount_specs_match_the_timesteps():
    for task_id in ("CartPole-v1", "CheetahRun-v1", "Pong-v5"):
        env = envpool.make_dm(task_id, num_envs=2)
        ts = env.reset()
        ts = env.step(np.zeros((2, *env.action_spec().shape), env.action_spec().dtype))
        assert env.reward_spec().dtype == ts.reward.dtype, task_id
        assert env.discount_spec().dtype == ts.discount.dtype, task_id
        env.reward_spec().validate(ts.reward[0])
        env.discount_spec().validate(ts.discount[0])
        env.close()


def test_make_docstring_lists_the_options_every_id_takes():
    doc = envpool.make.__doc__
    for option in ("num_envs", "batch_size", "num_threads", "seed", "episode_statistics"):
        assert option in doc
    assert "make_spec(task_id).config" in doc


def test_list_all_envs_holds_registered_ids():
    ids = envpool.list_all_envs()
    assert "CartPole-v1" in ids and "phys2d/CartPole-v0" in ids


def test_import_loads_no_family_and_no_gymnasium():
    code = (
        "import sys, envpool\n"
        "loaded = [m for m in sys.modules if m.startswith(('envpool.classic_control', "
        "'gymnasium', 'dm_env'))]\n"
        "assert not loaded, loaded\n"
    )
    subprocess.run([sys.executable, "-P", "-c", code], check=True)


# -- gymnasium API -------------------------------------------------------------


def test_make_vec_pool_is_a_vector_env_with_batched_spaces():
    envpool.register_gymnasium_envs()
    env = gymnasium.make_vec("envpool/CartPole-v1", num_envs=3)
    assert isinstance(env, gymnasium.vector.VectorEnv)
    assert env.observation_space.shape == (3, 4)
    assert env.single_observation_space.shape == (4,)
    assert env.single_action_space == gymnasium.spaces.Discrete(2)
    assert env.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.NEXT_STEP
    obs, info = env.reset()
    assert obs.shape == (3, 4) and obs.dtype == np.float32
    assert list(info["env_id"]) == [0, 1, 2]
    obs, rew, term, trunc, info = env.step(np.array([0, 1, 1]))
    assert rew.shape == (3,) and term.dtype == np.bool_ and trunc.dtype == np.bool_
    assert list(info["elapsed_step"]) == [1, 1, 1]


def test_gymnasium_vector_wrappers_run_on_the_pool():
    env = gymnasium.wrappers.vector.RecordEpisodeStatistics(cartpole(num_envs=4))
    env.reset(seed=0)
    episodes = 0
    actions = batch_space(env.single_action_space, 4)
    for _ in range(200):
        _, _, _term, _trunc, info = env.step(actions.sample())
        if "episode" in info:
            episodes += int(info["_episode"].sum())
    assert episodes > 0


def test_sync_results_come_in_env_id_order_and_subsets_work():
    env = cartpole(num_envs=4)
    env.reset()
    _, _, _, _, info = env.step(np.array([1, 0]), env_id=np.array([3, 1]))
    assert list(info["env_id"]) == [3, 1]
    assert list(info["elapsed_step"]) == [1, 1]


def test_async_recv_returns_the_first_batch_size_envs():
    env = cartpole(num_envs=8, batch_size=3)
    env.async_reset()
    served = []
    for _ in range(20):
        obs, _, _, _, info = env.recv()
        assert obs.shape == (3, 4)
        served.extend(info["env_id"].tolist())
        env.send(np.ones(3, dtype=np.int64), info["env_id"])
    assert set(served) == set(range(8))


def test_next_step_autoreset_returns_first_obs_with_zero_reward():
    env = cartpole(num_envs=1, max_episode_steps=3)
    env.reset(seed=3)
    for step in range(1, 4):
        _, rew, term, trunc, info = env.step(np.array([1]))
        assert info["elapsed_step"][0] == step
    assert trunc[0] and not term[0]
    obs, rew, term, trunc, info = env.step(np.array([1]))
    assert rew[0] == 0 and not term[0] and not trunc[0]
    assert info["elapsed_step"][0] == 0
    assert np.all(np.abs(obs) <= 0.05)


def test_same_step_autoreset_lays_out_final_obs_like_gymnasium():
    env = cartpole(num_envs=2, max_episode_steps=2, autoreset_mode="same_step")
    assert env.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.SAME_STEP
    env.reset(seed=0)
    _, _, _, _, info = env.step(np.array([0, 0]), env_id=np.array([0, 1]))
    assert "final_obs" not in info
    before = env._pool.get_state(0)
    obs, rew, _term, trunc, info = env.step(np.array([0, 0]))
    assert list(trunc) == [True, True] and list(rew) == [1.0, 1.0]
    assert info["_final_obs"].all() and info["final_obs"].dtype == object
    final = info["final_obs"][0]
    assert final.shape == (4,) and np.all(np.abs(final - obs[0]) > 0)
    assert abs(final[0] - before[0]) < 0.1
    assert list(info["final_info"]["elapsed_step"]) == [2, 2]
    assert list(info["elapsed_step"]) == [0, 0]
    assert np.all(np.abs(obs) <= 0.05)


def test_disabled_autoreset_needs_an_explicit_reset():
    env = cartpole(num_envs=2, max_episode_steps=1, autoreset_mode="disabled")
    env.reset()
    env.step(np.array([0, 0]))
    with pytest.raises(RuntimeError, match="reset"):
        env.step(np.array([0, 0]))
    _obs, info = env.reset(options={"reset_mask": np.array([False, True])})
    assert list(info["env_id"]) == [1]
    env.step(np.array([1]), env_id=np.array([1]))


def test_same_seed_same_rollout_and_reset_seed_follows_gymnasium():
    a, b = cartpole(num_envs=2, seed=7), cartpole(num_envs=2, seed=7)
    np.testing.assert_array_equal(a.reset()[0], b.reset()[0])
    assert not np.array_equal(a.reset()[0][0], a.reset()[0][1])
    # reset(seed=s) seeds env i with s + i
    pair, single = cartpole(num_envs=2), cartpole(num_envs=1)
    np.testing.assert_array_equal(pair.reset(seed=10)[0][1], single.reset(seed=11)[0][0])
    c = cartpole(num_envs=2, seed=8)
    assert not np.array_equal(c.reset()[0], cartpole(num_envs=2, seed=7).reset()[0])


def test_seed_list_gives_one_seed_per_env():
    env = cartpole(num_envs=2, seed=[5, 5])
    obs, _ = env.reset()
    np.testing.assert_array_equal(obs[0], obs[1])
    with pytest.raises(ValueError, match="seed"):
        cartpole(num_envs=2, seed=[1, 2, 3])
    # A seed that is not an integer is refused, in a list as alone, not cut
    # to one (1.5 would play as seed 1).
    for seeds in ([1.5, 2], np.ones(2), [True, 1], np.zeros((1, 2), dtype=np.int64)):
        with pytest.raises(TypeError, match="seeds must be"):
            cartpole(num_envs=2, seed=seeds)
        with pytest.raises(TypeError, match="seeds must be"):
            env.reset(seed=seeds)
    obs, _ = env.reset(seed=np.array([3, 3], dtype=np.uint64))
    np.testing.assert_array_equal(obs[0], obs[1])


def test_held_results_are_never_overwritten():
    env = cartpole(num_envs=2)
    obs0, _ = env.reset()
    kept = obs0.copy()
    for _ in range(5):
        env.step(np.array([1, 1]))
    np.testing.assert_array_equal(obs0, kept)


def test_each_batch_has_dicts_of_its_own():
    # A block's dicts are built once and copied for each batch of it: what
    # the caller does to one batch's dicts shows in no later batch.
    env = cartpole(num_envs=2)
    env.reset()
    for k in range(1, 7):
        *_, info = env.step(np.array([1, 0]))
        assert list(info) == ["env_id", "players", "elapsed_step"]
        assert list(info["players"]) == ["env_id"]
        assert list(info["elapsed_step"]) == [k, k]
        info.pop("elapsed_step")
        info["mine"] = k
        info["players"].clear()


def test_a_held_info_dict_keeps_its_arrays():
    env = cartpole(num_envs=2)
    env.reset()
    *_, info = env.step(np.array([1, 0]))
    for _ in range(5):
        env.step(np.array([1, 0]))
    assert list(info["elapsed_step"]) == [1, 1]
    assert list(info["players"]["env_id"]) == [0, 1]


def test_released_blocks_are_reused_not_reallocated():
    env = cartpole(num_envs=2)
    env.reset()
    for _ in range(100):
        env.step(np.array([1, 0]))
    assert env._pool.num_blocks <= 3


# -- bad input -------------------------------------------------------------------


def test_wrong_action_shape_raises_and_steps_nothing():
    env = cartpole(num_envs=3)
    env.reset()
    with pytest.raises(ValueError, match="shape"):
        env.step(np.array([0, 1]))
    with pytest.raises(ValueError, match="shape"):
        env.step(np.zeros((3, 1), dtype=np.int64))
    _, _, _, _, info = env.step(np.array([0, 1, 0]))
    assert list(info["elapsed_step"]) == [1, 1, 1]


def test_one_envs_action_on_a_pool_says_spaces_are_single_env_spaces():
    # EnvPool-style pools have one env's action_space: sampling it gives one
    # action, not one per env (and gymnasium's vector wrappers batch only
    # observation_space).
    env = envpool.make("Ant-v5", num_envs=4)
    env.reset()
    with pytest.raises(ValueError, match=r"one row per env .*make_vec\('envpool/Ant-v5'\)"):
        env.step(env.action_space.sample())
    env.step(np.stack([env.action_space.sample() for _ in range(4)]))


def test_unsafe_action_dtype_raises_type_error():
    env = cartpole(num_envs=2)
    env.reset()
    with pytest.raises(TypeError, match="cannot be cast"):
        env.step(np.array(["0", "1"]))
    with pytest.raises(TypeError, match="cannot be cast"):
        env.step(np.array([0j, 1j]))
    env.step(np.array([0, 1], dtype=np.int8))


def test_out_of_range_discrete_action_names_env_and_range():
    env = cartpole(num_envs=4)
    env.reset()
    with pytest.raises(ValueError, match=r"env 3 is 7, but CartPole-v1 takes 0\.\.1"):
        env.step(np.array([0, 1, 0, 7]))
    _, _, _, _, info = env.step(np.array([0, 1, 0, 1]))
    assert list(info["elapsed_step"]) == [1, 1, 1, 1]


@pytest.mark.parametrize("env_id", [[0, 4], [-1], [1, 1]])
def test_bad_env_ids_raise_value_error(env_id):
    env = cartpole(num_envs=4)
    env.reset()
    with pytest.raises(ValueError):
        env.step(np.zeros(len(env_id), dtype=np.int64), env_id=np.array(env_id))


def test_python_threads_sharing_an_async_pool_each_get_envs_of_their_own():
    # Each thread receives a batch and sends it back. Before, two threads
    # waiting in recv could take one batch between them: an env sent twice
    # (refused as in flight), or queued twice, or a crash.
    import threading
    import time

    env = cartpole(num_envs=32, batch_size=8)
    env.async_reset()
    faults: list[str] = []
    sends = [0]
    stop = threading.Event()
    action = np.zeros(8, dtype=np.int64)

    def caller() -> None:
        while not stop.is_set():
            try:
                env.send(action, env.recv()[4]["env_id"])
                sends[0] += 1
            except RuntimeError as e:
                if not stop.is_set():
                    faults.append(str(e))
                return

    threads = [threading.Thread(target=caller) for _ in range(4)]
    for thread in threads:
        thread.start()
    time.sleep(3.0)
    stop.set()
    env.close()  # wakes the callers still waiting in recv
    for thread in threads:
        thread.join(timeout=30)
    assert not any(thread.is_alive() for thread in threads)
    assert not faults, faults[:3]
    assert sends[0] > 1000


def test_an_unknown_family_is_a_value_error_naming_the_families():
    # (An id registered with a family that does not exist reaches this at make.)
    from envpool.python.spec import load_family

    with pytest.raises(ValueError, match=r"unknown env family 'no_such_family'.*classic_control"):
        load_family("no_such_family")


def test_send_twice_before_recv_raises_runtime_error():
    env = cartpole(num_envs=4, batch_size=2)
    env.async_reset()
    _, _, _, _, info = env.recv()
    env.send(np.zeros(2, dtype=np.int64), info["env_id"])
    with pytest.raises(RuntimeError, match="in flight"):
        env.send(np.zeros(2, dtype=np.int64), info["env_id"])


def test_a_send_of_ids_out_of_order_names_its_first_bad_id_and_loses_nothing():
    # Ids not in increasing order (an async batch's, in the order their envs
    # finished) are checked without a branch per env first, and env by env
    # only once that finds a fault: the error is the first one in the list.
    env = cartpole(num_envs=8, batch_size=2)
    env.async_reset()
    for _ in range(4):
        env.recv()
    with pytest.raises(ValueError, match="env_id 9 is out of range"):
        env.send(np.zeros(3, dtype=np.int64), np.array([5, 9, 5]))
    # int32, the dtype of info["env_id"], is read without a branch per id.
    for bad in (-1, 8, 2**31 - 1):
        with pytest.raises(ValueError, match=f"env_id {bad} is out of range"):
            env.send(np.zeros(3, dtype=np.int64), np.array([5, bad, 3], dtype=np.int32))
    with pytest.raises(ValueError, match="env_id 5 appears twice"):
        env.send(np.zeros(3, dtype=np.int64), np.array([5, 3, 5]))
    env.send(np.zeros(2, dtype=np.int64), np.array([6, 2]))
    with pytest.raises(RuntimeError, match=r"2\b.*in flight"):
        env.send(np.zeros(3, dtype=np.int64), np.array([7, 2, 1]))
    assert sorted(env.recv()[4]["env_id"]) == [2, 6]
    # Nothing of the failed sends went out: 7, 5, 3 and 1 are free to send.
    env.send(np.zeros(4, dtype=np.int64), np.array([7, 5, 3, 1]))
    assert sorted(np.concatenate([env.recv()[4]["env_id"] for _ in range(2)])) == [1, 3, 5, 7]
    # With autoreset off, an env whose episode ended is refused too.
    ended = cartpole(num_envs=4, batch_size=2, autoreset_mode="disabled", max_episode_steps=1)
    ended.async_reset()
    ended.recv(), ended.recv()
    ended.send(np.zeros(2, dtype=np.int64), np.array([3, 0]))
    assert np.all(ended.recv()[3])
    with pytest.raises(RuntimeError, match=r"3\b.*autoreset_mode is 'disabled'"):
        ended.send(np.zeros(2, dtype=np.int64), np.array([2, 3]))
    ended.send(np.zeros(2, dtype=np.int64), np.array([2, 1]))


def test_ids_are_read_as_their_values_whatever_their_dtype_and_byte_order():
    # Ids in the other byte order are their values (as actions are), and an
    # unsigned id is never read as a negative one.
    env = cartpole(num_envs=8, batch_size=2)
    env.async_reset()
    for _ in range(4):
        env.recv()
    for dtype in (">i4", ">i8", ">u2", "<u8", np.uint8):
        env.send(np.zeros(2, dtype=np.int64), np.array([6, 1], dtype=dtype))
        assert sorted(env.recv()[4]["env_id"]) == [1, 6]
    # 16777216 read in the wrong byte order would be env 1.
    for bad, dtype in ((16777216, ">i4"), (2**64 - 1, np.uint64), (2**32 - 1, ">u4")):
        with pytest.raises(ValueError, match=f"env_id {bad} is out of range"):
            env.send(np.zeros(2, dtype=np.int64), np.array([bad, 3], dtype=dtype))
    # Nothing of the refused sends went out.
    env.send(np.zeros(2, dtype=np.int64), np.array([1, 3]))
    assert sorted(env.recv()[4]["env_id"]) == [1, 3]
    _, info = env.reset(env_id=np.array([2, 5], dtype=">i8"))
    assert sorted(info["env_id"]) == [2, 5]


def test_an_empty_list_of_ids_is_no_ids_to_every_call():
    # numpy makes [] a float64 array: refused as holding no ids, not as ids
    # of the wrong dtype.
    env = cartpole(num_envs=3, render_mode="rgb_array")
    env.reset()
    calls = {
        "send": lambda: env.send(np.zeros(0, dtype=np.int64), []),
        "step": lambda: env.step(np.zeros(0, dtype=np.int64), env_id=[]),
        "reset": lambda: env.reset(env_id=[]),
        "render": lambda: env.render(env_ids=[]),
        "get_state": lambda: env.get_state([]),
        "set_state": lambda: env.set_state([], []),
    }
    for name, call in calls.items():
        with pytest.raises(ValueError, match="no env ids given"):
            call()
        assert env.step(np.zeros(3, dtype=np.int64))[0].shape == (3, 4), name


def test_the_last_batch_sent_back_is_checked_where_anything_came_between():
    # The ids of the last batch received, sent back as they came with nothing
    # sent since, are not checked again: each way those ids can be wrong is
    # still refused, and nothing of a refused send goes out.
    env = cartpole(num_envs=4, batch_size=2)
    env.async_reset()
    ids = env.recv()[4]["env_id"]
    received = ids.copy()
    ids[1] = ids[0]  # changed in place after the recv
    with pytest.raises(ValueError, match=f"env_id {ids[0]} appears twice"):
        env.send(np.zeros(2, dtype=np.int64), ids)
    env.send(np.zeros(2, dtype=np.int64), received)
    with pytest.raises(RuntimeError, match="in flight"):
        env.send(np.zeros(2, dtype=np.int64), received)  # a send came between
    with pytest.raises(RuntimeError, match="in flight"):
        env.send(np.zeros(2, dtype=np.int64))  # the same, without env_id
    assert sorted(np.concatenate([env.recv()[4]["env_id"] for _ in range(2)])) == [0, 1, 2, 3]
    # With autoreset off, ended envs sent back as received are refused.
    ended = cartpole(num_envs=4, batch_size=2, autoreset_mode="disabled", max_episode_steps=1)
    ended.async_reset()
    ended.recv(), ended.recv()
    ended.send(np.zeros(2, dtype=np.int64), np.array([3, 0], dtype=np.int32))
    *_, truncated, info = ended.recv()
    assert np.all(truncated)
    with pytest.raises(RuntimeError, match="autoreset_mode is 'disabled'"):
        ended.send(np.zeros(2, dtype=np.int64), info["env_id"])
    ended.send(np.zeros(2, dtype=np.int64), np.array([2, 1]))
    assert sorted(ended.recv()[4]["env_id"]) == [1, 2]


def test_recv_with_nothing_in_flight_raises_instead_of_hanging():
    env = cartpole(num_envs=2)
    with pytest.raises(RuntimeError, match="wait forever"):
        env.recv()
    async_env = cartpole(num_envs=4, batch_size=3)
    async_env.async_reset()
    async_env.recv()
    with pytest.raises(RuntimeError, match="wait forever"):
        async_env.recv()


def test_every_call_after_close_raises_and_close_is_idempotent():
    env = cartpole(num_envs=2)
    env.reset()
    env.close()
    env.close()
    for call in (
        lambda: env.step(np.array([0, 0])),
        lambda: env.reset(),
        lambda: env.recv(),
        lambda: env.send(np.array([0, 0])),
    ):
        with pytest.raises(RuntimeError, match="closed"):
            call()


def test_context_manager_and_garbage_collection_join_threads():
    gc.collect()  # pools left by earlier tests must not close during the count
    before = pool_threads(expect=0)  # a pool closed just before may still be ending
    with cartpole(num_envs=4, batch_size=2, num_threads=2) as env:
        env.async_reset()
        assert pool_threads(expect=before + 2) == before + 2
    assert pool_threads(expect=before) == before
    env = cartpole(num_envs=4, batch_size=2, num_threads=2)
    env.async_reset()
    del env
    gc.collect()
    assert pool_threads(expect=before) == before


@pytest.mark.parametrize(
    "kwargs",
    [
        {"num_envs": 8, "batch_size": 4},
        {"num_envs": 8, "batch_size": 1},
        {"num_envs": 8, "batch_size": 4, "num_threads": 2},
        {"num_envs": 8, "batch_size": 4, "num_threads": 3},
        {"num_envs": 8},
        {"num_envs": 8, "num_threads": 2},
        {"num_envs": 8, "num_threads": 1},
    ],
)
def test_worker_threads_per_mode(kwargs):
    # Sync mode: the caller is one of num_threads. Async by default: one
    # worker fewer than min(batch_size, cores), the caller stepping in recv.
    # Async with num_threads given: that many workers. Wherever the caller
    # steps, one worker more, the reserve, steps in its place for envs whose
    # steps cost more than the caller may take (docs/scheduler.md).
    cores = os.cpu_count() or 1
    batch_size = kwargs.get("batch_size", kwargs["num_envs"])
    sync = batch_size == kwargs["num_envs"]
    threads = kwargs.get("num_threads") or min(batch_size, cores)
    if sync:
        expected = threads - 1
    elif "num_threads" in kwargs:
        expected = threads
    else:
        expected = max(1, threads - 1)
    caller_steps = sync or expected < cores or batch_size < expected
    expected += caller_steps
    gc.collect()
    before = pool_threads(expect=0)  # a pool closed just before may still be ending
    with cartpole(**kwargs):
        assert pool_threads(expect=before + expected) - before == expected
    assert pool_threads(expect=before) == before


# -- gym and dm front-ends ---------------------------------------------------------


def test_gym_api_uses_single_env_spaces():
    env = envpool.make_gym("CartPole-v1", num_envs=3)
    assert env.observation_space.shape == (4,)
    obs, _info = env.reset()
    assert obs.shape == (3, 4)
    out = env.step(np.array([0, 1, 0]))
    assert len(out) == 5
    env2 = envpool.make_gym("CartPole-v1", num_envs=2, gym_reset_return_info=False)
    assert env2.reset().shape == (2, 4)


def test_dm_timesteps_follow_dm_env_rules():
    env = envpool.make_dm("CartPole-v1", num_envs=2, max_episode_steps=2)
    assert isinstance(env, dm_env.Environment)
    ts = env.reset()
    assert (ts.step_type == dm_env.StepType.FIRST).all()
    assert ts.observation.obs.shape == (2, 4)
    ts = env.step(np.array([0, 0]))
    assert (ts.step_type == dm_env.StepType.MID).all()
    ts = env.step(np.array([0, 0]))
    # truncation: LAST with discount 1
    assert (ts.step_type == dm_env.StepType.LAST).all()
    assert (ts.discount == 1.0).all()
    ts = env.step(np.array([0, 0]))
    assert (ts.step_type == dm_env.StepType.FIRST).all()
    assert env.action_spec().num_values == 2


def test_dm_termination_gives_zero_discount():
    env = envpool.make_dm("CartPole-v1", num_envs=1)
    env.reset()
    for _ in range(200):
        ts = env.step(np.array([1]))
        if ts.step_type[0] == dm_env.StepType.LAST:
            assert ts.discount[0] == 0.0
            return
    pytest.fail("pushing right never ended the episode")


def test_native_dm_step_fields_match_the_numpy_form():
    from envpool.python.spec import load_family
    from envpool.python.timestep import dm_timestep

    step_fields = load_family("classic_control").dm_step_fields
    spec = envpool.make_spec("CartPole-v1", num_envs=64)
    rng = np.random.default_rng(0)
    n = 64
    info = {
        "env_id": np.arange(n, dtype=np.int32),
        "players": {"env_id": np.arange(n, dtype=np.int32)},
        "elapsed_step": rng.integers(0, 3, n).astype(np.int32),
    }
    terminated, truncated = rng.random(n) < 0.3, rng.random(n) < 0.3
    out = (np.zeros((n, 4), np.float32), np.ones(n, np.float32), terminated, truncated)
    for discount in (None, rng.random(n).astype(np.float32)):
        if discount is not None:
            info["discount"] = discount
        assert step_fields(terminated, truncated, info["elapsed_step"], discount) is not None
        native = dm_timestep(np, spec, *out, info, step_fields=step_fields)
        general = dm_timestep(np, spec, *out, info)
        for field in ("step_type", "discount"):
            a, b = getattr(native, field), getattr(general, field)
            assert a.dtype == b.dtype
            np.testing.assert_array_equal(a, b)
        assert {int(t) for t in native.step_type} == {0, 1, 2}
    # Not a pool's arrays: left to the general form.
    assert step_fields(terminated.astype(np.int8), truncated, info["elapsed_step"], None) is None
    assert step_fields(terminated, truncated[:-1], info["elapsed_step"], None) is None
    assert step_fields(terminated, truncated, info["elapsed_step"], np.ones(n)) is None
    assert step_fields(terminated, truncated, info["elapsed_step"].astype(np.int64), None) is None


def test_one_element_box_action_takes_one_number_per_env():
    env = envpool.make("Pendulum-v1", num_envs=2)
    env.reset(seed=0)
    a = env.step(np.array([[1.0], [-1.0]], dtype=np.float32))
    env.reset(seed=0)
    b = env.step(np.array([1.0, -1.0]))
    np.testing.assert_array_equal(a[0], b[0])
    with pytest.raises(ValueError, match="shape"):
        env.step(np.array([1.0, -1.0, 0.5]))


def test_nan_in_a_continuous_action_raises_and_steps_nothing():
    env = envpool.make("Pendulum-v1", num_envs=2)
    env.reset()
    with pytest.raises(ValueError, match="NaN"):
        env.step(np.array([[0.0], [np.nan]], dtype=np.float32))
    _, _, _, _, info = env.step(np.zeros((2, 1), dtype=np.float32))
    assert list(info["elapsed_step"]) == [1, 1]


@pytest.mark.parametrize("mode", ["next_step", "same_step"])
def test_episode_statistics_report_return_and_length_when_an_episode_ends(mode):
    env = cartpole(num_envs=2, episode_statistics=True, autoreset_mode=mode)
    _, info = env.reset()
    assert not info["_episode"].any()
    totals, lengths, episodes = np.zeros(2), np.zeros(2), 0
    for _ in range(300):
        _, rew, term, trunc, info = env.step(np.random.randint(0, 2, 2))
        if mode == "next_step":
            lengths += info["elapsed_step"] > 0
        else:
            lengths += 1
        totals += rew
        ended = term | trunc
        assert info["_episode"].tolist() == ended.tolist()
        np.testing.assert_array_equal(info["episode"]["r"][ended], totals[ended])
        np.testing.assert_array_equal(info["episode"]["l"][ended], lengths[ended])
        totals[ended], lengths[ended] = 0, 0
        episodes += ended.sum()
    assert episodes > 10


def test_episode_statistics_are_off_by_default():
    _, info = cartpole(num_envs=1).reset()
    assert "episode" not in info
