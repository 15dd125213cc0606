"""Differential fuzzing, cpu (here) against webgl (in the page): tests/fuzz.py draws the cases with
hypothesis, derandomized; each family runs as one batch in one page call.

`-m fuzz_heavy` (also part of a plain run, as every test is) draws four times as many per family
(twice for the large layouts) and runs them twice, the second time backwards through a cleared
program cache. About 40 s for the plain run and 2.5 min for the heavy one on SwiftShader.
"""
import numpy as np
import pytest

import pytfweb as tf

from .. import fuzz

# cases per family in one run; the whole module takes about a minute on SwiftShader
COUNTS = {"unary": 120, "binary": 100, "reduction": 80, "shape": 100, "matmul": 50, "conv": 50, "gather": 60,
          "cumulative": 50, "image": 40, "nn": 50, "grad": 50, "layout": 16, "more": 40}
# the heavy run: four times as many, but layout's tensors are large (up to 40,000 values each)
HEAVY = {family: n * (2 if family == "layout" else 4) for family, n in COUNTS.items()}


def _run_family(page_harness, family, n, reverse=False):
    cases = fuzz.cases(family, n)
    tf.set_backend("cpu")
    want = [fuzz.run_cpu(c) for c in cases]
    payload = [{"src": c["src"], "inputs": [fuzz.encode(x) for x in c["inputs"]]} for c in cases]
    out = page_harness.run(fuzz.PAGE_RUNNER, filename=f"<fuzz {family}>", cases=payload, reverse=reverse)
    assert out["backend"] == "webgl"
    assert not out["leaks"], f"{family}: tensors leaked in the page (case, number): {out['leaks']}"
    problems = [p for c, w, g in zip(cases, want, out["results"]) if (p := fuzz.compare(c, w, g))]
    errors = sum(isinstance(w, tuple) for w in want)
    print(f"fuzz {family}: {len(cases)} cases ({errors} raising on both), {len(problems)} differ")
    assert not problems, f"{len(problems)} of {len(cases)} {family} cases differ:\n" + "\n".join(problems[:8])


@pytest.mark.parametrize("family", list(COUNTS))
def test_fuzz_cpu_vs_webgl(page_harness, family):
    _run_family(page_harness, family, COUNTS[family])


@pytest.mark.fuzz_heavy
@pytest.mark.parametrize("family", list(COUNTS))
def test_fuzz_cpu_vs_webgl_heavy(page_harness, family):
    _run_family(page_harness, family, HEAVY[family])
    # the same cases again, backwards, each program compiled afresh (see fuzz.PAGE_RUNNER)
    _run_family(page_harness, family, HEAVY[family], reverse=True)
