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
