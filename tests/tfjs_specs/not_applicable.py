"""TF.js spec cases that cannot apply to pytfweb, each with why: exact case ids, or patterns
(regular expressions searched in the case id, or in the case's source text)."""
import re

# case id (exact) -> reason
CASES = {
}

# (regular expression searched in the case id, reason)
ID_PATTERNS = [
    (r"^ops/rand_test\.js::(MPRandGauss|RandGamma|UniformRandom) > ", "tests TF.js's internal random generators (MPRandGauss, RandGamma, "
     "UniformRandom of rand_util; pytfweb.core.prng has its own tests)"),
]

# (regular expression searched in the case's JavaScript source, reason)
SOURCE_PATTERNS = [
]


_UTIL = ("tests a TF.js internal helper module, not its public API (pytfweb's own {} "
         "is covered by its unit tests)")
# TF.js modules that are not its public API: a case that calls them tests TF.js's internals
INTERNAL_MODULES = {
    "conv_util": _UTIL.format("conv geometry (kernels/conv_geometry.py)"),
    "axis_util": _UTIL.format("axis handling"),
    "broadcast_util": _UTIL.format("broadcasting"),
    "concat_util": _UTIL.format("concat shape checks"),
    "selu_util": _UTIL.format("selu constants"),
    "reduce_util": _UTIL.format("reduction windows"),
    "slice_util": _UTIL.format("slice geometry"),
    "dropout_util": _UTIL.format("dropout noise shape"),
    "./operation:op": "tests TF.js's op() wrapper that names kernels for its profiler",
    "./engine:ENGINE": "reads TF.js's engine internals (ENGINE)",
    "rand_util.js:MPRandGauss": "tests TF.js's internal random generators (pytfweb.core.prng has its own tests)",
}


def reason(case_id, source):
    """Why the case cannot apply, or None."""
    if case_id in CASES:
        return CASES[case_id]
    for pat, why in ID_PATTERNS:
        if re.search(pat, case_id):
            return why
    for pat, why in SOURCE_PATTERNS:
        if re.search(pat, source):
            return why
    return None
