#!/usr/bin/env python3
"""The house rules that a machine can check (docs/conventions.md, "House
rules"). One check per call, named by the first argument:

  functions  pmccabe over lib/**/*.c: no function over MAX_LINES lines or
             cyclomatic complexity MAX_CC, no lib/ .c/.h file over
             MAX_FILE_LINES lines, unless tests/style/allow.txt names it
             with a reason (an entry that names nothing over the limits is
             stale and fails too).
  paths      every repository path named in docs/*.md, README.md,
             CONTRIBUTING.md and in the comments of lib/, tools/, include/
             exists.
  history    no comment in lib/ tells history ("Nth round", "round N",
             "issue NN"): comments state rules. allow.txt may exempt a file
             for now with an entry `path:(history)  reason`; it is stale
             once the file has no such comment.
  circles    no file circle in lib/ (tools/dev/file_circles.py, when it
             exists).

Usage: check_style.py CHECK --root SOURCE_ROOT [--pmccabe PATH]
Exit status: 0 pass, 1 fail, 77 skipped (meson's skip code). Standard
library only.
"""
import argparse
import os
import re
import subprocess
import sys

MAX_LINES = 150
MAX_CC = 40
MAX_FILE_LINES = 1500
SKIP = 77

PATH_ROOTS = ('lib', 'docs', 'tests', 'tools', 'bench', 'include', 'bindings', 'abi')
SOURCE_EXTS = ('.c', '.h')
HASH_COMMENT_EXTS = ('.py', '.sh')


def walk(root, top, exts):
    """Files under root/top ending in one of exts, as sorted root-relative paths."""
    out = []
    base = os.path.join(root, top)
    for dirpath, dirnames, filenames in os.walk(base):
        dirnames[:] = [d for d in dirnames if not d.startswith('.') and d != 'node_modules']
        for name in filenames:
            if name.endswith(exts) or (exts == 'meson' and name == 'meson.build'):
                out.append(os.path.relpath(os.path.join(dirpath, name), root))
    return sorted(out)


# ---- functions and file lengths ----------------------------------------------

def read_allow(path):
    """allow.txt: `path:function  reason` or `path  reason` (a file's length),
    '#' comments and blank lines ignored. Returns (entries, errors)."""
    entries, errors = {}, []
    if not os.path.exists(path):
        return entries, errors
    with open(path, encoding='utf-8') as f:
        for no, line in enumerate(f, 1):
            text = line.strip()
            if not text or text.startswith('#'):
                continue
            parts = text.split(None, 1)
            key = parts[0]
            reason = parts[1].strip() if len(parts) > 1 else ''
            if not reason:
                errors.append('%s:%d: %s has no reason' % (os.path.basename(path), no, key))
            entries[key] = (reason, no)
    return entries, errors


PMC_LINE = re.compile(r'^(\d+)\t(\d+)\t(\d+)\t(\d+)\t(\d+)\t(.+)\((\d+)\): (.+)$')


def pmccabe_rows(pmccabe, root, files):
    """(complexity, lines, path, line, function) per function; pmccabe's
    parse warnings (on stderr) are ignored."""
    rows = []
    for i in range(0, len(files), 50):
        chunk = files[i:i + 50]
        res = subprocess.run([pmccabe] + chunk, cwd=root, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, universal_newlines=True)
        for line in res.stdout.splitlines():
            m = PMC_LINE.match(line)
            if m:
                rows.append((int(m.group(1)), int(m.group(5)), m.group(6), int(m.group(7)),
                             m.group(8).strip()))
    return rows


