"""tfjs-layers' own specs on the GPU: each file of layers.FILES runs in the page (the interpreter
and tests/tfjs_specs/layers.py exec'd there, with the ESTrees of the spec and of the tfjs-layers
helper modules it loads, made in CPython) on the session's backend, one page call per spec file.
Every case that is carried over must pass, as on cpu (tests/unit/test_tfjs_layers_specs.py). The
specs come from the tfjs checkout TFJS_SRC names; without it this module reports that it did not
run."""
from pathlib import Path

import pytest

from tests.tfjs_specs import coverage, source

from .conftest import BACKEND

SRC = source.source()
SPECS = Path(__file__).resolve().parents[1] / "tfjs_specs"
MODULES = ("jsinterp", "specs", "converter", "layers")

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
results = layers.run_program(program, path, layers.Programs(helpers))
{"results": [list(r) for r in results], "backend": tf.get_backend()}
'''

if SRC is None:
    def test_layers_specs_not_run_on_the_gpu():
        pytest.skip(source.NOT_RUN)
else:
    from tests.tfjs_specs import converter, layers

    @pytest.fixture(scope="module")
    def module_sources():
        return {m: (SPECS / f"{m}.py").read_text() for m in MODULES}

    @pytest.mark.parametrize("path", layers.spec_files(SRC, layers.FILES),
                             ids=lambda p: p.split("tfjs-layers/src/", 1)[-1])
    def test_layers_spec_file_on_the_gpu(run_py, module_sources, path):
        program = converter.program_of(SRC, path)
        page = run_py(PAGE, program=program, path=path, helpers=layers.helper_programs(SRC, path, program),
                      module_names=list(MODULES), module_sources=module_sources)
        assert page["backend"] == BACKEND, f"the page ran the cases on {page['backend']}"
        results = page["results"]
        coverage.record("layers", path, results, BACKEND)
        failed = [f"{key}: {detail}" for key, status, detail in results if status == "failed"]
        assert not failed, f"{len(failed)} of {len(results)} cases fail on {BACKEND}:\n" + "\n".join(failed)
        assert any(status in ("passed", "deviation") for _, status, _ in results), \
            "no case of the file ran an assertion against pytfweb"
