"""Every elementwise op of the tables (UNARY, BINARY, GRADIENT_KERNELS), Cast, Select, Fill,
ZerosLike, OnesLike: webgpu in the page against cpu here, with NaN, infinities, -0 (sign
checked), broadcasting, 0-size and the int32 limits (webgpu stores int32 natively: exact over
the whole range)."""
import numpy as np
import pytest

from pytfweb.ops.elementwise import BINARY, UNARY

from .test_webgpu_backend import compare_webgpu, webgpu  # noqa: F401  (fixtures)

RNG = np.random.default_rng(11)
SPECIAL = np.float32([0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.5, -3.5, 1e-7, -2e-5, 40.0, -40.0, 1e6, -1e6,
                      np.inf, -np.inf, np.nan])
INT_EDGES = np.int32([0, 1, -1, 2 ** 31 - 1, -2 ** 31, 2 ** 24 + 1, -(2 ** 24) - 3, 46341, -46341, 7, -7])
# GPU sin/cos/tan/exp are approximations far from 0: those ops take moderate inputs.
MODERATE = {"Sin", "Cos", "Tan", "Exp"}
TOLERANCE = dict(rtol=2e-5, atol=1e-5)
LOOSE = dict(rtol=2e-4, atol=2e-4)
LOOSE_KERNELS = {"Sin", "Cos", "Tan", "Acos", "Asin", "Atan", "Atanh", "Erf"}
ATTRS = {"LeakyRelu": ", 0.3", "ClipByValue": ", -1.5, 2.5", "Step": ", 0.25"}


def unary_input(row):
    if row.kind == "bool":
        return RNG.uniform(size=(3, 4)) < 0.5
    lo, hi = (-1.2, 1.2) if row.kernel in ("Acos", "Asin", "Atanh", "Tan") else (-8, 8)
    values = RNG.uniform(lo, hi, size=(2, 3, 5)).astype(np.float32)
    special = SPECIAL if row.kernel not in MODERATE else SPECIAL[np.abs(SPECIAL) < 100]
    values.reshape(-1)[:len(special)] = special
    return values


@pytest.mark.parametrize("row", UNARY, ids=lambda r: r.kernel)
def test_unary_float(compare_webgpu, row):
    tolerance = LOOSE if row.kernel in LOOSE_KERNELS else TOLERANCE
    compare_webgpu(f"lambda x: tf.{row.name}(x{ATTRS.get(row.kernel, '')})", [unary_input(row)], **tolerance)


@pytest.mark.parametrize("row", [r for r in UNARY if r.kind in ("numeric", "test")], ids=lambda r: r.kernel)
def test_unary_int32_and_bool(compare_webgpu, row):
    attrs = {"ClipByValue": ", -3.5, 2 ** 31 + 10.0", "Step": ", -2"}.get(row.kernel, "")
    ints = np.concatenate([INT_EDGES, RNG.integers(-9, 9, size=(5,)).astype(np.int32)])
    bools = RNG.uniform(size=(4,)) < 0.5
    compare_webgpu(f"lambda i, b: [tf.{row.name}(i{attrs}), tf.{row.name}(b{attrs})]", [ints, bools])


def test_clip_int32_with_fractional_bounds(compare_webgpu):
    x = np.int32([-5, -2, -1, 0, 1, 2, 3, 4])
    compare_webgpu("lambda x: [tf.clip_by_value(x, -1.5, 2.5), tf.clip_by_value(x, 0.5, 3.0), "
                   "tf.clip_by_value(x, -2, 2)]", [x])


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


SHAPES = [((2, 3, 4), (2, 3, 4)), ((4, 1, 3), (2, 1)), ((), (3,)), ((2, 3), (1, 1)), ((0, 3), (1, 3)),
          ((2, 1, 1, 3, 1), (1, 4, 1, 2))]


@pytest.mark.parametrize("row", [r for r in BINARY if r.kernel != "BitwiseAnd"], ids=lambda r: r.kernel)
def test_binary_broadcasting(compare_webgpu, row):
    inputs = [x for shapes in SHAPES for x in binary_inputs(row, shapes, "float32")]
    args = ", ".join(f"a{i}, b{i}" for i in range(len(SHAPES)))
    outs = ", ".join(f"tf.{row.name}(a{i}, b{i})" for i in range(len(SHAPES)))
    tolerance = LOOSE if row.kernel in ("Atan2", "Pow") else TOLERANCE
    compare_webgpu(f"lambda {args}: [{outs}]", inputs, **tolerance)


