#!/usr/bin/env python3
"""Build libtoggle for the browser: clang --target=wasm32-wasi over the
library's FLINT-free sources (the dense engine and lib/engine/noflint serve
primes), one reactor module exporting the public API, malloc and free.
Run by the build (tools/web/meson.build), never by hand:

    build_wasm.py --probe CLANG                 exit 0 if CLANG can build one
    build_wasm.py CLANG OUT.wasm -I DIR... SOURCE.c...

The module imports a handful of wasi_snapshot_preview1 functions (file
descriptors, proc_exit) that the library never calls on its paths; the
JavaScript shim (gallery/toggle.js) answers them with errors."""
import os
import subprocess
import sys
import tempfile

FLAGS = ["--target=wasm32-wasi", "-O2", "-std=c11", "-DTOGGLE_BUILDING", "-fvisibility=hidden",
         "-Wno-tautological-constant-out-of-range-compare"]
LINK = ["-mexec-model=reactor", "-Wl,--export-dynamic", "-Wl,--export=malloc",
        "-Wl,--export=free", "-Wl,-z,stack-size=1048576", "-Wl,--strip-debug"]


def probe(clang):
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "p.c")
        with open(src, "w") as f:
            f.write("#include <stdint.h>\n#include <stdlib.h>\n"
                    "__attribute__((visibility(\"default\"))) unsigned __int128 f(unsigned "
                    "__int128 a, unsigned __int128 b) { return a / b; }\n"
                    "uintptr_t __stack_chk_guard; void __stack_chk_fail(void) { abort(); }\n")
        r = subprocess.run([clang] + FLAGS + LINK + ["-o", os.path.join(d, "p.wasm"), src],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return r.returncode


def main(argv):
    if len(argv) == 3 and argv[1] == "--probe":
        return probe(argv[2])
    if len(argv) < 4:
        sys.exit(__doc__.strip())
    clang, out, rest = argv[1], argv[2], argv[3:]
    incs, srcs = [], []
    it = iter(rest)
    for a in it:
        if a == "-I":
            incs += ["-I", next(it)]
        else:
            srcs.append(a)
    cmd = [clang] + FLAGS + incs + LINK + ["-o", out] + srcs
    return subprocess.run(cmd).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv))
