"""TF.js's own tfjs-core specs (ops and gradients) on the GPU: the cases tests/tfjs_specs
translated (the ones tests/unit/test_tfjs_specs_cpu.py runs on cpu) run in the page on the
session's backend (webgl, or webgpu under make test-webgpu), each case once, one page call per
spec file; the expected values are TF.js's own, within its own test tolerances."""
import hashlib

import pytest

from tests.tfjs_specs import run

from .conftest import BACKEND

REPORT, FILES = run.files("core")
RUNTIME_HASH = hashlib.sha256(run.RUNTIME_SRC.encode()).hexdigest()[:16]

# The runtime is executed once per page (kept in sys.modules), each spec module in its own namespace.
PAGE = '''
import sys, types
rt = sys.modules.get("tfjs_spec_runtime")
if rt is None or getattr(rt, "SOURCE_HASH", None) != runtime_hash:
    rt = types.ModuleType("tfjs_spec_runtime")
    exec(compile(runtime_src, "runtime.py", "exec"), rt.__dict__)
    rt.SOURCE_HASH = runtime_hash
    sys.modules["tfjs_spec_runtime"] = rt
ns = {"tf": tf, "_js": rt, "__name__": "tfjs_spec"}
exec(compile(module_src, module, "exec"), ns)
out = await rt.run_cases_async(ns["CASES"], tf.get_backend())
out["backend"] = tf.get_backend()
out
'''


@pytest.mark.parametrize("module", [m for _, m in FILES], ids=[f for f, _ in FILES])
def test_spec_file_on_the_gpu(run_py, module):
    src = run.module_source("core", module)
    out = run_py(PAGE, runtime_src=run.RUNTIME_SRC, runtime_hash=RUNTIME_HASH, module_src=src, module=module)
    assert out["backend"] == BACKEND, f"the page ran the cases on {out['backend']}"
    run.save_results("core", BACKEND, module, out)
    failing = {cid: err for cid, err in out["results"].items() if err and not err.startswith("skip:")}
    problems = [f"{cid}: {err}" for cid, err in failing.items()]
    if out["left"]:
        problems.append(f"{out['left']} tensors left in the page after the file's cases, by " + ", ".join(
            f"{cid} ({n})" for cid, n in out.get("leaks", {}).items()))
    assert not problems, f"{len(failing)} of {len(out['results'])} cases fail on {BACKEND}:\n" + "\n".join(problems)


@pytest.fixture(scope="module", autouse=True)
def failures_file():
    """build/specs/failures-<backend>.txt after the module."""
    yield
    run.failures_text("core", BACKEND)
