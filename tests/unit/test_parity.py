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


def test_every_deviation_case_states_what_pytfweb_gives():
    missing = [c["id"] for c in CASES if c.get("deviation") and not c.get("expect")]
    assert not missing, f"deviation cases with no expect entry in their module: {missing}"
    stray = [c["id"] for c in CASES if c.get("expect") and not c.get("deviation")]
    assert not stray, f"expect entries on cases that are not deviations: {stray}"


# --- runner.check itself: what it must reject ---------------------------------------------------------------
T1 = {"tensor": [1.0, 2.0], "shape": [2], "dtype": "float32"}
T2 = {"tensor": [1.0, 2.5], "shape": [2], "dtype": "float32"}


@pytest.mark.parametrize("message, kind, want", [
    ("Argument 'x' passed to 'sin' must be float32 tensor, but got int32 tensor", "Error", "TypeError"),
    ("Argument 'a' passed to 'add' must be numeric tensor, but got string tensor", "Error", "TypeError"),
    ("Operands could not be broadcast together with shapes 3 and 2.", "Error", "ValueError"),
    ("Error in localResponseNormalization: depthRadius must be an integer but got depthRadius 1.5.", "Error",
     "TypeError"),
    ("If provided, numClasses must be a positive integer, but got -1", "Error", "ValueError"),
    ("yx is not a valid third argument to meshgrid", "TypeError", "TypeError"),     # TF.js throws a TypeError itself
    ("Cannot read properties of undefined (reading 'real')", "TypeError", "ValueError"),   # a crash says nothing
    ("Invalid array length", "RangeError", "ValueError"),
])
def test_tfjs_error_type(message, kind, want):
    assert runner.tfjs_error_type({}, {"error": message, "error_kind": kind}) == want
    assert runner.tfjs_error_type({"error": "RuntimeError"}, {"error": message, "error_kind": kind}) == "RuntimeError"


def test_check_compares_the_error_type_where_tfjs_raises():
    ref = {"error": "Argument 'x' passed to 'sin' must be float32 tensor, but got int32 tensor", "error_kind": "Error"}
    case = {"error": True}
    assert runner.check(case, ref, {"error": "TypeError: sin: argument 'x' must be a float32 tensor"}) is None
    assert "is a TypeError" in runner.check(case, ref, {"error": "ValueError: sin: bad"})
    assert "returns a result" in runner.check(case, ref, {"outputs": T1})
    assert "TF.js returns" in runner.check({"error": True}, {"outputs": T1}, {"outputs": T1})   # a stale mark


@pytest.mark.parametrize("expect, got, complaint", [
    ({"error": "ValueError"}, {"outputs": T1}, "returns a result"),
    ({"error": "ValueError"}, {"error": "TypeError: x"}, "raises TypeError"),
    ({"outputs": T1}, {"outputs": T2}, "value [1]"),
    ({"outputs": T1}, {"error": "ValueError: x"}, "documents a result"),
    ({"outputs": "tfjs", "grads": "numeric"}, {"outputs": T2, "grad_error_numeric": 0.0}, "value [1]"),
    ({"outputs": "tfjs", "grads": "numeric"}, {"outputs": T1, "grad_error_numeric": 0.5}, "centred differences"),
    ({"outputs": "tfjs", "grads": "numeric"}, {"outputs": T1}, "centred differences"),
    ({"outputs": "tfjs", "grads": [T1]}, {"outputs": T1, "grads": [T2]}, "gradient (as documented)"),
    (None, {"outputs": T1}, "must state what pytfweb gives"),
])
def test_check_holds_a_deviation_case_to_what_pytfweb_documents(expect, got, complaint):
    case = {"deviation": "a reason", "expect": expect}
    ref = {"outputs": T1, "grads": [T2]}
    assert complaint in (runner.check(case, ref, got) or "no complaint")
    right = ({"error": "ValueError: x"} if expect and "error" in expect
             else {"outputs": T1, "grad_error_numeric": 0.0, "grads": [T1]})
    if expect is not None:
        assert runner.check(case, ref, right) is None


def test_a_backend_may_document_its_own_answer():
    """abs of int32 past 2**24: exact on cpu and webgpu, TF.js's float32 rounding on webgl's textures."""
    case = {"deviation": "a reason", "expect": {"outputs": T1, "webgl": {"outputs": "tfjs"}}}
    assert runner.check(case, {"outputs": T2}, {"outputs": T1}) is None
    assert runner.check(case, {"outputs": T2}, {"outputs": T1}, "gpu", "webgpu") is None
    assert "value [1]" in runner.check(case, {"outputs": T2}, {"outputs": T1}, "gpu", "webgl")
    assert runner.check(case, {"outputs": T2}, {"outputs": T2}, "gpu", "webgl") is None
