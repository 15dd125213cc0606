"""`pytfweb ops`: the coverage of TF.js 4.22's kernels and functions."""
import json

import pytfweb as tf
from pytfweb.host import coverage


def test_kernel_statuses_follow_the_registries():
    table = coverage.kernel_table()
    api = coverage.tfjs_api()
    assert {row[0] for row in table} == set(api["kernels_cpu"]) | set(api["kernels_webgl"])
    for kernel, _, _, here_cpu, here_webgl in table:
        assert here_cpu == (tf.get_kernel(kernel, "cpu") is not None)
        assert here_webgl == (tf.get_kernel(kernel, "webgl") is not None)
    add = next(row for row in table if row[0] == "Add")
    assert add == ("Add", True, True, True, True)


def test_op_statuses_follow_the_namespaces():
    rows = {(ns, py): here for ns, _, py, here in coverage.op_table()}
    assert rows[("tf", "mat_mul")] is True
    assert rows[("train", "adam")] is True
    assert rows[("tf", "load_graph_model")] is (callable(getattr(tf, "load_graph_model", None)))


def test_command_prints_table_and_totals(capsys):
    assert coverage.main([]) == 0
    out = capsys.readouterr().out
    assert "BatchMatMul" in out and "tf.mat_mul" in out and "kernels on webgl:" in out
    assert coverage.main(["--json"]) == 0
    totals = json.loads(capsys.readouterr().out)
    done, total = totals["kernels_cpu"]
    assert 0 < done <= total == len(coverage.tfjs_api()["kernels_cpu"])


def test_missing_lists_only_missing(capsys):
    coverage.main(["--missing"])
    out = capsys.readouterr().out
    assert "tf.mat_mul " not in out
    assert "MISSING" in out


def test_namespaces_count_as_present():
    # tf.train is a module here (TF.js lists it among the top-level names): present, not missing.
    rows = {(ns, py): here for ns, _, py, here in coverage.op_table()}
    assert rows[("tf", "train")] is True


def test_spec_coverage_counts_cases_per_package_and_backend(tmp_path, capsys):
    """`pytfweb ops --specs`: report.json's statuses and the results files' outcomes, per package."""
    from pytfweb import cli
    from pytfweb.host import spec_coverage
    pkg = tmp_path / "core"
    (pkg / "results-cpu").mkdir(parents=True)
    report = [
        {"id": "a::x", "file": "a", "package": "core ops", "status": "translated"},
        {"id": "a::y", "file": "a", "package": "core ops", "status": "translated"},
        {"id": "a::z", "file": "a", "package": "core ops", "status": "not_applicable", "reason": "r"},
        {"id": "b::g", "file": "b", "package": "core gradients", "status": "hand", "reason": "r"},
        {"id": "b::line 3", "file": "b", "package": "core gradients", "status": "untranslated", "reason": "r",
         "count": 2},
    ]
    (pkg / "report.json").write_text(json.dumps(report))
    (pkg / "results-cpu" / "a.json").write_text(json.dumps(
        {"results": {"a::x": None, "a::y": "AssertionError: no", "b::g": "skip: webgl only"}}))
    rows = spec_coverage.table(str(tmp_path))
    assert rows["core ops"] == dict(files=1, cases=3, translated=2, not_applicable=1, cpu_run=2, cpu_passed=1)
    assert rows["core gradients"]["cases"] == 3 and rows["core gradients"]["untranslated"] == 2
    assert "cpu_run" not in rows["core gradients"]
    assert rows["all"]["cases"] == 6
    assert cli.main(["ops", "--specs", "--specs-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "core ops" in out and "2/1" in out
    assert spec_coverage.main(["--specs-dir", str(tmp_path / "none")]) == 1