@pytest.mark.parametrize("row", [r for r in BINARY if r.kind not in ("logical", "same") and r.kernel != "BitwiseAnd"],
                         ids=lambda r: r.kernel)
def test_binary_int32_exact(compare_webgpu, row):
    a, b = binary_inputs(row, [(2, 8), (8,)], "int32")
    # the int32 limits: wrapping sums and products, INT_MIN // -1, x % 0, ...
    ea = np.repeat(INT_EDGES, len(INT_EDGES))
    eb = np.tile(INT_EDGES, len(INT_EDGES))
    if row.kernel == "Pow":   # wrapped below 2^53, rounded to 53 bits up to 2^84, 0 beyond (elementwise._pow_int)
        ea = np.int32([2, -2, 3, -3, 46341, 7, -7, 1, -1, 0, 0, 5, 2, -2 ** 31, 2 ** 31 - 1, 10, 1, -1,
                       3, 10, -3, 5, 2 ** 31 - 1, 123456, -2 ** 31, 7, -68817, 3, 2])
        eb = np.int32([31, 31, 20, 19, 2, 18, 3, -5, -6, -1, 0, 70, 64, 1, 1, 9, 2 ** 31 - 1, 2 ** 31 - 1,
                       40, 20, 33, 23, 2, 3, 2, 30, 5, 53, -2 ** 31])
    compare_webgpu(f"lambda a, b, c, d: [tf.{row.name}(a, b), tf.{row.name}(c, d)]", [a, b, ea, eb])


def test_bitwise_and(compare_webgpu):
    a = np.repeat(INT_EDGES, len(INT_EDGES))
    b = np.tile(INT_EDGES, len(INT_EDGES))
    compare_webgpu("lambda a, b: tf.bitwise_and(a, b)", [a, b])


def test_bool_operands(compare_webgpu):
    p = RNG.uniform(size=(3, 4)) < 0.5
    q = RNG.uniform(size=(4,)) < 0.5
    compare_webgpu("lambda p, q: [tf.logical_and(p, q), tf.logical_or(p, q), tf.logical_not(p), tf.equal(p, q), "
                   "tf.greater(p, q), p + q, p * q, tf.maximum(p, q), tf.logical_xor(p, q)]", [p, q])


def test_binary_special_values(compare_webgpu):
    a = np.repeat(SPECIAL, len(SPECIAL))
    b = np.tile(SPECIAL, len(SPECIAL))
    compare_webgpu("lambda a, b: [a + b, a - b, a * b, a / b, tf.maximum(a, b), tf.minimum(a, b), "
                   "tf.equal(a, b), tf.not_equal(a, b), tf.less(a, b), tf.less_equal(a, b), tf.greater(a, b), "
                   "tf.greater_equal(a, b), tf.squared_difference(a, b), tf.floor_div(a, b), tf.mod(a, b), "
                   "tf.pow(a, b), tf.atan2(a, b)]", [a, b], **LOOSE)


def test_division_and_modulo_edges(compare_webgpu):
    a = np.float32([7, -7, 7, -7, 0, 1, -1, 6.5, 1e30, -1e30, 5, -0.0, 3e9, 2.5e10])
    b = np.float32([2, 2, -2, -2, 0, 0, 0, 2, 3, 7e-3, np.inf, 3, 1, 1])
    compare_webgpu("lambda a, b: [a / b, tf.floor_div(a, b), tf.mod(a, b)]", [a, b])
    ia = np.int32([7, -7, 7, -7, 0, 5, 9, -9, -2 ** 31, -2 ** 31, 2 ** 31 - 1])
    ib = np.int32([2, 2, -2, -2, 3, 0, 3, 3, -1, 1, -1])
    compare_webgpu("lambda a, b: [tf.div(a, b), tf.floor_div(a, b), tf.mod(a, b), a / b]", [ia, ib])


def test_gradient_kernels(compare_webgpu):
    dy = RNG.normal(size=(3, 5)).astype(np.float32)
    x = np.float32([[-1, 0, 0.5, 6, 6.5], [np.nan, -0.0, 3, 7, -2], [1, 2, 3, 4, 5]])
    compare_webgpu("lambda dy, x: [tf.engine().run_kernel(k, [dy, x]) for k in ('EluGrad', 'ReluGrad', 'Relu6Grad')]",
                   [dy, x])


