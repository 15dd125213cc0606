"""`pytfweb bench --breakdown`: where the time of a bench case goes in the page, by part.

The case's body runs under cProfile in the pytfweb page (after three warm-up runs; a first-run case
once, in a fresh Chromium), and each function's own time is put in one part by the file it is in:

    JS calls + GL    backends/webgl/gpgpu_context.py: thin wrappers whose time is the JS call
                     (helpers.js issuing the GL calls; SwiftShader does the GL work there), and
                     backends/gpu/js_program.py (the CPU-forward runner's compiled programs)
    kernels          the rest of backends/ (kernel setup, program lookup, fusion, textures) and the
                     kernels' shared contracts (kernels/*.py but the registry)
    engine           core/engine.py, core/tape.py, core/tensor.py, kernels/__init__.py (scopes, tracking, tape,
                     the kernel registry)
    plan replay      core/plan.py and core/function.py: a tf.function's call picking its plan and
                     the replay loop itself (Plan.run: slots, references, releases), not the
                     kernels it runs (they count in their own parts; the line "Plan.run" below
                     the parts gives the replays' time with them)
    graph model      converter/ (a graph model's loading and its executor: the Python per node)
    ops + above      ops/, gradients/, layers/, train/, autodiff.py and the rest of pytfweb
    Python runtime   asyncio, Pyodide's event loop, the standard library
    outside Python   the wall time no Python frame was running: the page's event loop, waiting
                     on fences (reads poll with asyncio.sleep)

cProfile slows the Python parts (each call is recorded), so the profiled total is above the
plain time; the shares say which part to cut, the plain time what a run costs. The WebGL calls a
run makes (draws, uploads, textures created, programs compiled, reads) are counted from the same
profile.

A steady case also gets, from one more run each: the draws WebGL saw (drawArrays/drawElements
counted in the page, the same count for TF.js where bench gives its page), and its kernels under
tf.profile: how many of each and their time, each kernel synced before and after, so the time is
its own work with the GPU's (lazy elementwise fusion is off then: their sum is above the plain
time), beside how many of each kernel TF.js's tf.profile saw for the same body.
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
_kernels = {{}}
if {steady}:
    for _k in (await tf.profile(_bench_body)).kernels:
        _kernels.setdefault(_k.name, [0, 0.0])
        _kernels[_k.name][0] += 1
        _kernels[_k.name][1] += _k.kernel_ms
_json.dumps({{"wall_ms": _wall, "plain_ms": sorted(_plain)[len(_plain) // 2] if _plain else None,
             "kernels": _kernels,
             "functions": [[f, line, name, calls, tt * 1000, ct * 1000]
                           for (f, line, name), (cc, calls, tt, ct, callers) in _profile.stats.items()]}})
'''

# Counts the draws WebGL sees during one run of the case's body, in either page (py: the pytfweb
# page's body, else the TF.js page's).
COUNT_DRAWS_JS = """
async (py) => {
  const proto = WebGL2RenderingContext.prototype, names = ['drawArrays', 'drawElements'];
  const saved = names.map((n) => proto[n]);
  let draws = 0;
  names.forEach((n, i) => { proto[n] = function (...a) { draws++; return saved[i].apply(this, a); }; });
  try {
    if (py) await pytfweb.pyodide.runPythonAsync('await _bench_once()');
    else await window.__benchOnce();
  } finally {
    names.forEach((n, i) => { proto[n] = saved[i]; });
  }
  return draws;
}
"""

# The WebGL calls counted from the profile: gpgpu_context.py's wrappers, one JS call each.
GL_CALLS = (("draw", "draws"), ("upload", "uploads"), ("create_texture", "textures created"),
            ("start_program", "programs compiled"), ("read_sync", "sync reads"),
            ("read_async_start", "async reads"))

PARTS = ("JS calls + GL", "kernels", "engine", "plan replay", "graph model", "ops + above", "Python runtime",
         "outside Python")
_PLAN_FILES = ("/pytfweb/core/plan.py", "/pytfweb/core/function.py")
_ENGINE_FILES = ("/pytfweb/core/engine.py", "/pytfweb/core/tape.py", "/pytfweb/core/tensor.py",
                 "/pytfweb/kernels/__init__.py")


def part_of(filename):
    """The part a function's own time belongs to, by its file."""
    f = filename.replace("\\", "/")
    if "/pytfweb/" not in f:
        return "Python runtime"
    if f.endswith(("/backends/webgl/gpgpu_context.py", "/backends/gpu/js_program.py")):
        return "JS calls + GL"
    if "/pytfweb/backends/" in f:
        return "kernels"
    if f.endswith(_ENGINE_FILES):
        return "engine"
    if f.endswith(_PLAN_FILES):
        return "plan replay"
    if "/pytfweb/kernels/" in f:
        return "kernels"
    if "/pytfweb/converter/" in f:
        return "graph model"
    return "ops + above"


