"""The webgpu tests' answer to a browser without a WebGPU adapter (tests/browser/webgpu_gate.py):
skipped on a local machine, failed where PYTFWEB_REQUIRE_WEBGPU=1 (.ci/run)."""
import os

import pytest
from _pytest.outcomes import Failed, Skipped

from tests.browser.webgpu_gate import REQUIRE_ENV, no_webgpu

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.mark.parametrize("environ", [{}, {REQUIRE_ENV: "0"}, {REQUIRE_ENV: ""}])
def test_skips_when_webgpu_is_not_required(environ):
    with pytest.raises(Skipped, match="no adapter here"):
        no_webgpu("no adapter here", environ)


def test_fails_when_webgpu_is_required():
    with pytest.raises(Failed, match="no adapter here.*PYTFWEB_REQUIRE_WEBGPU=1"):
        no_webgpu("no adapter here", {REQUIRE_ENV: "1"})


def test_reads_the_process_environment(monkeypatch):
    monkeypatch.setenv(REQUIRE_ENV, "1")
    with pytest.raises(Failed):
        no_webgpu("no adapter here")
    monkeypatch.delenv(REQUIRE_ENV)
    with pytest.raises(Skipped):
        no_webgpu("no adapter here")


def test_ci_requires_webgpu():
    with open(os.path.join(ROOT, ".ci", "run"), encoding="utf-8") as f:
        lines = [line for line in f if not line.startswith("#")]
    assert any(line.startswith(f"{REQUIRE_ENV}=1 make test") for line in lines), "".join(lines)


def test_every_webgpu_skip_goes_through_the_gate():
    """A webgpu test that skipped on its own would stay green on CI with no adapter."""
    browser = os.path.join(ROOT, "tests", "browser")
    offenders = []
    for name in sorted(os.listdir(browser)):
        if name.endswith(".py") and name != "webgpu_gate.py":
            with open(os.path.join(browser, name), encoding="utf-8") as f:
                offenders += [f"{name}:{i}" for i, line in enumerate(f, 1)
                              if "pytest.skip(" in line and "webgpu" in line.lower()]
    assert not offenders, offenders
