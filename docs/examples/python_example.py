#!/usr/bin/env python3
"""libtoggle from Python: the 5 x 5 pattern game, a Lights Out puzzle, errors.

Run from a source checkout after `meson setup build && ninja -C build`:

    PYTHONPATH=bindings/python python3 docs/examples/python_example.py

(or with the package and library installed: python3 python_example.py).
"""

import toggle

print("libtoggle", toggle.version(), "from", toggle.library_path)

# All off -> all on over Z/2Z on the classic 5 x 5 board.
with toggle.Graph.grid(5, 5) as board, toggle.System(board, modulus=2) as game:
    with game.solve() as solution:
        print("5x5: nullity %d, %d solutions" % (solution.nullity, solution.count))
        presses = solution.particular()
        assert game.check(presses)
        print(toggle.format_board(presses, 5, 5), end="")
        # Adding a kernel vector to a solution gives another solution.
        other = [(int(p) + int(v)) % 2 for p, v in zip(presses, solution.kernel()[0])]
        assert game.check(other)

# Lights Out: a lit start state, target all off.
start, rows, cols = toggle.parse_board("11000\n10000\n00000\n00000\n00000\n")
with toggle.System(toggle.Graph.grid(rows, cols), 2, start=start,
                   target=[0] * (rows * cols)) as puzzle, puzzle.solve() as answer:
    if answer.solvable:
        print("press:")
        print(toggle.format_board(answer.particular(), rows, cols), end="")

# Over Z/3Z the 2 x 2 board has no all-ones pattern; the certificate proves it.
with toggle.System(toggle.Graph.grid(2), modulus=3) as s, s.solve() as sol:
    y = sol.certificate()
    print("2x2 mod 3 solvable:", sol.solvable, "certificate:", list(map(int, y)),
          "valid:", s.check_certificate(y))

# Errors carry the status name and the library's message.
try:
    toggle.System.parse("110|1\n11|0\n", 2)
except toggle.ParseError as err:
    print("as expected:", err.name, "-", err.message)
