"""tf.util: TF.js's pure utility functions (shapes, indices, axes, typed arrays, strings, dtypes,
numbers, assertions, 64-bit hashes). Typed arrays compare as lists of their values (Uint8Arrays as bytes); an
argument {"bytes": [...]} is a Uint8Array in TF.js (an ArrayBuffer with "buffer": True) and bytes in pytfweb.
fingerPrint64 and hexToLong return Longs in TF.js: tfjs_run.js writes their decimal string, which pytfweb's int
must equal (README: Deviations).

fetch reads data: URLs (node's fetch, the page's and urllib read them alike) and its Response is compared
through its properties and awaited methods; repeatedTry is awaited on a check that turns true after n calls.

No cases, and why: the random ones (shuffle, shuffleCombo, createShuffledIndices, randUniform) draw from
Math.random in TF.js and Python's random module here, so no two runs agree (tests/unit/test_util.py checks
that they permute and stay in range); now is a clock; swap only mutates its argument (its effect is what
shuffle relies on, tested there); isPromise returns undefined, not false, for anything but a promise in
TF.js, so only its truthiness means something (tests/unit/test_util.py)."""
from ..spec import case, chain, fn_arg

U = "tf.util."

CASES = [
    case(U + "sizeFromShape", [2, 3, 4]),
    case(U + "sizeFromShape", []),
    case(U + "sizeFromShape", [3, 0]),
    case(U + "isScalarShape", []),
    case(U + "isScalarShape", [1]),
    case(U + "computeStrides", [2, 3, 4]),
    case(U + "computeStrides", [5]),
    case(U + "computeStrides", []),
    case(U + "locToIndex", [1, 2, 3], 3, [12, 4]),
    case(U + "locToIndex", [4], 1, []),
    case(U + "locToIndex", [], 0, []),
    case(U + "indexToLoc", 23, 3, [12, 4]),
    case(U + "indexToLoc", 7, 1, []),
    case(U + "indexToLoc", 0, 0, []),
    case(U + "sizeToSquarishShape", 10),
    case(U + "sizeToSquarishShape", 16),
    case(U + "sizeToSquarishShape", 1),
    case(U + "inferFromImplicitShape", [2, -1, 3], 24),
    case(U + "inferFromImplicitShape", [2, 3], 6),
    case(U + "inferFromImplicitShape", [2, 3], 0),
    case(U + "inferFromImplicitShape", [-1, -1], 6, error=True),
    case(U + "inferFromImplicitShape", [4, -1], 6, error=True),
    case(U + "inferFromImplicitShape", [0, -1], 6, error=True),
    case(U + "inferFromImplicitShape", [2, -2], 6, error=True),
    case(U + "inferFromImplicitShape", [2, 3], 7, error=True),
    case(U + "parseAxisParam", None, [2, 3, 4]),
    case(U + "parseAxisParam", -1, [2, 3, 4]),
    case(U + "parseAxisParam", [0, -2], [2, 3, 4]),
    case(U + "parseAxisParam", 3, [2, 3, 4], error=True),
    case(U + "parseAxisParam", [0.5], [2, 3], error=True),
    case(U + "squeezeShape", [1, 2, 1, 3, 1]),
    case(U + "squeezeShape", [1, 2, 1, 3, 1], [2]),
    case(U + "squeezeShape", [1, 2, 1, 3, 1], [0, -1]),
    case(U + "squeezeShape", [1, 2, 1, 3, 1], []),
    case(U + "squeezeShape", [1, 2, 1], [1], error=True),
    case(U + "arraysEqual", [1, 2, 3], [1, 2, 3]),
    case(U + "arraysEqual", [1, 2], [1, 2, 3]),
    case(U + "arraysEqual", [1, 2], [2, 1]),
    case(U + "arraysEqualWithNull", [None, 2], [5, 2]),
    case(U + "arraysEqualWithNull", [None, 2], [5, 3]),
    case(U + "assertShapesMatch", [2, 3], [2, 3]),
    case(U + "assertShapesMatch", [2, 3], [3, 2], "x:", error=True),
    case(U + "assertNonNull", 0),
    case(U + "assertNonNull", None, error=True),
    case(U + "assertNonNegativeIntegerDimensions", [2, 0, 3]),
    case(U + "assertNonNegativeIntegerDimensions", [2, -1], error=True),
    case(U + "assertNonNegativeIntegerDimensions", [2.5], error=True),
    case(U + "assert", True, "never"),
    case(U + "assert", False, "it failed", error=True),
    case(U + "checkConversionForErrors", [1, 2.5], "float32"),
    case(U + "checkConversionForErrors", [1, float("nan")], "int32", error=True),
    case(U + "checkConversionForErrors", [float("inf")], "float32", error=True),
    # numbers
    case(U + "clamp", 0, 5, 3),
    case(U + "clamp", 0, -1.5, 3),
    case(U + "nearestLargerEven", 7),
    case(U + "nearestLargerEven", 8),
    case(U + "nearestDivisor", 12, 5),
    case(U + "nearestDivisor", 13, 2),
    case(U + "isInt", 3),
    case(U + "isInt", 3.5),
    case(U + "sum", [1, 2.5, -4]),
    case(U + "sum", []),
    case(U + "distSquared", [1, 2, 3], [2, 0, 3]),
    case(U + "tanh", 0.5),
    case(U + "tanh", float("inf")),
    case(U + "rightPad", "ab", 5),
    case(U + "rightPad", "abcdef", 3),
    # values and dtypes
    case(U + "isString", "a"),
    case(U + "isString", 3),
    case(U + "isBoolean", True),
    case(U + "isBoolean", 1),
    case(U + "isNumber", 2.5),
    case(U + "isNumber", "2"),
    case(U + "isNumber", False),
    case(U + "isValidDtype", "complex64"),
    case(U + "isValidDtype", "float64"),
    case(U + "inferDtype", [[1.5, 2.5]]),
    case(U + "inferDtype", [True, False]),
    case(U + "inferDtype", "s"),
    case(U + "inferDtype", []),
    case(U + "hasEncodingLoss", "float32", "int32"),
    case(U + "hasEncodingLoss", "int32", "float32"),
    case(U + "hasEncodingLoss", "bool", "int32"),
    case(U + "hasEncodingLoss", "int32", "bool"),
    case(U + "hasEncodingLoss", "complex64", "float32"),
    case(U + "hasEncodingLoss", "bool", "bool"),
    case(U + "bytesPerElement", "float32"),
    case(U + "bytesPerElement", "bool"),
    case(U + "bytesPerElement", "complex64"),
    case(U + "bytesPerElement", "string", error=True),
    case(U + "bytesFromStringArray", [{"bytes": [1, 2, 3]}, {"bytes": []}, {"bytes": [9]}]),
    case(U + "encodeString", "héllo"),
    case(U + "decodeString", {"bytes": [104, 195, 169, 108, 108, 111]}),
    case(U + "flatten", [[1, 2], [3, [4, [5]]], []]),
    case(U + "flatten", [["a"], ["b", "c"]]),
    case(U + "flatten", 7),
    # typed arrays
    case(U + "makeZerosTypedArray", 3, "int32"),
    case(U + "makeZerosTypedArray", 2, "bool"),
    case(U + "makeZerosTypedArray", 2, "complex64"),
    case(U + "makeZerosTypedArray", 2, "string", error=True),
    case(U + "makeOnesTypedArray", 3, "float32"),
    case(U + "makeOnesTypedArray", 2, "bool"),
    case(U + "getArrayFromDType", "int32", 3),
    case(U + "getArrayFromDType", "float32", 2),
    case(U + "getArrayFromDType", "complex64", 2, error=True),
    case(U + "getTypedArrayFromDType", "bool", 2),
    case(U + "makeZerosNestedTypedArray", [2, 3], "float32"),
    case(U + "makeZerosNestedTypedArray", [2, 1, 2], "int32"),
    case(U + "toNestedArray", [2, 3], [1, 2, 3, 4, 5, 6]),
    case(U + "toNestedArray", [], [7]),
    case(U + "toNestedArray", [2, 0], []),
    case(U + "toNestedArray", [2, 1], [1, 2, 3, 4], True),
    case(U + "toNestedArray", [2, 2], [1, 2, 3], error=True),
    case(U + "toTypedArray", [[1.5, -2.5], [3.7, 0]], "int32"),
    case(U + "toTypedArray", [0.4, 0.6, -0.6, 2], "bool"),
    case(U + "toTypedArray", [1, 2.5], "float32"),
    case(U + "toTypedArray", ["a"], "string", error=True),
    case(U + "createScalarValue", 2.5, "int32"),
    case(U + "createScalarValue", "hé", "string"),
    case(U + "convertBackendValuesAndArrayBuffer", [1, 2], "float32"),
    case(U + "convertBackendValuesAndArrayBuffer", {"bytes": [0, 0, 128, 63, 0, 0, 0, 64], "buffer": True}, "float32"),
    case(U + "convertBackendValuesAndArrayBuffer", {"bytes": [1, 0, 0, 0, 0, 1, 0, 0], "buffer": True}, "bool"),
    case(U + "isFunction", fn_arg("counter", 0, 1, 0)),
    case(U + "isFunction", 3),
    case(U + "isTypedArray", {"bytes": [1, 2]}),
    case(U + "isTypedArray", [1, 2]),
]

