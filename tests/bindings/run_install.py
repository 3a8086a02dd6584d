"""The Python package as a new user installs it: a fresh virtual
environment (/usr/bin/python3 -m venv --system-site-packages, for numpy),
`pip install --no-build-isolation ./bindings/python` offline from the
checkout, then, with no TOGGLE_* variable, PYTHONPATH or LD_LIBRARY_PATH:
import (the library of this build tree is found), `mypy --strict` over
the installed package and over a typed consumer (when mypy is installed),
and the pytest suite against the installed package.

usage: python3 run_install.py SOURCE_ROOT BUILD_ROOT
Exit 77 (meson: skipped) only when venv or pip is missing.
"""

import os
import shutil
import subprocess
import sys
import tempfile

SKIP = 77
CONSUMER = '''\
import numpy
import toggle

a = numpy.array([[1, 1, 0], [0, 1, 1]])
r: int = toggle.rank(a, 2)
x = toggle.solve(a, [1, 0], 2)
space: toggle.SolutionSpace = toggle.solution_space(a, [1, 0], 3)
with toggle.System(toggle.Graph.grid(3, 3), 2) as game, game.solve() as sol:
    best: toggle.FewestPresses = sol.fewest_presses()
    n: int = sol.nullity
    engine: "str | None" = sol.engine
'''


def run(cmd, what, **kw):
    print("+ " + " ".join(cmd), flush=True)
    proc = subprocess.run(cmd, **kw)
    if proc.returncode != 0:
        print("FAIL: %s (exit %d)" % (what, proc.returncode))
        sys.exit(1)
    return proc


def main():
    source, build = (os.path.abspath(p) for p in sys.argv[1:3])
    try:
        import venv  # noqa: F401
    except ImportError:
        print("SKIP: the venv module is missing (Debian: apt-get install python3-venv)")
        return SKIP
    # a clean environment: nothing that would point the package at the library
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("TOGGLE_") and k not in ("PYTHONPATH", "LD_LIBRARY_PATH",
                                                        "PYTHONHOME", "VIRTUAL_ENV")}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env["PIP_NO_INDEX"] = "1"  # offline: never ask PyPI
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    tmp = tempfile.mkdtemp(prefix="toggle-venv-")
    try:
        venv_dir = os.path.join(tmp, "venv")
        proc = subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", venv_dir],
                              env=env, capture_output=True, text=True)
        if proc.returncode != 0:
            print(proc.stdout + proc.stderr)
            print("SKIP: `%s -m venv` failed (ensurepip missing? Debian: apt-get install "
                  "python3-venv)" % sys.executable)
            return SKIP
        py = os.path.join(venv_dir, "bin", "python")
        if subprocess.run([py, "-m", "pip", "--version"], env=env,
                          capture_output=True).returncode != 0:
            print("SKIP: pip is not available in the virtual environment "
                  "(Debian: apt-get install python3-pip python3-venv)")
            return SKIP
        # The install records this build tree (TOGGLE_BUILD_DIR is read by
        # setup.py at install time only; without it, the checkout's build/).
        install_env = dict(env, TOGGLE_BUILD_DIR=build)
        run([py, "-m", "pip", "install", "--no-build-isolation", "--no-index", "--quiet",
             "./bindings/python"], "pip install", cwd=source, env=install_env)
        leftovers = [p for p in ("bindings/python/build", "bindings/python/toggle.egg-info")
                     if os.path.exists(os.path.join(source, p))]
        if leftovers:
            print("FAIL: pip install left %s in the checkout" % ", ".join(leftovers))
            return 1
        work = os.path.join(tmp, "work")  # run outside the checkout
        os.mkdir(work)
        probe = ("import os, toggle; print(toggle.__file__); print(toggle.library_path); "
                 "assert toggle.__file__.startswith(%r), 'not the installed package'; "
                 "assert os.path.realpath(toggle.library_path).startswith("
                 "os.path.realpath(%r)), 'not this build tree'; print(toggle.version())"
                 % (venv_dir, build))
        run([py, "-c", probe], "import the installed package", cwd=work, env=env)
        have_mypy = subprocess.run([py, "-c", "import mypy"], env=env,
                                   capture_output=True).returncode == 0
        if have_mypy:
            cache = os.path.join(tmp, "mypy-cache")
            with open(os.path.join(work, "consumer.py"), "w") as f:
                f.write(CONSUMER)
            run([py, "-m", "mypy", "--strict", "--cache-dir", cache, "-p", "toggle"],
                "mypy --strict over the installed package", cwd=work, env=env)
            run([py, "-m", "mypy", "--strict", "--cache-dir", cache, "consumer.py"],
                "mypy --strict over a consumer (py.typed shipped)", cwd=work, env=env)
            run([py, "consumer.py"], "run the consumer", cwd=work, env=env)
        else:
            print("NOTE: mypy is not installed (Debian: python3-mypy): type check not run")
        have_pytest = subprocess.run([py, "-c", "import pytest"], env=env,
                                     capture_output=True).returncode == 0
        if have_pytest:
            tests = os.path.join(source, "bindings", "python", "tests")
            run([py, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rs", tests],
                "pytest against the installed package", cwd=work,
                env=dict(env, TOGGLE_TEST_INSTALLED="1"))
        else:
            print("NOTE: pytest is not installed (Debian: python3-pytest): suite not run")
        print("OK: installed, imported%s%s" % (", type-checked" if have_mypy else "",
                                             ", tested" if have_pytest else ""))
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
