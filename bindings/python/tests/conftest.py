"""pytest setup: import the package from this source tree, print the library used."""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
if not os.environ.get("TOGGLE_TEST_INSTALLED"):  # set: test the pip-installed package
    sys.path.insert(0, os.path.dirname(HERE))

import pytest  # noqa: E402


def pytest_report_header(config):
    import toggle
    return "libtoggle %s from %s, numpy: %s" % (toggle.version(), toggle.library_path,
                                                toggle.HAVE_NUMPY)


@pytest.fixture(params=["numpy", "lists"])
def arrays(request, monkeypatch):
    """Run a test with numpy results and again with plain lists."""
    import toggle._arrays as A
    if request.param == "numpy":
        if A.np is None:
            pytest.skip("numpy is not installed")
    else:
        monkeypatch.setattr(A, "np", None)
    return request.param
