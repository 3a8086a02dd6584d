# pattern.py: the pattern game over F_5, as pattern.c does it.
import toggle

N, P = 9, 5
print("%d x %d over F_%d: nullity %d" % (N, N, P, toggle.grid_nullity(N, N, modulus=P)))
with toggle.Graph.grid(N, N) as g, toggle.System(g, P) as s, s.solve() as sol:
    if sol.solvable:
        print("press each cell this many times:")
        print(toggle.format_board(sol.particular(), N, N, P), end="")
    else:
        print("no solution")
