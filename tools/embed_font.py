"""Writes a C++ source holding a font file's bytes (build step of BUILD)."""

import sys


def main() -> None:
    """Reads argv[1], writes argv[2] defining kFreeSansBold and its size."""
    data = open(sys.argv[1], "rb").read()
    with open(sys.argv[2], "w") as out:
        out.write('#include <cstddef>\n\n#include "envpool/box2d/score_text.h"\n\n')
        out.write("namespace envpool::box2d {\n\nconst unsigned char kFreeSansBold[] = {\n")
        for i in range(0, len(data), 16):
            out.write(",".join(str(b) for b in data[i : i + 16]) + ",\n")
        out.write("};\n")
        out.write(
            f"const size_t kFreeSansBoldSize = {len(data)};\n\n}}  // namespace envpool::box2d\n"
        )


if __name__ == "__main__":
    main()
