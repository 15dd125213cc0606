"""How much of TensorFlow.js's own test suite runs here: per package (tfjs-core's ops and
gradients, and whatever else tests/tfjs_specs translated), the spec files and `it` cases, how many
are translated (by rule or by hand), not applicable or untranslated, and per backend how many ran
and passed. Read from build/specs (`make specs` writes report.json; the spec tests write
results-<backend>/ as they run: tests/unit/test_tfjs_specs_cpu.py, tests/browser/test_tfjs_specs.py).

    pytfweb ops --specs [--specs-dir build/specs] [--json]
"""
import collections
import json
import os
import sys

BACKENDS = ("cpu", "webgl", "webgpu")
STATUSES = ("translated", "hand", "not_applicable", "untranslated")


def load(specs_dir):
    """(report entries, {backend: {case id: result}}) of every package under specs_dir."""
    report, results = [], {b: {} for b in BACKENDS}
    if not os.path.isdir(specs_dir):
        return report, results
    for pkg in sorted(os.listdir(specs_dir)):
        path = os.path.join(specs_dir, pkg, "report.json")
        if not os.path.isfile(path):
            continue
        with open(path, encoding="utf-8") as f:
            report += json.load(f)
        for b in BACKENDS:
            d = os.path.join(specs_dir, pkg, f"results-{b}")
            if os.path.isdir(d):
                for name in sorted(os.listdir(d)):
                    with open(os.path.join(d, name), encoding="utf-8") as f:
                        results[b].update(json.load(f)["results"])
    return report, results


def table(specs_dir):
    """{package: {"files", "cases", <status>..., "<backend>_run", "<backend>_passed"}} and the totals
    under "all".

    Args:
        specs_dir: the directory `make specs` generated (build/specs).

    Returns:
        A dict of rows keyed by package name.

    Example:
        >>> rows = table("build/specs")            # doctest: +SKIP
        >>> rows["core ops"]["translated"]         # doctest: +SKIP
    """
    report, results = load(specs_dir)
    rows = collections.defaultdict(lambda: collections.Counter())
    files = collections.defaultdict(set)
    for r in report:
        n = r.get("count", 1)
        for key in (r.get("package", "?"), "all"):
            row = rows[key]
            files[key].add(r["file"])
            row["cases"] += n
            row[r["status"]] += n
            if r["status"] not in ("translated", "hand"):
                continue    # (a results file may still hold a case an older translation ran)
            for b in BACKENDS:
                res = results[b].get(r["id"], "not run")
                if res == "not run" or (isinstance(res, str) and res.startswith("skip:")):
                    continue
                row[f"{b}_run"] += 1
                row[f"{b}_passed"] += res is None
    out = {}
    for key, row in rows.items():
        out[key] = dict(row, files=len(files[key]))
    return out


def main(argv=None):
    import argparse
    p = argparse.ArgumentParser(prog="pytfweb ops --specs", description=__doc__.splitlines()[0])
    p.add_argument("--specs-dir", default=os.path.join("build", "specs"))
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    rows = table(args.specs_dir)
    if not rows:
        print(f"no translated specs under {args.specs_dir}: run `make specs` (and the spec tests for run/passed)",
              file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    head = f"{'package':16} {'files':>5} {'cases':>6} {'transl':>6} {'hand':>5} {'n/a':>5} {'untr':>5}"
    for b in BACKENDS:
        head += f" {b + ' run/pass':>17}"
    print(head)
    order = sorted(k for k in rows if k != "all") + ["all"]
    for key in order:
        r = rows[key]
        line = (f"{key:16} {r['files']:5d} {r.get('cases', 0):6d} {r.get('translated', 0):6d} {r.get('hand', 0):5d} "
                f"{r.get('not_applicable', 0):5d} {r.get('untranslated', 0):5d}")
        for b in BACKENDS:
            run, ok = r.get(f"{b}_run", 0), r.get(f"{b}_passed", 0)
            line += f" {f'{run}/{ok}' if run else '-':>17}"
        print(line)
    a = rows["all"]
    covered = a.get("translated", 0) + a.get("hand", 0)
    applicable = a["cases"] - a.get("not_applicable", 0)
    print(f"\ntranslated (by rule or by hand): {covered} of {a['cases']} it cases "
          f"({100.0 * covered / max(1, a['cases']):.1f}%; {100.0 * covered / max(1, applicable):.1f}% of the "
          f"{applicable} that apply); not applicable: {a.get('not_applicable', 0)}; untranslated: "
          f"{a.get('untranslated', 0)} (each with its reason in report.json)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
