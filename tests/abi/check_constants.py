"""The values of the public constants (enum members and numeric #defines of
include/) against abi/constants.txt: a value is part of the ABI, so a changed
or removed constant fails; a new one passes. TOGGLE_VERSION_* are exempt.

usage: check_constants.py BASELINE INCLUDE_DIR CC        (check)
       check_constants.py --write BASELINE INCLUDE_DIR CC (regenerate)
"""

import glob
import os
import re
import subprocess
import sys
import tempfile

ENUM = re.compile(r"^\s*(TOGGLE_[A-Z0-9_]+)\s*=", re.M)
DEFINE = re.compile(r"^#define\s+(TOGGLE_[A-Z0-9_]+)\s+\S", re.M)
EXEMPT = re.compile(r"^TOGGLE_(API|DEPRECATED|VERSION_\w+)$|_H$")


def names(include):
    found = []
    for path in [os.path.join(include, "toggle.h")] + sorted(glob.glob(os.path.join(include, "toggle", "*.h"))):
        text = open(path).read()
        for name in ENUM.findall(text) + DEFINE.findall(text):
            if not EXEMPT.search(name) and name not in found:
                found.append(name)
    return found


def values(include, cc):
    found = names(include)
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "c.c")
        with open(src, "w") as f:
            f.write("#include <stdio.h>\n#include <toggle.h>\nint main(void) {\n")
            for n in found:
                f.write('    printf("%%s %%lld\\n", "%s", (long long)(%s));\n' % (n, n))
            f.write("    return 0;\n}\n")
        exe = os.path.join(tmp, "c")
        subprocess.run([cc, "-std=c11", "-I", include, src, "-o", exe], check=True)
        out = subprocess.run([exe], check=True, capture_output=True, text=True).stdout
    return dict(line.split() for line in out.splitlines())


def main(argv):
    write = argv[:1] == ["--write"]
    if write:
        argv = argv[1:]
    baseline, include, cc = argv
    now = values(include, cc)
    if write:
        with open(baseline, "w") as f:
            for name in sorted(now):
                f.write("%s %s\n" % (name, now[name]))
        return 0
    base = dict(line.split() for line in open(baseline) if line.strip())
    bad = 0
    for name in sorted(base):
        if name not in now:
            print("REMOVED constant %s (was %s)" % (name, base[name]))
            bad = 1
        elif now[name] != base[name]:
            print("CHANGED constant %s: %s -> %s" % (name, base[name], now[name]))
            bad = 1
    added = sorted(set(now) - set(base))
    for name in added:
        print("added constant %s = %s" % (name, now[name]))
    print("%d constants checked, %d added: %s" % (len(base), len(added), "FAIL" if bad else "ok"))
    return bad


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