def check_functions(root, pmccabe, allow_path):
    allow, errors = read_allow(allow_path)
    used = set()
    files = walk(root, 'lib', SOURCE_EXTS)
    for path in files:
        with open(os.path.join(root, path), encoding='utf-8', errors='replace') as f:
            n = sum(1 for _ in f)
        if n > MAX_FILE_LINES:
            if path in allow:
                used.add(path)
            else:
                errors.append('%s: %d lines (the limit is %d)' % (path, n, MAX_FILE_LINES))
    have_pmccabe = bool(pmccabe) and os.path.exists(pmccabe)
    if have_pmccabe:
        cfiles = [p for p in files if p.endswith('.c')]
        for cc, lines, path, line, func in pmccabe_rows(pmccabe, root, cfiles):
            if cc < MAX_CC and lines <= MAX_LINES:
                continue
            key = '%s:%s' % (path, func)
            if key in allow:
                used.add(key)
                continue
            errors.append('%s:%d: %s: %d lines, complexity %d (the limits are %d lines, '
                          'complexity below %d)' % (path, line, func, lines, cc, MAX_LINES,
                                                    MAX_CC))
    for key, (reason, no) in sorted(allow.items(), key=lambda kv: kv[1][1]):
        if key in used or key.endswith(HISTORY_KEY):
            continue
        if ':' in key and not have_pmccabe:
            continue  # cannot tell without pmccabe
        errors.append('allow.txt:%d: %s is stale (it no longer exceeds the limits, or does '
                      'not exist): remove the entry' % (no, key))
    for e in errors:
        print(e)
    if errors:
        return 1
    if not have_pmccabe:
        print('pmccabe not found: file lengths checked, functions skipped')
        return SKIP
    todo = [k for k, (r, _) in allow.items() if r.startswith('TODO') and not k.endswith(HISTORY_KEY)]
    if todo:
        print('note: %d allow.txt entries still marked TODO' % len(todo))
    return 0


# ---- comments ----------------------------------------------------------------

