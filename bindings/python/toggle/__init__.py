"""libtoggle for Python: Lights-Out style puzzles as linear systems over Z/kZ.

A thin ctypes binding (no compiled extension) over the C library::

    import toggle
    with toggle.Graph.grid(5, 5) as g, toggle.System(g, modulus=2) as s:
        with s.solve() as sol:
            print(sol.solvable, sol.nullity, sol.count)
            print(sol.particular())

Vectors come back as numpy uint64 arrays when numpy is importable (and the
environment variable TOGGLE_NO_NUMPY is unset), as lists of ints otherwise;
any sequence of ints (or nested sequence, for matrices) is accepted as input.

Each object owns one C handle, freed by close(), by leaving a ``with``
block, or by the garbage collector. Failures raise ToggleError subclasses
carrying the status name and the library's message.

The library is found through TOGGLE_LIBRARY, then a build tree, then the
system; see toggle._ffi. At import the library's major version must equal
the one this package was written for.
"""

from . import _ffi
from ._arrays import HAVE_NUMPY
from ._errors import (
    ToggleError, InvalidArgumentError, OutOfMemoryError, UnsupportedError, ParseError,
    RangeError, BufferSizeError, OverflowToggleError, NoSolutionError, IOToggleError,
    LimitError, InternalError, CancelledError, status_name, last_error, clear_error,
    OK, EINVAL, ENOMEM, EUNSUPPORTED, EPARSE, ERANGE, EBUFSIZE, EOVERFLOW, ENOSOLUTION,
    EIO, ITEROVER, ELIMIT, EINTERNAL, ECANCELED,
)
from ._core import (
    Graph, System, Solution, grid_nullity, parse_board, format_board, engine_name,
    engine_from_name,
    GRID_CLASSIC, GRID_NO_SELF, GRID_TORUS, GRID_MOORE, GRID_CYLINDER, GRID_HEX, GRID_TRI,
    GRAPH_NO_SELF,
    KIND_GRID, KIND_STENCIL, KIND_MATRIX,
    ENGINE_AUTO, ENGINE_FLINT, ENGINE_GF2, ENGINE_CHASE, ENGINE_HOWELL, ENGINE_BLAS, ENGINE_TRANSFER, ENGINE_DENSE,
    SYSTEM_OPT_ENGINE, SYSTEM_OPT_MEMORY_BUDGET, SYSTEM_OPT_SEARCH_LIMIT,
    SYSTEM_OPT_THREADS, OPT_THREADS,
    OPT_ENGINE, OPT_MEMORY_BUDGET, OPT_SEARCH_LIMIT, DEFAULT_MEMORY_BUDGET, MAX_MODULUS,
)

from ._space import (
    Rng, SolutionIterator, Search, Generator, FewestPresses, METRIC_CELLS, METRIC_PRESSES,
    COST_FORBIDDEN,
    SEARCH_OPT_METRIC, SEARCH_OPT_SEARCH_LIMIT, SEARCH_OPT_THREADS,
    GENERATOR_OPT_SEED, GENERATOR_OPT_UNIQUE, GENERATOR_OPT_PRESSES, GENERATOR_OPT_METRIC,
    GENERATOR_OPT_LIT, GENERATOR_OPT_ATTEMPTS, GENERATOR_OPT_SEARCH_LIMIT,
)
from ._steps import (
    Steps, chaos_graph, STEP_ADD, STEP_SCALE, STEP_SWAP, STEP_MOVE, CHAOS_ANY_DISTANCE,
)
from ._render import (
    RenderOptions, render, colormaps, colormap_from_name, colormap_color,
    colormap_is_qualitative, board_symmetry,
    symmetry_name, symmetry_of_shape, flint_guard_install, flint_guard_installed,
    IMAGE_PPM, IMAGE_PNG, SYM_ALL,
)

from ._linalg import solve, null_space, rank, row_reduce, solution_space, SolutionSpace
from ._board import Board

#: Version of this Python package (follows the C library it was written for).
__version__ = "1.1.0"

#: Path or name the C library was loaded from.
library_path = _ffi.library_path


def version() -> str:
    """Version string of the loaded C library, e.g. "1.1.0"."""
    return str(_ffi.fn("toggle_version_string")().decode())


def version_number() -> int:
    """Version of the loaded C library as major * 10000 + minor * 100 + patch."""
    return int(_ffi.fn("toggle_version_number")())


#: The public names (what ``from toggle import *`` and type checkers see).
__all__ = [
    "HAVE_NUMPY", "ToggleError", "InvalidArgumentError", "OutOfMemoryError",
    "UnsupportedError", "ParseError", "RangeError", "BufferSizeError", "OverflowToggleError",
    "NoSolutionError", "IOToggleError", "LimitError", "InternalError", "CancelledError",
    "status_name", "last_error", "clear_error", "OK", "EINVAL", "ENOMEM", "EUNSUPPORTED",
    "EPARSE", "ERANGE", "EBUFSIZE", "EOVERFLOW", "ENOSOLUTION", "EIO", "ITEROVER", "ELIMIT",
    "EINTERNAL", "ECANCELED", "Graph", "System", "Solution", "grid_nullity", "parse_board",
    "format_board", "engine_name", "engine_from_name", "GRID_CLASSIC", "GRID_NO_SELF",
    "GRID_TORUS", "GRID_MOORE", "GRID_CYLINDER", "GRID_HEX", "GRID_TRI", "GRAPH_NO_SELF",
    "KIND_GRID", "KIND_STENCIL", "KIND_MATRIX", "ENGINE_AUTO", "ENGINE_FLINT", "ENGINE_GF2",
    "ENGINE_CHASE", "ENGINE_HOWELL", "ENGINE_BLAS", "ENGINE_TRANSFER", "ENGINE_DENSE",
    "SYSTEM_OPT_ENGINE", "SYSTEM_OPT_MEMORY_BUDGET", "SYSTEM_OPT_SEARCH_LIMIT",
    "SYSTEM_OPT_THREADS", "OPT_THREADS", "OPT_ENGINE", "OPT_MEMORY_BUDGET", "OPT_SEARCH_LIMIT",
    "DEFAULT_MEMORY_BUDGET", "MAX_MODULUS", "Rng", "SolutionIterator", "Search", "Generator",
    "FewestPresses", "METRIC_CELLS", "METRIC_PRESSES", "COST_FORBIDDEN", "SEARCH_OPT_METRIC",
    "SEARCH_OPT_SEARCH_LIMIT", "SEARCH_OPT_THREADS", "GENERATOR_OPT_SEED", "GENERATOR_OPT_UNIQUE",
    "GENERATOR_OPT_PRESSES", "GENERATOR_OPT_METRIC", "GENERATOR_OPT_LIT",
    "GENERATOR_OPT_ATTEMPTS", "GENERATOR_OPT_SEARCH_LIMIT", "Steps", "chaos_graph", "STEP_ADD",
    "STEP_SCALE", "STEP_SWAP", "STEP_MOVE", "CHAOS_ANY_DISTANCE", "RenderOptions", "render",
    "colormaps", "colormap_from_name", "colormap_color", "colormap_is_qualitative",
    "board_symmetry", "symmetry_name", "symmetry_of_shape", "flint_guard_install",
    "flint_guard_installed", "IMAGE_PPM", "IMAGE_PNG", "SYM_ALL", "solve", "null_space",
    "rank", "row_reduce", "solution_space", "SolutionSpace", "Board", "__version__",
    "library_path", "version", "version_number",
]
