"""The small products of the families whose references compute with np.dot,
`@` and np.linalg.norm round as this process's numpy rounds them
(envpool/core/numpy_blas.h): each such family's module asked numpy when it
was imported, and its answer must hold for random numbers."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from fractions import Fraction
from types import ModuleType

import numpy as np

from envpool.python import registry


def _fma(a: float, b: float, c: float) -> float:
    """a * b + c rounded once."""
    return float(Fraction(float(a)) * Fraction(float(b)) + Fraction(float(c)))


# a0 * b0 + a1 * b1 in each of the roundings the core knows.
_ROUNDINGS = {
    "fuse_second": lambda a0, a1, b0, b1: _fma(a1, b1, a0 * b0),
    "fuse_first": lambda a0, a1, b0, b1: _fma(a0, b0, a1 * b1),
    "plain": lambda a0, a1, b0, b1: a0 * b0 + a1 * b1,
}


def _modules_that_learned() -> list[ModuleType]:
    found = []
    for family in registry.families():
        try:
            module = importlib.import_module(f"envpool.{family}._{family}")
        except ImportError:
            continue  # a family whose native module is not built here
        if hasattr(module, "numpy_blas"):
            found.append(module)
    return found


def _dot(rounding: str, x: np.ndarray, y: np.ndarray) -> float:
    # In order from 0.0: each next product added, or fused in.
    total = 0.0
    for a, b in zip(x.tolist(), y.tolist(), strict=True):
        total = total + a * b if rounding == "plain" else _fma(a, b, total)
    return total


def test_every_family_rounds_small_products_as_numpy_does() -> None:
    modules = _modules_that_learned()
    # Several families ask.
    assert len(modules) >= 3, [m.__name__ for m in modules]
    answers = [m.numpy_blas() for m in modules]
    assert all(a == answers[0] for a in answers), answers
    names = dict(answers[0])
    assert names.pop("unmatched") == []
    assert set(names) == {"dot2", "dot", "gemv", "gemm"}
    dot2, gemv, gemm = (_ROUNDINGS[names[k]] for k in ("dot2", "gemv", "gemm"))
    rng = np.random.default_rng(5)
    for _ in range(300):
        a, b, c = rng.standard_normal((3, 2))
        assert float(np.dot(a, b)) == dot2(*a, *b)
        assert float(np.linalg.norm(a)) == float(np.sqrt(dot2(*a, *a)))
        matrix = np.array([a, c])
        assert float((matrix @ b)[0]) == gemv(*a, *b)
        points = rng.standard_normal((2, 9))
        points[:, 4] = b
        assert float((matrix @ points)[0, 4]) == gemm(*a, *b)
        n = int(rng.integers(3, 16))
        x, y = rng.standard_normal((2, n))
        assert float(np.dot(x, y)) == _dot(names["dot"], x, y), n


_RAISING_DOT = """
import numpy

def dot(*args, **kwargs):
    raise RuntimeError("no dot here")

numpy.dot = dot
import importlib
module = importlib.import_module({name!r})
print(module.numpy_blas())
"""


def test_a_numpy_that_raises_leaves_the_defaults_and_the_module_imports() -> None:
    # The probe runs at the first family module's import, once per process:
    # a fresh process whose numpy.dot raises.
    name = _modules_that_learned()[0].__name__
    done = subprocess.run(
        [sys.executable, "-P", "-c", _RAISING_DOT.format(name=name)],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    answer = ast.literal_eval(done.stdout.strip().splitlines()[-1])
    unmatched = answer["unmatched"]
    # dot2 and dot ask numpy.dot; gemv and gemm ask ndarray's `@`.
    assert sorted(u.split(":")[0] for u in unmatched) == ["dot", "dot2"], unmatched
    assert all(u.endswith("RuntimeError: no dot here") for u in unmatched), unmatched
    # The two keep their defaults (numpy_blas.h's Roundings).
    assert answer["dot2"] == answer["dot"] == "fuse_second", answer
