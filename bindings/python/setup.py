"""setuptools glue for pyproject.toml: writes toggle/_config.py into the
build, recording the build tree of the libtoggle checkout this package is
installed from ($TOGGLE_BUILD_DIR if set during `pip install`, else the
checkout's build/), so that the installed package finds the library
without environment variables at run time (toggle/_ffi.py)."""

import atexit
import os
import shutil
import tempfile

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
CHECKOUT = os.path.normpath(os.path.join(HERE, "..", ".."))


def build_lib_dir():
    """The build tree's lib/ to record, or "" (not installed from a checkout)."""
    given = os.environ.get("TOGGLE_BUILD_DIR")
    if given:
        return os.path.join(os.path.abspath(given), "lib")
    lib = os.path.join(CHECKOUT, "build", "lib")
    if os.path.isfile(os.path.join(CHECKOUT, "include", "toggle.h")) and \
            os.path.exists(os.path.join(lib, "libtoggle.so.1")):
        return lib
    return ""


class BuildPy(build_py):
    def run(self):
        super().run()
        with open(os.path.join(HERE, "toggle", "_config.py.in")) as f:
            text = f.read()
        text = text.replace("@LIBDIR@", "").replace("@BUILD_LIB@", build_lib_dir())
        out = os.path.join(self.build_lib, "toggle", "_config.py")
        with open(out, "w") as f:
            f.write(text)


# Build in a scratch directory, not in the checkout (no build/ or egg-info
# left behind, and no stale module from an earlier build in the wheel).
SCRATCH = tempfile.mkdtemp(prefix="toggle-py-build-")
atexit.register(shutil.rmtree, SCRATCH, True)

setup(cmdclass={"build_py": BuildPy},
      options={"build": {"build_base": SCRATCH}, "egg_info": {"egg_base": SCRATCH}})
