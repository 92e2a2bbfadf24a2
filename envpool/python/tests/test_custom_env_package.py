"""Env packages built outside envpool (docs/custom_envs.md), against the
installed wheel alone: examples/custom_env is built with pip into a fresh
virtual environment (no `bazel` on PATH, no index: offline) and passes its own
tests there, and so does the package docs/custom_envs.md builds; a library
built for another envpool version (or other headers of this one) is refused
naming both; an env whose Step throws reports as an in-tree one does; a
package that takes one of envpool's family names is skipped with a warning.

The venv sees this interpreter's packages (envpool's wheel, numpy,
gymnasium, setuptools) and nothing of the source tree. The file takes 15 to
45 s (two packages built with pip, two by g++).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import envpool

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "examples" / "custom_env"
DOC = ROOT / "docs" / "custom_envs.md"


def _path_without_bazel(stub_dir: Path) -> str:
    """PATH with a `bazel` first that fails: the system's bazel shares its folder
    with the compiler, so it cannot simply be left out."""
    stub_dir.mkdir()
    stub = stub_dir / "bazel"
    stub.write_text(
        "#!/bin/sh\necho 'bazel was called while building an env package' >&2\nexit 97\n"
    )
    stub.chmod(0o755)
    return os.pathsep.join([str(stub_dir), os.environ.get("PATH", "")])


class Venv:
    """A fresh venv that sees this interpreter's site-packages, and runs
    with `bazel` off PATH from a folder outside the repository."""

    def __init__(self, root: Path) -> None:
        self.root = root
        subprocess.run(
            [sys.executable, "-m", "venv", "--without-pip", "--system-site-packages", str(root)],
            check=True,
        )
        self.python = str(root / "bin" / "python")
        site = subprocess.run(
            [self.python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        self.site = Path(site)
        # The packages of the interpreter running the tests (which may be a venv
        # itself): envpool's installed wheel first.
        ours = [p for p in sys.path if p.endswith("site-packages") and os.path.isdir(p)]
        (self.site / "_envpool_test_parent.pth").write_text("\n".join(ours) + "\n")
        self.env = {
            **os.environ,
            "PATH": _path_without_bazel(root.parent / "no-bazel"),
            "PYTHONNOUSERSITE": "1",
        }
        self.env.pop("PYTHONPATH", None)

    def run(self, *args: str, cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess:
        return subprocess.run(
            [*args],
            cwd=cwd,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )

    def python_code(self, code: str, cwd: Path) -> subprocess.CompletedProcess:
        return self.run(self.python, "-P", "-c", textwrap.dedent(code), cwd=cwd)


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Venv:
    return Venv(tmp_path_factory.mktemp("custom-env") / "venv")


@pytest.fixture(scope="module")
def installed_example(venv: Venv, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """examples/custom_env, copied (a build writes beside its sources) and
    installed into the venv with pip, offline and with no build isolation."""
    assert shutil.which("bazel", path=venv.env["PATH"]) == str(
        venv.root.parent / "no-bazel" / "bazel"
    )
    source = tmp_path_factory.mktemp("source") / "custom_env"
    shutil.copytree(
        EXAMPLE, source, ignore=shutil.ignore_patterns("build", "*.egg-info", "*.so", "__pycache__")
    )
    _pip_install(venv, source)
    return source


def test_the_venv_runs_the_installed_wheel(venv: Venv, installed_example: Path) -> None:
    out = venv.python_code(
        "import envpool, point_nav; print(envpool.__file__); print(point_nav.__file__)",
        cwd=installed_example.parent,
    )
    assert out.returncode == 0, out.stderr
    envpool_file, point_nav_file = out.stdout.split()
    assert Path(envpool_file).resolve() == Path(envpool.__file__).resolve()
    # The wheel's envpool, not the source tree's.
    assert not Path(envpool_file).resolve().is_relative_to(ROOT / "envpool")
    assert Path(envpool_file).parent.parent.name == "site-packages"
    assert Path(point_nav_file).resolve().is_relative_to(venv.site.resolve())


def test_the_example_passes_its_tests(venv: Venv, installed_example: Path) -> None:
    out = venv.run(
        venv.python,
        "-P",
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        str(installed_example / "tests"),
        cwd=installed_example.parent,
        timeout=600,
    )
    assert out.returncode == 0, f"examples/custom_env's tests failed:\n{out.stdout}{out.stderr}"
    assert " passed" in out.stdout and "skipped" not in out.stdout, out.stdout


# Two hand-made installed packages beside the example: one whose library says
# it was built against envpool 0.0.1 (what the loader reads of a library built
# with another version's plugin.h), one whose env throws in Step.
STALE_LIBRARY = """
extern "C" __attribute__((visibility("default"))) const char* envpool_plugin_version() {
  return "0.0.1";
}
extern "C" __attribute__((visibility("default"))) const char* envpool_plugin_cxx_stdlib() {
  return "";
}
extern "C" __attribute__((visibility("default")))
int envpool_plugin_register(char*, unsigned long) {
  __builtin_trap();  // never called: the version check refuses the library first
}
"""

# A library of another version, stamped as plugin.h stamps it, whose static
# constructor would kill the process: the loader reads the stamp from the file
# and refuses the library without loading it, so the constructor never runs.
STAMPED_STALE_LIBRARY = """
extern "C" __attribute__((visibility("default"), used, section(".envpool_plugin")))
const char envpool_plugin_stamp[] =
    "envpool-plugin-stamp\\nversion=0.0.2\\ndigest=fedcba9876543210\\nstdlib=x\\n";
