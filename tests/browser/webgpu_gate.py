"""What a webgpu test does where the browser gives no WebGPU adapter: skip it (a local machine
without WebGPU), or fail it where PYTFWEB_REQUIRE_WEBGPU=1 (.ci/run sets it, so a CI run whose
webgpu pass found no adapter does not end green having tested nothing on webgpu).

Kept free of the browser harness's imports so a unit test can check it without a browser."""
import os

import pytest

REQUIRE_ENV = "PYTFWEB_REQUIRE_WEBGPU"


def webgpu_required(environ=None):
    return (os.environ if environ is None else environ).get(REQUIRE_ENV) == "1"


def no_webgpu(reason, environ=None):
    """Skips the running test for `reason` (why there is no WebGPU), or fails it when WebGPU is
    required; never returns."""
    if webgpu_required(environ):
        pytest.fail(f"{reason} ({REQUIRE_ENV}=1: WebGPU is required here)", pytrace=False)
    pytest.skip(reason)
