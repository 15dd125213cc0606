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


_OPTIMIZER = ("the spec never disposes its optimizer, whose learning-rate constant (and slots) TF.js keeps "
              "alive the same way")
_WEIGHTS = "the spec never disposes what get_weights returned, as TF.js would keep it"
# case id -> why the tensors it leaves are ones TF.js leaves too (the leak check spares them)
HOLDS = {
    "gradients_test.js::gradients > saves tensors from the forward pass as expected":
        "the spec never disposes its variable and its optimizer (TF.js keeps them alive the same way)",
    "optimizers/momentum_optimizer_test.js::MomentumOptimizer > Save, load weights and conntinue training": _WEIGHTS,
    "optimizers/momentum_optimizer_test.js::MomentumOptimizer > serialization round-trip": _OPTIMIZER,
    "optimizers/sgd_optimizer_test.js::SGDOptimizer > Set and get weights: empty": _WEIGHTS,
    "optimizers/sgd_optimizer_test.js::SGDOptimizer > serialization round-trip": _OPTIMIZER,
    **{f"optimizers/optimizer_test.js::optimizer > {name}": _OPTIMIZER for name in (
        "varList array of all variables", "varList empty array of variables throws error",
        "varList subset of variables update", "only bias trainable",
        "only bias trainable, only x in varList throws error", "instanceof Optimizer",
        "throws error when f returns a non-scalar")},
}


def listed(case_id, backend):
    """Why the case is known to fail on backend, or None."""
    entry = CASES.get(case_id)
    return entry[1] if entry is not None and backend in entry[0] else None