def c_comments(text):
    """(line, comment text) for every /* */ and // comment of C source, with
    string and character literals skipped."""
    out = []
    i, n, line = 0, len(text), 1
    while i < n:
        c = text[i]
        if c == '\n':
            line += 1
            i += 1
        elif c in '"\'':
            j = i + 1
            while j < n and text[j] != c and text[j] != '\n':
                j += 2 if text[j] == '\\' else 1
            line += text.count('\n', i, j)
            i = j + 1 if j < n and text[j] == c else j
        elif text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j
            out.append((line, text[i + 2:j]))
            line += text.count('\n', i, j)
            i = j + 2
        elif text.startswith('//', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
            out.append((line, text[i + 2:j]))
            i = j
        else:
            i += 1
    return out


def hash_comments(text):
    """(line, text) of '#' comments (Python, shell, meson), whole-line or
    trailing; a '#' inside quotes on the line is not a comment."""
    out = []
    for no, line in enumerate(text.splitlines(), 1):
        quote = None
        for i, c in enumerate(line):
            if quote:
                if c == quote:
                    quote = None
            elif c in '"\'':
                quote = c
            elif c == '#':
                out.append((no, line[i + 1:]))
                break
    return out


def comments_of(root, path):
    with open(os.path.join(root, path), encoding='utf-8', errors='replace') as f:
        text = f.read()
    if path.endswith(SOURCE_EXTS):
        return c_comments(text)
    return hash_comments(text)


# ---- paths -------------------------------------------------------------------

PATH_RUN = re.compile(r'[A-Za-z0-9_./+-]+')
PLACEHOLDER = re.compile(r'^[A-Z][A-Z0-9_]+$')


def path_tokens(text):
    """Repository paths named in text: runs of path characters that start
    (after any ../ or ./) with one of PATH_ROOTS and end in a file extension
    or a slash. Globs and placeholders (*, <...>, ..., {a,b}, $VAR) are
    skipped."""
    for m in PATH_RUN.finditer(text):
        run = m.group(0)
        before = text[m.start() - 1] if m.start() else ' '
        after = text[m.end()] if m.end() < len(text) else ' '
        if before in '*<{$%@\\' or after in '*<>{}$%[':
            continue
        if '...' in run:
            continue
        tok = run
        while tok.startswith(('../', './')):
            tok = tok[3:] if tok.startswith('../') else tok[2:]
        tok = tok.rstrip('.')
        if not tok.startswith(tuple(r + '/' for r in PATH_ROOTS)):
            continue
        last = tok.rstrip('/').rsplit('/', 1)[-1]
        if not (tok.endswith('/') or re.search(r'\.[A-Za-z0-9]+$', last)):
            continue
        if '//' in tok:
            continue
        yield tok


def is_placeholder(tok):
    return any(PLACEHOLDER.match(part) for part in tok.strip('/').split('/'))


def check_paths(root):
    sources = []
    for name in ('README.md', 'CONTRIBUTING.md'):
        if os.path.exists(os.path.join(root, name)):
            sources.append((name, 'text'))
    for name in sorted(os.listdir(os.path.join(root, 'docs'))):
        if name.endswith('.md'):
            sources.append(('docs/' + name, 'text'))
    for top in ('lib', 'tools', 'include'):
        for path in walk(root, top, SOURCE_EXTS + HASH_COMMENT_EXTS):
            sources.append((path, 'comments'))
        for path in walk(root, top, 'meson'):
            sources.append((path, 'comments'))
    errors = []
    for path, kind in sources:
        if kind == 'text':
            with open(os.path.join(root, path), encoding='utf-8', errors='replace') as f:
                chunks = list(enumerate(f.read().splitlines(), 1))
        else:
            chunks = comments_of(root, path)
        for line, text in chunks:
            # comment blocks span lines: report the line the path is on
            for sub, piece in enumerate(text.split('\n')):
                for tok in path_tokens(piece):
                    if os.path.exists(os.path.join(root, tok)):
                        continue
                    if is_placeholder(tok):
                        continue
                    errors.append('%s:%d: names %s, which does not exist' % (path, line + sub,
                                                                           tok))
    for e in errors:
        print(e)
    return 1 if errors else 0


# ---- history -----------------------------------------------------------------

ORDINALS = ('first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|'
            'twelfth|thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|'
            'nineteenth|twentieth')
HISTORY_KEY = ':(history)'  # allow.txt: `path:(history)  reason` exempts a file
HISTORY = re.compile(r'\b(?:(?:\d+(?:st|nd|rd|th)|' + ORDINALS + r')[ -]round\b'
                     r'|\bround \d+\b|\bissues? #?\d+\b)', re.IGNORECASE)


def check_history(root, allow_path):
    allow, errors = read_allow(allow_path)
    allow = {k[:-len(HISTORY_KEY)]: v for k, v in allow.items() if k.endswith(HISTORY_KEY)}
    errors = [e for e in errors if HISTORY_KEY in e]
    found = set()
    for path in walk(root, 'lib', SOURCE_EXTS + HASH_COMMENT_EXTS) + walk(root, 'lib', 'meson'):
        for line, text in comments_of(root, path):
            for sub, piece in enumerate(text.split('\n')):
                m = HISTORY.search(piece)
                if not m:
                    continue
                found.add(path)
                if path not in allow:
                    errors.append('%s:%d: a comment tells history ("%s"): state the rule '
                                  'instead' % (path, line + sub, m.group(0)))
    for path, (reason, no) in sorted(allow.items(), key=lambda kv: kv[1][1]):
        if path not in found:
            errors.append('allow.txt:%d: %s%s is stale (no history comment left): remove the '
                          'entry' % (no, path, HISTORY_KEY))
    for e in errors:
        print(e)
    if not errors and allow:
        print('note: %d files allowed their history comments for now' % len(allow))
    return 1 if errors else 0


# ---- file circles ------------------------------------------------------------

def check_circles(root):
    tool = os.path.join(root, 'tools', 'dev', 'file_circles.py')
    if not os.path.exists(tool):
        print('tools/dev/file_circles.py not found: skipped')
        return SKIP
    return subprocess.call([sys.executable, tool, 'lib'], cwd=root)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('check', choices=('functions', 'paths', 'history', 'circles'))
    ap.add_argument('--root', required=True, help='the source root')
    ap.add_argument('--pmccabe', default='', help='the pmccabe program (empty: skip functions)')
    ap.add_argument('--allow', default=None, help='the allow list (tests/style/allow.txt)')
    a = ap.parse_args()
    root = os.path.abspath(a.root)
    allow = a.allow or os.path.join(root, 'tests', 'style', 'allow.txt')
    if a.check == 'functions':
        return check_functions(root, a.pmccabe, allow)
    if a.check == 'paths':
        return check_paths(root)
    if a.check == 'history':
        return check_history(root, allow)
    return check_circles(root)


if __name__ == '__main__':
    sys.exit(main())