__attribute__((constructor)) static void RunsAtLoad() { __builtin_trap(); }
extern "C" __attribute__((visibility("default"))) const char* envpool_plugin_version() {
  return "0.0.2";
}
extern "C" __attribute__((visibility("default")))
int envpool_plugin_register(char*, unsigned long) {
  __builtin_trap();
}
"""

# This version, with other headers (a development build whose env.h changed).
REHEADERED_LIBRARY = """
extern "C" __attribute__((visibility("default"))) const char* envpool_plugin_version() {
  return "VERSION";
}
extern "C" __attribute__((visibility("default")))
const char* envpool_plugin_headers_digest() {
  return "0123456789abcdef";
}
extern "C" __attribute__((visibility("default"))) const char* envpool_plugin_cxx_stdlib() {
  return "";
}
extern "C" __attribute__((visibility("default")))
int envpool_plugin_register(char*, unsigned long) {
  __builtin_trap();  // never called: the digest check refuses the library first
}
"""

FAULTY_LIBRARY = """
#include <stdexcept>
#include "envpool/core/plugin.h"

class FaultyEnv : public envpool::Env {
 public:
  struct Fields {
    envpool::Field<float> obs;
    envpool::Field<int64_t> action;
  };
  static envpool::Options DefaultOptions() { return {{"fail_at_step", int64_t{3}}}; }
  static void Declare(const envpool::Options&, envpool::EnvSpec* spec, Fields* fields) {
    fields->obs = spec->state.Add<float>("obs", {1});
    fields->action = spec->action.AddDiscrete<int64_t>("action", 2);
  }
  FaultyEnv(const envpool::Options& options, const Fields& fields)
      : fields_(fields), fail_at_(options.Get<int64_t>("fail_at_step")) {}
  void Reset() override { steps_ = 0; }
  void Step(const envpool::ActionView&) override {
    if (++steps_ == fail_at_) {
      throw std::runtime_error("the faulty env failed at step " + std::to_string(steps_));
    }
    reward_ = 1.0;
  }
  void Write(const envpool::Output& out) override {
    *out.Get(fields_.obs) = static_cast<float>(steps_);
  }

 private:
  Fields fields_;
  int64_t fail_at_;
  int64_t steps_ = 0;
};

