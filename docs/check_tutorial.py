#!/usr/bin/env python3
"""meson test (suite docs): every code block in a Markdown page that follows a
marker line <!-- file: PATH --> (PATH relative to the page) must be the file's
text verbatim, so the manual shows exactly the programs the test suite runs.
usage: check_tutorial.py PAGE.md [PAGE.md ...]"""
import os
import re
import sys

MARK = re.compile(r"^<!-- file: (\S+) -->\s*$")


def check(page):
    errors, seen = [], 0
    with open(page, encoding="utf-8") as f:
        lines = f.read().split("\n")
    base = os.path.dirname(page)
    i = 0
    while i < len(lines):
        m = MARK.match(lines[i])
        i += 1
        if not m:
            continue
        path = os.path.join(base, m.group(1))
        if i >= len(lines) or not lines[i].startswith("```"):
            errors.append(f"{page}:{i}: marker for {m.group(1)} not followed by a code block")
            continue
        fence = re.match(r"^(`{3,})", lines[i]).group(1)
        j = i + 1
        while j < len(lines) and lines[j] != fence:
            j += 1
        block = "\n".join(lines[i + 1:j]) + "\n"
        try:
            with open(path, encoding="utf-8") as f:
                want = f.read()
        except OSError as e:
            errors.append(f"{page}:{i}: {e}")
            want = None
        if want is not None and block != want:
            errors.append(f"{page}:{i + 1}: the code block differs from {m.group(1)}")
        seen += 1
        i = j + 1
    return seen, errors


def main():
    total, bad = 0, []
    for page in sys.argv[1:]:
        n, errs = check(page)
        total += n
        bad += errs
    for e in bad:
        print(e)
    print(f"{total} included files checked, {len(bad)} differ")
    return 1 if bad or total == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
