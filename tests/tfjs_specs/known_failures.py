"""TF.js spec cases pytfweb fails today, each with the backends it fails on and why: gaps found by
the suite and not fixed yet (issue 31 stays open while this list is not empty).

A listed case still runs on every backend. The spec tests fail where an unlisted case fails, and
also where a listed case passes on a backend it is listed for (then it comes off the list), so
the list can only shrink to what is true. `pytfweb ops --specs` counts these cases as failing.
"""
ALL = ("cpu", "webgl", "webgpu")

# case id -> (backends it fails on, why)
CASES = {
}


def listed(case_id, backend):
    """Why the case is known to fail on backend, or None."""
    entry = CASES.get(case_id)
    return entry[1] if entry is not None and backend in entry[0] else None
