# make demo  - install what the demo needs, build and install the core and its
#              family (classic_control), run a demo; a few minutes on a fresh machine
# make test  - the whole set-up, build and install every family, then lint and
#              every C++ and Python test
PYTHON ?= python3
BAZEL ?= bazel
# What building the core and classic_control needs (make demo).
DEMO_DEB_PACKAGES = bazel-bootstrap bazel-rules-java zlib1g-dev
DEB_PACKAGES = $(DEMO_DEB_PACKAGES) libgtest-dev clang-format libfreetype-dev \
  libegl-dev libegl1 libegl-mesa0 libgl1-mesa-dri xvfb x11-utils \
  libboost-dev libboost-filesystem-dev libboost-thread-dev libboost-system-dev libboost-chrono-dev
WHEEL_DIR = dist
DEMO_WHEEL_DIR = dist-demo

# $(call ENSURE_DEB,packages): apt-get install those of the Debian packages not installed.
ENSURE_DEB = missing=""; for p in $(1); do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$missing; \
	fi

.PHONY: setup-demo setup build wheels test-wheels install demo test test-cc test-sanitizers test-py test-all-ids test-integrations lint format bench bench-setup bench127 bench-highway bench-locomotion bench-robotics bench-metaworld bench-metaworld-mt10 bench-pgx bench-new-families clean procgen-reference rllib-env bench-rllib acme-env bench-acme many-cores-kit

setup-demo:
	@$(call ENSURE_DEB,$(DEMO_DEB_PACKAGES))
	$(PYTHON) -m pip install -q -r requirements-demo.txt

setup:
	@$(call ENSURE_DEB,$(DEB_PACKAGES))
	$(PYTHON) -m pip install -q -r requirements-dev.txt
	@# requirements-nodeps.txt says why these come without their dependencies;
	@# a pygame-ce left by an earlier set-up makes way for pygame.
	$(PYTHON) -m pip install -q --no-deps -r requirements-nodeps.txt
	@if $(PYTHON) -m pip show -q pygame-ce >/dev/null 2>&1; then \
	  $(PYTHON) -m pip uninstall -q -y pygame-ce && \
	  $(PYTHON) -m pip install -q --no-deps --force-reinstall $$(grep '^pygame==' requirements-dev.txt | cut -d' ' -f1); \
	fi

# The wheel for $(PYTHON) (`make build PYTHON=/path/to/python3.12`: any
# CPython 3.10-3.13; it needs no package installed, the XLA FFI headers come
# from $(PYTHON)'s jaxlib), alone in $(WHEEL_DIR).
build: setup
	$(PYTHON) tools/build_wheels.py --out $(WHEEL_DIR) --bazel $(BAZEL) \
	  $$($(PYTHON) -c 'import sys; print(sys.executable)')

# One wheel per CPython 3.10-3.13 found (pyenv's, else python3.1x on PATH),
# or per interpreter in WHEEL_PYTHONS, all in $(WHEEL_DIR). Only the native
# Python modules are rebuilt per version (docs/build.md).
WHEEL_PYTHONS ?=
wheels: setup
	$(PYTHON) tools/build_wheels.py --out $(WHEEL_DIR) --bazel $(BAZEL) $(WHEEL_PYTHONS)

install: build
	$(PYTHON) -m pip install -q --no-deps --force-reinstall $(WHEEL_DIR)/envpool-*.whl

# The demo needs the core and classic_control only: they build in about a
# minute on 2 cores (every family: about 8). That wheel goes into a venv of
# its own (.venv-demo, seeing $(PYTHON)'s packages), so an install of every
# family (make install) is never replaced by it.
DEMO_PYTHON = .venv-demo/bin/python
demo: setup-demo
	@echo "== building the core and classic_control, the demo's family (about a minute on 2 cores; make install builds every family)"
	$(PYTHON) tools/build_wheels.py --target //:demo_wheel --out $(DEMO_WHEEL_DIR) --bazel $(BAZEL) \
	  $$($(PYTHON) -c 'import sys; print(sys.executable)')
	@[ -x $(DEMO_PYTHON) ] || $(PYTHON) -m venv --system-site-packages .venv-demo
	$(DEMO_PYTHON) -m pip install -q --no-deps --force-reinstall $(DEMO_WHEEL_DIR)/envpool-*.whl
	$(DEMO_PYTHON) -P benchmark/demo.py
	@echo "== the demo ran .venv-demo's envpool (the core and classic_control); make install builds and installs every family"

