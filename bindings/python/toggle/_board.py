"""A Lights Out board for notebooks and games: lights as a numpy array,
press, solve, hint, and a picture as an RGB array (matplotlib's imshow) or
PNG (Jupyter shows a Board through _repr_png_)."""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

from . import _arrays
from . import _check as C
from ._core import Graph, System
from ._errors import NoSolutionError


class Board(object):
    """A rows x cols grid game modulo k: pressing a cell adds 1 to it and
    its neighbours (``torus``, ``moore``, ``no_self``, ``cylinder`` and
    ``lattice`` as in Graph.grid).
    ``lights`` is a (rows, cols) uint64 array; solved means all 0."""

    def __init__(self, rows: int, cols: Optional[int] = None, modulus: int = 2,
                 lights: Any = None, torus: bool = False, moore: bool = False,
                 no_self: bool = False, cylinder: bool = False,
                 lattice: str = "square") -> None:
        np = _arrays.np
        if np is None:
            raise ImportError("toggle.Board needs numpy")
        self.rows = C.count(rows, "rows")
        self.cols = self.rows if cols is None else C.count(cols, "cols")
        self.modulus = C.modulus(modulus)
        self.graph = Graph.grid(self.rows, self.cols, torus=torus, moore=moore,
                                no_self=no_self, cylinder=cylinder, lattice=lattice)
        shape = (self.rows, self.cols)
        if lights is None:
            self.lights = np.zeros(shape, dtype=np.uint64)
        else:
            arr = np.asarray(lights)
            if arr.shape != shape:
                raise ValueError("lights has shape %s, the board is %s" % (arr.shape, shape))
            if arr.dtype.kind not in "iub":
                raise TypeError("lights must be integers, got dtype %s" % arr.dtype)
            self.lights = np.mod(arr.astype(np.int64), self.modulus).astype(np.uint64)
        self._cols: Dict[Tuple[int, int], List[Tuple[int, int, int]]] = {}

    def _column(self, r: int, c: int) -> List[Tuple[int, int, int]]:
        """The cells (i, j, amount) a press at (r, c) changes."""
        key = (r, c)
        if key not in self._cols:
            j = r * self.cols + c
            out: List[Tuple[int, int, int]] = []
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    i_r, i_c = (r + dr) % self.rows, (c + dc) % self.cols
                    v = self.graph.entry(i_r * self.cols + i_c, j)
                    if v and (i_r, i_c, v) not in out:
                        out.append((i_r, i_c, v))
            self._cols[key] = out
        return self._cols[key]

    def press(self, r: int, c: int, times: int = 1) -> "Board":
        """Press cell (r, c) `times` times (mod k); returns the board."""
        r = C.count(r, "r", self.rows - 1)
        c = C.count(c, "c", self.cols - 1)
        t = C.integer(times, "times") % self.modulus
        for i, j, v in self._column(r, c):
            self.lights[i, j] = (int(self.lights[i, j]) + t * v) % self.modulus
        return self

    @property
    def solved(self) -> bool:
        """True when every light is 0."""
        return not bool(self.lights.any())

    def solve(self) -> Any:
        """Presses (a (rows, cols) array) that turn every light to 0, with
        the fewest cells pressed (proven while the solutions are at most
        2^32). Raises NoSolutionError when the board cannot be cleared."""
        np = _arrays.np
        n = self.rows * self.cols
        with System(self.graph, self.modulus, start=self.lights.reshape(-1),
                    target=[0] * n) as game:
            with game.solve() as sol:
                if not sol.solvable:
                    raise NoSolutionError(-8, "TOGGLE_ENOSOLUTION",
                                          "this board cannot be cleared")
                x = sol.fewest_presses().x
        return np.asarray(x, dtype=np.uint64).reshape(self.rows, self.cols)

    def hint(self) -> Optional[Tuple[int, int]]:
        """A cell to press next on the way to a fewest-press solution, or
        None when the board is solved."""
        if self.solved:
            return None
        presses = self.solve()
        r, c = (int(v) for v in _arrays.np.argwhere(presses)[0])
        return r, c

    def render(self, format: str = "ppm", cell_size: int = 16, **options: Any) -> bytes:
        """The board as PPM or PNG bytes (toggle.render keywords)."""
        from ._render import render
        data = render(self.lights.reshape(-1), self.rows, self.cols, self.modulus,
                      format=format, cell_size=cell_size, **options)
        assert data is not None  # no path: the bytes come back
        return data

    def to_rgb(self, cell_size: int = 16, **options: Any) -> Any:
        """The picture as a (height, width, 3) uint8 array (plt.imshow)."""
        np = _arrays.np
        data = self.render("ppm", cell_size, **options)
        # P6\n<w> <h>\n255\n<pixels>
        fields: List[bytes] = []
        pos = 0
        while len(fields) < 4:
            while data[pos:pos + 1].isspace():
                pos += 1
            start = pos
            while not data[pos:pos + 1].isspace():
                pos += 1
            fields.append(data[start:pos])
        w, h = int(fields[1]), int(fields[2])
        return np.frombuffer(data[pos + 1:pos + 1 + w * h * 3], dtype=np.uint8).reshape(h, w, 3)

    def _repr_png_(self) -> Optional[bytes]:
        try:
            return self.render("png")
        except Exception:
            return None

    def __repr__(self) -> str:
        return "Board(%d x %d, mod %d, %d lit)" % (self.rows, self.cols, self.modulus,
                                                  int((self.lights != 0).sum()))
