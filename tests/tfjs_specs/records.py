"""How a spec run records its results on disk (build/specs): stamped with when they were measured,
written whole, so `pytfweb ops --specs` (or a run beside this one) never reads half a file."""
import json
import os
import time


def now():
    """The time a result is recorded at (UTC, ISO 8601), what `pytfweb ops --specs` shows per column."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def write_json(path, data, indent=None):
    """Writes through a temporary file beside path, then renames it into place."""
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=indent)
    os.replace(tmp, path)