lint: setup
	$(PYTHON) -m ruff check .
	$(PYTHON) -m ruff format --check .
	clang-format --dry-run -Werror $$(git ls-files '*.h' '*.cc')

format: setup
	$(PYTHON) -m ruff format .
	$(PYTHON) -m ruff check --fix .
	clang-format -i $$(git ls-files '*.h' '*.cc')

test-cc: setup
	$(BAZEL) test //...

# The engine's concurrency tests under ThreadSanitizer and AddressSanitizer.
test-sanitizers: setup
	$(BAZEL) test --config=tsan //envpool/core:pool_test //envpool/core:scheduler_test
	$(BAZEL) test --config=asan //envpool/core:pool_test //envpool/core:scheduler_test

test-py: install procgen-reference rllib-env
	$(PYTHON) -P -m pytest -q envpool

# Every id in the whole-id tests (make test samples the large families:
# envpool/testing/sampling.py), and every family's long sweeps.
test-all-ids: install procgen-reference rllib-env
	ENVPOOL_TEST_ALL=1 ENVPOOL_SNAPSHOT_SWEEP=all $(PYTHON) -P -m pytest -q envpool

# Only the trainers' runs (test-py runs them too).
test-integrations: install rllib-env
	$(PYTHON) -P -m pytest -q envpool/python/tests/integrations

# Every wheel but $(PYTHON)'s, in a fresh venv of its Python: one id of each
# family made and stepped (tools/smoke_test.py).
test-wheels: wheels
	$(PYTHON) tools/smoke_test.py --wheels $(WHEEL_DIR) --skip-python $(PYTHON)

test: install lint test-cc test-sanitizers test-py test-wheels

# procgen 0.10.7, the procgen family's reference, installs only on Python
# <= 3.10: its own virtual environment, made when such a Python exists
# (pyenv's 3.10 by default); the alignment tests skip without it.
PYTHON310 ?= $(firstword $(wildcard $(HOME)/.pyenv/versions/3.10.*/bin/python) $(shell command -v python3.10))
benchmark/.venv-procgen310/bin/python:
	$(PYTHON310) -m venv benchmark/.venv-procgen310
	benchmark/.venv-procgen310/bin/pip install -q procgen==0.10.7 "numpy<2"

procgen-reference:
	@if [ -n "$(PYTHON310)" ]; then $(MAKE) benchmark/.venv-procgen310/bin/python; \
	else echo "no Python 3.10: the procgen alignment tests will skip"; fi

# RLlib (ray[rllib] 2.60.0 pins gymnasium 1.2.2): its own virtual
# environment, seeing $(PYTHON)'s packages (torch), with this project's wheel
# for $(PYTHON) installed into it; the RLlib tests and benchmark run there.
# Its copy of requirements-rllib.txt marks a finished install (and redoes it
# when the pins change).
RLLIB_PYTHON = benchmark/.venv-rllib/bin/python
benchmark/.venv-rllib/requirements-rllib.txt: requirements-rllib.txt
	$(PYTHON) -m venv --system-site-packages benchmark/.venv-rllib
	$(RLLIB_PYTHON) -m pip install -q -r requirements-rllib.txt
	cp requirements-rllib.txt $@

rllib-env: install benchmark/.venv-rllib/requirements-rllib.txt
	$(RLLIB_PYTHON) -m pip install -q --no-deps --force-reinstall --ignore-installed $(WHEEL_DIR)/envpool-*.whl

# RLlib's sampling throughput with envpool, SyncVectorEnv and AsyncVectorEnv,
# the learning curves, and the Ray actor hop (docs/ray.md).
bench-rllib: rllib-env
	$(RLLIB_PYTHON) -P benchmark/rllib_bench.py --out-dir benchmark/results/rllib

