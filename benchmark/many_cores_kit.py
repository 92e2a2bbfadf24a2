"""Makes the kit benchmark/many_cores_device.sh installs on a machine with no network.

    python3 benchmark/many_cores_kit.py --wheel dist-many/envpool-*-cp312-*.whl --out .kit
    python3 benchmark/many_cores_kit.py --wheel ... --out .kit --dry-run   # the plan only

The device machine (x86-64, Python 3.12, numpy, jax, flax and optax
installed) receives the working tree and at most 64 MiB in all, so the kit
holds at most KIT_LIMIT_MIB: this project's cp312 wheel (`make
many-cores-kit` builds //:many_cores_wheel, the families the script steps)
and the reference wheels the device lacks (REFERENCE_WHEELS), fetched with
`pip download` for CPython 3.12 on manylinux x86-64. mujoco's wheel (about
25 MiB) is trimmed of `mujoco/experimental/` (its studio, viewers and web
client, about 15 MiB, which neither this project nor gymnasium's MuJoCo
envs import), leaving its library and Python bindings.

What cannot travel (NOT_CARRIED) is printed, with why.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

KIT_LIMIT_MIB = 55.0

REFERENCE_WHEELS = (
    "gymnasium==1.4.0",
    "farama-notifications==0.0.6",
    "ale-py==0.11.2",
    "mujoco==3.17.0",
    "glfw==2.11.0",
    "dm-env==1.6",
    "dm-tree==0.1.10",
)
"""What this project's wheel and the reference backends need that the device
lacks (its image holds numpy, cloudpickle, typing-extensions, absl-py,
opencv-python-headless, jax, flax, optax, matplotlib); glfw because
gymnasium's MuJoCo envs import it. mujoco's own requirements pyopengl and
websockets are left out: neither is imported to make and step an env
without rendering (checked with a Python 3.12 holding neither). The
versions are the ones this project pins or tests with."""

TRIMMED = {"mujoco": ("mujoco/experimental/",)}
"""Folders left out of a reference wheel, by project name."""

NOT_CARRIED = {
    "EnvPool 1.2.5": "its cp312 wheel is about 50 MiB and it requires envpool-assets "
    "(about 60 MiB): with this project's wheel that is over the limit",
    "procgen (ProcgenGym3Env)": "procgen 0.10.7, the last release, has wheels up to "
    "CPython 3.10 only; the device has 3.12",
}

PLATFORMS = (
    "manylinux_2_35_x86_64",
    "manylinux_2_34_x86_64",
    "manylinux_2_31_x86_64",
    "manylinux_2_28_x86_64",
    "manylinux_2_27_x86_64",
    "manylinux_2_24_x86_64",
    "manylinux_2_17_x86_64",
    "manylinux2014_x86_64",
    "manylinux1_x86_64",
)


def download_command(requirement: str, dest: Path) -> list[str]:
    """The `pip download` of one cp312 manylinux x86-64 wheel, without its dependencies."""
    cmd = [sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:"]
    cmd += ["--python-version", "3.12", "--implementation", "cp", "-d", str(dest)]
    for platform in PLATFORMS:
        cmd += ["--platform", platform]
    return [*cmd, requirement]


def record_hash(data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
    return f"sha256={digest.decode()}"


def trim_wheel(source: Path, target: Path, prefixes: tuple[str, ...]) -> int:
    """Copy the wheel `source` to `target` without the files under `prefixes`.

    The RECORD is rewritten to list what is left. Returns how many files
    were left out.
    """
    dropped = 0
    with zipfile.ZipFile(source) as src, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as dst:
        record_name = next(n for n in src.namelist() if n.endswith(".dist-info/RECORD"))
        rows = []
        for info in src.infolist():
            if info.filename.startswith(prefixes):
                dropped += 1
                continue
            if info.filename == record_name:
                continue
            data = src.read(info)
            dst.writestr(info, data)
            if not info.is_dir():
                rows.append(f"{info.filename},{record_hash(data)},{len(data)}")
        rows.append(f"{record_name},,")
        dst.writestr(record_name, "\n".join(rows) + "\n")
    return dropped


def project_name(wheel: Path) -> str:
    """`ale_py` for ale_py-0.11.2-cp312-....whl, as a requirement names it."""
    return wheel.name.split("-", 1)[0].lower().replace("_", "-")


def kit_size_mib(out: Path) -> float:
    return sum(p.stat().st_size for p in out.glob("*.whl")) / 2**20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wheel", type=Path, required=True, help="this project's cp312 wheel")
    parser.add_argument("--out", type=Path, default=Path(".kit"))
    parser.add_argument(
        "--cache",
        type=Path,
        default=Path(".kit-downloads"),
        help="where downloads are kept (outside --out, which travels whole)",
    )
    parser.add_argument("--dry-run", action="store_true", help="print the plan, fetch nothing")
    args = parser.parse_args()
    cache = args.cache
    if "cp312" not in args.wheel.name:
        sys.exit(
            f"{args.wheel} is not a cp312 wheel: build it with Python 3.12 (make many-cores-kit)"
        )
    commands = [download_command(r, cache) for r in REFERENCE_WHEELS]
    if args.dry_run:
        print(f"copy {args.wheel} -> {args.out}/")
        for cmd in commands:
            print(" ".join(cmd))
        for name, prefixes in TRIMMED.items():
            print(f"trim {name}: leave out {', '.join(prefixes)}")
        print(f"limit {KIT_LIMIT_MIB:g} MiB")
        return
    args.out.mkdir(parents=True, exist_ok=True)
    cache.mkdir(parents=True, exist_ok=True)
    for old in args.out.glob("*.whl"):
        old.unlink()
    shutil.copyfile(args.wheel, args.out / args.wheel.name)
    for requirement, cmd in zip(REFERENCE_WHEELS, commands, strict=True):
        name = requirement.split("==")[0]
        if not any(project_name(w) == name for w in cache.glob("*.whl")):
            subprocess.run(cmd, check=True)
        wheel = next(w for w in cache.glob("*.whl") if project_name(w) == name)
        if name in TRIMMED:
            dropped = trim_wheel(wheel, args.out / wheel.name, TRIMMED[name])
            print(f"{wheel.name}: {dropped} files under {', '.join(TRIMMED[name])} left out")
        else:
            shutil.copyfile(wheel, args.out / wheel.name)
    for wheel in sorted(args.out.glob("*.whl")):
        print(f"{wheel.stat().st_size / 2**20:7.2f} MiB  {wheel.name}")
    size = kit_size_mib(args.out)
    print(f"kit: {size:.1f} MiB in {args.out}/*.whl (limit {KIT_LIMIT_MIB:g} MiB)")
    for name, why in NOT_CARRIED.items():
        print(f"not carried: {name}: {why}")
    if size > KIT_LIMIT_MIB:
        sys.exit(f"the kit is {size:.1f} MiB, over {KIT_LIMIT_MIB:g} MiB: carry fewer wheels")


if __name__ == "__main__":
    main()
