"""The coverage table of TF.js's converter and layers specs translated to pytfweb (cpu):

    TFJS_SRC=<tfjs checkout or git dir> python -m tests.tfjs_specs.coverage [--layers [--all]]
        [--file SUBSTRING] [--list STATUS]

(a module of its own: run as __main__, converter.py would be a second copy of itself).
"""
import json

from . import converter, layers
from . import source as source_mod


def main(argv):
    """python -m tests.tfjs_specs.coverage [--file SUBSTRING] [--list STATUS] [--layers [--all]]:
    runs the converter executor specs (or, with --layers, tfjs-layers' specs: layers.FILES, or every
    file with --all) on cpu, prints the coverage table (and the cases of a status, default failed),
    writes build/specs/<converter|layers>/coverage.json."""
    import sys
    from pathlib import Path
    src = source_mod.source()
    if src is None:
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
    else:
        table, rows = converter.coverage(src, only)
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
