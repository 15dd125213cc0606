"""`pytfweb bench --breakdown`: where the time of a bench case goes in the page, by part.

The case's body runs under cProfile in the pytfweb page (after three warm-up runs; a first-run case
once, in a fresh Chromium), and each function's own time is put in one part by the file it is in:

    JS calls + GL    backends/webgl/gpgpu_context.py: thin wrappers whose time is the JS call
                     (helpers.js issuing the GL calls; SwiftShader does the GL work there)
    kernels          the rest of backends/ (kernel setup, program lookup, fusion, textures) and the
                     kernels' shared contracts (kernels/*.py but the registry)
    engine           core/engine.py, core/tape.py, core/tensor.py, kernels/__init__.py (scopes, tracking, tape,
                     the kernel registry)
    ops + above      ops/, gradients/, layers/, train/, autodiff.py and the rest of pytfweb
    Python runtime   asyncio, Pyodide's event loop, the standard library
    outside Python   the wall time no Python frame was running: the page's event loop, waiting
                     on fences (reads poll with asyncio.sleep)

cProfile slows the Python parts (each call is recorded), so the profiled total is above the
plain time; the shares say which part to cut, the plain time what a run costs.
"""
import json

# Runs in the page after bench._define_py: profiles `runs` runs of the case's body, after three
# warm-up runs (a training step settles over its first few: the MLP's 2nd to 6th took 18-43 ms,
# then 17) and as many plain runs; or, for a first-run case, profiles its one run in a fresh page.
_PAGE = '''
import cProfile as _cProfile, json as _json, time as _time
_plain = []
if {steady}:
    for _ in range(3):
        await _bench_body()
    for _ in range({runs}):
        _t = _time.perf_counter()
        await _bench_body()
        _plain.append((_time.perf_counter() - _t) * 1000)
_profile = _cProfile.Profile()
_t = _time.perf_counter()
_profile.enable()
for _ in range({runs}):
    await _bench_body()
_profile.disable()
_wall = (_time.perf_counter() - _t) * 1000
_profile.create_stats()
_json.dumps({{"wall_ms": _wall, "plain_ms": sorted(_plain)[len(_plain) // 2] if _plain else None,
             "functions": [[f, line, name, calls, tt * 1000]
                           for (f, line, name), (cc, calls, tt, ct, callers) in _profile.stats.items()]}})
'''

PARTS = ("JS calls + GL", "kernels", "engine", "ops + above", "Python runtime", "outside Python")
_ENGINE_FILES = ("/pytfweb/core/engine.py", "/pytfweb/core/tape.py", "/pytfweb/core/tensor.py", "/pytfweb/kernels/__init__.py")


def part_of(filename):
    """The part a function's own time belongs to, by its file."""
    f = filename.replace("\\", "/")
    if "/pytfweb/" not in f:
        return "Python runtime"
    if f.endswith("/backends/webgl/gpgpu_context.py"):
        return "JS calls + GL"
    if "/pytfweb/backends/" in f:
        return "kernels"
    if f.endswith(_ENGINE_FILES):
        return "engine"
    if "/pytfweb/kernels/" in f:
        return "kernels"
    return "ops + above"


def summarize(report, runs):
    """{part: ms per run}, the top functions [(ms per run, calls per run, 'file:line(name)')]
    and the plain ms per run, from the page's report."""
    per_part = dict.fromkeys(PARTS, 0.0)
    top = []
    for filename, line, name, calls, ms in report["functions"]:
        per_part[part_of(filename)] += ms / runs
        short = filename.split("/pytfweb/")[-1] if "/pytfweb/" in filename else filename.rsplit("/", 1)[-1]
        top.append((ms / runs, calls / runs, f"{short}:{line}({name})"))
    profiled = sum(per_part.values())
    per_part["outside Python"] = max(0.0, report["wall_ms"] / runs - profiled)
    top.sort(reverse=True)
    return per_part, top[:12], report["plain_ms"]


def print_breakdown(name, per_part, top, plain_ms):
    total = sum(per_part.values())
    plain = f"{plain_ms:.1f} ms a run (plain)" if plain_ms is not None else "one run, fresh Chromium"
    print(f"\n{name}: {plain}; profiled {total:.1f} ms a run")
    for part in PARTS:
        ms = per_part[part]
        share = ms / total if total else 0.0
        print(f"  {part:16} {ms:8.2f} ms  {100 * share:5.1f} %  {'#' * round(40 * share)}")
    print("  functions by own time (ms a run, calls a run):")
    for ms, calls, where in top:
        print(f"    {ms:7.2f} {calls:8.1f}  {where}")


def run(py_page, name, case, runs, define, teardown):
    """Profiles one case in the pytfweb page and prints its breakdown (a first-run case: its
    one run, compiles and uploads included; the page must be fresh)."""
    runs = 1 if case.first_run else runs
    try:
        define(py_page, case.py_setup, case.py_body)
        report = json.loads(py_page.evaluate("(code) => pytfweb.pyodide.runPythonAsync(code)",
                                             _PAGE.format(runs=runs, steady=not case.first_run)))
    finally:
        teardown(py_page, case)
    print_breakdown(name, *summarize(report, runs))
