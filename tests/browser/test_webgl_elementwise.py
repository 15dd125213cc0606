"""Every elementwise op of the tables, Cast and Select: webgl in the page against cpu here."""
import numpy as np
import pytest

from pytfweb.ops.elementwise import BINARY, UNARY

from .conftest import BACKEND, F16, lost_infinities, tolerance
from .test_webgl_math import MATH_KERNELS

# every test here runs with lazy elementwise fusion on and off (conftest.fusion_both_ways)
pytestmark = pytest.mark.usefixtures("fusion_both_ways")

# The math family's rows need their own domains and tolerances: test_webgl_math.py has them.
UNARY = [r for r in UNARY if r.kernel not in MATH_KERNELS]
BINARY = [r for r in BINARY if r.kernel not in MATH_KERNELS]

RNG = np.random.default_rng(7)
SPECIAL = np.float32([0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.5, -3.5, 1e-7, 40.0, -40.0, 1e6, -1e6,
                      np.inf, -np.inf, np.nan])
# GLSL's sin/cos/pow lose accuracy far from zero (as TF.js's webgl backend does): keep those
# ops' inputs where float32 shaders are meant to agree with float64-then-rounded numpy.
MODERATE = {"Sin", "Cos", "Exp"}
TOLERANCE = dict(rtol=2e-5, atol=1e-5)


def unary_input(row):
    if row.kind == "bool":
        return RNG.uniform(size=(3, 4)) < 0.5
    values = RNG.uniform(-8, 8, size=(2, 3, 4)).astype(np.float32)
    special = SPECIAL if row.kernel not in MODERATE else SPECIAL[np.abs(SPECIAL) < 100]
    values.reshape(-1)[:len(special)] = special
    return values


# GPU sin/cos are approximations (SwiftShader's: ~5e-5 absolute error on [-pi, pi]; TF.js's
# webgl backend has the same limit), so those two are held to that, not to float32 rounding.
TRIG_TOLERANCE = dict(rtol=0, atol=2e-4)


@pytest.mark.parametrize("row", UNARY, ids=lambda r: r.kernel)
def test_unary_float(compare_with_cpu, row):
    attrs = {"LeakyRelu": ", 0.3", "ClipByValue": ", -1.5, 2.5"}.get(row.kernel, "")
    tolerance = TRIG_TOLERANCE if row.kernel in ("Sin", "Cos") else TOLERANCE
    compare_with_cpu(f"lambda x: tf.{row.name}(x{attrs})", [unary_input(row)], **tolerance)


@pytest.mark.parametrize("row", [r for r in UNARY if r.kind == "numeric"], ids=lambda r: r.kernel)
def test_unary_int32_keeps_dtype(compare_with_cpu, row):
    attrs = {"ClipByValue": ", -3, 4"}.get(row.kernel, "")
    x = RNG.integers(-9, 9, size=(5,)).astype(np.int32)
    compare_with_cpu(f"lambda x: tf.{row.name}(x{attrs})", [x])


def test_unary_on_scalar_and_unit_dims(compare_with_cpu):
    compare_with_cpu("lambda x, y: [tf.exp(x), tf.relu(y)]",
                     [np.float32(1.5), RNG.normal(size=(1, 3, 1)).astype(np.float32)], **TOLERANCE)


def binary_inputs(row, shapes, dtype):
    if row.kind == "logical":
        return [RNG.uniform(size=s) < 0.5 for s in shapes]
    if dtype == "int32":
        a = RNG.integers(-9, 9, size=shapes[0]).astype(np.int32)
        b = RNG.integers(-4, 5, size=shapes[1]).astype(np.int32)
        if row.kernel == "Pow":
            b = np.abs(b)
        return [a, b]
    a = RNG.uniform(-5, 5, size=shapes[0]).astype(np.float32)
    b = RNG.uniform(-5, 5, size=shapes[1]).astype(np.float32)
    if row.kernel == "Pow":  # negative bases need integer exponents
        b = np.round(b)
    return [a, b]


@pytest.mark.parametrize("row", BINARY, ids=lambda r: r.kernel)
def test_binary_broadcasting(compare_with_cpu, row):
    # (), (1, 1): one-value operands on either side, taken as uniforms (elementwise.py)
    for shapes in [((2, 3, 4), (2, 3, 4)), ((4, 1, 3), (2, 1)), ((), (3,)), ((2, 3), (1, 1))]:
        compare_with_cpu(f"lambda a, b: tf.{row.name}(a, b)", binary_inputs(row, shapes, "float32"), **TOLERANCE)


