"""The parity cases, one module per op family; each defines CASES (a list of spec.case(...))."""
import importlib
import pkgutil


def all_cases():
    out, seen = [], set()
    for mod in sorted(m.name for m in pkgutil.iter_modules(__path__)):
        for c in importlib.import_module(f"{__name__}.{mod}").CASES:
            if c["id"] in seen:
                raise ValueError(f"parity case id {c['id']} appears twice")
            seen.add(c["id"])
            out.append({**c, "family": mod})
    return out
