# make demo  - install what is needed, build and install the wheel, run a demo
# make test  - the same set-up, then lint and every C++ and Python test
PYTHON ?= python3
BAZEL ?= bazel
DEB_PACKAGES = bazel-bootstrap bazel-rules-java libgtest-dev clang-format zlib1g-dev libegl-dev libegl1 libegl-mesa0 libgl1-mesa-dri
WHEEL_DIR = dist

.PHONY: setup build install demo test test-cc test-sanitizers test-py test-integrations lint format bench clean

setup:
	@missing=""; for p in $(DEB_PACKAGES); do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$missing; \
	fi
	$(PYTHON) -m pip install -q -r requirements-dev.txt

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

test-py: install
	$(PYTHON) -P -m pytest -q envpool

# Only the trainers' runs (test-py runs them too).
test-integrations: install
	$(PYTHON) -P -m pytest -q envpool/python/tests/integrations

test: install lint test-cc test-sanitizers test-py

# The published EnvPool 1.2.5 in its own virtual environment (both are named
# envpool), for the side-by-side benchmark.
benchmark/.venv-envpool125/bin/python:
	$(PYTHON) -m venv benchmark/.venv-envpool125
	benchmark/.venv-envpool125/bin/pip install -q envpool==1.2.5 numpy

bench: install benchmark/.venv-envpool125/bin/python
	$(PYTHON) -P benchmark/bench.py

clean:
	$(BAZEL) clean
	rm -rf $(WHEEL_DIR)
