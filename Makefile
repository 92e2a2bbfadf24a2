# make demo  - install what is needed, build and install the wheel, run a demo
# make test  - the same set-up, then lint and every C++ and Python test
PYTHON ?= python3
BAZEL ?= bazel
DEB_PACKAGES = bazel-bootstrap bazel-rules-java libgtest-dev clang-format zlib1g-dev \
  libegl-dev libegl1 libegl-mesa0 libgl1-mesa-dri \
  libboost-dev libboost-filesystem-dev libboost-thread-dev libboost-system-dev libboost-chrono-dev
WHEEL_DIR = dist
# Installed without their dependencies (see setup).
NO_DEPS_PACKAGES = minigrid==3.2.0

.PHONY: setup build install demo test test-cc test-sanitizers test-py test-integrations lint format bench bench-setup clean procgen-reference

setup:
	@missing=""; for p in $(DEB_PACKAGES); do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$missing; \
	fi
	$(PYTHON) -m pip install -q -r requirements-dev.txt
	@# minigrid asks for pygame-ce, which installs over pygame (both are
	@# `import pygame`); gymnasium draws with pygame, and classic_control's
	@# frames are tested against pygame's. minigrid's tests draw nothing, so
	@# it comes without its dependencies and pygame stays.
	$(PYTHON) -m pip install -q --no-deps $(NO_DEPS_PACKAGES)
	@if $(PYTHON) -m pip show -q pygame-ce >/dev/null 2>&1; then \
	  $(PYTHON) -m pip uninstall -q -y pygame-ce && \
	  $(PYTHON) -m pip install -q --no-deps --force-reinstall $$(grep '^pygame==' requirements-dev.txt | cut -d' ' -f1); \
	fi

build: setup
	PYTHON_BIN_PATH=$$($(PYTHON) -c 'import sys; print(sys.executable)') $(BAZEL) build //:wheel
	mkdir -p $(WHEEL_DIR)
	rm -f $(WHEEL_DIR)/envpool-*.whl
	cp -f $$($(BAZEL) info bazel-bin)/envpool-*.whl $(WHEEL_DIR)/
	chmod u+w $(WHEEL_DIR)/envpool-*.whl

install: build
	$(PYTHON) -m pip install -q --no-deps --force-reinstall $(WHEEL_DIR)/envpool-*.whl

demo: install
	$(PYTHON) -P benchmark/demo.py

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
	$(BAZEL) test --config=tsan //envpool/core:pool_test
	$(BAZEL) test --config=asan //envpool/core:pool_test

test-py: install procgen-reference
	$(PYTHON) -P -m pytest -q envpool

# Only the trainers' runs (test-py runs them too).
test-integrations: install
	$(PYTHON) -P -m pytest -q envpool/python/tests/integrations

test: install lint test-cc test-sanitizers test-py

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

# The published EnvPool 1.2.5 in its own virtual environment (both are named
# envpool), for the side-by-side benchmark.
benchmark/.venv-envpool125/bin/python:
	$(PYTHON) -m venv benchmark/.venv-envpool125
	benchmark/.venv-envpool125/bin/pip install -q envpool==1.2.5 numpy

# EnvPool 1.2.5's procgen loads the system Qt 5 runtime at import.
BENCH_DEB_PACKAGES = libqt5gui5
bench-setup: benchmark/.venv-envpool125/bin/python
	@missing=""; for p in $(BENCH_DEB_PACKAGES); do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$missing; \
	fi

bench: install bench-setup
	$(PYTHON) -P benchmark/bench.py

clean:
	$(BAZEL) clean
	rm -rf $(WHEEL_DIR)