def test_cast(compare_webgpu):
    x = np.float32([1.7, -1.7, 0.0, -0.0, 2.5, np.nan, np.inf, -np.inf, -3.99, 3e9, -3e9, 2.0 ** 31, 1e20, -2 ** 31])
    compare_webgpu("lambda x: [tf.cast(x, 'int32'), tf.cast(x, 'bool'), tf.cast(tf.cast(x, 'int32'), 'float32')]",
                   [x])
    compare_webgpu("lambda b, i: [tf.cast(b, 'int32'), tf.cast(b, 'float32'), tf.cast(b, 'bool'), tf.cast(i, 'bool'), "
                   "tf.cast(i, 'float32')]", [np.array([True, False, True]), INT_EDGES])


def test_where_broadcasts_all_three(compare_webgpu):
    cond = RNG.uniform(size=(2, 1, 4)) < 0.5
    compare_webgpu("lambda c, a, b: tf.where(c, a, b)",
                   [cond, RNG.normal(size=(3, 1)).astype(np.float32), np.float32([np.nan, 1, -0.0, 3])])
    compare_webgpu("lambda c, a, b: [tf.where(c, a, b), tf.where(c, b > 2, a > 1)]",
                   [np.array(True), INT_EDGES[:2], np.int32([3, 4])])


def test_fill_zeros_ones(compare_webgpu):
    x = RNG.normal(size=(2, 3)).astype(np.float32)
    i = np.int32([1, 2, 3])
    b = np.array([True, False])
    compare_webgpu("lambda x, i, b: [tf.zeros_like(x), tf.ones_like(i), tf.ones_like(b), tf.zeros_like(b), "
                   "tf.fill([2, 2], float('nan')), tf.fill([3], -7, 'int32'), tf.ones([0, 2]), tf.zeros([4], 'bool'), "
                   "tf.fill([2], -0.0)]", [x, i, b])


def test_python_operators(compare_webgpu):
    x = RNG.uniform(-3, 3, size=(3, 3)).astype(np.float32)
    i = RNG.integers(1, 5, size=(3,)).astype(np.int32)
    compare_webgpu("lambda x, i: [x + 1, 2 - x, x * x, x / 3, x // 2, x % 1.5, x ** 2, -x, abs(x), "
                   "x < 0, x >= 1, i * 2, i / 2, i // 2, -i]", [x, i], **TOLERANCE)


def test_pipelines_are_cached_by_signature_not_shape(webgpu):
    out = webgpu("""
b = tf.engine().backend
x = tf.tensor([1.0, 2.0])
await tf.add(x, x).data()
n = len(b.device.pipelines)
for shape in ([3], [2, 5], [7, 1, 3]):
    y = tf.ones(shape)
    await tf.add(y, y).data()
result = len(b.device.pipelines) - n
""")
    # same-shape operands: the code does not depend on the shape at all
    assert out == 0


def test_one_value_cpu_side_operands_go_as_uniforms(webgpu):
    """A one-value tensor whose value is CPU-side reaches the program as a uniform: never uploaded,
    the same results (NaN and infinities too) as through a buffer."""
    out = webgpu("""
b = tf.engine().backend
x = tf.tensor([[1.5, -2.0, 0.0], [4.0, -0.5, 3.0]])
i = tf.tensor([7, -7, 9], dtype="int32")
two, nan, three = tf.scalar(2.0), tf.scalar(float("nan")), tf.tensor([[3]], dtype="int32")
ys = [x * two, two - x, tf.pow(x, 2.0), tf.maximum(x, 0.5), x < 1, i // three, i % three, x + nan, tf.where(x > 0, x, nan)]
values = [await y.array() for y in ys]
uploaded = [b.store[t.data_id].buffer is not None for t in (two, nan, three)]
again = tf.neg(two)                     # a unary use of a CPU-side scalar: a uniform too
v = await again.array()
result = [values, uploaded, v, b.store[two.data_id].buffer is not None]
""")
    values, uploaded, neg_two, two_uploaded = out
    x = np.float32([[1.5, -2.0, 0.0], [4.0, -0.5, 3.0]])
    i = np.int32([7, -7, 9])
    three = np.int32([[3]])
    want = [x * 2, 2 - x, x ** 2, np.maximum(x, 0.5), x < 1, i // three, i % three, x + np.nan,
            np.where(x > 0, x, np.nan)]
    for got, w in zip(values, want):
        np.testing.assert_array_equal(np.asarray(got, dtype=np.float64), np.asarray(w, dtype=np.float64))
    assert uploaded == [False, False, False] and neg_two == -2.0 and not two_uploaded
