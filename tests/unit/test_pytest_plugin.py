"""The pytest plugin's parts that need no browser: what is shipped to the page (pytfweb.host.shipped:
the selected source, asserts rewritten with the user's line numbers), pytfweb.testing's assertions
for users, and the plugin run by pytest in a subprocess on the cpu backend alone (ids, options,
the leak check, JUnit XML). tests/browser/test_pytest_plugin.py runs it on webgl and webgpu."""
import os
import subprocess
import sys
import textwrap
import xml.etree.ElementTree as ET
from importlib import metadata
from pathlib import Path

import pytest

import pytfweb as tf
from pytfweb import testing
from pytfweb.host import shipped

ROOT = Path(__file__).resolve().parents[2]

MODULE = textwrap.dedent('''\
    import math
    from os import path

    SCALE = 3
    UNUSED = 4


    def helper(x):
        return inner(x) * SCALE


    def inner(x):
        return x + 1


    def unused():
        return UNUSED


    @decorated
    def test_it(a):
        assert helper(a) == math.pi, "off"
    ''')


def test_select_source_keeps_imports_the_test_and_what_it_uses_on_their_lines():
    code = shipped.select_source(MODULE, "test_it")
    original, kept = MODULE.splitlines(), code.splitlines()
    assert len(kept) == len(original)
    shown = {i for i, line in enumerate(kept, 1) if line}
    assert shown == {1, 2, 4, 8, 9, 12, 13, 20, 21, 22}
    for i in shown:
        assert kept[i - 1] == original[i - 1]
    with pytest.raises(KeyError, match="no top-level function 'nope'"):
        shipped.select_source(MODULE, "nope")


def _run_shipped(source, name, filename="/somewhere/test_user.py", **kwargs):
    ns = {shipped.HELPER: shipped.explain}
    exec(shipped.compile_test(source, filename), ns)  # noqa: S102 - the test's own source
    return ns[name](**kwargs)


def test_a_failed_comparison_shows_the_expression_the_values_and_the_users_line():
    source = "\n\nLIMIT = 7\n\ndef total(v):\n    return sum(v)\n\ndef test_x(v):\n    assert total(v) == LIMIT, 'the sum is off'\n"
    with pytest.raises(AssertionError) as e:
        _run_shipped(source, "test_x", v=[1, 2, 3])
    assert str(e.value).splitlines() == ["the sum is off", "assert 6 == 7", "  where 6 = total(v)", "  and 7 = LIMIT"]
    frame = e.traceback[-1]
    assert (str(frame.path), frame.lineno + 1) == ("/somewhere/test_user.py", 9)
    _run_shipped(source, "test_x", v=[3, 4])   # a passing assert passes


def test_other_asserts_show_their_value_and_evaluate_once():
    source = ("def test_x(calls):\n"
              "    def bump():\n"
              "        calls.append(1)\n"
              "        return len(calls)\n"
              "    assert bump() in [1]\n"
              "    assert not bump()\n")
    calls = []
    with pytest.raises(AssertionError) as e:
        _run_shipped(source, "test_x", calls=calls)
    assert str(e.value).splitlines() == ["assert False", "  where False = not bump()"]
    assert len(calls) == 2
    assert e.traceback[-1].lineno + 1 == 6


def test_assert_close_uses_tfjs_tolerances():
    x = tf.tensor([1.0, 2.0, float("nan"), float("inf")])
    testing.assert_close(x, [1.0009, 2.0, float("nan"), float("inf")])   # atol 1e-3 (testEpsilon)
    with pytest.raises(AssertionError, match=r"1 of 4 values differ beyond atol=0.001, rtol=0 \(float32 on cpu\)"):
        testing.assert_close(x, [1.002, 2.0, float("nan"), float("inf")])
    testing.assert_close(x, [1.5, 2.0, float("nan"), float("inf")], atol=0.5)
    with pytest.raises(AssertionError, match=r"at \[3\]: actual inf, expected -inf"):
        testing.assert_close(x, [1.0, 2.0, float("nan"), -float("inf")])
    ints = tf.tensor([[1, 2]], dtype="int32")
    with pytest.raises(AssertionError, match=r"at \[0, 1\]: actual 2, expected 3"):
        testing.assert_close(ints, [[1, 3]])   # integers exactly
    with pytest.raises(AssertionError, match=r"shape \[1, 2\] is not the expected \[2, 1\]"):
        testing.assert_close(ints, [[1], [2]])
    testing.assert_close(ints, [1, 2])   # a flat list compares with any shape, as in TF.js
    tf.dispose([x, ints])


def test_assert_equal_checks_dtype_and_values():
    a = tf.tensor([1, 2], dtype="int32")
    b = tf.tensor([1.0, 2.0])
    testing.assert_equal(a, [1, 2])
    with pytest.raises(AssertionError, match="dtype int32 is not the expected float32"):
        testing.assert_equal(a, b)
    with pytest.raises(AssertionError, match="1 of 2 values"):
        testing.assert_equal(b, [1.0, 2.0001])
    tf.dispose([a, b])


