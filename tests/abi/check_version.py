#!/usr/bin/env python3
"""Every version string of the project equals meson.build's project version.

Usage: check_version.py SOURCE_ROOT [TOGGLE_BINARY]

meson.build is the one source; the public header's macros, the Python
package, both Rust crates (and their lock files), the Rust tutorial crate,
the man page and, when given, `toggle --version` must all say the same.
"""
import re
import subprocess
import sys
from pathlib import Path


def find(path, pattern, what):
    text = path.read_text(encoding="utf-8")
    found = re.findall(pattern, text, re.M)
    if not found:
        return [f"{path}: no {what} found"], []
    return [], found


def main():
    root = Path(sys.argv[1])
    errs, want = find(root / "meson.build", r"^\s*version\s*:\s*'([0-9.]+)'", "project version")
    if errs:
        print(*errs, sep="\n")
        return 1
    want = want[0]
    major, minor, patch = want.split(".")
    checks = [
        ("include/toggle/common.h", r'#define TOGGLE_VERSION_STRING "([^"]+)"', "version string"),
        ("bindings/python/pyproject.toml", r'^version = "([^"]+)"', "version"),
        ("bindings/python/toggle/__init__.py", r'^__version__ = "([^"]+)"', "__version__"),
        ("bindings/rust/toggle/Cargo.toml", r'^version = "([^"]+)"', "version"),
        ("bindings/rust/toggle/Cargo.toml", r'toggle-sys = \{[^}]*version = "([^"]+)"', "dependency"),
        ("bindings/rust/toggle-sys/Cargo.toml", r'^version = "([^"]+)"', "version"),
        ("bindings/rust/Cargo.lock", r'^name = "toggle(?:-sys)?"\nversion = "([^"]+)"', "version"),
        ("docs/examples/rust/Cargo.lock", r'^name = "toggle(?:-sys)?"\nversion = "([^"]+)"', "version"),
        ("docs/toggle.1", r'^\.TH TOGGLE 1 "[^"]*" "libtoggle ([^"]+)"', "version"),
    ]
    bad = []
    for rel, pattern, what in checks:
        e, found = find(root / rel, pattern, what)
        bad += e
        bad += [f"{rel}: {what} {v}, meson.build says {want}" for v in found if v != want]
    header = (root / "include/toggle/common.h").read_text(encoding="utf-8")
    for name, value in (("MAJOR", major), ("MINOR", minor), ("PATCH", patch)):
        m = re.search(rf"#define TOGGLE_VERSION_{name} (\d+)", header)
        if not m or m.group(1) != value:
            bad.append(f"include/toggle/common.h: TOGGLE_VERSION_{name} is "
                       f"{m.group(1) if m else 'missing'}, want {value}")
    if len(sys.argv) > 2:
        out = subprocess.run([sys.argv[2], "--version"], capture_output=True, text=True).stdout
        if out.strip() != f"toggle {want} (libtoggle {want})":
            bad.append(f"toggle --version printed {out.strip()!r}, want {want}")
    print(*bad, sep="\n") if bad else print(f"every version string says {want}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
