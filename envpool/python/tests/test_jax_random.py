"""envpool/core/jax_random.h draws exactly jax.random's numbers.

The bound functions (`envpool.testing._jax_random`) take a raw key (the
uint32 pair `jax.random.PRNGKey` gives) and a flat length; each test makes
the same draw with `jax.random` (threefry2x32, jax_threefry_partitionable on,
64-bit types off: JAX's defaults) and requires equal arrays, bit for bit.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")

try:
    from envpool.testing import _jax_random as ours
except ImportError:
    pytest.skip("this build has no envpool.testing._jax_random", allow_module_level=True)

EDGE_SEEDS = [0, 1, 42, -1, -(2**31), 2**31 - 1, 2**32 - 1, 2**32, 2**40 + 5, 2**63 - 1, -(2**63)]
RANDOM_SEEDS = [int(s) for s in np.random.default_rng(39).integers(-(2**63), 2**63 - 1, 20)]
SEEDS = EDGE_SEEDS + RANDOM_SEEDS
# Derived keys reach every word value, which seeds alone (high word 0) do not.
KEYS = [jax.random.PRNGKey(s) for s in (*EDGE_SEEDS[:5], 2**32 - 1)] + [
    jax.random.fold_in(jax.random.PRNGKey(s), 7) for s in RANDOM_SEEDS[:6]
]


def raw(key: Any) -> np.ndarray:
    return np.asarray(key, dtype=np.uint32)


def key_id(key: Any) -> str:
    return "{:08x}{:08x}".format(*raw(key))


def assert_same(mine: np.ndarray, theirs: Any) -> None:
    theirs = np.asarray(theirs)
    assert mine.dtype == theirs.dtype
    assert mine.shape == theirs.reshape(-1).shape or mine.shape == theirs.shape
    assert mine.tobytes() == theirs.tobytes()


def test_threefry_known_answer() -> None:
    """The cipher itself, on the Random123 known-answer vectors, via split."""
    # threefry2x32_20(key=(0,0), counter=(0,0)) = (0x6b200159, 0x99ba4efe).
    assert list(ours.split(np.zeros(2, np.uint32), 1)[0]) == [0x6B200159, 0x99BA4EFE]


@pytest.mark.parametrize("seed", SEEDS)
def test_prng_key(seed: int) -> None:
    assert_same(ours.prng_key(seed), raw(jax.random.PRNGKey(seed)))


def test_prng_key_x64() -> None:
    """Under jax_enable_x64 the seed's high word is kept (a process of its own)."""
    code = (
        "import jax, json, sys; seeds = json.loads(sys.argv[1]); "
        "print(json.dumps([[int(w) for w in jax.random.PRNGKey(s)] for s in seeds]))"
    )
    env = dict(os.environ, JAX_ENABLE_X64="1", JAX_PLATFORMS="cpu")
    out = subprocess.run(
        [sys.executable, "-c", code, json.dumps(SEEDS)],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    for seed, words in zip(SEEDS, json.loads(out), strict=True):
        assert list(ours.prng_key_x64(seed)) == words, seed


@pytest.mark.parametrize("key", KEYS, ids=key_id)
def test_split_and_fold_in(key: Any) -> None:
    for num in (1, 2, 3, 4, 17):
        assert_same(ours.split(raw(key), num), raw(jax.random.split(key, num)))
    for data in (0, 1, 2, 7, 1000, 2**31, 2**32 - 1):
        assert_same(ours.fold_in(raw(key), data), raw(jax.random.fold_in(key, data)))


@pytest.mark.parametrize("key", KEYS, ids=key_id)
def test_bits(key: Any) -> None:
    for n in (1, 2, 3, 64, 1001):
        assert_same(ours.bits32(raw(key), n), jax.random.bits(key, (n,), jnp.uint32))
    # A 2-d shape is its flat iota: the same bits.
    assert_same(ours.bits32(raw(key), 12), jax.random.bits(key, (3, 4), jnp.uint32).reshape(-1))


@pytest.mark.parametrize("key", KEYS, ids=key_id)
def test_uniform_and_bernoulli(key: Any) -> None:
    tiny = float(np.finfo(np.float32).tiny)
    for low, high in ((0.0, 1.0), (-3.0, 5.0), (tiny, 1.0), (2.5, 2.5), (1e-3, 1e9), (-1e30, 1e30)):
        for n in (1, 300):
            theirs = jax.random.uniform(key, (n,), jnp.float32, low, high)
            assert_same(ours.uniform(raw(key), n, low, high), theirs)
    for p in (0.5, 0.0, 1.0, 0.1, 0.9, 1 / 3):
        for n in (1, 200):
            assert_same(ours.bernoulli(raw(key), p, n), jax.random.bernoulli(key, p, (n,)))


RANGES = [
    (0, 1),
    (0, 2),
    (0, 3),
    (0, 6),
    (0, 7),
    (-5, 5),
    (0, 2**31 - 1),
    (-(2**31), 2**31 - 1),
    (3, 3),
    (5, 2),
    (0, 2**16),
    (0, 2**16 + 1),
    (-100, 2**20 + 3),
]


@pytest.mark.parametrize("key", KEYS, ids=key_id)
def test_randint(key: Any) -> None:
    for low, high in RANGES:
        for n in (1, 257):
            theirs = jax.random.randint(key, (n,), low, high, jnp.int32)
            assert_same(ours.randint(raw(key), n, low, high), theirs)


@pytest.mark.parametrize("key", KEYS, ids=key_id)
def test_permutation_and_choice(key: Any) -> None:
    # 2000 elements take two sorting rounds (ceil(3 ln n / ln(2**32 - 1))).
    for n in (1, 2, 3, 6, 16, 361, 2000):
        assert_same(ours.permutation(raw(key), n), jax.random.permutation(key, n))
    values = np.array([0, 0, 1, 1, 2, 2, 9, -4], np.int32)
    theirs = jax.random.permutation(key, jnp.asarray(values), independent=True)
    assert_same(ours.shuffle(raw(key), values), theirs)
    for n, size in ((1, 1), (6, 1), (6, 4), (21, 21), (100, 7)):
        assert_same(
            ours.choice(raw(key), n, size, True), jax.random.choice(key, n, (size,), replace=True)
        )
        assert_same(
            ours.choice(raw(key), n, size, False), jax.random.choice(key, n, (size,), replace=False)
        )


P_VECTORS = [
    np.array([0.9, 0.1], np.float32),
    (np.arange(16) % 3 == 0).astype(np.float32),
    np.array([0, 0, 1, 0], np.float32),
    np.array([0.2, 0.0, 0.3, 0.5], np.float32),
    np.random.default_rng(1).random(50).astype(np.float32),
    np.random.default_rng(2).random(7).astype(np.float32) * 1e-3,
]


@pytest.mark.parametrize("key", KEYS, ids=key_id)
def test_choice_with_p(key: Any) -> None:
    for p in P_VECTORS:
        for size in (1, 64):
            theirs = jax.random.choice(key, len(p), (size,), replace=True, p=jnp.asarray(p))
            assert_same(ours.choice_p(raw(key), p, size), np.asarray(theirs).astype(np.int32))


def test_refusals() -> None:
    key = raw(jax.random.PRNGKey(0))
    with pytest.raises(ValueError, match="greater than 0"):
        ours.choice(key, 0, 1, True)
    with pytest.raises(ValueError, match="larger sample"):
        ours.choice(key, 3, 4, False)
    with pytest.raises(ValueError, match="shape"):
        ours.split(np.zeros(3, np.uint32), 2)