@pytest.mark.parametrize("row", [r for r in BINARY if r.kind != "logical"], ids=lambda r: r.kernel)
def test_binary_int32_exact(compare_with_cpu, row):
    compare_with_cpu(f"lambda a, b: tf.{row.name}(a, b)", binary_inputs(row, [(2, 8), (8,)], "int32"))


def test_binary_special_values(compare_with_cpu):
    a = np.repeat(SPECIAL, len(SPECIAL))
    b = np.tile(SPECIAL, len(SPECIAL))
    compare_with_cpu("lambda a, b: [a + b, a - b, a * b, tf.maximum(a, b), tf.minimum(a, b), "
                     "tf.equal(a, b), tf.less(a, b), tf.greater_equal(a, b)]", [a, b])


def test_division_and_modulo_edges(compare_with_cpu):
    a = np.float32([7, -7, 7, -7, 0, 1, -1, 6.5])
    b = np.float32([2, 2, -2, -2, 0, 0, 0, 2])
    compare_with_cpu("lambda a, b: [a / b, tf.floor_div(a, b), tf.mod(a, b)]", [a, b])
    ia = np.int32([7, -7, 7, -7, 0, 5, 9, -9])
    ib = np.int32([2, 2, -2, -2, 3, 0, 3, 3])
    compare_with_cpu("lambda a, b: [tf.div(a, b), tf.floor_div(a, b), tf.mod(a, b), a / b]", [ia, ib])


@pytest.mark.skipif(F16, reason="a property of float32 textures (integers exact to 2**24); half floats hold 2**11")
def test_large_int32_values_stay_exact(compare_with_cpu):
    a = np.int32([16_000_000, -16_000_000, 8_388_607, 123_456])
    b = np.int32([3, 7, 1, -11])
    compare_with_cpu("lambda a, b: [a + b, a - b, tf.floor_div(a, b), tf.mod(a, b)]", [a, b])


@pytest.mark.skipif(F16, reason="int32 operands past 2**11 do not survive half-float textures")
def test_int32_pow_past_int32(compare_with_cpu):
    """int32 powers as TF.js's cpu kernel gives them (elementwise._pow_int): 0 ** 0, 1 ** big,
    (-1) ** odd and even, negative exponents, wrapped and float64-rounded powers, 0 from 2^84 on;
    broadcast both ways and with a one-value exponent. webgl carries int32 as float32 (exact to
    2^24): there the results are compared as the float32 its textures hold (3 ** 20, -808182895,
    reads back -808182912); webgpu's i32 exactly."""
    bases = np.int32([0, 1, -1, 2, -2, 3, -3, 10, -10, 7, 46341, -2 ** 31]).reshape(-1, 1)
    exps = np.int32([-3, -1, 0, 1, 2, 15, 20, 22, 31, 32, 33, 40, 64, 84, 16777215])
    band_a = np.int32([3, -5, 10, 7, -6, 123]).reshape(2, 1, 3)    # powers between 2^53 and 2^84
    band_b = np.int32([19, 23, 33, 40]).reshape(1, 4, 1)
    outs = "[tf.pow(a, b), c ** d, tf.pow(c, 21)]"
    if BACKEND == "webgl":
        outs = f"[tf.cast(y, 'float32') for y in {outs}]"
    compare_with_cpu(f"lambda a, b, c, d: {outs}", [bases, exps, band_a, band_b], rtol=2 ** -23, atol=0)


def test_cast(compare_with_cpu):
    x = np.float32([1.7, -1.7, 0.0, -0.0, 2.5, np.nan, np.inf, -3.99])
    compare_with_cpu("lambda x: [tf.cast(x, 'int32'), tf.cast(x, 'bool'), tf.cast(tf.cast(x, 'int32'), 'float32')]",
                     [x])
    compare_with_cpu("lambda b: [tf.cast(b, 'int32'), tf.cast(b, 'float32'), tf.cast(b, 'bool')]",
                     [np.array([True, False, True])])


