"""The values of the public constants (enum members and numeric #defines of
include/) against abi/constants.txt: a value is part of the ABI, so a changed
or removed constant fails; a new one passes. TOGGLE_VERSION_* are exempt.

With --python, the Python package's integer constants instead: every
module-level NAME of bindings/python/toggle whose TOGGLE_NAME is in the
baseline must have the baseline's value (all ones as -1, as the baseline
writes them); the package is read with ast, not imported, so no library is
needed. The Rust crate's constants are checked by its own test
(bindings/rust/toggle-sys/tests/coverage.rs).

usage: check_constants.py BASELINE INCLUDE_DIR CC        (check)
       check_constants.py --write BASELINE INCLUDE_DIR CC (regenerate)
       check_constants.py --python BASELINE PACKAGE_DIR  (the Python package)
"""

import ast
import ctypes
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


class Unknown(Exception):
    pass


def py_eval(node, env):
    """The integer value of a constant expression of the package: literals,
    names already bound, + - * << >> | & ~, and ctypes.c_size_t(-1).value."""
    if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
        return node.value
    if isinstance(node, ast.Name):
        if node.id in env:
            return env[node.id]
        raise Unknown(node.id)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.Invert, ast.UAdd)):
        v = py_eval(node.operand, env)
        return -v if isinstance(node.op, ast.USub) else ~v if isinstance(node.op, ast.Invert) else v
    ops = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
           ast.LShift: lambda a, b: a << b, ast.RShift: lambda a, b: a >> b,
           ast.BitOr: lambda a, b: a | b, ast.BitAnd: lambda a, b: a & b}
    if isinstance(node, ast.BinOp) and type(node.op) in ops:
        return ops[type(node.op)](py_eval(node.left, env), py_eval(node.right, env))
    if (isinstance(node, ast.Attribute) and node.attr == "value" and isinstance(node.value, ast.Call)
            and ast.unparse(node.value) == "ctypes.c_size_t(-1)"):
        return ctypes.c_size_t(-1).value
    raise Unknown(ast.dump(node)[:60])


def py_constants(package):
    """NAME -> (value, file:line) for the package's module-level integer
    constants (a leading underscore dropped); names bound in two modules
    must agree."""
    found, env = {}, {}
    for path in sorted(glob.glob(os.path.join(package, "*.py"))):
        tree = ast.parse(open(path).read(), path)
        for stmt in tree.body:
            if isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
                pairs = [(stmt.target, stmt.value)]
            elif isinstance(stmt, ast.Assign):
                pairs = []
                for t in stmt.targets:
                    if isinstance(t, ast.Tuple) and isinstance(stmt.value, ast.Tuple):
                        pairs += list(zip(t.elts, stmt.value.elts))
                    else:
                        pairs.append((t, stmt.value))
            else:
                continue
            for target, value in pairs:
                if not isinstance(target, ast.Name) or not target.id.lstrip("_").isupper():
                    continue
                try:
                    v = py_eval(value, env)
                except Unknown:
                    continue
                env[target.id] = v
                where = "%s:%d" % (os.path.relpath(path, package), stmt.lineno)
                found.setdefault(target.id.lstrip("_"), []).append((v, where))
    return found


def check_python(baseline, package):
    base = dict(line.split() for line in open(baseline) if line.strip())
    mask = (1 << 64) - 1
    bad = checked = 0
    for name, bindings in sorted(py_constants(package).items()):
        want = base.get("TOGGLE_" + name)
        if want is None:
            continue
        for v, where in bindings:
            checked += 1
            if v & mask != int(want) & mask:
                print("WRONG python constant %s = %d (%s): TOGGLE_%s is %s" % (name, v, where, name,
                                                                           want))
                bad = 1
    have = set("TOGGLE_" + n for n in py_constants(package))
    print("%d python constants checked against %s; %d of its %d constants have no python name"
          % (checked, os.path.basename(baseline), len(set(base) - have), len(base)))
    if not checked:
        print("no python constant found: wrong package directory?")
        bad = 1
    print("FAIL" if bad else "ok")
    return bad


def main(argv):
    if argv[:1] == ["--python"]:
        return check_python(*argv[1:])
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