def summarize(report, runs):
    """{part: ms per run}, the top functions [(ms per run, calls per run, 'file:line(name)')],
    the plain ms per run, {WebGL call: count per run} and the replays (calls of Plan.run and their
    ms with what they called, per run; None where nothing replayed), from the page's report."""
    per_part = dict.fromkeys(PARTS, 0.0)
    top = []
    gl = dict.fromkeys((label for _, label in GL_CALLS), 0.0)
    gl_labels = dict(GL_CALLS)
    replays = None
    for filename, line, name, calls, ms, *cumulative in report["functions"]:
        per_part[part_of(filename)] += ms / runs
        short = filename.split("/pytfweb/")[-1] if "/pytfweb/" in filename else filename.rsplit("/", 1)[-1]
        top.append((ms / runs, calls / runs, f"{short}:{line}({name})"))
        if short == "backends/webgl/gpgpu_context.py" and name in gl_labels:
            gl[gl_labels[name]] += calls / runs
        if short == "core/plan.py" and name == "run" and cumulative:
            replays = (calls / runs, cumulative[0] / runs)
    profiled = sum(per_part.values())
    per_part["outside Python"] = max(0.0, report["wall_ms"] / runs - profiled)
    top.sort(reverse=True)
    return per_part, top[:12], report["plain_ms"], gl, replays


def print_breakdown(name, per_part, top, plain_ms, gl=None, kernels=None, draws=None, peer=None, replays=None):
    """peer: TF.js's figures for the same body ({"plain_ms", "draws", "kernels": {name: count}}),
    or None. replays: (Plan.run calls a run, their ms a run with the kernels they ran) or None."""
    total = sum(per_part.values())
    plain = f"{plain_ms:.1f} ms a run (plain)" if plain_ms is not None else "one run, fresh Chromium"
    if peer:
        plain += f", TF.js {peer['plain_ms']:.1f} ms"
    print(f"\n{name}: {plain}; profiled {total:.1f} ms a run")
    for part in PARTS:
        ms = per_part[part]
        share = ms / total if total else 0.0
        print(f"  {part:16} {ms:8.2f} ms  {100 * share:5.1f} %  {'#' * round(40 * share)}")
    if total:
        python = total - per_part["outside Python"]
        print(f"  Python share {100 * python / total:5.1f} % of the profiled run ({python:.1f} ms)")
    if replays:
        print(f"  Plan.run (replays of traced functions): {replays[0]:.0f} a run, {replays[1]:.2f} ms a run with "
              f"the kernels they ran ({100 * replays[1] / total if total else 0:.1f} % of the profiled run)")
    if gl:
        print("  WebGL calls a run (from the profile): "
              + ", ".join(f"{label} {n:.0f}" for label, n in gl.items()))
    if draws is not None:
        print(f"  draws in one run: pytfweb {draws}" + (f", TF.js {peer['draws']}" if peer else ""))
    if kernels:
        theirs = dict((peer or {}).get("kernels") or {})
        n_ours = sum(n for n, _ in kernels.values())
        ms_ours = sum(ms for _, ms in kernels.values())
        print(f"  kernels in one run under tf.profile (each synced: own time, GPU included; "
              f"fusion off): {n_ours} kernels, {ms_ours:.1f} ms"
              + (f"; TF.js {sum(theirs.values())} kernels" if peer else ""))
        print(f"    {'kernel':28} {'count':>6} {'ms':>9} {'ms each':>8}" + (f" {'TF.js count':>12}" if peer else ""))
        for kname, (n, ms) in sorted(kernels.items(), key=lambda kv: -kv[1][1]):
            print(f"    {kname:28} {n:6d} {ms:9.2f} {ms / n:8.3f}"
                  + (f" {theirs.pop(kname, 0):12d}" if peer else ""))
        for kname, n in sorted(theirs.items(), key=lambda kv: -kv[1]):
            print(f"    {kname:28} {0:6d} {0:9.2f} {'':8} {n:12d}")
    print("  functions by own time (ms a run, calls a run):")
    for ms, calls, where in top:
        print(f"    {ms:7.2f} {calls:8.1f}  {where}")


def run(py_page, name, case, runs, define, teardown, peer=None):
    """Profiles one case in the pytfweb page and prints its breakdown (a first-run case: its
    one run, compiles and uploads included; the page must be fresh). peer: TF.js's figures for
    the same case, printed beside."""
    runs = 1 if case.first_run else runs
    draws = None
    try:
        define(py_page, case.py_setup, case.py_body)
        report = json.loads(py_page.evaluate("(code) => pytfweb.pyodide.runPythonAsync(code)",
                                             _PAGE.format(runs=runs, steady=not case.first_run)))
        if not case.first_run and py_page.evaluate("() => typeof WebGL2RenderingContext !== 'undefined'"):
            draws = py_page.evaluate(COUNT_DRAWS_JS, True)
    finally:
        teardown(py_page, case)
    per_part, top, plain_ms, gl, replays = summarize(report, runs)
    print_breakdown(name, per_part, top, plain_ms, gl, report.get("kernels"), draws, peer, replays)
