"""Differential fuzzing, cpu (here) against webgpu (in the page), with tests/fuzz.py's cases and
page runner (as test_fuzz_webgl.py does for webgl). A case that needs a kernel webgpu does not
have yet (NotImplementedError naming it) is counted and listed, not compared: every other case
must match cpu. int32 values stay within +-2^24 there (fuzz.py draws for webgl's limits; the
int32 limits are tested in test_webgpu_elementwise.py)."""
import collections
import re

import pytest

import pytfweb as tf

from .. import fuzz
from .test_fuzz_webgl import COUNTS
from .test_webgpu_backend import webgpu  # noqa: F401  (fixture)


def _run_family(run, family, n, reverse=False):
    cases = fuzz.cases(family, n)
    tf.set_backend("cpu")
    want = [fuzz.run_cpu(c) for c in cases]
    payload = [{"src": c["src"], "inputs": [fuzz.encode(x) for x in c["inputs"]]} for c in cases]
    out = run(fuzz.PAGE_RUNNER, filename=f"<fuzz webgpu {family}>", cases=payload, reverse=reverse)
    assert out["backend"] == "webgpu"
    assert not out["leaks"], f"{family}: tensors leaked in the page (case, number): {out['leaks']}"
    missing = collections.Counter()
    problems = []
    for c, w, g in zip(cases, want, out["results"]):
        if g and isinstance(g[0], str) and g[1] == "NotImplementedError" and "backend 'webgpu'" in g[2]:
            missing[re.search(r"Kernel '(\w+)'", g[2]).group(1)] += 1
            continue
        p = fuzz.compare(c, w, g)
        if p:
            problems.append(p.replace("webgl", "webgpu"))
    compared = len(cases) - sum(missing.values())
    print(f"fuzz webgpu {family}: {len(cases)} cases, {compared} compared, {len(problems)} differ; "
          f"not native yet: {dict(missing)}")
    assert not problems, f"{len(problems)} of {compared} {family} cases differ:\n" + "\n".join(problems[:8])
    return compared


@pytest.mark.parametrize("family", list(COUNTS))
def test_fuzz_cpu_vs_webgpu(webgpu, family):
    _run_family(webgpu, family, COUNTS[family])


@pytest.mark.parametrize("family", ["unary", "binary", "reduction", "shape", "matmul"])
def test_fuzz_backwards_through_a_cleared_pipeline_cache(webgpu, family):
    # a pipeline compiled for a later case and wrongly reused (a key missing something baked
    # into the code) shows up the other way round
    _run_family(webgpu, family, COUNTS[family], reverse=True)