# 64-bit hashes: TF.js's Longs compared by value (every farmhash length branch: 0, 1-3, 4-7, 8-16, 17-32,
# 33-64 and the loop over 64-byte blocks; len below the array's length)
BYTES = [(i * 37 + 11) % 256 for i in range(200)]
CASES += [case(U + "fingerPrint64", {"bytes": BYTES[:n]}) for n in (0, 1, 3, 4, 7, 8, 16, 17, 32, 33, 64, 65, 128, 200)]
CASES += [
    case(U + "fingerPrint64", {"bytes": list("héllo wörld".encode())}),
    case(U + "fingerPrint64", {"bytes": BYTES[:100]}, 40),
    case(U + "hexToLong", "c3a5c85c97cb3127"),
    case(U + "hexToLong", "0"),
    case(U + "hexToLong", "ff"),
    case(U + "hexToLong", "FFFFFFFFFFFFFFFF"),
    case(U + "hexToLong", "1ffffffffffffffff"),   # 65 bits: modulo 2^64
    case(U + "hexToLong", "-1"),
    case(U + "hexToLong", "123456789abcdef0123"),
    case(U + "hexToLong", "12zz"),
    case(U + "hexToLong", "", error=True),
    case(U + "hexToLong", "1-2", error=True),
]

# fetch (a Response: its properties, its body awaited) and repeatedTry (awaited)
TEXT_URL = "data:text/plain;charset=utf-8,hello%20w%C3%B6rld"
JSON_URL = "data:application/json,%7B%22a%22%3A%5B1%2C2.5%5D%2C%22b%22%3A%22x%22%7D"
CASES += [
    chain(U + "fetch", TEXT_URL, calls=[("text", [])]),
    chain(U + "fetch", TEXT_URL, calls=[("arrayBuffer", [])]),
    chain(U + "fetch", TEXT_URL, calls=[("ok",)]),
    chain(U + "fetch", TEXT_URL, calls=[("status",)]),
    chain(U + "fetch", TEXT_URL, calls=[("statusText",)]),
    chain(U + "fetch", JSON_URL, calls=[("json", [])]),
    case(U + "repeatedTry", fn_arg("after", 1), awaits=True),
    case(U + "repeatedTry", fn_arg("after", 4), fn_arg("scale", 1), awaits=True),
    case(U + "repeatedTry", fn_arg("after", 4), fn_arg("scale", 0), 4, awaits=True),
    case(U + "repeatedTry", fn_arg("after", 5), fn_arg("scale", 0), 3, awaits=True, error="RuntimeError"),   # README
]
