"""envpool/core/random.h draws exactly numpy's numbers.

The bound classes (`envpool.testing._random`) take numpy's method names and
arguments, so each test makes one list of calls on ours and on numpy's object
built from the same seed, and requires equal results, bit for bit, dtype
included.  Calls of different kinds are interleaved because state carries
between them (PCG64's kept 32-bit half, RandomState's cached normal).
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
import pytest

try:
    from envpool.testing import _random as nprandom
except ImportError:
    pytest.skip(
        "envpool.core._core has no `random` submodule: python_binding.cc does not call "
        "envpool::BindRandom in this build",
        allow_module_level=True,
    )

Call = tuple[str, tuple[Any, ...], dict[str, Any]]

EDGE_SEEDS = [0, 1, 42, 2**32 - 1, 2**32, 2**63, 2**64 - 1]
RANDOM_SEEDS = [int(s) for s in np.random.default_rng(20240601).integers(0, 2**63, 50)]
SEEDS = EDGE_SEEDS + RANDOM_SEEDS
# SeedSequence also takes wider integers and lists of words.
ENTROPIES: list[Any] = [*SEEDS, 2**64, 2**100 + 7, 2**128 - 1, [], [0], [1, 2], list(range(9))]
LEGACY_SEEDS = [0, 1, 42, 2**32 - 1] + [s % 2**32 for s in RANDOM_SEEDS]
LEGACY_ARRAY_SEEDS = [[0], [1, 2], [2**32 - 1] * 5, list(range(700))]


def seed_id(seed: Any) -> str:
    if isinstance(seed, list) and len(seed) > 5:
        return f"{seed[:3]}...({len(seed)} words)"
    return str(seed)


def call(obj: Any, method: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """Runs one call; an exception becomes its type, so refusals compare too."""
    try:
        return getattr(obj, method)(*args, **kwargs)
    except (ValueError, TypeError, OverflowError) as error:
        return type(error)


def assert_same(ours: Any, theirs: Any, what: str) -> None:
    if isinstance(theirs, type):
        assert ours is theirs, what
    elif isinstance(theirs, np.ndarray):
        assert isinstance(ours, np.ndarray), what
        assert ours.dtype == theirs.dtype, what
        assert ours.shape == theirs.shape, what
        # Equal bytes: exact, and NaN-safe should a NaN ever appear.
        assert ours.tobytes() == theirs.tobytes(), what
    else:
        assert not isinstance(ours, np.ndarray), what
        assert ours == theirs, what


def run_script(ours: Any, theirs: Any, calls: list[Call], what: str) -> None:
    for index, (method, args, kwargs) in enumerate(calls):
        got = call(ours, method, args, kwargs)
        want = call(theirs, method, args, kwargs)
        assert_same(got, want, f"{what}, call {index}: {method}{args} {kwargs}")


# Bounds as numpy takes them, for every width, including ranges 0, 1, 2, 6
# and the 32-bit edges (2**32 - 2, 2**32 - 1 = full 32-bit, 2**32 = first
# 64-bit one), and full-width ranges.
INTEGER_CASES: list[tuple[int, int, str, bool]] = [
    (0, 1, "int64", False),
    (10, 11, "int64", False),
    (5, 5, "int64", True),
    (0, 2, "int64", False),
    (0, 3, "int64", False),
    (0, 7, "int64", False),
    (-3, 4, "int64", False),
    (-1000, -990, "int64", False),
    (0, 2**31, "int64", False),
    (0, 2**32 - 1, "int64", False),
    (0, 2**32, "int64", False),
    (-(2**31), 2**31 - 1, "int64", True),
    (0, 2**32 + 1, "int64", False),
    (-5, 2**32, "int64", False),
    (0, 2**62, "int64", False),
    (-(2**62), 2**62, "int64", False),
    (-(2**63), 2**63 - 1, "int64", True),
    (0, 7, "int32", False),
    (-100, 100, "int32", False),
    (-(2**31), 2**31 - 1, "int32", True),
    (0, 2**31 - 1, "int32", False),
    (0, 2**32, "uint32", False),
    (1, 2**32 - 1, "uint32", False),
    (-5, 5, "int8", False),
    (-128, 127, "int8", True),
    (0, 1, "uint8", False),
    (0, 3, "uint8", False),
    (0, 7, "uint8", False),
    (17, 200, "uint8", False),
    (0, 256, "uint8", False),
    (0, 1000, "int16", False),
    (-(2**15), 2**15, "int16", False),
    (0, 2**16 - 1, "uint16", False),
    (0, 2**63 + 5, "uint64", False),
    (2**63, 2**64 - 1, "uint64", False),
    (0, 2**64, "uint64", False),
    # refused by both
    (5, 5, "int64", False),
    (6, 5, "int64", True),
    (-1, 10, "uint8", False),
    (0, 2**63 + 1, "int64", False),
]


def generator_integer_calls() -> list[Call]:
    calls: list[Call] = []
    for low, high, dtype, endpoint in INTEGER_CASES:
        kwargs = {"dtype": dtype, "endpoint": endpoint}
        calls.append(("integers", (low, high), kwargs))
        calls.append(("integers", (low, high), {**kwargs, "size": 1}))
        calls.append(("integers", (low, high), {**kwargs, "size": 7}))
        calls.append(("random", (), {}))  # a 64-bit draw between 32-bit ones
        calls.append(("integers", (low, high), {**kwargs, "size": 37}))
    calls.append(("integers", (10,), {}))  # high only
    calls.append(("integers", (10,), {"size": 3}))
    return calls


def generator_calls() -> list[Call]:
    return [
        ("random", (), {}),
        ("integers", (0, 10), {}),  # keeps the high half of a 64-bit draw
        ("random", (), {}),  # which a 64-bit draw leaves alone
        ("integers", (0, 10), {}),  # and this one uses
        ("random", (), {"size": 5}),
        ("random", (), {"dtype": "float32"}),
        ("random", (), {"size": 9, "dtype": "float32"}),
        ("uniform", (), {}),
        ("uniform", (-3.5, 7.25), {}),
        ("uniform", (-3.5, 7.25), {"size": 11}),
        ("uniform", (5.0, 5.0), {"size": 2}),
        ("uniform", (-1e10, 1e10), {"size": 3}),
        ("uniform", (1e10, -1e10), {}),  # refused: high < low
        ("uniform", (0.0, -0.0), {}),  # refused: -0.0 counts as negative
        ("uniform", (-1e308, 1e308), {}),  # refused: infinite range
        ("standard_normal", (), {}),
        ("standard_normal", (), {"size": 2001}),
        ("normal", (), {}),
        ("normal", (1.5, 0.25), {}),
        ("normal", (-2.0, 3.0), {"size": 13}),
        ("integers", (0, 2**40), {"size": 3}),
        ("random", (), {"dtype": "float32"}),
        ("choice", (1,), {}),
        ("choice", (7,), {}),
        ("choice", (2**33,), {}),
        ("choice", (1000,), {"size": 25}),
        ("choice", (np.arange(10) * 1.5,), {}),
        ("choice", (np.arange(10) * 1.5,), {"size": 4}),
        ("choice", (10,), {"replace": False}),
        ("choice", (10,), {"size": 10, "replace": False}),
        ("choice", (1000,), {"size": 30, "replace": False}),  # Floyd's
        ("choice", (1000,), {"size": 30, "replace": False, "shuffle": False}),
        ("choice", (20000,), {"size": 401, "replace": False}),  # tail shuffle
        ("choice", (20000,), {"size": 400, "replace": False}),  # Floyd's
        ("choice", (20000,), {"size": 1001, "replace": False, "shuffle": False}),
        ("choice", (5,), {"size": 6, "replace": False}),  # refused
        ("choice", (0,), {"size": 0}),
        ("permutation", (0,), {}),
        ("permutation", (1,), {}),
        ("permutation", (2,), {}),
        ("permutation", (100,), {}),
        ("permutation", (np.arange(8, dtype=np.uint8),), {}),
        ("permutation", (np.linspace(0.0, 1.0, 33),), {}),
        ("integers", (0, 3), {"dtype": "uint8", "size": 5}),
        ("standard_normal", (), {"size": 3}),
    ]


def shuffled(obj: Any, dtype: str, n: int) -> np.ndarray:
    data = np.arange(n).astype(dtype)
    obj.shuffle(data)
    return data


SHUFFLE_CASES = [
    (dtype, n) for dtype in ("int64", "float64", "int32", "uint8") for n in (0, 1, 2, 10, 300)
]


@pytest.mark.parametrize("entropy", ENTROPIES, ids=seed_id)
def test_seed_sequence(entropy: Any) -> None:
    ours = nprandom.SeedSequence(entropy)
    theirs = np.random.SeedSequence(entropy)
    assert_same(ours.pool, theirs.pool, "pool")
    for n_words in (0, 1, 4, 9):
        for dtype in ("uint32", "uint64"):
            assert_same(
                ours.generate_state(n_words, dtype),
                theirs.generate_state(n_words, np.dtype(dtype)),
                f"generate_state({n_words}, {dtype})",
            )


@pytest.mark.parametrize("seed", [*SEEDS, 2**100 + 7, [3, 1, 4, 1, 5]], ids=seed_id)
def test_pcg64_raw_draws(seed: Any) -> None:
    ours = nprandom.PCG64(seed)
    theirs = np.random.PCG64(seed)
    ct = theirs.ctypes
    next_theirs = {
        "random_raw": lambda: ct.next_uint64(ct.state),
        "next_uint32": lambda: ct.next_uint32(ct.state),
        "next_double": lambda: ct.next_double(ct.state),
    }
    # Odd runs of 32-bit draws between 64-bit ones exercise the kept half.
    for method in ["next_uint32"] * 3 + ["random_raw", "next_uint32", "next_double"] * 3:
        assert ours.__getattribute__(method)() == next_theirs[method](), method
    assert_same(ours.random_raw(100), theirs.random_raw(100), "random_raw(100)")


@pytest.mark.parametrize("seed", LEGACY_SEEDS[:8] + LEGACY_ARRAY_SEEDS, ids=seed_id)
def test_mt19937_raw_draws(seed: Any) -> None:
    ours = nprandom.MT19937(seed)
    theirs = np.random.RandomState(seed)._bit_generator
    ct = theirs.ctypes
    next_theirs = {
        "next_uint32": lambda: ct.next_uint32(ct.state),
        "next_uint64": lambda: ct.next_uint64(ct.state),
        "next_double": lambda: ct.next_double(ct.state),
    }
    # More than 624 words: the state is regenerated on the way.
    for method in ["next_uint32", "next_uint64", "next_double"] * 250:
        assert ours.__getattribute__(method)() == next_theirs[method](), method


@pytest.mark.parametrize("seed", SEEDS, ids=seed_id)
def test_generator(seed: int) -> None:
    run_script(
        nprandom.Generator(seed), np.random.default_rng(seed), generator_calls(), "Generator"
    )


@pytest.mark.parametrize("seed", EDGE_SEEDS + RANDOM_SEEDS[:10], ids=seed_id)
def test_generator_integers(seed: int) -> None:
    ours = nprandom.Generator(seed)
    theirs = np.random.default_rng(seed)
    run_script(ours, theirs, generator_integer_calls(), "Generator.integers")


@pytest.mark.parametrize("seed", EDGE_SEEDS + RANDOM_SEEDS[:5], ids=seed_id)
def test_generator_shuffle(seed: int) -> None:
    ours = nprandom.Generator(seed)
    theirs = np.random.default_rng(seed)
    for dtype, n in SHUFFLE_CASES:
        assert_same(shuffled(ours, dtype, n), shuffled(theirs, dtype, n), f"shuffle {dtype}[{n}]")
        assert ours.random() == theirs.random()


def test_generator_normal_reaches_the_tail_and_wedges() -> None:
    # The draws compared above include the ziggurat's rare paths: the tail
    # beyond r = 3.654 and points outside a layer's rectangle.
    samples = np.concatenate([nprandom.Generator(s).standard_normal(2001) for s in SEEDS])
    assert np.abs(samples).max() > 3.6541528853610088


def test_generator_big_entropy() -> None:
    for entropy in ([2**64 + 1], 2**128 - 1, [1, 2, 3, 4, 5, 6]):
        ours = nprandom.Generator(entropy)
        theirs = np.random.Generator(np.random.PCG64(np.random.SeedSequence(entropy)))
        run_script(ours, theirs, generator_calls()[:20], f"Generator({entropy})")


def test_generator_is_gymnasium_np_random() -> None:
    seeding = pytest.importorskip("gymnasium.utils.seeding")
    for seed in EDGE_SEEDS[:4]:
        theirs, _ = seeding.np_random(seed)
        run_script(nprandom.Generator(seed), theirs, generator_calls()[:20], "np_random")


def legacy_calls() -> list[Call]:
    calls: list[Call] = [
        ("random_sample", (), {}),
        ("random_sample", (), {"size": 5}),
        ("standard_normal", (), {}),  # makes two values, keeps one
        ("random_sample", (), {}),  # which survives other draws
        ("standard_normal", (), {}),
        ("standard_normal", (), {"size": 7}),
        ("normal", (), {}),
        ("normal", (1.5, 0.25), {}),
        ("normal", (-2.0, 3.0), {"size": 13}),
        ("uniform", (), {}),
        ("uniform", (-3.5, 7.25), {}),
        ("uniform", (-3.5, 7.25), {"size": 11}),
        ("uniform", (1e10, -1e10), {"size": 3}),  # allowed here
        ("uniform", (-1e308, 1e308), {}),  # refused: infinite range
        ("randint", (10,), {}),
        ("randint", (10,), {"size": 3}),
        ("choice", (1,), {}),
        ("choice", (7,), {}),
        ("choice", (2**33,), {}),
        ("choice", (1000,), {"size": 25}),
        ("choice", (np.arange(10) * 1.5,), {}),
        ("choice", (np.arange(10) * 1.5,), {"size": 4}),
        ("choice", (10,), {"replace": False}),
        ("choice", (1000,), {"size": 30, "replace": False}),
        ("choice", (5,), {"size": 6, "replace": False}),
        ("permutation", (0,), {}),
        ("permutation", (1,), {}),
        ("permutation", (100,), {}),
        ("permutation", (np.arange(8, dtype=np.uint8),), {}),
        ("standard_normal", (), {"size": 2001}),
    ]
    for low, high, dtype, endpoint in INTEGER_CASES:
        if endpoint:  # randint has no endpoint: the same range, exclusive
            high += 1
        calls.append(("randint", (low, high), {"dtype": dtype}))
        calls.append(("randint", (low, high), {"dtype": dtype, "size": 7}))
        calls.append(("random_sample", (), {}))
    return calls


@pytest.mark.parametrize("seed", LEGACY_SEEDS + LEGACY_ARRAY_SEEDS, ids=seed_id)
def test_random_state(seed: Any) -> None:
    run_script(
        nprandom.RandomState(seed), np.random.RandomState(seed), legacy_calls(), "RandomState"
    )


@pytest.mark.parametrize("seed", [0, 7, 2**32 - 1, 2**32, 2**32 + 7, 2**64 - 1])
def test_random_state_from_a_pools_seed(seed: int) -> None:
    # Below 2**32 RandomState(seed); above, RandomState([low, high]) (numpy
    # refuses the integer itself).
    words = seed if seed < 2**32 else [seed & 0xFFFFFFFF, seed >> 32]
    run_script(
        nprandom.RandomState.from_seed(seed),
        np.random.RandomState(words),
        legacy_calls(),
        "RandomState.from_seed",
    )


@pytest.mark.parametrize("seed", LEGACY_SEEDS[:6], ids=seed_id)
def test_random_state_shuffle_and_aliases(seed: int) -> None:
    ours = nprandom.RandomState(seed)
    theirs = np.random.RandomState(seed)
    for dtype, n in SHUFFLE_CASES:
        assert_same(shuffled(ours, dtype, n), shuffled(theirs, dtype, n), f"shuffle {dtype}[{n}]")
    assert_same(ours.random_sample(4), theirs.rand(4), "rand")
    assert_same(ours.standard_normal(5), theirs.randn(5), "randn")
    assert_same(ours.random_sample(3), theirs.random(3), "random")


@pytest.mark.parametrize("seed", [-1, 2**32, 2**63, [2**32], []], ids=seed_id)
def test_random_state_refuses_what_numpy_refuses(seed: Any) -> None:
    with pytest.raises(ValueError):
        np.random.RandomState(seed)
    with pytest.raises(ValueError):
        nprandom.RandomState(seed)


def test_the_random_binding_is_a_test_module_users_never_load():
    import envpool

    envpool.make("CartPole-v1")  # loads the core
    core = sys.modules["envpool.core._core"]
    assert not hasattr(core, "random")
