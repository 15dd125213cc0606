"""How `pytfweb bench` times a side (host/bench.py's _time_side): a steady case warms up, probes
one run, then each timed run repeats the body back to back for about SAMPLE_MS; a first-run case
runs once."""
from pytfweb.host import bench


def _side(ms):
    """A fake side whose body takes `ms`: the calls it got, (page, repetitions) each."""
    calls = []

    def once(page, k=1):
        calls.append((page, k))
        return ms
    return once, calls


def test_a_short_body_is_repeated_for_about_a_sample():
    once, calls = _side(4.0)
    times = bench._time_side(once, "page", 3, first_run=False)
    k = round(bench.SAMPLE_MS / 4.0)
    assert times == [4.0] * 3 and calls == [("page", 1), ("page", 1)] + [("page", k)] * 3


def test_a_long_body_runs_once_a_sample_and_a_tiny_one_at_most_100_times():
    once, calls = _side(350.0)
    bench._time_side(once, "p", 2, first_run=False)
    assert calls[2:] == [("p", 1)] * 2
    once, calls = _side(0.0)
    bench._time_side(once, "p", 2, first_run=False)
    assert calls[2:] == [("p", 100)] * 2


def test_a_first_run_case_runs_once_without_a_warm_up():
    once, calls = _side(1500.0)
    assert bench._time_side(once, "p", 5, first_run=True) == [1500.0] and calls == [("p", 1)]


def test_zoo_cases_are_selected_by_zoo_or_by_model():
    """Three cases a zoo model; `--only zoo` picks them all, `--only movenet` one model's three."""
    from pytfweb.host import zoo
    names = list(bench._selected("zoo"))
    assert len(names) == 3 * len(zoo.MODELS) and all(n.startswith("zoo ") for n in names)
    assert list(bench._selected("movenet")) == [f"zoo movenet-lightning: {c}" for c in bench.ZOO_COLUMNS]
    assert {bench.CASES[n].group for n in names} == {f"zoo: {c}" for c in bench.ZOO_COLUMNS}


def test_several_texts_select_the_cases_of_any_and_traced_twins_sit_beside_eager():
    """`--only` repeated (a list here) picks the cases matching any of its texts; each of the four
    cases of tf.function's targets has an eager and a traced row, next to each other."""
    names = list(bench._selected(["readback", "1.0 224x224x3: steady"]))
    assert names == ["dispatch: 1000 chained add (64) + readback (eager)",
                     "dispatch: 1000 chained add (64) + readback (traced)",
                     "MobileNet v1 1.0 224x224x3: steady (eager)", "MobileNet v1 1.0 224x224x3: steady (traced)"]
    for model in ("MLP", "convnet"):
        assert [n.rsplit(" ", 1)[1] for n in bench._selected(f"train step: {model}")] == ["(eager)", "(traced)"]
    eager, traced = (bench.CASES[f"train step: MLP (784-128-64-10) batch 32 ({w})"] for w in ("eager", "traced"))
    assert "jit_compile=False" in eager.py_setup and "jit_compile" not in traced.py_setup
    assert eager.js_body == traced.js_body


def test_geometric_means_skip_cases_a_side_failed():
    means = bench.geometric_means({"g": [(2.0, 1.0), (8.0, 16.0), (None, 3.0)], "none": [(None, None)]})
    gp, gj, ratio, n, total = means["g"]
    assert abs(gp - 4.0) < 1e-9 and abs(gj - 4.0) < 1e-9 and abs(ratio - 1.0) < 1e-9 and (n, total) == (2, 3)
    assert "none" not in means