ENVPOOL_PLUGIN() { envpool::RegisterEnv<FaultyEnv>("Faulty"); }
"""


def _install_by_hand(
    venv: Venv, family: str, library_source: str, env_class: str, task_id: str = ""
) -> None:
    """A package `<family>` with its library compiled by g++ and an
    envpool.families entry point, as pip would install it."""
    folder = venv.site / family
    folder.mkdir()
    (folder / "__init__.py").write_text("")
    (folder / "registration.py").write_text(
        f"import envpool\nenvpool.register('{task_id or env_class + '-v0'}', family='{family}', "
        f"env_class='{env_class}', max_episode_steps=100)\n"
    )
    (folder / "lib.cc").write_text(library_source)
    compiler = shutil.which("g++") or shutil.which("c++")
    if compiler is None:
        pytest.fail("a C++ compiler (g++) is needed to build env packages")
    subprocess.run(
        [
            *(compiler, "-std=c++17", "-O1", "-shared", "-fPIC", "-fvisibility=hidden"),
            *(f"-I{envpool.get_include()}", str(folder / "lib.cc")),
            *(f"-L{envpool.get_library_dir()}", "-lenvpool_core"),
            *(f"-Wl,-rpath,{envpool.get_library_dir()}", "-o", str(folder / f"_{family}.so")),
        ],
        check=True,
    )
    info = venv.site / f"{family}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {family}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(
        f"[envpool.families]\n{family} = {family}.registration\n"
    )


@pytest.fixture(scope="module")
def hand_made_packages(venv: Venv) -> None:
    _install_by_hand(venv, "stale_env", STALE_LIBRARY, "Stale")
    _install_by_hand(venv, "stamped_stale_env", STAMPED_STALE_LIBRARY, "StampedStale")
    _install_by_hand(
        venv,
        "reheadered_env",
        REHEADERED_LIBRARY.replace("VERSION", envpool.__version__),
        "Reheadered",
    )
    _install_by_hand(venv, "faulty_env", FAULTY_LIBRARY, "Faulty")
    # A class named as one of envpool's.
    _install_by_hand(
        venv,
        "shadow_env",
        FAULTY_LIBRARY.replace(
            'RegisterEnv<FaultyEnv>("Faulty")', 'RegisterEnv<FaultyEnv>("CartPole")'
        ),
        "CartPole",
        "ShadowCartPole-v0",
    )


def _refusal_of(venv: Venv, task_id: str) -> str:
    """The ImportError of making `task_id` in the venv, after which envpool
    goes on: its own ids and the other packages' still work."""
    out = venv.python_code(
        f"""
        import envpool
        try:
            envpool.make({task_id!r})
        except ImportError as e:
            print(e)
        envpool.make("CartPole-v1", num_envs=2).reset()
        print("went on")
        """,
        cwd=venv.root,
    )
    assert out.returncode == 0, out.stderr
    message, went_on = out.stdout.strip().splitlines()
    assert went_on == "went on"
    return message


def test_a_library_of_another_version_is_refused(venv: Venv, hand_made_packages: None) -> None:
    message = _refusal_of(venv, "Stale-v0")
    assert "stale_env 0.1" in message
    assert "built against envpool 0.0.1, but this is envpool " + envpool.__version__ in message
    assert "rebuild" in message


def test_a_library_of_another_version_is_refused_before_it_is_loaded(
    venv: Venv, hand_made_packages: None
) -> None:
    # Loading the library would run its constructor, which traps (SIGILL):
    # the process would not go on.
    message = _refusal_of(venv, "StampedStale-v0")
    assert "stamped_stale_env 0.1" in message
    assert "built against envpool 0.0.2, but this is envpool " + envpool.__version__ in message


def test_a_library_built_with_other_headers_of_this_version_is_refused(
    venv: Venv, hand_made_packages: None
) -> None:
    out = venv.python_code(
        """
        import envpool
        try:
            envpool.make("Reheadered-v0")
        except ImportError as e:
            print(e)
        """,
        cwd=venv.root,
    )
    assert out.returncode == 0, out.stderr
    assert "digest 0123456789abcdef" in out.stdout
    assert f"this envpool {envpool.__version__}'s (digest " in out.stdout


def test_the_headers_say_this_version() -> None:
    include = Path(envpool.get_include()) / "envpool" / "core"
    assert f'#define ENVPOOL_VERSION "{envpool.__version__}"' in (include / "version.h").read_text()
    from envpool.core import _core

    assert _core.version == envpool.__version__
    build = (ROOT / "BUILD").read_text()
    assert f'VERSION = "{envpool.__version__}"' in build


