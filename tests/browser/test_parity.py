"""TF.js parity on the GPU: every case of tests/parity/cases runs in the page (tests/parity/runner.py's
source, on the session's backend: webgl, or webgpu under make test-webgpu) and gives TF.js 4.22's
shapes, dtypes, values and gradients within float32 GPU arithmetic. One page call per case family
keeps each call short."""
import json
import os
from pathlib import Path

import pytest

import pytfweb as tf
from tests.parity import runner
from tests.parity.cases import all_cases
from tests.parity.generate import references

from .conftest import BACKEND

CASES = all_cases()
FAMILIES = sorted({c["family"] for c in CASES})
NAMES = json.load(open(os.path.join(os.path.dirname(tf.__file__), "data", "tfjs-4.22-api.json")))["python_names"]
RUNNER_SRC = (Path(__file__).resolve().parents[1] / "parity" / "runner.py").read_text()

PAGE = '''
ns = {"__name__": "parity_runner"}
exec(runner_src, ns)
start = tf.memory().num_tensors
results = await ns["run_cases_async"](tf, cases, names)
{"results": results, "left": tf.memory().num_tensors - start, "backend": tf.get_backend()}
'''


@pytest.fixture(scope="module")
def refs():
    return references(CASES)


@pytest.mark.parametrize("family", FAMILIES)
def test_family_matches_tfjs_on_the_gpu(run_py, refs, family):
    cases = [c for c in CASES if c["family"] == family]
    page = run_py(PAGE, runner_src=RUNNER_SRC, cases=cases, names=NAMES)
    assert page["backend"] == BACKEND, f"the page ran the cases on {page['backend']}"
    assert page["left"] == 0, "tensors leaked in the page"
    problems = []
    for c in cases:
        p = runner.check(c, refs[c["id"]], page["results"][c["id"]], "gpu", BACKEND)
        if p:
            problems.append(f"{c['id']} {c['fn']}: {p}")
    assert not problems, f"{len(problems)} of {len(cases)} cases differ from TF.js on {BACKEND}:\n" + "\n".join(problems)
