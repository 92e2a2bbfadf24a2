"""envpool_family: everything one env family builds, from one call.

A family is a folder `envpool/<name>/` holding one header per env,
`registration.cc` (its native Python module, which registers the env classes
with the shared core), `registration.py` (its ids), `__init__.py`, and
`tests/` (`*_test.cc` GoogleTest files, `test_*.py` pytest files). Its BUILD
is one call:

    load("//tools:family.bzl", "envpool_family")

    envpool_family(name = "classic_control")

and the family's name is added to FAMILIES in `tools/families.bzl`.
"""

def envpool_family(
        name,
        srcs = [],
        deps = [],
        copts = [],
        linkopts = [],
        data = [],
        test_deps = []):
    """The targets of the family `name`.

    `<name>_envs` (a library of the family's headers and `srcs`),
    `_<name>.so` (the Python module built from registration.cc and linked
    against the shared core), `python_files`, `package_files` (what the wheel
    takes: module, Python files and `data`) and one cc_test per
    `tests/*_test.cc`.

    Args:
      name: the family's folder name.
      srcs: C++ sources shared by its envs.
      deps: external libraries its envs use.
      copts: compiler options for the family's code.
      linkopts: extra link options of the Python module (rpaths).
      data: extra files the wheel ships in the family's folder.
      test_deps: extra dependencies of the C++ tests.
    """
    library = name + "_envs"
    native.cc_library(
        name = library,
        srcs = srcs,
        hdrs = native.glob(["*.h"]),
        copts = copts,
        deps = ["//envpool/core:core_headers"] + deps,
    )
    module = "_%s.so" % name
    native.cc_binary(
        name = module,
        srcs = ["registration.cc"],
        copts = copts,
        linkopts = ["-Wl,-rpath,$$ORIGIN/../core"] + linkopts,
        linkshared = True,
        deps = [
            ":" + library,
            "//envpool/core:plugin",
        ],
    )
    native.filegroup(
        name = "python_files",
        srcs = native.glob(["*.py"]),
    )
    native.filegroup(
        name = "package_files",
        srcs = [":" + module, ":python_files"] + data,
    )
    for test in native.glob(["tests/*_test.cc"]):
        native.cc_test(
            name = test[len("tests/"):-len(".cc")],
            size = "small",
            srcs = [test],
            copts = copts,
            deps = [
                ":" + library,
                "//envpool/core:core",
                "@gtest//:gtest_main",
            ] + test_deps,
        )
