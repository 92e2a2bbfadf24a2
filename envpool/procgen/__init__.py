"""Procgen: the 16 procedurally generated games of procgen 0.10.7.

The games run in procgen's own compiled library (`libenv.so` from the
procgen wheel, with its assets), shipped in this folder and loaded through
gym3's libenv C interface: no procgen Python package is needed.
"""
