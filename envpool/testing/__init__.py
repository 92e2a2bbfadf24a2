"""Test envs of the core (counting, multi-player); no ids are registered.

Tests register them on demand, e.g.
`envpool.register("TestTeam-v0", family="testing", env_class="TestTeam")`.
"""
