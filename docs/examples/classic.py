# classic.py: the classic 5 x 5 board, as classic.c does it.
import toggle

puzzle = "01010\n11011\n00100\n11011\n01010\n"  # 1 = lit

start, rows, cols = toggle.parse_board(puzzle, modulus=2)
with toggle.Graph.grid(rows, cols) as g, \
        toggle.System(g, 2, start=start, target=[0] * 25) as s, s.solve() as sol:
    if sol.solvable:
        x = sol.particular()
        print("press these cells (1 = press):")
        print(toggle.format_board(x, rows, cols, 2), end="")
        print("checked:", "all lights off" if s.check(x) else "WRONG")
        print("nullity %d, so %d press patterns solve it" % (sol.nullity, sol.count))
    else:
        print("no solution")
