"""TF.js parity on the cpu backend: every case of tests/parity/cases, called with TF.js's positional
order (and options as keyword arguments and as one dict), gives TF.js 4.22's shapes, dtypes, values
and gradients (references made by TF.js itself under node: tests/parity/generate.py)."""
import asyncio
import json
import os

import pytest

import pytfweb as tf
from tests.parity import runner
from tests.parity.cases import all_cases
from tests.parity.generate import references

CASES = all_cases()
NAMES = json.load(open(os.path.join(os.path.dirname(tf.__file__), "data", "tfjs-4.22-api.json")))["python_names"]


@pytest.fixture(scope="module")
def refs():
    return references(CASES)


README = open(os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                           "README.md"), encoding="utf-8").read()


def test_every_deviation_is_in_the_readme():
    missing = [f"{c['id']}: {c['deviation']}" for c in CASES if c.get("deviation") and c["deviation"] not in README]
    assert not missing, "deviations the README does not list:\n" + "\n".join(missing)


def test_every_function_without_a_case_says_where_it_is_tested():
    from tests.parity.generate import ELSEWHERE, coverage_by_namespace
    missing = [m for row in coverage_by_namespace(CASES) for m in row[4]]
    unexplained = [m for m in missing if m not in ELSEWHERE]
    assert not unexplained, f"functions with no parity case and no entry in generate.ELSEWHERE: {unexplained}"
    stale = sorted(set(ELSEWHERE) - set(missing))
    assert not stale, f"generate.ELSEWHERE lists functions that have parity cases now: {stale}"
    for m in missing:   # each exists in pytfweb (what is tested elsewhere must be there to test)
        ns, name = m.split(".")[1:]
        assert hasattr(getattr(tf, ns), NAMES[ns][name]), f"pytfweb has no {m}"


@pytest.mark.parametrize("case", CASES, ids=[f"{c['family']}:{c['id']}" for c in CASES])
def test_matches_tfjs_on_cpu(refs, case):
    before = tf.memory()["num_tensors"]
    if runner.is_async(case):
        got = asyncio.run(runner.run_case_async(tf, case, NAMES))
    else:
        got = runner.run_case(tf, case, NAMES)
    assert tf.memory()["num_tensors"] == before, "tensors leaked"
    problem = runner.check(case, refs[case["id"]], got, "cpu")
    assert problem is None, f"{case['fn']}{json.dumps(case['args'])[:200]}: {problem}"