@pytest.mark.parametrize("first", ["CartPole-v1", "ShadowCartPole-v0"])
def test_a_class_named_as_one_of_envpools_replaces_nothing(
    venv: Venv, hand_made_packages: None, first: str
) -> None:
    # Whichever loads first, each id makes its own env: the package's classes
    # are registered under its family.
    out = venv.python_code(
        f"""
        import envpool
        for task_id in ("{first}", "CartPole-v1", "ShadowCartPole-v0"):
            print(task_id, envpool.make(task_id).observation_space.shape)
        """,
        cwd=venv.root,
    )
    assert out.returncode == 0, out.stderr
    assert "CartPole-v1 (4,)" in out.stdout and "ShadowCartPole-v0 (1,)" in out.stdout
    assert "CartPole-v1 (1,)" not in out.stdout and "ShadowCartPole-v0 (4,)" not in out.stdout


def test_a_step_that_throws_reaches_the_caller_and_the_pool_goes_on(
    venv: Venv, hand_made_packages: None
) -> None:
    # What test_faults.py checks of an in-tree env, on the package's env.
    out = venv.python_code(
        """
        import numpy as np
        import envpool

        env = envpool.make("Faulty-v0", num_envs=2, batch_size=1, fail_at_step=2)
        env.async_reset()
        for _ in range(2):
            env.recv()
        action = np.zeros(1, np.int64)
        env.send(action, np.array([0]))
        env.recv()  # env 0's step 1
        env.send(action, np.array([0]))
        try:
            env.recv()
        except RuntimeError as e:
            print(e)
        # the other env, and env 0 itself, step on
        env.send(action, np.array([1]))
        *_, info = env.recv()
        assert info["env_id"][0] == 1 and info["elapsed_step"][0] == 1
        env.send(action, np.array([0]))
        *_, info = env.recv()
        assert info["env_id"][0] == 0 and info["elapsed_step"][0] == 2
        print("went on")
        """,
        cwd=venv.root,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [
        "Faulty-v0 env 0: the faulty env failed at step 2",
        "went on",
    ]


def _pip_install(venv: Venv, source: Path) -> None:
    out = venv.run(
        sys.executable,
        "-m",
        "pip",
        "--python",
        venv.python,
        "install",
        "-q",
        "--no-index",
        "--no-build-isolation",
        "--no-deps",
        str(source),
        cwd=source.parent,
    )
    assert out.returncode == 0, f"pip install of {source.name} failed:\n{out.stdout}{out.stderr}"


def test_the_package_of_the_docs_builds_and_passes_check_env(venv: Venv, tmp_path: Path) -> None:
    """docs/custom_envs.md's files, taken from the page in order, as a reader
    copies them: the page stays a recipe that works."""
    blocks = re.findall(r"```(\w+)\n(.*?)```", DOC.read_text(), re.S)
    cpp = [code for lang, code in blocks if lang == "cpp"]
    python = [code for lang, code in blocks if lang == "python"]
    toml = [code for lang, code in blocks if lang == "toml"]
    package = tmp_path / "my_env"
    (package / "my_env").mkdir(parents=True)
    (package / "my_env" / "__init__.py").write_text("")
    (package / "my_env" / "my_env.h").write_text(cpp[0])
    (package / "my_env" / "my_env.cc").write_text(cpp[1])
    (package / "my_env" / "registration.py").write_text(python[0])
    (package / "setup.py").write_text(python[1])
    (package / "pyproject.toml").write_text(toml[0])
    _pip_install(venv, package)
    out = venv.python_code(
        """
        import numpy as np
        import envpool
        from envpool.testing.conformance import check_env

        check_env("Walk-v0")
        env = envpool.make("Walk-v0", num_envs=3, step_penalty=[0.0, 0.01, 0.1])
        env.reset()
        _, reward, *_ = env.step(np.zeros(3, np.int64))
        print([round(float(r), 3) for r in reward])
        """,
        cwd=tmp_path,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[0.0, -0.01, -0.1]", out.stdout


def test_a_family_named_as_one_of_envpools_is_skipped_with_a_warning(
    venv: Venv, hand_made_packages: None
) -> None:
    info = venv.site / "clash-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: clash\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[envpool.families]\nbox2d = clash.registration\n")
    try:
        out = venv.python_code(
            """
            import warnings
            import envpool
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                envpool.make("CartPole-v1").reset()
            print([str(w.message) for w in caught])
            """,
            cwd=venv.root,
        )
    finally:
        shutil.rmtree(info)
    assert out.returncode == 0, out.stderr
    assert "'box2d'" in out.stdout and "rename its entry point" in out.stdout, out.stdout
