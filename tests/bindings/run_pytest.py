"""Run the Python bindings' pytest suite; exit 77 (meson: skipped) without pytest.

usage: python3 run_pytest.py TESTS_DIR [pytest args...]
"""

import sys

try:
    import pytest
except ImportError:
    print("SKIP: pytest is not installed for %s (Debian: apt-get install python3-pytest)"
          % sys.executable)
    sys.exit(77)

# No .pytest_cache or __pycache__ in the source tree.
sys.dont_write_bytecode = True
sys.exit(pytest.main(["-q", "-p", "no:cacheprovider", "-rs"] + sys.argv[1:]))
