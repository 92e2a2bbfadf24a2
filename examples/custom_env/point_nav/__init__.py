"""PointNav: a 2-D point-mass navigation env for envpool, built outside it.

Installing the package is enough: envpool finds its ids through the entry
point in pyproject.toml (`envpool.make("PointNav-v0")`), no import needed.
"""
