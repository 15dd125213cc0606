"""`pytfweb bench` runs and reports (its timings are never judged here: they are for people)."""
import re
import subprocess
import sys

import pytest

from .webgpu_gate import no_webgpu


def _bench(*args):
    return subprocess.run([sys.executable, "-m", "pytfweb.cli", "bench", *args], capture_output=True,
                          text=True, timeout=600)


def test_webgl_bench_reports_a_ratio_against_tfjs():
    """The dispatch case eagerly and through tf.function, each beside TF.js."""
    r = _bench("--only", "dispatch", "--runs", "1")
    assert r.returncode == 0, r.stderr
    rows = [line for line in r.stdout.splitlines() if line.startswith("dispatch")]
    assert [row.split("readback ")[1].split()[0] for row in rows] == ["(eager)", "(traced)"], r.stdout
    for row in rows:
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
        no_webgpu("no WebGPU adapter in this Chromium: pytfweb bench --backend webgpu cannot run here")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "TF.js 4.22's webgpu backend" in r.stdout and "WebGPU adapter: " in r.stdout, r.stdout
    row = next(line for line in r.stdout.splitlines() if line.startswith("dispatch"))
    assert re.search(r"\d+\.\d\s+\d+\.\d\s+\d+\.\d\d$", row), row   # pytfweb ms, TF.js ms, ratio
    assert "cold start" in r.stdout and "LEAK" not in r.stdout, r.stdout


def test_mobilenet_first_run_builds_the_same_model_on_both_sides():
    """The first-run cases (fresh Chromium, one predict per side; ~1 min each on SwiftShader): both pages
    build MobileNet v1 1.0 with Keras's parameter count, predict, read back and dispose it all; the second
    compiles the programs first (model.warmup(); TF.js's ENGINE_COMPILE_ONLY pass). The steady case has
    the same setup and body, run by the loop the dispatch case runs through."""
    r = _bench("--only", "mobilenet v1 1.0 224x224x3: first run", "--runs", "1")
    assert r.returncode == 0, r.stderr
    rows = [line for line in r.stdout.splitlines() if line.startswith("MobileNet")]
    assert len(rows) == 2, r.stdout
    for row in rows:
        assert re.search(r"\d+\.\d\s+\d+\.\d\s+\d+\.\d\d   \(params: 4253864; once, fresh Chromium", row), row
    assert "steady" not in r.stdout and "LEAK" not in r.stdout, r.stdout


def test_training_steps_build_the_same_models_and_leave_nothing():
    """The training cases (model.train_on_batch with adam on both sides; the MLP, the MLP with
    dropout and the convnet eager and traced): same parameter counts as TF.js's twins (MLP, convnet,
    and Keras's 475,544 for MobileNet v1 0.25), no tensor left after the case."""
    r = _bench("--only", "train step", "--runs", "1")
    assert r.returncode == 0, r.stderr
    rows = [line for line in r.stdout.splitlines() if line.startswith("train step")]
    assert len(rows) == 7, r.stdout
    for row, params in zip(rows, (109386, 109386, 109386, 109386, 5994, 5994, 475544)):
        assert re.search(rf"\d+\.\d\s+\d+\.\d\s+\d+\.\d\d   \(params: {params}\)$", row), row
    assert "LEAK" not in r.stdout, r.stdout


