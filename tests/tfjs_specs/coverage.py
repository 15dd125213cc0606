"""The coverage table of TF.js's converter and layers specs translated to pytfweb (cpu):

    TFJS_SRC=<tfjs checkout or git dir> python -m tests.tfjs_specs.coverage [--layers [--all]]
        [--file SUBSTRING] [--list STATUS]

(a module of its own: run as __main__, converter.py would be a second copy of itself).
"""
import contextlib
import json
import os

from . import converter, layers
from . import source as source_mod
from .records import now, write_json

# package directory under build/specs -> the package's row in `pytfweb ops --specs`
PACKAGES = {"converter": "converter executors", "layers": "layers"}
_REPORT_STATUS = {"passed": "translated", "failed": "translated", "skipped": "translated", "deviation": "hand",
                  "no check": "untranslated", "untranslatable": "untranslated", "not applicable": "not_applicable"}


def _build(package):
    return os.path.join(source_mod.ROOT, "build", "specs", package)


def _file_name(path):
    return path.replace("/", "_") + ".json"


def _migrate(d):
    """A report.json written before cases/ existed becomes one cases file per spec file, so the
    files this run does not touch keep their entries."""
    cases = os.path.join(d, "cases")
    if os.path.isdir(cases):
        return
    os.makedirs(cases)
    try:
        with open(os.path.join(d, "report.json"), encoding="utf-8") as f:
            old = json.load(f)
    except (OSError, ValueError):
        return
    by_file = {}
    for r in old:
        if r.get("status") != "not_run":
            by_file.setdefault(r["file"], []).append(r)
    for path, entries in by_file.items():
        write_json(os.path.join(cases, _file_name(path)), {"file": path, "cases": entries})


def _write_report(d):
    """report.json, every spec file's cases in one list: derived from cases/ (which `pytfweb ops
    --specs` reads) for reading by hand."""
    cases = os.path.join(d, "cases")
    report = []
    for name in sorted(os.listdir(cases)):
        if name.endswith(".json"):
            with open(os.path.join(cases, name), encoding="utf-8") as f:
                report += json.load(f)["cases"]
    write_json(os.path.join(d, "report.json"), report, indent=1)


def record(package, path, rows, backend="cpu"):
    """Adds one spec file's cases to build/specs/<package> in the form `pytfweb ops --specs` reads
    (pytfweb/host/spec_coverage.py): cases/<file>.json (each case's status, and the reason of what
    does not run; report.json gathers them) and results-<backend>/<file>.json (None for a pass, else
    the first error; and when). Only this file's entries change: what other runs recorded stays."""
    d = _build(package)
    _migrate(d)
    os.makedirs(os.path.join(d, f"results-{backend}"), exist_ok=True)
    entries, results = [], {}
    for key, status, detail in rows:
        entry = {"id": key, "file": path, "package": PACKAGES[package], "status": _REPORT_STATUS[status]}
        if detail.startswith("hand translation"):
            entry["status"] = "hand"
        if entry["status"] not in ("translated", "hand") or detail:
            entry["reason"] = detail
        entries.append(entry)
        if entry["status"] in ("translated", "hand"):
            # a skipped case: translated, its result on this backend "not run" (spec_coverage)
            results[key] = None if status in ("passed", "deviation") else f"skip: {detail}" if status == "skipped" \
                else detail
    name = _file_name(path)
    write_json(os.path.join(d, "cases", name), {"file": path, "cases": entries})
    write_json(os.path.join(d, f"results-{backend}", name), {"results": results, "measured": now()})
    with contextlib.suppress(FileNotFoundError):
        os.remove(os.path.join(d, "not_run.json"))
    _write_report(d)


def record_not_run(package):
    """Without TFJS_SRC: `pytfweb ops --specs` says this run did not execute the package, and why
    (rather than passing silently); the cases and results earlier runs recorded stay as they are."""
    d = _build(package)
    os.makedirs(d, exist_ok=True)
    write_json(os.path.join(d, "not_run.json"), {"package": PACKAGES[package], "reason": source_mod.NOT_RUN,
                                                 "at": now()})


def main(argv):
    """python -m tests.tfjs_specs.coverage [--file SUBSTRING] [--list STATUS] [--layers [--all]]:
    runs the converter executor specs (or, with --layers, tfjs-layers' specs: layers.FILES, or every
    file with --all) on cpu, prints the coverage table (and the cases of a status, default failed),
    writes build/specs/<converter|layers>/coverage.json."""
    import sys
    from pathlib import Path
    src = source_mod.source()
    if src is None:
        for package in PACKAGES:
            record_not_run(package)
        print(source_mod.NOT_RUN)
        return 0
    only = argv[argv.index("--file") + 1] if "--file" in argv else None
    show = argv[argv.index("--list") + 1] if "--list" in argv else "failed"
    package = "layers" if "--layers" in argv else "converter"
    if package == "layers":
        table, rows = {}, []
        for path in layers.spec_files(src, None if "--all" in argv else layers.FILES):
            if only and only not in path:
                continue
            results = layers.run_file(src, path)
            table[path] = {s: sum(1 for r in results if r[1] == s) for s in converter.STATUSES}
            rows.extend(results)
            record("layers", path, results)
    else:
        table, rows = converter.coverage(src, only)
        for path in table:
            record("converter", path, [r for r in rows if r[0].startswith(path.rsplit("/", 1)[-1] + " :: ")])
    out = Path(source_mod.ROOT) / "build" / "specs" / package
    out.mkdir(parents=True, exist_ok=True)
    (out / "coverage.json").write_text(json.dumps({"table": table, "cases": rows}, indent=1))
    for key, status, detail in rows:
        if status == show:
            print(f"{status:15s} {key} :: {detail[:400]}")
    sys.stdout.write(converter.markdown(table))
    return 1 if any(c["failed"] for c in table.values()) else 0


if __name__ == "__main__":
    import sys
    sys.exit(main(sys.argv[1:]))
