"""The coverage table of TF.js's converter and layers specs translated to pytfweb (cpu):

    TFJS_SRC=<tfjs checkout or git dir> python -m tests.tfjs_specs.coverage [--layers [--all]]
        [--file SUBSTRING] [--list STATUS]

(a module of its own: run as __main__, converter.py would be a second copy of itself).
"""
import json
import os

from . import converter, layers
from . import source as source_mod

# package directory under build/specs -> the package's row in `pytfweb ops --specs`
PACKAGES = {"converter": "converter executors", "layers": "layers"}
_REPORT_STATUS = {"passed": "translated", "failed": "translated", "deviation": "hand", "no check": "untranslated",
                  "untranslatable": "untranslated", "not applicable": "not_applicable"}


def _build(package):
    return os.path.join(source_mod.ROOT, "build", "specs", package)


def record(package, path, rows, backend="cpu"):
    """Adds one spec file's cases to build/specs/<package> in the form `pytfweb ops --specs` reads
    (pytfweb/host/spec_coverage.py): report.json entries (its status, and the reason of what does
    not run) and results-<backend>/<file>.json (None for a pass, else the first error)."""
    d = _build(package)
    os.makedirs(os.path.join(d, f"results-{backend}"), exist_ok=True)
    report_path = os.path.join(d, "report.json")
    try:
        with open(report_path, encoding="utf-8") as f:
            report = [r for r in json.load(f) if r.get("file") != path and r.get("status") != "not_run"]
    except (OSError, ValueError):
        report = []
    results = {}
    for key, status, detail in rows:
        entry = {"id": key, "file": path, "package": PACKAGES[package], "status": _REPORT_STATUS[status]}
        if detail.startswith("hand translation"):
            entry["status"] = "hand"
        if entry["status"] not in ("translated", "hand") or detail:
            entry["reason"] = detail
        report.append(entry)
        if entry["status"] in ("translated", "hand"):
            results[key] = None if status in ("passed", "deviation") else detail
    with open(report_path, "w", encoding="utf-8") as f:
        json.dump(report, f, indent=1)
    name = path.replace("/", "_")
    with open(os.path.join(d, f"results-{backend}", f"{name}.json"), "w", encoding="utf-8") as f:
        json.dump({"results": results}, f)


def record_not_run(package):
    """Without TFJS_SRC: the package's row says it did not run, and why (rather than passing silently)."""
    d = _build(package)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "report.json"), "w", encoding="utf-8") as f:
        json.dump([{"id": f"{package} (not run)", "file": "-", "package": PACKAGES[package], "status": "not_run",
                    "count": 0, "reason": source_mod.NOT_RUN}], f)



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
