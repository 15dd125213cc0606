"""How much of TensorFlow.js's own test suite runs here: per package (tfjs-core's ops and
gradients, and whatever else tests/tfjs_specs translated), the spec files and `it` cases, how many
are translated (by rule or by hand), not applicable or untranslated, and per backend how many ran
and passed, and when. Read from build/specs: `make specs` writes core/report.json, the converter and
layers spec tests write <package>/cases/ (one file per spec file); every spec test writes
results-<backend>/ as it runs (tests/unit/test_tfjs_specs_cpu.py, tests/browser/test_tfjs_specs.py,
...). Each file there is one run's: a run of some files or some backends replaces only those, and
a run that could not execute a package (no TFJS_SRC) leaves a note (not_run.json) beside the
package's last real results instead of replacing them.

    pytfweb ops --specs [--specs-dir build/specs] [--json]
"""
import collections
import datetime
import json
import os
import sys

BACKENDS = ("cpu", "webgl", "webgpu")
STATUSES = ("translated", "hand", "not_applicable", "untranslated")


def _read(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def _json_files(d):
    return [os.path.join(d, n) for n in sorted(os.listdir(d)) if n.endswith(".json")] if os.path.isdir(d) else []


def _scan(specs_dir):
    """(report entries, {backend: {case id: result}}, {backend: {case id: when measured}}, not-run
    notes [(package, reason, when)]) of every package under specs_dir."""
    report, results = [], {b: {} for b in BACKENDS}
    measured, notes = {b: {} for b in BACKENDS}, []
    if not os.path.isdir(specs_dir):
        return report, results, measured, notes
    for pkg in sorted(os.listdir(specs_dir)):
        d = os.path.join(specs_dir, pkg)
        if os.path.isdir(os.path.join(d, "cases")):
            entries = [e for path in _json_files(os.path.join(d, "cases")) for e in _read(path)["cases"]]
        elif os.path.isfile(os.path.join(d, "report.json")):
            entries = _read(os.path.join(d, "report.json"))
        else:
            entries = []
        not_run = os.path.join(d, "not_run.json")
        if os.path.isfile(not_run):
            note = _read(not_run)
            notes.append((note["package"], note["reason"], note.get("at")))
            if not entries:   # nothing ever ran: the row says so
                entries = [{"id": f"{pkg} (not run)", "file": "-", "package": note["package"], "status": "not_run",
                            "count": 0, "reason": note["reason"]}]
        notes += [(e.get("package"), e.get("reason"), None) for e in entries
                  if e.get("status") == "not_run" and not os.path.isfile(not_run)]   # an older report.json's
        report += entries
        for b in BACKENDS:
            for path in _json_files(os.path.join(d, f"results-{b}")):
                data = _read(path)
                when = data.get("measured") or datetime.datetime.fromtimestamp(
                    os.path.getmtime(path), datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
                results[b].update(data["results"])
                measured[b].update(dict.fromkeys(data["results"], when))
    return report, results, measured, notes


def load(specs_dir):
    """(report entries, {backend: {case id: result}}) of every package under specs_dir."""
    report, results, _, _ = _scan(specs_dir)
    return report, results


def _ran(res):
    return res != "not run" and not (isinstance(res, str) and res.startswith("skip:"))


def measured(specs_dir):
    """{package: {backend: (oldest, newest)}}: when the results each column counts were measured
    (UTC, ISO 8601), for the packages and backends with any.

    Args:
        specs_dir: the directory the spec tests write (build/specs).

    Returns:
        A dict of packages (and "all"), each a dict of backends to (oldest, newest) time strings.

    Example:
        >>> measured("build/specs")["layers"]["webgl"]   # doctest: +SKIP
        ('2026-11-28T09:43:10Z', '2026-11-28T12:51:02Z')
    """
    report, results, times, _ = _scan(specs_dir)
    out = collections.defaultdict(dict)
    for r in report:
        if r["status"] not in ("translated", "hand"):
            continue
        for b in BACKENDS:
            when = times[b].get(r["id"])
            if when is None or not _ran(results[b][r["id"]]):
                continue
            for key in (r.get("package", "?"), "all"):
                old = out[key].get(b)
                out[key][b] = (min(old[0], when), max(old[1], when)) if old else (when, when)
    return dict(out)


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
                if not _ran(res):
                    continue
                row[f"{b}_run"] += 1
                row[f"{b}_passed"] += res is None
    out = {}
    for key, row in rows.items():
        out[key] = dict(row, files=len(files[key]))
    return out


def _short(when):
    return f"{when[5:10]} {when[11:16]}"    # MM-DD HH:MM of an ISO time


def _span(span):
    old, new = span
    if old[:16] == new[:16]:
        return _short(new)
    return f"{_short(old)}..{_short(new)[6:] if old[:10] == new[:10] else _short(new)}"


def main(argv=None):
    import argparse
    p = argparse.ArgumentParser(prog="pytfweb ops --specs", description=__doc__.splitlines()[0])
    p.add_argument("--specs-dir", default=os.path.join("build", "specs"))
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    rows = table(args.specs_dir)
    times = measured(args.specs_dir)
    _, _, _, notes = _scan(args.specs_dir)
    if not rows:
        print(f"no translated specs under {args.specs_dir}: run `make specs` (and the spec tests for run/passed)",
              file=sys.stderr)
        return 1
    if args.json:
        for key, row in rows.items():
            row.update({f"{b}_measured": list(span) for b, span in times.get(key, {}).items()})
        print(json.dumps(rows, indent=2))
        return 0
    head = f"{'package':20} {'files':>5} {'cases':>6} {'transl':>6} {'hand':>5} {'n/a':>5} {'untr':>5}"
    for b in BACKENDS:
        head += f" {b + ' run/pass':>17}"
    print(head)
    order = sorted(k for k in rows if k != "all") + ["all"]
    for key in order:
        r = rows[key]
        line = (f"{key:20} {r['files']:5d} {r.get('cases', 0):6d} {r.get('translated', 0):6d} {r.get('hand', 0):5d} "
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
    if times:
        print("\nmeasured (UTC; oldest..newest of the results each column counts):")
        for key in order:
            spans = times.get(key, {})
            print(f"{key:20} " + " ".join(f"{_span(spans[b]) if b in spans else '-':>23}" for b in BACKENDS))
    for package, reason, when in notes:   # tfjs-converter/-layers without TFJS_SRC
        kept = rows.get(package, {}).get("cases", 0)
        print(f"{package}: {reason}" + (f" (at {_short(when)})" if when else "") +
              ("; its row is from the last runs that executed it" if kept else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
