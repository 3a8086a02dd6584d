#!/usr/bin/env python3
"""Print the bad-input table of docs/reliability.md from the misuse suites:
every TU_EXPECT(call, status) line of tests/reliability/test_misuse.c and
tests/reliability/test_misuse_ext.c becomes a row (function, call, status),
so the table lists exactly what the tests check."""
import re
import sys
from pathlib import Path

root = Path(__file__).resolve().parents[2]
files = [root / "tests/reliability/test_misuse.c", root / "tests/reliability/test_misuse_ext.c"]
rows = {}
for f in files:
    text = f.read_text()
    # EXPECT(...) may span lines; collapse white space first
    for m in re.finditer(r"EXPECT\((toggle_\w+)\((.*?)\),\s*(TOGGLE_\w+)\);(?:\s*/\*\s*(.*?)\s*\*/)?",
                         re.sub(r"\s+", " ", text)):
        fn, args, status, note = m.group(1), m.group(2), m.group(3), m.group(4)
        rows.setdefault(fn, []).append((args.strip(), status, note or ""))

print("| function | call (arguments as tested) | status |")
print("|---|---|---|")
for fn in sorted(rows):
    for args, status, note in rows[fn]:
        a = args.replace("|", "\\|")
        n = f" ({note})" if note else ""
        print(f"| `{fn}` | `({a})`{n} | `{status}` |")
print(f"\n{sum(len(v) for v in rows.values())} checks over {len(rows)} functions.",
      file=sys.stderr)
