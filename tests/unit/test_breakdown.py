"""host/breakdown.py's bookkeeping (the page side runs in tests/browser/test_bench.py)."""
from pytfweb.host import breakdown


def test_files_go_to_their_parts():
    site = "/lib/python3.14/site-packages/pytfweb/"
    assert breakdown.part_of(site + "backends/webgl/gpgpu_context.py") == "JS calls + GL"
    assert breakdown.part_of(site + "backends/gpu/js_program.py") == "JS calls + GL"
    assert breakdown.part_of(site + "backends/webgl/programs/fusion.py") == "kernels"
    assert breakdown.part_of(site + "backends/cpu/kernels/math.py") == "kernels"
    assert breakdown.part_of(site + "core/engine.py") == "engine"
    assert breakdown.part_of(site + "core/tape.py") == "engine"
    assert breakdown.part_of(site + "kernels/__init__.py") == "engine"
    assert breakdown.part_of(site + "kernels/conv_geometry.py") == "kernels"
    assert breakdown.part_of(site + "core/plan.py") == "plan replay"
    assert breakdown.part_of(site + "core/function.py") == "plan replay"
    assert breakdown.part_of(site + "ops/elementwise.py") == "ops + above"
    assert breakdown.part_of(site + "layers/training.py") == "ops + above"
    assert breakdown.part_of(site + "converter/executor.py") == "graph model"
    assert breakdown.part_of("/lib/python314.zip/asyncio/events.py") == "Python runtime"
    assert breakdown.part_of("~") == "Python runtime"


def test_summary_per_run_and_time_outside_python():
    site = "/lib/python3.14/site-packages/pytfweb/"
    report = {"wall_ms": 100.0, "plain_ms": 30.0, "functions": [
        [site + "backends/webgl/gpgpu_context.py", 148, "draw", 40, 20.0],
        [site + "core/engine.py", 226, "run_kernel", 40, 10.0],
        ["~", 0, "<built-in method builtins.len>", 400, 4.0],
    ]}
    per_part, top, plain, gl, replays = breakdown.summarize(report, runs=2)
    assert plain == 30.0 and gl["draws"] == 20.0 and gl["uploads"] == 0.0
    assert per_part["JS calls + GL"] == 10.0 and per_part["engine"] == 5.0
    assert per_part["Python runtime"] == 2.0 and per_part["kernels"] == 0.0
    assert per_part["outside Python"] == 50.0 - 17.0
    assert top[0] == (10.0, 20.0, "backends/webgl/gpgpu_context.py:148(draw)")
    assert replays is None     # nothing was replayed


def test_replays_are_counted_with_what_they_ran(capsys):
    """Plan.run's own time is the plan replay part; its time with the kernels it called is a line
    of its own."""
    site = "/lib/python3.14/site-packages/pytfweb/"
    report = {"wall_ms": 40.0, "plain_ms": 15.0, "functions": [
        [site + "core/plan.py", 453, "run", 2, 6.0, 30.0],
        [site + "core/function.py", 91, "__call__", 2, 2.0, 32.0],
        [site + "backends/webgl/gpgpu_context.py", 148, "draw", 2000, 20.0, 20.0],
    ]}
    per_part, top, plain, gl, replays = breakdown.summarize(report, runs=2)
    assert per_part["plan replay"] == 4.0 and per_part["JS calls + GL"] == 10.0
    assert replays == (1.0, 15.0)
    breakdown.print_breakdown("case (traced)", per_part, top, plain, gl, replays=replays)
    out = capsys.readouterr().out
    assert "plan replay          4.00 ms" in out
    assert ("Plan.run (replays of traced functions): 1 a run, 15.00 ms a run with the kernels they ran"
            in out)


def test_first_run_reports_no_plain_time(capsys):
    """A first-run case is profiled once in a fresh page: there is no plain median to show."""
    report = {"wall_ms": 10.0, "plain_ms": None, "functions": []}
    per_part, top, plain, gl, replays = breakdown.summarize(report, runs=1)
    assert plain is None and per_part["outside Python"] == 10.0
    breakdown.print_breakdown("case", per_part, top, plain, gl)
    assert "one run, fresh Chromium" in capsys.readouterr().out


def test_kernels_are_listed_beside_tfjs_counts(capsys):
    """Kernels by time, with TF.js's count of each; a kernel only TF.js ran gets a row of its own."""
    per_part = dict.fromkeys(breakdown.PARTS, 1.0)
    peer = {"plain_ms": 12.5, "draws": 30, "kernels": {"FusedConv2D": 4, "Reshape": 7}}
    breakdown.print_breakdown("zoo x: steady predict", per_part, [], 10.0, None,
                              {"FusedConv2D": [4, 8.0], "Add": [2, 1.0]}, 27, peer)
    out = capsys.readouterr().out
    assert "10.0 ms a run (plain), TF.js 12.5 ms; profiled 8.0 ms a run" in out
    assert "draws in one run: pytfweb 27, TF.js 30" in out and "6 kernels, 9.0 ms; TF.js 11 kernels" in out
    rows = [line.split() for line in out.splitlines() if line.startswith("    ") and line.split()[0] in
            ("FusedConv2D", "Add", "Reshape")]
    assert rows == [["FusedConv2D", "4", "8.00", "2.000", "4"], ["Add", "2", "1.00", "0.500", "0"],
                    ["Reshape", "0", "0.00", "7"]]
