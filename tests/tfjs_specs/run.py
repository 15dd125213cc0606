"""Runs the translated TF.js specs: load a generated module, run its cases on the active backend,
write what failed (build/specs/<package>/results-<backend>/<module>.json, and with `main`
build/specs/failures-<backend>.txt).

    python -m tests.tfjs_specs.run [--file SUBSTRING]     # every spec file on cpu, in CPython
"""
import collections
import json
import sys
import time
import types
from pathlib import Path

from . import translate
from .records import now, write_json

HERE = Path(__file__).resolve().parent
RUNTIME_SRC = (HERE / "runtime.py").read_text()


def load_runtime():
    """runtime.py as a fresh module (the same source the page execs)."""
    mod = types.ModuleType("tfjs_spec_runtime")
    exec(compile(RUNTIME_SRC, "runtime.py", "exec"), mod.__dict__)
    return mod


def load_cases(module_src, runtime, filename="spec"):
    import pytfweb as tf
    ns = {"tf": tf, "_js": runtime, "__name__": "tfjs_spec"}
    exec(compile(module_src, filename, "exec"), ns)
    return ns["CASES"]


def files(package="core"):
    """[(spec file, module name)] with at least one case to run, from the generated report."""
    report = translate.generate(package)
    seen = {}
    for r in report:
        seen.setdefault(r["file"], r["module"])
    return report, sorted(seen.items())


def module_source(package, module):
    return (translate.BUILD / package / f"{module}.py").read_text()


def save_results(package, backend, module, out):
    """The file's results, with when they were measured (`pytfweb ops --specs` shows it per backend)."""
    d = translate.BUILD / package / f"results-{backend}"
    d.mkdir(parents=True, exist_ok=True)
    write_json(d / f"{module}.json", dict(out, measured=now()))


def problems(out, backend):
    """What a spec file's results say is wrong on backend: each failing case not listed in
    known_failures for it, each listed one that passed, and tensors left by a case that is not a
    listed failure. Returns (problems, failing case count)."""
    from . import known_failures
    out_problems, failing = [], 0
    for cid, err in out["results"].items():
        known = known_failures.listed(cid, backend)
        if err and not err.startswith("skip:"):
            failing += 1
            if known is None:
                out_problems.append(f"{cid}: {err}")
        elif err is None and known is not None:
            out_problems.append(f"{cid}: passes now on {backend}: take it off tests/tfjs_specs/known_failures.py")
    leaks = {cid: n for cid, n in out.get("leaks", {}).items()
             if known_failures.listed(cid, backend) is None and cid not in known_failures.HOLDS}
    if out["left"] and (leaks or not out.get("leaks")):
        out_problems.append(f"{out['left']} tensors left after the file's cases, by " + ", ".join(
            f"{cid} ({n})" for cid, n in leaks.items()))
    return out_problems, failing


def run_file(package, module, backend="cpu"):
    rt = load_runtime()
    cases = load_cases(module_source(package, module), rt, module)
    t0 = time.perf_counter()
    out = rt.run_cases(cases, backend)
    out["seconds"] = time.perf_counter() - t0
    save_results(package, backend, module, out)
    return out


def failures_text(package, backend):
    """build/specs/failures-<backend>.txt: one line per failing case (id, first error), then the
    most common causes; returns (text, counts)."""
    d = translate.BUILD / package / f"results-{backend}"
    lines, causes, counts = [], collections.Counter(), collections.Counter()
    for f in sorted(d.glob("*.json")):
        out = json.loads(f.read_text())
        for cid, err in out["results"].items():
            if err is None:
                counts["passed"] += 1
            elif err.startswith("skip:"):
                counts["skipped"] += 1
            else:
                counts["failed"] += 1
                lines.append(f"{cid}\t{err}")
                causes[_cause(err)] += 1
        if out.get("left"):
            lines.append(f"{f.stem}\tLEAK: {out['left']} tensors left after the file's cases")
    text = "\n".join(lines) + "\n\n# most common causes\n" + "\n".join(
        f"{n:5d}  {c}" for c, n in causes.most_common(60)) + "\n"
    (translate.BUILD / f"failures-{backend}.txt").write_text(text)
    return text, counts


def _cause(err):
    """An error line with its numbers and quoted values blanked, to group like failures."""
    import re
    s = re.sub(r"actual\[\d+\] = \S+, expected\[\d+\] = \S+", "actual[i] != expected[i]", err)
    s = re.sub(r"Actual: .*", "", s)
    s = re.sub(r"\d+(\.\d+)?(e-?\d+)?", "N", s)
    return s[:160]


def main(argv):
    only = argv[argv.index("--file") + 1] if "--file" in argv else None
    _, fl = files()
    t0 = time.perf_counter()
    for rel, module in fl:
        if only and only not in rel:
            continue
        import pytfweb as tf
        tf.engine().reset()      # each file starts on a clean engine, as under pytest (tests/unit/conftest.py)
        tf.env().reset()
        tf.set_backend("cpu")
        out = run_file("core", module)
        bad = sum(1 for e in out["results"].values() if e and not e.startswith("skip:"))
        print(f"{rel:55s} {len(out['results']):4d} cases {bad:4d} failing {out['seconds']:6.2f}s"
              + (f" LEAK {out['left']}" if out["left"] else ""), flush=True)
    text, counts = failures_text("core", "cpu")
    print(dict(counts), f"{time.perf_counter() - t0:.1f}s")


if __name__ == "__main__":
    main(sys.argv[1:])
