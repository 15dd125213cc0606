"""tfjs-layers' own specs on the GPU: each spec file's cases run in the page (tests/tfjs_specs'
interpreter and layers translation, exec'd there as they are) on the session's backend (webgl, or
webgpu under make test-webgpu), one page call per spec file. Every case carried over must pass, as
on cpu (tests/unit/test_tfjs_layers_specs.py). The specs come from the tfjs checkout TFJS_SRC names;
without it this module reports that it did not run."""
import os
from pathlib import Path

import pytest

from tests.tfjs_specs import source

from .conftest import BACKEND

SRC = source.source()
SPECS = Path(__file__).resolve().parents[1] / "tfjs_specs"
# specs.py reaches converter.py for its spy helpers
MODULES = ("runtime", "jsinterp", "specs", "converter", "layers")

PAGE = '''
import sys, types
pkg = types.ModuleType("tfjs_specs")
pkg.__path__ = []
sys.modules["tfjs_specs"] = pkg
for name in module_names:
    mod = types.ModuleType("tfjs_specs." + name)
    mod.__package__ = "tfjs_specs"
    sys.modules[mod.__name__] = mod
    exec(compile(module_sources[name], "tfjs_specs/" + name + ".py", "exec"), mod.__dict__)
layers = sys.modules["tfjs_specs.layers"]
results = layers.run_program(program, path)
{"results": [list(r) for r in results], "backend": tf.get_backend()}
'''

if SRC is None:
    def test_layers_specs_not_run_on_the_gpu():
        pytest.skip(source.NOT_RUN)
else:
    from tests.tfjs_specs import layers

    @pytest.fixture(scope="module")
    def page_inputs():
        return {"module_names": list(MODULES),
                "module_sources": {m: (SPECS / f"{m}.py").read_text() for m in MODULES}}

    # files whose every case cannot apply are counted on cpu only: nothing of them runs
    @pytest.mark.parametrize("path", [p for p in layers.spec_files(SRC) if layers.file_reason(p) is None],
                             ids=lambda p: os.path.basename(p))
    def test_layers_spec_file_on_the_gpu(run_py, page_inputs, path):
        page = run_py(PAGE, program=layers.program_of(SRC, path), path=path, **page_inputs)
        assert page["backend"] == BACKEND, f"the page ran the cases on {page['backend']}"
        results = [tuple(r) for r in page["results"]]
        layers.save(path, results, BACKEND)
        failed = [f"{key}: {detail}" for key, status, detail in results if status == "failed"]
        assert not failed, f"{len(failed)} of {len(results)} cases fail on {BACKEND}:\n" + "\n".join(failed)
        if not any(status in ("passed", "deviation") for _, status, _ in results):
            # nothing of the file carried over: the coverage table counts it, each case with its reason
            reasons = sorted({detail[:80] for _, _, detail in results})
            pytest.skip(f"none of its {len(results)} cases is translated: {'; '.join(reasons[:3])}")
