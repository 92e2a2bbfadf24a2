"""The env families the wheel bundles: adding one is a folder, one
envpool_family call in its BUILD and one line here. Python discovers the
installed families by their registration.py."""

FAMILIES = [
    "atari",
    "classic_control",
    "mujoco",
    "toy_text",
    "vizdoom",
]
