"""Run a Python script under valgrind and fail on any memory error, on any
definite or indirect leak, and on any leak at all (possible ones included)
whose allocation stack passes through libtoggle, FLINT or GMP. Python's
own "possibly lost" blocks at exit (interned objects) are not ours.

usage: python3 run_valgrind.py VALGRIND SCRIPT [args...]
The environment (TOGGLE_LIBRARY, PYTHONPATH) is passed through."""

import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

OURS = ("libtoggle", "libflint", "libgmp")


def main():
    valgrind, script = sys.argv[1:3]
    fd, xml_path = tempfile.mkstemp(prefix="toggle-vg-", suffix=".xml")
    os.close(fd)
    env = dict(os.environ, PYTHONMALLOC="malloc", PYTHONDONTWRITEBYTECODE="1")
    cmd = [valgrind, "--leak-check=full", "--errors-for-leak-kinds=definite,indirect",
           "--error-exitcode=9", "--xml=yes", "--xml-file=" + xml_path,
           sys.executable, script] + sys.argv[3:]
    print("+ " + " ".join(cmd), flush=True)
    try:
        rc = subprocess.run(cmd, env=env).returncode
        root = ET.parse(xml_path).getroot()
    finally:
        os.unlink(xml_path)
    bad = []
    for err in root.iter("error"):
        kind = err.findtext("kind", "")
        objs = [f.findtext("obj", "") + ":" + f.findtext("fn", "?") for f in err.iter("frame")]
        ours = any(any(o in f for o in OURS) for f in objs)
        if kind != "Leak_PossiblyLost" or ours:
            text = err.findtext("xwhat/text") or err.findtext("what") or kind
            bad.append("%s: %s\n    %s" % (kind, text, "\n    ".join(objs[:12])))
    counts = {}
    for err in root.iter("error"):
        counts[err.findtext("kind")] = counts.get(err.findtext("kind"), 0) + 1
    print("valgrind: exit %d; reports by kind: %s" % (rc, counts or "none"))
    for b in bad:
        print(b)
    if rc != 0 or bad:
        print("FAIL: %d report(s) of memory errors or leaks of ours" % len(bad))
        return 1
    print("OK: no memory error, no leak through libtoggle, FLINT or GMP")
    return 0


if __name__ == "__main__":
    sys.exit(main())
