#!/usr/bin/env bash
# The one command for the 16-core GPU machine (Python 3.12, no network), run
# in the repository's root with the kit of `make many-cores-kit` in .kit/
# (benchmark/results/many_cores/README.md says how to start it):
#
#   bash benchmark/many_cores_device.sh                 # every part, results to $OUT
#   bash benchmark/many_cores_device.sh --parts 1 3     # more options go to many_cores.py
#
# It installs the kit into /tmp/site, then runs benchmark/many_cores.py with
# per-part budgets that add up to about 8 minutes (part 3 first: part 4 uses
# the GPU only where part 3 found env.xla() equal there), stopping it at
# 9 minutes whatever happens. Results, and this script's log, go to $OUT
# (default benchmark/results/many_cores): six files.
set -u -o pipefail
OUT=${OUT:-benchmark/results/many_cores}
PYTHON=${PYTHON:-python3}
SITE=${SITE:-/tmp/site}
mkdir -p "$OUT"

run() {
  echo "== $(date -u) on $(nproc) cores; kit: $(ls .kit/*.whl 2>/dev/null | wc -l) wheels"
  "$PYTHON" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target "$SITE" .kit/*.whl || { echo "installing the kit failed (make many-cores-kit)"; return 1; }
  export PYTHONPATH="$SITE${PYTHONPATH:+:$PYTHONPATH}" PYTHONUNBUFFERED=1
  "$PYTHON" -P -c 'import envpool, gymnasium, mujoco, ale_py, numpy, jax
print("envpool", envpool.__file__, "numpy", numpy.__version__, "jax", jax.__version__,
      "default backend", jax.default_backend())' || return 1
  timeout -k 10 540 "$PYTHON" -P benchmark/many_cores.py --out "$OUT" --parts 3 1 2 4 \
    --budget 1=225 2=75 3=45 4=150 "$@"
  local status=$?
  echo "== many_cores.py exited $status at $(date -u)"
  ls -la "$OUT"
  return $status
}

run "$@" 2>&1 | tee "$OUT/log.txt"
