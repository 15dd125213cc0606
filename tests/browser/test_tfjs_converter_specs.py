"""tfjs-converter's own executor specs on the GPU: each spec file's cases run in the page
(tests/tfjs_specs' interpreter and converter translation, exec'd there as they are) on the session's
backend (webgl, or webgpu under make test-webgpu), one page call per spec file. Every case that is
carried over must pass, as on cpu (tests/unit/test_tfjs_converter_specs.py). The specs come from
the tfjs checkout TFJS_SRC names; without it this module reports that it did not run."""
import os
from pathlib import Path

import pytest

from tests.tfjs_specs import coverage, source

from .conftest import BACKEND

SRC = source.source()
SPECS = Path(__file__).resolve().parents[1] / "tfjs_specs"
MODULES = ("runtime", "jsinterp", "specs", "converter")

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
converter = sys.modules["tfjs_specs.converter"]
results = converter.run_program(program, path, converter.OpList(table=op_table))
{"results": [list(r) for r in results], "backend": tf.get_backend()}
'''

if SRC is None:
    def test_converter_specs_not_run_on_the_gpu():
        pytest.skip(source.NOT_RUN)
else:
    from tests.tfjs_specs import converter

    @pytest.fixture(scope="module")
    def page_inputs():
        return {"module_names": list(MODULES),
                "module_sources": {m: (SPECS / f"{m}.py").read_text() for m in MODULES},
                "op_table": converter.OpList(SRC).table}

    @pytest.mark.parametrize("path", converter.spec_files(SRC), ids=lambda p: os.path.basename(p))
    def test_converter_spec_file_on_the_gpu(run_py, page_inputs, path):
        page = run_py(PAGE, program=converter.program_of(SRC, path), path=path, **page_inputs)
        assert page["backend"] == BACKEND, f"the page ran the cases on {page['backend']}"
        results = page["results"]
        coverage.record("converter", path, results, BACKEND)
        failed = [f"{key}: {detail}" for key, status, detail in results if status == "failed"]
        assert not failed, f"{len(failed)} of {len(results)} cases fail on {BACKEND}:\n" + "\n".join(failed)
        assert any(status in ("passed", "deviation") for _, status, _ in results), \
            "no case of the file ran an assertion against pytfweb"
