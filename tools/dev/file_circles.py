#!/usr/bin/env python3
"""Find file circles in a C source tree: python3 tools/dev/file_circles.py lib

The map: file A -> file B (both .c files under the root) when A includes
B's header or calls a non-static function defined in B. B's header is a
header whose declared functions are all defined in B (blas.h for
blas_elim.c), or, when it declares no function defined anywhere (types
and macros only), the header with B's name in B's folder. A header whose
functions several files define (core.h, engine.h) makes no edge of its
own: the calls through it do. Definitions and calls are found
with regular expressions on the source with comments and strings removed:
good enough for this code base's style (a definition starts at column 0).

Every strongly connected component of more than one file (Tarjan) is a
circle: it is printed with one edge of it per line and the exit status is 1.
No circle: prints nothing and exits 0. Standard library only.
"""
import os
import re
import sys

COMMENT = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"]+)"', re.M)
# a definition: at column 0, not static, a name followed by its parameter
# list and then a brace (before any semicolon)
DEFINITION = re.compile(r'^(?!static\b|typedef\b|extern\b|#)[A-Za-z_][^;{}()#=]*?\b([A-Za-z_]\w*)'
                        r'\s*\([^;{}]*\)\s*(?:TOGGLE_\w+(?:\([^)]*\))?\s*)*\{', re.M)
CALL = re.compile(r'\b([A-Za-z_]\w*)\s*\(')
KEYWORDS = {'if', 'for', 'while', 'switch', 'return', 'sizeof', 'defined', '_Alignof',
            'alignof', '__attribute__', '_Static_assert', '_Generic'}


def strip(text):
    """The source without comments and string contents (kept: #include "x")."""
    def keep(m):
        s = m.group(0)
        if s.startswith('/*'):
            return '\n' * s.count('\n')
        if s.startswith('//'):
            return ''
        return s if s.startswith('"') else "' '"
    return COMMENT.sub(keep, text)


def scan(root):
    """Per .c and .h file under root: its includes (as files) and, for .c
    files, its non-static definitions and called names."""
    files = {}
    for top, dirs, names in os.walk(root):
        dirs.sort()
        for n in sorted(names):
            if n.endswith(('.c', '.h')):
                path = os.path.join(top, n)
                with open(path, encoding='utf-8', errors='replace') as f:
                    files[path] = strip(f.read())
    info = {}
    for path, text in files.items():
        incs = []
        for name in INCLUDE.findall(text):
            for cand in (os.path.join(os.path.dirname(path), name), os.path.join(root, name)):
                cand = os.path.normpath(cand)
                if cand in files:
                    incs.append(cand)
                    break
        defs, calls = set(), set()
        if path.endswith('.c'):
            body = re.sub(r'^[ \t]*#.*(?:\\\n.*)*', '', text, flags=re.M)
            defs = set(DEFINITION.findall(body)) - KEYWORDS
            calls = set(CALL.findall(body)) - KEYWORDS
        info[path] = (incs, defs, calls, text)
    return info


def build_map(root):
    info = scan(root)
    sources = [p for p in info if p.endswith('.c')]
    definer = {}
    for c in sources:
        for name in info[c][1]:
            definer.setdefault(name, []).append(c)
    owners = {}  # header -> the one .c file whose header it is
    for h in (p for p in info if p.endswith('.h')):
        declared = set(CALL.findall(info[h][3])) - KEYWORDS
        defining = {c for name in declared for c in definer.get(name, ())}
        same = h[:-2] + '.c'
        if len(defining) == 1:
            owners[h] = sorted(defining)
        elif not defining and same in info:
            owners[h] = [same]
    edges = {c: {} for c in sources}
    for a in sources:
        incs, defs, calls, _ = info[a]
        for h in incs:
            for b in owners.get(h, ()):
                if b != a:
                    edges[a].setdefault(b, 'includes ' + os.path.basename(h))
        for name in sorted(calls - defs):
            for b in definer.get(name, ()):
                if b != a:
                    edges[a].setdefault(b, 'calls ' + name)
    return edges


def components(edges):
    """Tarjan's strongly connected components (iterative)."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = 0
    for start in edges:
        if start in index:
            continue
        work = [(start, iter(edges[start]))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on.add(start)
        while work:
            v, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(edges[w])))
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    out.append(sorted(comp))
    return out


def main(argv):
    root = argv[1] if len(argv) > 1 else 'lib'
    if not os.path.isdir(root):
        print(f'usage: {argv[0]} DIR (e.g. lib)', file=sys.stderr)
        return 2
    edges = build_map(os.path.normpath(root))
    circles = sorted(c for c in components(edges) if len(c) > 1)
    for comp in circles:
        print('circle: ' + ' '.join(comp))
        inside = set(comp)
        for a in comp:
            for b, why in sorted(edges[a].items()):
                if b in inside:
                    print(f'  {a} -> {b} ({why})')
    return 1 if circles else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
