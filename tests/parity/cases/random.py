"""Seeded random ops: TF.js draws with seedrandom (alea) and its own normal / gamma samplers;
pytfweb's prng reproduces them, so shapes, dtypes and values are compared. tf.rand takes a
function: its cases give a counter (spec.fn_arg), which both sides call once per element in order.
multinomial's cases have certain outcomes (see below)."""
from ..spec import case, expect, fn_arg, gives, T

CASES = [
    case("tf.randomUniform", [2, 3], 0, 1, "float32", 7),
    case("tf.randomUniform", [4], -2, 5, "float32", 123),
    case("tf.randomUniform", [3, 2], 0, 10, "int32", 5),
    case("tf.randomUniform", [2, 2], 0, 1, "float32", "abc"),
    case("tf.randomUniform", [0, 3], 0, 1, "float32", 1),
    case("tf.randomUniformInt", [2, 3], 0, 10, 11),
    case("tf.randomUniformInt", [5], -5, 5, 3),
    case("tf.randomNormal", [2, 3], 0, 1, "float32", 7),
    case("tf.randomNormal", [5], 3, 0.5, "float32", 42),
    case("tf.randomNormal", [4], 0, 10, "int32", 9),
    case("tf.randomNormal", [2], 0, 1, "bool", 1, error=True),
    case("tf.randomStandardNormal", [3, 2], "float32", 8),
    case("tf.randomStandardNormal", [3], "int32", 8),
    case("tf.truncatedNormal", [2, 4], 0, 1, "float32", 7),
    case("tf.truncatedNormal", [6], 5, 2, "float32", 99),
    case("tf.truncatedNormal", [3], 0, 10, "int32", 2),
    case("tf.randomGamma", [2, 3], 1.5, 1, "float32", 7),
    case("tf.randomGamma", [4], 0.5, 2, "float32", 3),
    case("tf.randomGamma", [3], 3, 1, "int32", 3),
    # multinomial(logits, numSamples, seed, normalized)
    # (outcomes that are certain: on webgl the draws come from a shader's generator, as on TF.js's
    # webgl backend, so a seed gives other samples there than TF.js's cpu backend)
    case("tf.multinomial", T([-100.0, 100.0, -100.0]), 5, 7),
    case("tf.multinomial", T([[100.0, -100.0], [-100.0, 100.0]]), 4, 11),
    case("tf.multinomial", T([[0.0, 0.0, 1.0]]), 6, 2, True),
    case("tf.multinomial", T([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]), 3, None, True),
    case("tf.multinomial", T([[[0.2, 0.8]]]), 2, 1, error=True),
    # dropout(x, rate, noiseShape, seed)
    case("tf.dropout", T([1.0, 2, 3, 4, 5, 6, 7, 8]), 0.5, None, 3),
    case("tf.dropout", T([[1.0, 2, 3], [4, 5, 6]]), 0.3, [2, 1], 9),
    case("tf.dropout", T([[1.0, 2, 3], [4, 5, 6]]), 0, None, 9),
    case("tf.dropout", T([1.0, 2]), 1.5, None, 1, error=True),
    case("tf.dropout", T([1, 2], dtype="int32"), 0.5, None, 1, error=True),
]

RAND_BOOL = ("`tf.rand`: with dtype 'bool' TF.js stores each number in a Uint8Array, so -1 gives a bool tensor "
             "holding 255, a value no bool can hold; pytfweb stores true (as it does for 1.4, which TF.js "
             "truncates to 1)")
# rand(shape, randFunction, dtype): the function is a counter start + k * step (modulo mod)
CASES += [
    case("tf.rand", [2, 3], fn_arg("counter", 0.0, 0.37, 1.0)),
    case("tf.rand", [4], fn_arg("counter", 0.5, 0.0, 0)),
    case("tf.rand", [2, 2], fn_arg("counter", -2.5, 1.3, 0), "float32"),
    case("tf.rand", [5], fn_arg("counter", -2.5, 1.3, 0), "int32"),       # Int32Array truncates
    case("tf.rand", [5], fn_arg("counter", 0.0, 0.45, 0), "bool"),        # Uint8Array: truncates
    case("tf.rand", [3], fn_arg("counter", -1.0, -1.0, 0), "bool", deviation=RAND_BOOL),
    case("tf.rand", [3], fn_arg("counter", 3e9, 1.0, 0), "int32"),        # ToInt32 wraps
    case("tf.rand", [0, 2], fn_arg("counter", 1.0, 1.0, 0)),
    case("tf.rand", [2], fn_arg("counter", 1.0, 1.0, 0), "string", error=True),
    case("tf.rand", [-1, 2], fn_arg("counter", 1.0, 1.0, 0), error=True),
]

# What pytfweb gives instead in its deviation cases (README's "Deviations from TF.js"), checked in place of
# TF.js's answer: runner.check.
expect(CASES, {
    "rand#6": gives(T([1, 1, 1], [3], "bool")),
})