def test_where_broadcasts_all_three(compare_with_cpu):
    cond = RNG.uniform(size=(2, 1, 4)) < 0.5
    compare_with_cpu("lambda c, a, b: tf.where(c, a, b)",
                     [cond, RNG.normal(size=(3, 1)).astype(np.float32), np.float32([np.nan, 1, 2, 3])])
    compare_with_cpu("lambda c, a, b: tf.where(c, a, b)",
                     [np.array(True), np.int32([1, 2]), np.int32([3, 4])])


def test_logical_ops_take_numbers_and_chained_casts(compare_with_cpu):
    """TF.js parses numbers given to the logical ops as bool (nonzero after rounding); the chained
    to_int / to_float / to_bool / ones_like / zeros_like / reshape_as methods."""
    x = np.float32([1.7, -0.5, 0.5, 0.0, 2.0, -3.2])
    compare_with_cpu("""lambda x: [tf.logical_and([1, 0, 0.5, -0.5, 2, 0], [1.0, 1, 1, 1, 0, 0]),
        tf.logical_or([0, 0.4, 1], 0), tf.logical_not([0.6, 0, -2]), tf.logical_xor([1, 0], [1, 1]),
        tf.logical_and(x.to_bool(), [1, 1, 1, 0, 1, 1]), x.to_int(), x.to_int().to_float(), x.ones_like(),
        x.to_bool().zeros_like(), x.reshape_as(tf.zeros([2, 3], 'int32'))]""", [x])


def test_python_operators(compare_with_cpu):
    x = RNG.uniform(-3, 3, size=(3, 3)).astype(np.float32)
    i = RNG.integers(1, 5, size=(3,)).astype(np.int32)
    compare_with_cpu("lambda x, i: [x + 1, 2 - x, x * x, x / 3, x // 2, x % 1.5, x ** 2, -x, abs(x), "
                     "x < 0, x >= 1, i * 2, i / 2, i // 2, -i]", [x, i], **TOLERANCE)


@pytest.mark.webgl_only("webgl's textures: one-value operands as GLSL uniforms")
@pytest.mark.filterwarnings("ignore:invalid value encountered")  # numpy, on 0 * inf
def test_one_value_operands_as_uniforms(run_py):
    """A finite one-value operand still on the CPU side reaches the binary program as a uniform:
    never uploaded, the same results as through a texture; NaN and infinities (and values already
    in a texture) go as textures."""
    out = run_py("""
be = tf.backend()
x = tf.tensor([[1.5, -2.0, 0.0], [4.0, -0.5, 3.0]])
i = tf.tensor([7, -7, 9], dtype='int32')
two, nan, three = tf.scalar(2.0), tf.scalar(float('nan')), tf.tensor([[3]], dtype='int32')
ys = [x * two, two - x, x / 4, tf.pow(x, 2), tf.maximum(x, 0.5), x < 1, i // three, i % three, x + nan, x * float('inf')]
values = [y.array_sync() for y in ys]               # drawn (with fusion on, only now)
uploaded = [be.store[t.data_id].texture is not None for t in (two, three, nan)]
two_through_texture = tf.neg(two)                   # a unary use of two uploads it ...
two_through_texture.data_sync()
uploaded_two = be.store[two.data_id].texture is not None
again = x * two                                      # ... and the binary kernel then reads its texture
result = [values, uploaded, uploaded_two, again.array_sync()]
tf.dispose(ys + [x, i, two, nan, three, two_through_texture, again])
""")
    ys, uploaded, uploaded_two, again = out
    x = np.float32([[1.5, -2.0, 0.0], [4.0, -0.5, 3.0]])
    i = np.int32([7, -7, 9])
    three = np.int32([[3]])
    want = [x * 2, 2 - x, x / 4, x ** 2, np.maximum(x, 0.5), x < 1, i // three, i % three, x + np.nan, x * np.inf]
    for got, w in zip(ys, want):
        if np.asarray(w).dtype == np.float32:
            got = lost_infinities(np.asarray(got, np.float32), w)
        np.testing.assert_allclose(np.asarray(got, dtype=np.float64), np.asarray(w, dtype=np.float64),
                                   *tolerance(1e-6, 0), equal_nan=True)
    assert uploaded == [False, False, True]    # 2 and 3 as uniforms; NaN through a texture
    assert uploaded_two
    np.testing.assert_allclose(again, x * 2)
