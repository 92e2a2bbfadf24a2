"""The native library: point_nav/_point_nav*.so, built against the installed envpool."""

from setuptools import setup

from envpool.extension import env_extension

setup(
    ext_modules=[
        env_extension("point_nav._point_nav", ["point_nav/point_nav.cc"], include_dirs=["."])
    ]
)
