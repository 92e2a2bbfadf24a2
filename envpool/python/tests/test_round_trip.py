"""The core-to-core latency probe that `benchmark/worker.py share` reads (`_round_trip.so`)."""

from __future__ import annotations

import ctypes
import math
import os

import pytest

import envpool


def probe():
    path = os.path.join(os.path.dirname(envpool.__file__), "testing", "_round_trip.so")
    if not os.path.exists(path):
        pytest.skip("this build has no envpool/testing/_round_trip.so")
    function = ctypes.CDLL(path).envpool_round_trip_ns
    function.restype = ctypes.c_double
    function.argtypes = [ctypes.c_int]
    return function


def test_a_round_trip_takes_between_a_nanosecond_and_a_timeslice():
    # Two threads sharing a core (a busy machine) pass the line only when
    # the kernel switches them, a timeslice a trip: few trips, then.
    ns = probe()(100)
    assert math.isfinite(ns)
    assert 1.0 < ns < 2e7


def test_no_trips_is_an_error_value():
    assert probe()(0) < 0
