"""Hand translations of TF.js spec cases the translator cannot do, or whose expected answer is a
documented pytfweb deviation (README, "Deviations"): case id -> (python source of the case's
body, reason). The body runs with `tf` and `_js` (runtime.py) in scope."""

HAND = {
}
