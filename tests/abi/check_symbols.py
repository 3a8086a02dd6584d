"""Exported symbols against the version script lib/libtoggle.map: every
exported symbol is listed, every listed symbol is exported, each in the node
the map puts it in (TOGGLE_1.0 or a later TOGGLE_1.x), and nothing but
toggle_* names leaves the library.

Also: every function a public header declares with TOGGLE_API is exported,
and every exported function is declared in a public header.

usage: check_symbols.py MAP LIBRARY INCLUDE_DIR [NM]
"""

import glob
import os

import re
import subprocess
import sys

NODE = re.compile(r"(TOGGLE_\d+\.\d+)\s*\{(.*?)\}\s*(TOGGLE_\d+\.\d+)?\s*;", re.S)


def parse_map(path):
    text = re.sub(r"/\*.*?\*/|#[^\n]*|//[^\n]*", "", open(path).read(), flags=re.S)
    listed = {}
    nodes = []
    for node, body, parent in NODE.findall(text):
        nodes.append((node, parent))
        glob = body.split("local:")[0].replace("global:", "")
        for name in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", glob):
            if name in listed:
                raise SystemExit("FAIL: %s listed twice in the map" % name)
            listed[name] = node
    return listed, nodes


def exported(library, nm):
    out = subprocess.run([nm, "-D", "--defined-only", library], check=True,
                         capture_output=True, text=True).stdout
    syms, version_nodes = {}, set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 3:
            continue
        kind, name = parts[1], parts[2]
        if kind == "A":  # a version definition, e.g. TOGGLE_1.0
            version_nodes.add(name)
            continue
        base, _, version = name.partition("@")
        syms[base] = (version.lstrip("@"), kind)
    return syms, version_nodes


def declared(include):
    names = set()
    for path in glob.glob(os.path.join(include, "**", "*.h"), recursive=True):
        text = open(path).read()
        names.update(re.findall(r"TOGGLE_API[^;(]*?\b(toggle_\w+)\s*\(", text, re.S))
    return names


def main(mapfile, library, include, nm="nm"):
    listed, nodes = parse_map(mapfile)
    syms, version_nodes = exported(library, nm)
    decls = declared(include)
    bad = []
    for name in sorted(decls - set(syms)):
        bad.append("declared TOGGLE_API in include/ but not exported: %s" % name)
    for name in sorted(set(n for n, (v, k) in syms.items() if k in "TtWi") - decls):
        bad.append("exported but declared in no public header: %s" % name)
    if not nodes or nodes[0][0] != "TOGGLE_1.0":
        bad.append("the first node of the map must be TOGGLE_1.0")
    for node, parent in nodes[1:]:
        if not parent:
            bad.append("node %s must inherit from the previous node" % node)
    for name, (version, kind) in sorted(syms.items()):
        if not name.startswith("toggle_"):
            bad.append("exported but not a toggle_ name: %s (%s)" % (name, kind))
        elif name.startswith("toggle__"):
            bad.append("internal name exported: %s" % name)
        if name not in listed:
            bad.append("exported but not in the map: %s" % name)
        elif version != listed[name]:
            bad.append("%s is versioned %r, the map says %s" % (name, version, listed[name]))
        if not re.match(r"TOGGLE_\d+\.\d+$", version):
            bad.append("%s has no TOGGLE_x.y version (%r)" % (name, version))
    for name in sorted(set(listed) - set(syms)):
        bad.append("in the map but not exported (missing TOGGLE_API or definition?): %s" % name)
    for node, _ in nodes:
        if node not in version_nodes and any(v == node for v in listed.values()):
            bad.append("version node %s is not defined in the library" % node)
    for line in bad:
        print("FAIL: " + line)
    print("%d symbols exported, %d listed in %d node(s), %d declared: %s"
          % (len(syms), len(listed), len(nodes), len(decls), "FAIL" if bad else "ok"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
