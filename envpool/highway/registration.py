"""Ids of the highway family and their option overrides.

The canonical ids are EnvPool 1.2.7's; each has highway-env's own lower-case
id as an alias with the same options.
"""

from envpool.python.registry import register

_HIGHWAY_FAST = {
    "duration": 30,
    "ego_spacing": 1.5,
    "lanes_count": 3,
    "max_episode_steps": 30,
    "other_vehicles_check_collisions": False,
    "simulation_frequency": 5,
    "vehicles_count": 20,
}


def _register(ids: tuple[str, ...], env_class: str, **options: object) -> None:
    """Register each of ``ids`` (EnvPool's id, then highway-env's) with the same options."""
    for task_id in ids:
        register(task_id, family="highway", env_class=env_class, **options)


def _register_v0_v1(name: str, alias: str, env_class: str, **options: object) -> None:
    """Register ``name``-v0/-v1 and ``alias``-v0/-v1; -v1 is highway-env's ConnectedLane variant.

    The -v1 ids search the connected lanes for a vehicle's neighbours.
    """
    for version in (0, 1):
        _register(
            (f"{name}-v{version}", f"{alias}-v{version}"),
            env_class,
            neighbour_vehicles_connected_lanes=version == 1,
            **options,
        )


_register(("Highway-v0", "highway-v0"), "Highway", duration=40, max_episode_steps=40)
_register(("HighwayFast-v0", "highway-fast-v0"), "Highway", **_HIGHWAY_FAST)
_register_v0_v1("Merge", "merge", "Merge", duration=200, max_episode_steps=200)
_register_v0_v1("Exit", "exit", "Exit", duration=18, max_episode_steps=18, simulation_frequency=5)
_register_v0_v1("Roundabout", "roundabout", "Roundabout", duration=11, max_episode_steps=11)
_register(("TwoWay-v0", "two-way-v0"), "TwoWay", duration=15, max_episode_steps=15)
_register_v0_v1("UTurn", "u-turn", "UTurn", duration=10, max_episode_steps=10)
_register_v0_v1(
    "MergeGeneric", "merge-generic", "MergeGeneric", duration=200, max_episode_steps=200
)
_register_v0_v1(
    "RoundaboutGeneric",
    "roundabout-generic",
    "RoundaboutGeneric",
    duration=17,
    max_episode_steps=17,
    vehicles_count=5,
)

_register(("Intersection-v0", "intersection-v0"), "Intersection")
_register(("Intersection-v1", "intersection-v1"), "IntersectionContinuous")
_register(
    ("Intersection-v2", "intersection-v2"),
    "Intersection",
    neighbour_vehicles_connected_lanes=True,
)
_register(("IntersectionMultiAgent-v0", "intersection-multi-agent-v0"), "IntersectionMultiAgent")
_register(("LaneKeeping-v0", "lane-keeping-v0"), "LaneKeeping")
for _version, _connected in ((1, False), (2, True)):
    _register(
        (f"IntersectionMultiAgent-v{_version}", f"intersection-multi-agent-v{_version}"),
        "IntersectionMultiAgent",
        neighbour_vehicles_connected_lanes=_connected,
        terminate_on_any_crash=False,
    )
_register(("Parking-v0", "parking-v0"), "Parking")
_register(
    ("ParkingActionRepeat-v0", "parking-ActionRepeat-v0"),
    "Parking",
    duration=20,
    max_episode_steps=20,
    policy_frequency=1,
)
_register(("ParkingParked-v0", "parking-parked-v0"), "Parking", vehicles_count=10)
_register_v0_v1("Racetrack", "racetrack", "Racetrack")
_register_v0_v1("RacetrackLarge", "racetrack-large", "RacetrackLarge")
_register_v0_v1("RacetrackOval", "racetrack-oval", "RacetrackOval")


# -- What this family declares (docs/adding_a_family.md) --

# The id tools/smoke_test.py makes and steps in every wheel.
SMOKE_TEST_ID = "HighwayFast-v0"
# The snapshot check takes up to a second an id (scenes of many vehicles).
SNAPSHOT_CHECK_SAMPLED = True