def test_cpu_bench_reports_overhead_over_numpy():
    """Against numpy (the adds eager and traced), and the MLP's step against Keras 3 on jax (a test
    dependency: its row must have numbers here)."""
    r = _bench("--backend", "cpu", "--runs", "1")
    assert r.returncode == 0, r.stderr
    for case in ("mat_mul 1024x1024", r"1000 chained add \(64\) \(traced\)", r"train step: MLP batch 32 \(eager\)",
                 r"train step: MLP batch 32 \(traced\)"):
        assert re.search(case + r"\s+\d+\.\d{3}\s+\d+\.\d{3}\s+\d+\.\d\d$", r.stdout, re.M), r.stdout
    assert "on jax (jit-compiled" in r.stdout, r.stdout


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
    teardown runs). The traced twin spends time in the plan's replay and says how much with the
    kernels it ran."""
    r = _bench("--breakdown", "--only", "dispatch", "--runs", "2")
    assert r.returncode == 0, r.stderr
    sections = r.stdout.split("\ndispatch: ")[1:]
    assert len(sections) == 2, r.stdout
    for section, way in zip(sections, ("eager", "traced")):
        head = re.match(rf"1000 chained add \(64\) \+ readback \({way}\): ([\d.]+) ms a run \(plain\), "
                        r"TF.js [\d.]+ ms; profiled ([\d.]+) ms a run", section)
        assert head, section
        parts = dict(re.findall(r"^  (JS calls \+ GL|kernels|engine|plan replay|graph model|ops \+ above|"
                                r"Python runtime|outside Python)\s+([\d.]+) ms", section, re.M))
        assert len(parts) == 8, section
        assert abs(sum(map(float, parts.values())) - float(head.group(2))) < 0.1 * len(parts), section
        assert float(parts["JS calls + GL"]) > 0, section      # the draws and the read
        # the top functions by own time (which ones lead varies from run to run)
        top = re.findall(r"^ +[\d.]+ +[\d.]+  (\S+):\d+\(", section, re.M)
        assert len(top) == 12 and any(f.startswith(("backends/", "core/", "ops/")) for f in top), section
    eager, traced = sections
    assert float(re.search(r"^  engine\s+([\d.]+)", eager, re.M).group(1)) > 0, eager
    assert float(re.search(r"^  ops \+ above\s+([\d.]+)", eager, re.M).group(1)) > 0, eager
    assert "Plan.run" not in eager, eager
    # the replay ran, once a run (its own Python, the "plan replay" part, can round to 0.00 ms: the
    # traced adds replay as one JS function on the CPU-side values)
    assert re.search(r"Plan.run \(replays of traced functions\): 1 a run, [\d.]+ ms", traced), traced


_ROW = r"\s+(\d+\.\d)\s+(\d+\.\d)\s+(\d+\.\d\d)"   # pytfweb ms, TF.js ms, ratio


def test_zoo_bench_times_a_real_model_beside_tfjs():
    """One zoo model (liveness, 32x32x3: the smallest) loaded from /zoo/ by both pages: load, first
    predict (a fresh Chromium) and steady predict rows with both times and the ratio, and a
    geometric-mean row for each column whose ratio is that of its means."""
    r = _bench("--only", "zoo liveness", "--runs", "1")
    assert r.returncode == 0, r.stdout + r.stderr
    out = r.stdout
    for column in ("load", "first predict", "steady predict"):
        row = re.search(rf"^zoo liveness: {column}{_ROW}", out, re.M)
        assert row, out
        mean = re.search(rf"^geometric mean, zoo: {column}{_ROW}   \(1 case\)$", out, re.M)
        assert mean, out
        # the mean of one case is that case (exp(log(t)) may round the printed digit the other way)
        for m, v, digit in zip(map(float, mean.groups()), map(float, row.groups()), (0.1, 0.1, 0.01)):
            assert abs(m - v) <= digit * 1.001, out
        p, j, ratio = map(float, mean.groups())
        assert abs(p / j - ratio) < 0.01 + 0.01 * ratio, out
    assert "zoo antispoof" not in out and "failed" not in out and "LEAK" not in out, out


def test_zoo_breakdown_counts_kernels_and_draws_beside_tfjs():
    """--breakdown on a zoo model's steady predict: the graph model's executor has a part of its
    own, and the draws and kernels by name are counted on both sides (liveness runs convolutions)."""
    r = _bench("--breakdown", "--only", "zoo liveness: steady", "--runs", "1")
    assert r.returncode == 0, r.stdout + r.stderr
    out = r.stdout
    assert re.search(r"zoo liveness: steady predict: [\d.]+ ms a run \(plain\), TF.js [\d.]+ ms", out), out
    assert float(re.search(r"^  graph model\s+([\d.]+) ms", out, re.M).group(1)) > 0, out
    draws = re.search(r"draws in one run: pytfweb (\d+), TF.js (\d+)", out)
    assert draws and int(draws.group(1)) > 0 and int(draws.group(2)) > 0, out
    conv = re.search(r"^    (\w*Conv2D\w*) +(\d+) +[\d.]+ +[\d.]+ +(\d+)$", out, re.M)
    assert conv and int(conv.group(2)) > 0, out
    assert re.search(r"WebGL calls a run \(from the profile\): draws \d+", out), out