# ACME (dm-acme 0.4.0 and the tensorflow its launchpad links, requirements-acme.txt
# says why) on Python 3.10, with this project's 3.10 wheel: acme's own
# EnvironmentLoop on the dm type (benchmark/acme_loop.py; about 1.5 GB, so
# not part of `make test`).
ACME_PYTHON = benchmark/.venv-acme310/bin/python
benchmark/.venv-acme310/requirements-acme.txt: requirements-acme.txt
	$(PYTHON310) -m venv benchmark/.venv-acme310
	$(ACME_PYTHON) -m pip install -q -r requirements-acme.txt
	cp requirements-acme.txt $@

acme-env: setup benchmark/.venv-acme310/requirements-acme.txt
	$(PYTHON) tools/build_wheels.py --out benchmark/.venv-acme310/dist --bazel $(BAZEL) $(PYTHON310)
	$(ACME_PYTHON) -m pip install -q --no-deps --force-reinstall benchmark/.venv-acme310/dist/envpool-*.whl

bench-acme: acme-env
	@mkdir -p benchmark/results/acme
	$(ACME_PYTHON) benchmark/acme_loop.py --out benchmark/results/acme/acme_loop.json

# The published EnvPool 1.2.5 in its own virtual environment (both are named
# envpool), for the side-by-side benchmark.
benchmark/.venv-envpool125/bin/python:
	$(PYTHON) -m venv benchmark/.venv-envpool125
	benchmark/.venv-envpool125/bin/pip install -q envpool==1.2.5 numpy

# EnvPool 1.2.5's procgen loads the system Qt 5 runtime at import.
BENCH_DEB_PACKAGES = libqt5gui5
bench-setup: benchmark/.venv-envpool125/bin/python
	@$(call ENSURE_DEB,$(BENCH_DEB_PACKAGES))

bench: install bench-setup
	$(PYTHON) -P benchmark/bench.py

# EnvPool 1.2.7 (its wheels start at Python 3.12) against this project's
# 3.12 wheel, both on the same Python 3.12: each in its own venv.
PYTHON312 ?= $(firstword $(wildcard $(HOME)/.pyenv/versions/3.12.*/bin/python3.12) $(shell command -v python3.12))
benchmark/.venv-envpool127/bin/python:
	$(PYTHON312) -m venv benchmark/.venv-envpool127
	benchmark/.venv-envpool127/bin/pip install -q envpool==1.2.7 numpy

# This project's 3.12 wheel with what the benchmark and its references need.
benchmark/.venv-py312/bin/python:
	$(PYTHON312) -m venv benchmark/.venv-py312
	benchmark/.venv-py312/bin/pip install -q $$($(PYTHON) tools/smoke_test.py --pins gymnasium dm-env ale-py \
	  mujoco opencv-python-headless imageio matplotlib)

BENCH127_TASKS = CartPole-v1 Pong-v5 Ant-v5
bench127: wheels benchmark/.venv-envpool127/bin/python benchmark/.venv-py312/bin/python
	benchmark/.venv-py312/bin/pip install -q --no-deps --force-reinstall \
	  $(WHEEL_DIR)/envpool-*-cp312-*.whl
	for task in $(BENCH127_TASKS); do \
	  benchmark/.venv-py312/bin/python -P benchmark/bench.py --task $$task --repeats 3 \
	    --backends envpool_sync envpool_async envpool127_sync envpool127_async \
	    --num-envs 1 8 --import-runs 3 --out-dir benchmark/results/envpool127 || exit 1; done

# The families after the first nine against their references and EnvPool
# 1.2.7 (benchmark/results/<family>/README.md). BENCH_NEW_PYTHON holds this
# project's wheel and the references (highway-env, dm-control,
# gymnasium-robotics, metaworld, pgx and jax); BENCH_NEW_ARGS are short runs
# for a shared machine (3 repeats of 0.5 s), lengthen them on a quiet one.
BENCH_NEW_PYTHON ?= $(PYTHON)
BENCH_NEW_ARGS ?= --repeats 3 --seconds 0.5 --import-runs 1 --paired-runs 0 \
  --note 'measured on a shared 2-core machine (other builds and tests running beside it)'
