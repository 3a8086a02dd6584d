"""The ABI guard: abidiff the freshly built library against the committed
baseline (abi/libtoggle.abi). Additions pass; a removed or changed function,
variable or public type fails, with abidiff's report.

abidiff's exit status is a bit set: 1 error, 2 usage error, 4 ABI change,
8 incompatible ABI change. 4 alone is also what mere additions give, so then
the change summary decides.

usage: check_abi.py BASELINE LIBRARY INCLUDE_DIR
Exit 77 (meson: skipped) when abidiff is not installed.
"""

import re
import shutil
import subprocess
import sys

# "Functions changes summary: 0 Removed, 1 Changed (2 filtered out), 0 Added ..."
# and "Function symbols changes summary: 0 Removed, 1 Added ... not referenced
# by debug info": the first number after "Removed"/"Changed" is what counts
# (harmless changes, such as a typedef renamed to the same type, are filtered).
SUMMARY = re.compile(r"changes summary:(.*)$", re.M)
COUNT = re.compile(r"(\d+) (Removed|Changed)")

HINT = ("Released API never changes: add a new function instead (docs/abi.md). Before "
        "the first release only, an intended change is accepted by regenerating the "
        "baseline: abi/update-baseline.sh, then commit abi/.")


def main(baseline, library, include):
    abidiff = shutil.which("abidiff")
    if abidiff is None:
        print("SKIP: abidiff not found (Debian: apt-get install abigail-tools)")
        return 77
    with open(library, "rb") as f:
        if b".debug_info" not in f.read():
            print("FAIL: %s has no debug info; abidiff would see no types. "
                  "lib/meson.build compiles the library with -g (docs/abi.md)." % library)
            return 1
    cmd = [abidiff, "--headers-dir2", include, "--drop-private-types",
           "--no-show-locs", baseline, library]
    print("$ " + " ".join(cmd))
    run = subprocess.run(cmd, capture_output=True, text=True)
    report = run.stdout + run.stderr
    print(report or "(no differences)")
    rc = run.returncode
    if rc == 0:
        print("ABI: identical to the baseline")
        return 0
    if rc & 3:
        print("FAIL: abidiff could not compare (exit %d)" % rc)
        return 1
    if rc & 8:
        print("FAIL: incompatible ABI change (abidiff exit %d)" % rc)
        print(HINT)
        return 1
    # rc == 4: an ABI change. Acceptable only if nothing was removed or changed.
    summaries = SUMMARY.findall(report)
    if not summaries:
        print("FAIL: ABI change and no summary to prove it is only additions")
        return 1
    broken = [int(n) for line in summaries for n, _ in COUNT.findall(line) if int(n)]
    if broken:
        print("FAIL: functions, variables or types were removed or changed (see above)")
        print(HINT)
        return 1
    print("ABI: additions only, compatible with the baseline")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
