# chaos.py: chaos puzzles from augmented matrices, as chaos.c does it.
import toggle

puzzle = """# 5 lights, 5 buttons, mod 3
12000|1
01210|2
00121|0
10012|1
10210|0
"""
broken = "1100|1\n0110|0\n0011|1\n1001|1\n"


def vec(what, v):
    print(what + "".join(" %d" % int(e) for e in v))


def solve_text(text, k):
    with toggle.System.parse(text, modulus=k) as s, s.solve() as sol:
        print("%d equations, %d unknowns, mod %d: " % (s.rows, s.cols, k), end="")
        if sol.solvable:
            print("solvable, %d solution(s)" % sol.count)
            vec("  presses:", sol.particular())
            for v in sol.kernel():
                vec("  plus any multiple of:", v)
        else:
            y = sol.certificate()
            print("no solution")
            vec("  certificate y:", y)
            print("  y A = 0 and y . b != 0:",
                  "verified" if s.check_certificate(y) else "NOT verified")


solve_text(puzzle, 3)
solve_text(broken, 2)
