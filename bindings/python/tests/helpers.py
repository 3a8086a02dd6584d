"""Independent helpers for the tests: no library code involved."""


def tolist(v):
    """Plain nested lists of ints from arrays or lists."""
    if hasattr(v, "tolist"):
        return v.tolist()
    return [tolist(x) if isinstance(x, (list, tuple)) else int(x) for x in v]


def mat_vec(a, x, k):
    """Independent check: A x mod k with Python ints (no library code)."""
    return [sum(int(aij) * int(xj) for aij, xj in zip(row, x)) % k for row in a]


def vec_mat(y, a, k):
    """y A mod k."""
    n = len(a[0]) if a else 0
    return [sum(int(y[i]) * int(a[i][j]) for i in range(len(a))) % k for j in range(n)]


def grid_matrix(rows, cols):
    """The classic grid's A by this file's own neighbour code."""
    n = rows * cols
    a = [[0] * n for _ in range(n)]
    for r in range(rows):
        for c in range(cols):
            j = r * cols + c
            for dr, dc in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)):
                rr, cc = r + dr, c + dc
                if 0 <= rr < rows and 0 <= cc < cols:
                    a[rr * cols + cc][j] = 1
    return a


def rref_mod(M, k):
    """Reduced row echelon form of M over F_k (k prime), by plain Gauss-Jordan."""
    M = [r[:] for r in M]
    r = 0
    for j in range(len(M[0])):
        p = next((i for i in range(r, len(M)) if M[i][j]), None)
        if p is None:
            continue
        M[r], M[p] = M[p], M[r]
        inv = pow(M[r][j], -1, k)
        M[r] = [x * inv % k for x in M[r]]
        for i in range(len(M)):
            if i != r and M[i][j]:
                c = M[i][j]
                M[i] = [(x - c * y) % k for x, y in zip(M[i], M[r])]
        r += 1
        if r == len(M):
            break
    return M
