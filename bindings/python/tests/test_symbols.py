"""Coverage: every function exported by lib/libtoggle.map (every node,
TOGGLE_1.0 and TOGGLE_1.1) has a ctypes prototype in the binding and is
called from the package's code (a public function or method), so it is
reachable from Python. Fails naming what is missing."""

import ast
import os
import re

import pytest

import toggle
from toggle import _ffi

HERE = os.path.dirname(os.path.abspath(__file__))
MAP = os.path.normpath(os.path.join(HERE, "..", "..", "..", "lib", "libtoggle.map"))
PKG = os.path.dirname(os.path.abspath(toggle.__file__))
#: calls whose first argument names a C function
CALLERS = {"fn", "call", "_new", "has"}


def map_nodes():
    """{node: [symbols]} of the version script."""
    text = re.sub(r"/\*.*?\*/", "", open(MAP).read(), flags=re.S)
    nodes = {}
    for name, body in re.findall(r"(TOGGLE_[0-9.]+)\s*\{(.*?)\}", text, re.S):
        glob = body.split("local:")[0].split("global:")[-1]
        nodes[name] = re.findall(r"\b(toggle_[a-z0-9_]+)\s*;", glob)
    return nodes


def called_names():
    """C function names used at a call site in the package's source."""
    used = set()
    for fname in os.listdir(PKG):
        if not fname.endswith(".py"):
            continue
        tree = ast.parse(open(os.path.join(PKG, fname)).read())
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and node.args:
                f = node.func
                name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", None)
                arg = node.args[0]
                if name in CALLERS and isinstance(arg, ast.Constant) and \
                        isinstance(arg.value, str):
                    used.add(arg.value)
            elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
                if any(isinstance(t, ast.Name) and t.id == "_free_name" for t in node.targets):
                    used.add(node.value.value)
    return used


@pytest.mark.skipif(not os.path.exists(MAP), reason="not run from a libtoggle checkout")
def test_every_exported_function_is_bound_and_called():
    nodes = map_nodes()
    assert "TOGGLE_1.0" in nodes and "TOGGLE_1.1" in nodes, nodes.keys()
    declared, used = set(_ffi.declared()), called_names()
    for node, symbols in nodes.items():
        assert symbols, node
        missing = sorted(s for s in symbols if s not in declared)
        assert not missing, "%s: no ctypes prototype for %s" % (node, ", ".join(missing))
        unused = sorted(s for s in symbols if s not in used)
        assert not unused, "%s: declared but never called: %s" % (node, ", ".join(unused))
    # and nothing is declared that the library does not export
    exported = {s for symbols in nodes.values() for s in symbols}
    assert declared <= exported, sorted(declared - exported)
    # every one binds against this library
    assert all(_ffi.has(s) for s in exported), [s for s in exported if not _ffi.has(s)]


def test_the_checker_sees_a_missing_symbol(monkeypatch):
    # the test above would fail if a prototype went missing
    protos = dict(_ffi._PROTOTYPES)
    del protos["toggle_search_bound"]
    monkeypatch.setattr(_ffi, "_PROTOTYPES", protos)
    assert "toggle_search_bound" not in _ffi.declared()
