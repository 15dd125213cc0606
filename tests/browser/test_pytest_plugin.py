"""The pytest plugin as a user meets it: pytest run in a subprocess on a copy of examples/testing
(the example project passes on cpu, webgl and webgpu, leak check on) with a file of the user's
own cases added: a failing assert (its expression, values, file:line and the page's output in the
report), an error in a helper, a leak, an async test, a test that skips itself, timeouts (a loop
and an await), a served folder, the Playwright page. One pytest run, one Chromium; outcomes read from JUnit XML."""
import shutil
import textwrap
from pathlib import Path

import pytest

from tests.unit.test_pytest_plugin import junit_outcomes, run_pytest

from .webgpu_gate import webgpu_required

ROOT = Path(__file__).resolve().parents[2]

USER_CASES = textwrap.dedent('''\
    import asyncio

    import pytest

    import classifier
    import pytfweb as tf

    LIMIT = 7


    def total(values):
        return sum(values)


    def broken(x):
        raise ValueError(f"broken helper got {x}")


    @pytest.fixture
    def greeting(tf_files):
        (tf_files.path / "hello.txt").write_text("hello from the host")
        return tf_files.url + "hello.txt"


    @pytest.mark.pytfweb(backends=["cpu", "webgl"])
    def test_fails(tf_backend):
        print("printed in the test on", tf_backend)
        t = tf.tensor([1.0, 2.0, 3.0])
        assert total(t.data_sync()) == LIMIT, "the sum is off"


    @pytest.mark.pytfweb(backends=["webgl"])
    def test_errors(tf_backend):
        broken(classifier.CLASSES)


    @pytest.mark.pytfweb(backends=["webgl"])
    def test_skips_itself(tf_backend):
        pytest.skip("not on this machine")


    @pytest.mark.pytfweb(backends=["webgl"], timeout=2)
    def test_loops_forever(tf_backend):
        n = 0
        while True:
            n += 1


    @pytest.mark.pytfweb(backends=["webgl"], timeout=2)
    async def test_awaits_forever(tf_backend):
        await asyncio.sleep(3600)


    @pytest.mark.pytfweb(backends=["cpu", "webgl"])
    async def test_reads_a_served_file(tf_backend, greeting):
        try:
            from pyodide.http import pyfetch
        except ImportError:
            import urllib.request
            text = urllib.request.urlopen(greeting).read().decode()
        else:
            text = await (await pyfetch(greeting)).string()
        assert text == "hello from the host"


    @pytest.mark.pytfweb(backends=["webgl"])
    def test_leaks(tf_backend):
        kept = tf.tensor([1.0, 2.0])


    @pytest.mark.pytfweb(backends=["webgl"])
    def test_takes_the_served_folder(tf_backend, tf_files):
        assert tf_files.url.startswith("http://127.0.0.1:") and tf_files.url.endswith("/")


    @pytest.mark.pytfweb(backends=["cpu", "webgl"])
    def test_drives_the_page(tf_backend, tf_page):
        assert tf_page.evaluate("() => pytfweb.pyodide.runPython('tf.get_backend()')") == "webgl"
    ''')


def line_of(text):
    """The line number of `text` in USER_CASES."""
    (number,) = [i for i, line in enumerate(USER_CASES.splitlines(), 1) if line.strip() == text]
    return number


@pytest.fixture(scope="module")
def user_run(tmp_path_factory):
    project = tmp_path_factory.mktemp("user_project")
    shutil.copytree(ROOT / "examples" / "testing", project, dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("__pycache__"))
    (project / "tests" / "test_user_cases.py").write_text(USER_CASES)
    r = run_pytest(project, "--junitxml=out.xml", "-rA", "--pytfweb-check-leaks")
    return r, junit_outcomes(project / "out.xml", "tests.test_user_cases"), project


def test_the_example_project_passes_on_every_backend(user_run):
    r, _, project = user_run
    example = junit_outcomes(project / "out.xml", "tests.test_model")
    assert len(example) == 15, sorted(example)
    for name, (outcome, message) in example.items():
        if name.endswith("[webgpu]") and outcome == "skipped" and not webgpu_required():
            assert "no WebGPU" in message, message
            continue
        assert outcome == "passed", f"{name}: {outcome}\n{message}\n{r.stdout[-3000:]}"


def test_a_failed_assert_in_the_page_reads_as_pytests(user_run):
    r, outcomes, project = user_run
    outcome, message = outcomes["test_fails[webgl]"]
    assert outcome == "failure"
    path = project / "tests" / "test_user_cases.py"
    line = line_of('assert total(t.data_sync()) == LIMIT, "the sum is off"')
    assert f'File "{path}", line {line}, in test_fails' in message, message
    assert "the sum is off\nassert 6.0 == 7\n  where 6.0 = total(t.data_sync())\n  and 7 = LIMIT" in message
    # the page's output, attached to the report
    section = r.stdout.split("Captured pytfweb page call")[1]
    assert section.split("\n", 1)[1].startswith("printed in the test on webgl"), r.stdout
    assert outcomes["test_fails[cpu]"][0] == "failure"


def test_errors_skips_timeouts_files_and_the_page(user_run):
    r, outcomes, project = user_run
    path = project / "tests" / "test_user_cases.py"
    outcome, message = outcomes["test_errors[webgl]"]
    assert outcome == "failure"
    call, raised = line_of("broken(classifier.CLASSES)"), line_of('raise ValueError(f"broken helper got {x}")')
    assert f'File "{path}", line {call}, in test_errors' in message, message
    assert f'File "{path}", line {raised}, in broken' in message, message
    assert "ValueError: broken helper got 3" in message
    outcome, message = outcomes["test_skips_itself[webgl]"]
    assert outcome == "skipped" and "not on this machine" in message
    outcome, message = outcomes["test_loops_forever[webgl]"]
    assert outcome == "failure" and "TimeoutError: the test ran past its timeout of 2 s" in message, message
    loop = (line_of("while True:"), line_of("n += 1"))
    assert any(f'File "{path}", line {n}, in test_loops_forever' in message for n in loop), message
    outcome, message = outcomes["test_awaits_forever[webgl]"]
    assert outcome == "failure" and "still awaiting after its timeout of 2 s" in message, message
    for name in ("test_reads_a_served_file[cpu]", "test_reads_a_served_file[webgl]",
                 "test_takes_the_served_folder[webgl]", "test_drives_the_page[webgl]"):
        assert outcomes[name][0] == "passed", f"{name}: {outcomes[name]}"
    outcome, message = outcomes["test_leaks[webgl]"]
    assert outcome == "failure" and "leak on webgl (--pytfweb-check-leaks): tf.memory() went from 0 tensors / " \
        "0 data buffers to 1 / 1 during the test" in message, message
    assert "test_drives_the_page[cpu]" not in outcomes   # a test of the page has no cpu case
    # the page went on after the timeouts: tests after them in the file passed
    assert r.returncode == 1
