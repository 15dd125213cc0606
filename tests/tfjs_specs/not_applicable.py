"""TF.js spec cases that cannot apply to pytfweb, each with why: exact case ids, or patterns
(regular expressions searched in the case id, or in the case's source text)."""
import re

# case id (exact) -> reason
CASES = {
}

# (regular expression searched in the case id, reason)
ID_PATTERNS = [
]

# (regular expression searched in the case's JavaScript source, reason)
SOURCE_PATTERNS = [
]


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
