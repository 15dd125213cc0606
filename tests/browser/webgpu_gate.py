"""What a webgpu test does where the browser gives no WebGPU adapter: skip it (a local machine
without WebGPU), or fail it where PYTFWEB_REQUIRE_WEBGPU=1 (.ci/run sets it, so a CI run whose
webgpu pass found no adapter does not end green having tested nothing on webgpu).

The gate lives in the pytest plugin the package ships (users' webgpu tests go through it too);
this module keeps the name the browser tests import. Free of the browser harness's imports so a
unit test can check it without a browser."""
from pytfweb.pytest_plugin import REQUIRE_ENV, no_webgpu, webgpu_required

__all__ = ["REQUIRE_ENV", "no_webgpu", "webgpu_required"]