def test_check_gradients_and_no_leaks():
    x = tf.tensor([1.0, 2.0, 3.0])
    assert testing.check_gradients(lambda v: tf.mul(v, v), [x]) < 1e-2
    wrong = tf.custom_grad(lambda v, save: {"value": tf.mul(v, v), "grad_func": lambda dy, saved: dy})
    with pytest.raises(AssertionError, match="relative error"):
        testing.check_gradients(wrong, [x])
    with testing.no_leaks():
        tf.dispose(tf.add(x, 1))
    with pytest.raises(AssertionError, match="no_leaks: tf.memory"):
        with testing.no_leaks():
            leaked = tf.add(x, 1)
    tf.dispose([x, leaked])


USER_TESTS = textwrap.dedent('''\
    import pytest
    import pytfweb as tf


    @pytest.mark.pytfweb
    def test_default(tf_backend):
        assert tf.get_backend() == tf_backend


    @pytest.mark.pytfweb(backends=["cpu", "webgl"])
    async def test_async(tf_backend):
        x = tf.tensor([1.0])
        assert list(await x.data()) == [1.0]
        x.dispose()


    @pytest.mark.pytfweb(backends=["cpu"])
    def test_leaks(tf_backend):
        tf.tensor([1.0])
    ''')


def plugin_args():
    """`-p pytfweb.pytest_plugin` where the entry point is not installed (the editable install of
    another checkout); with it installed, loading it twice would be an error."""
    names = {ep.value for ep in metadata.entry_points(group="pytest11")}
    return [] if "pytfweb.pytest_plugin" in names else ["-p", "pytfweb.pytest_plugin"]


def run_pytest(project, *args, timeout=600):
    """pytest in `project` (its own rootdir), importing this checkout's pytfweb."""
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-m", "pytest", *plugin_args(), "-p", "no:cacheprovider", *args],
                          cwd=project, env=env, capture_output=True, text=True, timeout=timeout)


def junit_outcomes(path, module=None):
    """{test name: (outcome, message)} from a JUnit XML file (of the tests of `module` only: its
    dotted name as in the report's classname)."""
    out = {}
    for case in ET.parse(path).getroot().iter("testcase"):
        if module is not None and case.get("classname") != module:
            continue
        outcome, message = "passed", ""
        for tag in ("failure", "error", "skipped"):
            node = case.find(tag)
            if node is not None:
                outcome, message = tag, (node.get("message") or "") + "\n" + (node.text or "")
        out[case.get("name")] = (outcome, message)
    return out


def test_the_plugin_on_cpu_alone(tmp_path):
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    (tmp_path / "test_user.py").write_text(USER_TESTS)
    r = run_pytest(tmp_path, "--pytfweb-backends=cpu", "--pytfweb-check-leaks", "--junitxml=out.xml", "-q")
    assert r.returncode == 1, r.stdout + r.stderr
    outcomes = junit_outcomes(tmp_path / "out.xml")
    assert {name: outcome for name, (outcome, _) in outcomes.items()} == {
        "test_default[cpu]": "passed", "test_async[cpu]": "passed", "test_leaks[cpu]": "failure"}
    assert "leak on cpu (--pytfweb-check-leaks): tf.memory() went from 0 tensors / 0 data buffers to 1 / 1" \
        in outcomes["test_leaks[cpu]"][1]
    # an unknown backend is refused
    r = run_pytest(tmp_path, "--pytfweb-backends=cpu,tpu")
    assert r.returncode == 4 and "--pytfweb-backends: unknown backend(s) ['tpu']" in r.stderr, r.stdout + r.stderr


@pytest.mark.parametrize("required", [False, True])
def test_a_browser_without_webgpu_skips_or_fails_by_the_gate(monkeypatch, required):
    """The page's answer when webgpu cannot be set (no adapter): a skip saying why, or a failure
    where PYTFWEB_REQUIRE_WEBGPU=1; asked once per session."""
    from _pytest.outcomes import Failed, Skipped

    from pytfweb import pytest_plugin
    if required:
        monkeypatch.setenv(pytest_plugin.REQUIRE_ENV, "1")
    else:
        monkeypatch.delenv(pytest_plugin.REQUIRE_ENV, raising=False)
    session = pytest_plugin._Session(None, None, 60.0, False)
    calls = []
    session._call = lambda name, arg: calls.append((name, arg)) or "BackendError: webgpu: no GPU adapter"
    for _ in range(2):
        with pytest.raises(Failed if required else Skipped, match="no WebGPU in this browser: .*no GPU adapter"):
            session.set_backend("webgpu")
    assert calls == [("reset", "webgpu")]
    session._call = lambda name, arg: "BackendError: webgl: the context was lost"
    with pytest.raises(Failed, match="the webgl backend could not be set in the page: .*context was lost"):
        session.set_backend("webgl")