BENCH_VECTOR = loop gym_sync gym_async envpool_sync envpool_async envpool127_sync envpool127_async
BENCH_ROBOTICS_TASKS = FetchPickAndPlace-v4 HandManipulateBlock-v1 AdroitHandDoor-v1
bench-highway: benchmark/.venv-envpool127/bin/python
	$(BENCH_NEW_PYTHON) -P benchmark/bench.py --task IntersectionMultiAgent-v1 --num-envs 1 8 64 \
	  --backends $(BENCH_VECTOR) $(BENCH_NEW_ARGS) --worker-timeout 600 \
	  --out-dir benchmark/results/highway
bench-locomotion: benchmark/.venv-envpool127/bin/python
	$(BENCH_NEW_PYTHON) -P benchmark/bench.py --task DmcSoccerBoxhead-v1 --num-envs 1 2 8 16 \
	  --backends loop envpool_sync envpool_async envpool127_sync envpool127_async \
	  $(BENCH_NEW_ARGS) --out-dir benchmark/results/locomotion
bench-robotics: benchmark/.venv-envpool127/bin/python
	for task in $(BENCH_ROBOTICS_TASKS); do \
	  $(BENCH_NEW_PYTHON) -P benchmark/bench.py --task $$task --num-envs 1 2 8 16 \
	    --backends $(BENCH_VECTOR) $(BENCH_NEW_ARGS) --worker-timeout 300 \
	    --out-dir benchmark/results/robotics || exit 1; done
bench-metaworld: benchmark/.venv-envpool127/bin/python
	$(BENCH_NEW_PYTHON) -P benchmark/bench.py --task MetaWorld/PickPlace-v3 --num-envs 1 2 8 16 \
	  --backends $(BENCH_VECTOR) $(BENCH_NEW_ARGS) --worker-timeout 300 \
	  --out-dir benchmark/results/metaworld
# An MT10 pool (env i plays class i % 10; benchmark/results/metaworld/README.md).
bench-metaworld-mt10: benchmark/.venv-envpool127/bin/python
	$(BENCH_NEW_PYTHON) -P benchmark/bench.py --task MetaWorld/MT10 --num-envs 1 2 8 16 \
	  --backends $(BENCH_VECTOR) $(BENCH_NEW_ARGS) --worker-timeout 300 \
	  --out-dir benchmark/results/metaworld
bench-pgx: benchmark/.venv-envpool127/bin/python
	$(BENCH_NEW_PYTHON) -P benchmark/pgx_bench.py --repeats 3 --seconds 0.5 \
	  --note 'measured on a shared 2-core machine (other builds and tests running beside it)'
bench-new-families: bench-highway bench-locomotion bench-robotics bench-metaworld bench-pgx

# What benchmark/many_cores_device.sh installs on the 16-core GPU machine,
# which has Python 3.12 and no network (benchmark/results/many_cores/README.md):
# this project's cp312 wheel of the families the script steps
# (//:many_cores_wheel) and the reference wheels that machine lacks, in
# $(KIT_DIR), under 55 MiB (benchmark/many_cores_kit.py prints the sizes).
KIT_DIR = .kit
MANY_CORES_WHEEL_DIR = dist-many
many-cores-kit:
	@[ -n "$(PYTHON312)" ] || { echo "many-cores-kit needs a Python 3.12 (PYTHON312=...)"; exit 1; }
	$(PYTHON) tools/build_wheels.py --target //:many_cores_wheel --out $(MANY_CORES_WHEEL_DIR) \
	  --bazel $(BAZEL) $(PYTHON312)
	$(PYTHON) benchmark/many_cores_kit.py --out $(KIT_DIR) \
	  --wheel $$(ls $(MANY_CORES_WHEEL_DIR)/envpool-*-cp312-*.whl)

clean:
	$(BAZEL) clean
	rm -rf $(WHEEL_DIR) $(DEMO_WHEEL_DIR) .venv-demo $(MANY_CORES_WHEEL_DIR) $(KIT_DIR)
