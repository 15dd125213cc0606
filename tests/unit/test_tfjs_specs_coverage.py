"""The cached coverage table of `pytfweb ops --specs` (pytfweb/host/spec_coverage.py) as the spec
tests write it (tests/tfjs_specs/coverage.py): every run replaces only what it ran, so runs of
some files, of one backend, or without TFJS_SRC leave the other columns' last real results."""
import json

from pytfweb.host import spec_coverage
from tests.tfjs_specs import coverage


def _rows(prefix, n_passed, failed=(), not_applicable=0):
    return ([(f"{prefix} :: ok {i}", "passed", "") for i in range(n_passed)]
            + [(f"{prefix} :: bad {i}", "failed", err) for i, err in enumerate(failed)]
            + [(f"{prefix} :: na {i}", "not applicable", "an internal") for i in range(not_applicable)])


def test_each_run_replaces_only_what_it_ran(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(coverage, "_build", lambda package: str(tmp_path / package))
    a, b = "tfjs-layers/src/a_test.ts", "tfjs-layers/src/b_test.ts"
    coverage.record("layers", a, _rows("a_test.ts", 3, ["AssertionError: no"]))
    coverage.record("layers", b, _rows("b_test.ts", 0, not_applicable=4))   # counted on cpu only
    coverage.record("converter", "tfjs-converter/src/c_test.ts", _rows("c_test.ts", 2))
    # a GPU run of one file, which runs a case cpu cannot (translated either way), then unit runs without TFJS_SRC
    coverage.record("layers", a, _rows("a_test.ts", 3) + [("a_test.ts :: bad 0", "passed", ""),
                                                        ("a_test.ts :: page", "passed", "")], "webgl")
    coverage.record("layers", a, _rows("a_test.ts", 3, ["AssertionError: no"]) + [
        ("a_test.ts :: page", "skipped", "it runs in the page")])
    coverage.record_not_run("layers")
    coverage.record_not_run("converter")

    rows = spec_coverage.table(str(tmp_path))
    assert rows["layers"] == dict(files=2, cases=9, translated=5, not_applicable=4, cpu_run=4, cpu_passed=3,
                                  webgl_run=5, webgl_passed=5)
    assert rows["converter executors"]["cpu_passed"] == 2
    times = spec_coverage.measured(str(tmp_path))
    assert set(times["layers"]) == {"cpu", "webgl"} and set(times["converter executors"]) == {"cpu"}
    assert spec_coverage.main(["--specs-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "converter executors: not run: no tfjs-v4.22.0 checkout" in out
    assert "its row is from the last runs that executed it" in out
    # report.json gathers the files' cases for reading by hand
    report = json.loads((tmp_path / "layers" / "report.json").read_text())
    assert sorted({r["file"] for r in report}) == [a, b]

    # a real run takes the note away again
    coverage.record("layers", b, _rows("b_test.ts", 0, not_applicable=4))
    assert not (tmp_path / "layers" / "not_run.json").exists()


def test_a_package_that_never_ran_says_so(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(coverage, "_build", lambda package: str(tmp_path / package))
    coverage.record_not_run("layers")
    rows = spec_coverage.table(str(tmp_path))
    assert rows["layers"]["cases"] == 0 and rows["layers"]["not_run"] == 0
    spec_coverage.main(["--specs-dir", str(tmp_path)])
    out = capsys.readouterr().out
    assert "layers: not run" in out and "its row is from" not in out


def test_a_report_of_the_older_form_keeps_its_other_files(tmp_path, monkeypatch):
    """Before cases/ there was only report.json, rewritten whole: its entries carry over."""
    monkeypatch.setattr(coverage, "_build", lambda package: str(tmp_path / package))
    (tmp_path / "layers").mkdir()
    old = [{"id": f"{f}_test.ts :: x", "file": f"tfjs-layers/src/{f}_test.ts", "package": "layers",
            "status": "not_applicable", "reason": "r"} for f in ("a", "b")]
    (tmp_path / "layers" / "report.json").write_text(json.dumps(old))
    coverage.record("layers", "tfjs-layers/src/a_test.ts", _rows("a_test.ts", 1))
    rows = spec_coverage.table(str(tmp_path))
    assert rows["layers"] == dict(files=2, cases=2, translated=1, not_applicable=1, cpu_run=1, cpu_passed=1)
