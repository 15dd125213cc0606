"""`pytfweb bench` runs and reports (its timings are never judged here: they are for people)."""
import re
import subprocess
import sys

import pytest


def _bench(*args):
    return subprocess.run([sys.executable, "-m", "pytfweb.cli", "bench", *args], capture_output=True,
                          text=True, timeout=600)


def test_webgl_bench_reports_a_ratio_against_tfjs():
    r = _bench("--only", "dispatch", "--runs", "1")
    assert r.returncode == 0, r.stderr
    row = next(line for line in r.stdout.splitlines() if line.startswith("dispatch"))
    assert re.search(r"\d+\.\d\s+\d+\.\d\s+\d+\.\d\d$", row), row   # pytfweb ms, TF.js ms, ratio
    assert "cold start" in r.stdout and "SwiftShader" in r.stdout
    assert "LEAK" not in r.stdout, r.stdout


def test_webgpu_bench_reports_a_ratio_against_tfjs_webgpu():
    """pytfweb on webgpu beside TF.js's own WebGPU backend (@tensorflow/tfjs-backend-webgpu) in the
    same Chromium: the header names the adapter, the row has both times and the ratio. (The bench
    checks for an adapter itself: this test does not start the session's browser, whose sync
    Playwright would then be running when test_data_devices launches its own.)"""
    r = _bench("--backend", "webgpu", "--only", "dispatch", "--runs", "1")
    if r.returncode != 0 and "gives no WebGPU adapter" in r.stdout + r.stderr:
        pytest.skip("no WebGPU adapter in this Chromium: pytfweb bench --backend webgpu cannot run here")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "TF.js 4.22's webgpu backend" in r.stdout and "WebGPU adapter: " in r.stdout, r.stdout
    row = next(line for line in r.stdout.splitlines() if line.startswith("dispatch"))
    assert re.search(r"\d+\.\d\s+\d+\.\d\s+\d+\.\d\d$", row), row   # pytfweb ms, TF.js ms, ratio
    assert "cold start" in r.stdout and "LEAK" not in r.stdout, r.stdout


def test_mobilenet_first_run_builds_the_same_model_on_both_sides():
    """The first-run case (fresh Chromium, one predict per side; ~1 min on SwiftShader): both pages
    build MobileNet v1 1.0 with Keras's parameter count, predict, read back and dispose it all. The
    steady case has the same setup and body, run by the loop the dispatch case runs through."""
    r = _bench("--only", "mobilenet v1 1.0 224x224x3: first run", "--runs", "1")
    assert r.returncode == 0, r.stderr
    row = next(line for line in r.stdout.splitlines() if line.startswith("MobileNet"))
    assert re.search(r"\d+\.\d\s+\d+\.\d\s+\d+\.\d\d   \(params: 4253864; once, fresh Chromium", row), row
    assert "steady" not in r.stdout and "LEAK" not in r.stdout, r.stdout


def test_training_steps_build_the_same_models_and_leave_nothing():
    """The training cases (model.train_on_batch with adam on both sides): same parameter counts
    as TF.js's twins (MLP, convnet, and Keras's 475,544 for MobileNet v1 0.25), no tensor left
    after the case."""
    r = _bench("--only", "train step", "--runs", "1")
    assert r.returncode == 0, r.stderr
    rows = [line for line in r.stdout.splitlines() if line.startswith("train step")]
    assert len(rows) == 3, r.stdout
    for row, params in zip(rows, (109386, 5994, 475544)):
        assert re.search(rf"\d+\.\d\s+\d+\.\d\s+\d+\.\d\d   \(params: {params}\)$", row), row
    assert "LEAK" not in r.stdout, r.stdout


def test_cpu_bench_reports_overhead_over_numpy():
    r = _bench("--backend", "cpu", "--runs", "1")
    assert r.returncode == 0, r.stderr
    assert re.search(r"mat_mul 1024x1024\s+\d+\.\d\d\s+\d+\.\d\d\s+\d+\.\d\d", r.stdout), r.stdout


def test_model_load_case_reads_pytfweb_files_in_both_pages():
    """Both pages load MobileNet v1, written by pytfweb in TF.js's layers format, over http://; TF.js's
    own loadLayersModel reading them (an error there fails the run) checks the files' format."""
    r = _bench("--only", "load (http", "--runs", "1")
    assert r.returncode == 0, r.stderr
    row = next(line for line in r.stdout.splitlines() if line.startswith("MobileNet v1 load"))
    assert re.search(r"\d+\.\d\s+\d+\.\d\s+\d+\.\d\d$", row), row
    assert "LEAK" not in r.stdout, r.stdout


def test_breakdown_puts_a_case_time_in_parts():
    """--breakdown profiles a steady case in the page: every part gets a time, the parts add up to
    the profiled total, the top functions are listed, and nothing is left behind (the case's
    teardown runs)."""
    r = _bench("--breakdown", "--only", "dispatch", "--runs", "2")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    head = re.search(r"dispatch: 1000 chained add \(64\) \+ readback: ([\d.]+) ms a run \(plain\); "
                     r"profiled ([\d.]+) ms a run", out)
    assert head, out
    parts = dict(re.findall(r"^  (JS calls \+ GL|kernels|engine|ops \+ above|Python runtime|outside Python)"
                            r"\s+([\d.]+) ms", out, re.M))
    assert len(parts) == 6, out
    assert abs(sum(map(float, parts.values())) - float(head.group(2))) < 0.1 * len(parts), out
    assert float(parts["engine"]) > 0 and float(parts["ops + above"]) > 0, out
    assert float(parts["JS calls + GL"]) > 0, out      # the draws and the read
    # the top functions by own time (which ones lead varies from run to run)
    top = re.findall(r"^ +[\d.]+ +[\d.]+  (\S+):\d+\(", out, re.M)
    assert len(top) == 12 and any(f.startswith(("backends/", "core/engine.py", "ops/")) for f in top), out
