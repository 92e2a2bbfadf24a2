"""Writes envpool's wheel from the files Bazel built.

Each input lands at its path relative to the workspace (generated files:
relative to Bazel's bin directory), so `envpool/core/_core.so` is installed
as `envpool/core/_core.so`.  A directory (a tree of data files) lands with
every file under it.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import os
import zipfile

REQUIRES = ["numpy>=1.24", "gymnasium>=1.0", "dm-env>=1.6"]
# The project's licence (its text: --license, written into the .dist-info);
# what the wheel bundles is under envpool/licenses/.
LICENSE = "Apache-2.0"


def wheel_path(path: str) -> str:
    marker = "/bin/"
    if path.startswith("bazel-out/") and marker in path:
        return path.split(marker, 1)[1]
    return path


def expand(paths: list[str]) -> list[str]:
    """The files of `paths`, with each directory replaced by the files under it."""
    files = []
    for path in paths:
        if os.path.isdir(path):
            for root, _, names in os.walk(path):
                files.extend(os.path.join(root, name) for name in names)
        else:
            files.append(path)
    return sorted(set(files))


def digest(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--version", required=True)
    parser.add_argument("--tag", required=True)
    parser.add_argument("--license", required=True, help="the project's LICENSE file")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()

    dist_info = f"envpool-{args.version}.dist-info"
    metadata = "\n".join(
        [
            "Metadata-Version: 2.1",
            "Name: envpool",
            f"Version: {args.version}",
            "Summary: Fast batched RL environments stepped in C++ threads",
            f"License: {LICENSE}",
            "Classifier: License :: OSI Approved :: Apache Software License",
            "Requires-Python: >=3.10",
            *[f"Requires-Dist: {r}" for r in REQUIRES],
            "",
        ]
    )
    wheel = "\n".join(
        [
            "Wheel-Version: 1.0",
            "Generator: envpool build_wheel",
            "Root-Is-Purelib: false",
            f"Tag: {args.tag}",
            "",
        ]
    )
    records = []
    with zipfile.ZipFile(args.out, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for path in expand(args.files):
            with open(path, "rb") as f:
                data = f.read()
            name = wheel_path(path)
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.external_attr = (0o755 if name.endswith(".so") else 0o644) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, data)
            records.append(f"{name},{digest(data)},{len(data)}")
        with open(args.license) as f:
            license_text = f.read()
        for name, text in (("METADATA", metadata), ("WHEEL", wheel), ("LICENSE", license_text)):
            data = text.encode()
            full = f"{dist_info}/{name}"
            info = zipfile.ZipInfo(full, date_time=(2020, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            zf.writestr(info, data)
            records.append(f"{full},{digest(data)},{len(data)}")
        records.append(f"{dist_info}/RECORD,,")
        info = zipfile.ZipInfo(f"{dist_info}/RECORD", date_time=(2020, 1, 1, 0, 0, 0))
        info.external_attr = 0o644 << 16
        zf.writestr(info, "\n".join(records) + "\n")


if __name__ == "__main__":
    main()
