"""webgl convolutions, Dilation2D and the fused kernels against the cpu backend; gradients
compared with cpu's and a few checked numerically in the page.

Several ops per compare_with_cpu call: each shape compiles its own shaders, slowly on SwiftShader."""
import numpy as np
import pytest

import pytfweb as tf

from .conftest import F16, as_stored, gradient_threshold, tolerance

rng = np.random.default_rng(31)


def _on_small_textures(body):
    """run_py code running body (indented by 4) on a webgl backend whose texture limit is 64, the
    session's backend and limit put back after it."""
    return ("""
from pytfweb.backends.webgl.backend import WebGLBackend
old = tf.env().get("WEBGL_MAX_TEXTURE_SIZE")
tf.env().set("WEBGL_MAX_TEXTURE_SIZE", 64)
tf.copy_registered_kernels("webgl", "webgl-small")
tf.register_backend("webgl-small", WebGLBackend)
tf.set_backend("webgl-small")
try:
""" + body + """finally:
    tf.set_backend("webgl")
    tf.remove_backend("webgl-small")
    tf.env().set("WEBGL_MAX_TEXTURE_SIZE", old)
""")

def floats(*shape):
    return rng.uniform(-2, 2, size=shape).astype(np.float32)


def test_conv2d_pads_strides_dilations(compare_with_cpu):
    # 4 input channels take the vec4 path, 3 the remainder loop, 6 both
    x4, w4 = floats(2, 7, 6, 4), floats(3, 3, 4, 5)
    x3, w3 = floats(1, 6, 5, 3), floats(2, 3, 3, 2)
    x6, w6 = floats(1, 5, 5, 6), floats(1, 1, 6, 3)
    compare_with_cpu("""lambda x4, w4, x3, w3, x6, w6: [
        tf.conv2d(x4, w4, 1, 'same'), tf.conv2d(x4, w4, 2, 'valid'), tf.conv2d(x4, w4, [2, 1], 'same'),
        tf.conv2d(x4, w4, 1, 'same', dilations=2), tf.conv2d(x4, w4, 1, [[0, 0], [2, 1], [0, 3], [0, 0]]),
        tf.conv2d(x3, w3, 2, 1, dim_rounding_mode='ceil'), tf.conv2d(x3, w3, [1, 2], 'valid', dilations=1),
        tf.conv2d(x6, w6, 1, 'valid'), tf.conv2d(x6[0], w6, 2, 'same'),
        tf.conv1d(tf.reshape(x3, [6, 5, 3]), w3[0], 2, 'same'),
        tf.conv2d(tf.transpose(x3, [0, 3, 1, 2]), w3, 2, 'same', 'NCHW')]""",
                     [x4, w4, x3, w3, x6, w6], rtol=1e-4, atol=1e-4)


def test_depthwise_separable_conv3d_and_transposes(compare_with_cpu):
    x, dw, pw = floats(2, 6, 7, 3), floats(3, 3, 3, 2), floats(1, 1, 6, 4)
    v, vw = floats(1, 4, 5, 4, 2), floats(2, 3, 2, 2, 3)
    compare_with_cpu("""lambda x, dw, pw, v, vw: [
        tf.depthwise_conv2d(x, dw, 2, 'same'), tf.depthwise_conv2d(x, dw, 1, 'valid', dilations=[2, 1]),
        tf.depthwise_conv2d(tf.transpose(x, [0, 3, 1, 2]), dw, 1, 'same', 'NCHW'),
        tf.separable_conv2d(x, dw, pw, 1, 'same'),
        tf.conv3d(v, vw, 1, 'same'), tf.conv3d(v, vw, [2, 1, 2], 'valid'),
        tf.conv2d_transpose(tf.conv2d(x, pw[:, :, :3, :], 2, 'same'), pw[:, :, :3, :], [2, 6, 7, 3], 2, 'same'),
        tf.conv2d_transpose(tf.ones([2, 3, 4, 2]), dw, [2, 6, 7, 3], 2, 'same'),
        tf.conv3d_transpose(tf.ones([1, 2, 5, 2, 3]), vw, [1, 4, 5, 4, 2], [2, 1, 2], 'same')]""",
                     [x, dw, pw, v, vw], rtol=1e-4, atol=1e-4)


def test_dilation2d(compare_with_cpu):
    x, w = floats(2, 6, 5, 3), floats(3, 2, 3)
    edge = x.copy()
    edge[0, 1, 1, 0], edge[1, 2, 2, 1], edge[0, 4, 3, 2] = np.nan, np.inf, -np.inf
    # a -inf corner: the windows there have no maximum (TF.js's floor value; dy goes to the corner)
    hole = x.copy()
    hole[0, :3, :3, :] = -np.inf
    compare_with_cpu("""lambda x, w, edge, hole: [
        tf.dilation2d(x, w, 1, 'same'), tf.dilation2d(x, w, 2, 'valid'),
        tf.dilation2d(x, w, [1, 2], 'same', [2, 1]), tf.dilation2d(x[0], w, 1, 'same', 2),
        tf.dilation2d(edge, w, 1, 'same'), tf.dilation2d(hole, w, 1, 'same'),
        tf.grads(lambda a, f: tf.dilation2d(a, f, 1, 'same'))([hole, w])]""", [x, w, edge, hole])


def test_fused(compare_with_cpu):
    x, w, b = floats(2, 5, 5, 4), floats(3, 3, 4, 3), floats(3)
    dw, a = floats(2, 2, 4, 2), floats(8)
    m, n, mb = floats(2, 3, 4), floats(4, 5), floats(2, 1, 5)
    compare_with_cpu("""lambda x, w, b, dw, a, m, n, mb: [
        tf.fused.conv2d(x, w, 1, 'same', bias=b, activation='relu'),
        tf.fused.conv2d(x, w, 2, 'valid', bias=b, activation='relu6'),
        tf.fused.conv2d(x, w, 1, 'same', activation='elu'),
        tf.fused.conv2d(x, w, 1, 'same', bias=b, activation='sigmoid'),
        tf.fused.conv2d(x, w, 1, 'same', bias=b, activation='leakyrelu', leakyrelu_alpha=0.3),
        tf.fused.conv2d(x, w, 1, 'same', bias=b, activation='prelu', prelu_activation_weights=b),
        tf.fused.conv2d(tf.transpose(x, [0, 3, 1, 2]), w, 1, 'same', 'NCHW', bias=b, activation='relu'),
        tf.fused.depthwise_conv2d(x, dw, 1, 'same', bias=a, activation='prelu', prelu_activation_weights=a),
        tf.fused.depthwise_conv2d(x, dw, 2, 'valid', bias=a[0]),
        tf.fused.mat_mul(m, n, bias=n[0], activation='relu'),
        tf.fused.mat_mul(m, n, bias=mb, activation='leakyrelu'),
        tf.fused.mat_mul(n, m, True, True, bias=tf.reshape(b[:2], [2, 1, 1]), activation='prelu',
                         prelu_activation_weights=b[0]),
        tf.fused.mat_mul(m, n)]""", [x, w, b, dw, a, m, n, mb], rtol=1e-4, atol=1e-4)


def test_gradients_match_cpu(compare_with_cpu):
    x, w, dw = floats(2, 6, 5, 4), floats(3, 3, 4, 3), floats(3, 3, 4, 2)
    v, vw = floats(1, 3, 4, 4, 2), floats(2, 2, 3, 2, 2)
    dx, dilw = floats(1, 5, 6, 2), floats(2, 3, 2)
    compare_with_cpu("""lambda x, w, dw, v, vw, dx, dilw: [
        tf.grads(lambda a, f: tf.conv2d(a, f, 2, 'same'))([x, w]),
        tf.grads(lambda a, f: tf.conv2d(a, f, 1, 'valid', dilations=2))([x, w]),
        tf.grads(lambda a, f: tf.conv2d(tf.transpose(a, [0, 3, 1, 2]), f, 1, 'same', 'NCHW'))([x, w]),
        tf.grads(lambda a, f: tf.depthwise_conv2d(a, f, 2, 'same'))([x, dw]),
        tf.grads(lambda a, f: tf.conv3d(a, f, [1, 2, 1], 'same'))([v, vw]),
        tf.grads(lambda a, f: tf.conv2d_transpose(a, f, [2, 6, 5, 4], 2, 'same'))([tf.ones([2, 3, 3, 3]), w]),
        tf.grads(lambda a, f: tf.dilation2d(a, f, 1, 'same'))([dx, dilw]),
        tf.grads(lambda a, f: tf.dilation2d(a, f, 2, 'valid', [1, 1]))([dx, dilw]),
        tf.grads(lambda a, f, c: tf.fused.conv2d(a, f, 1, 'same', bias=c))([x, w, w[0, 0, 0]])]""",
                     [x, w, dw, v, vw, dx, dilw], rtol=1e-4, atol=1e-4)


def test_numeric_gradients_in_page(run_py):
    errors = run_py('''
from pytfweb.testing import numeric_gradient_error
x, w = tf.tensor(x), tf.tensor(w)
result = {
    "conv2d": numeric_gradient_error(lambda a, f: tf.conv2d(a, f, 2, 'same'), [x, w]),
    "depthwise": numeric_gradient_error(lambda a, f: tf.depthwise_conv2d(a, f[:, :, :, :1], 1, 'valid'), [x, w]),
    "fused relu": numeric_gradient_error(lambda a, f: tf.fused.conv2d(a, f, 1, 'same', activation='relu'), [x, w]),
}
''', x=floats(1, 4, 4, 2).tolist(), w=floats(2, 2, 2, 2).tolist())
    assert all(e < gradient_threshold(2e-2) for e in errors.values()), errors


@pytest.mark.webgl_only("webgl's packed (im2col / vec4) convolution programs")
def test_packed_im2col_convolutions(compare_with_cpu, run_py):
    """Convolutions of at least gemm.MIN_WORK multiply-adds run as im2col products (gemm.py)."""
    x, w = floats(2, 9, 8, 8), floats(3, 3, 8, 12)          # 8 channels: four per texel at once
    x6, w6 = floats(1, 10, 9, 6), floats(3, 3, 6, 7)        # 6: one value at a time, N not a multiple of 4
    v, vw = floats(1, 6, 7, 6, 4), floats(2, 3, 2, 4, 8)
    edge = x.copy()
    edge[0, 1, 1, 0], edge[1, 4, 3, 5], edge[0, 8, 7, 7] = np.nan, np.inf, -np.inf
    bias, alpha = floats(12), floats(12)
    count = "result = sum(1 for key in tf.backend().programs if str(key[0]).startswith('gemm:pack_a:im2col'))"
    before = run_py(count)
    compare_with_cpu("""lambda x, w, x6, w6, v, vw, edge, bias, alpha: [
        tf.conv2d(x, w, 1, 'same'), tf.conv2d(x, w, 2, 'valid'), tf.conv2d(x, w, 1, 'same', dilations=2),
        tf.conv2d(tf.transpose(x, [0, 3, 1, 2]), w, 1, 'same', 'NCHW'),
        tf.conv2d(x6, w6, [1, 2], 'same'), tf.conv3d(v, vw, 1, 'same'), tf.conv2d(edge, w, 1, 'same'),
        tf.fused.conv2d(x, w, 1, 'same', bias=bias, activation='relu'),
        tf.fused.conv2d(x, w, 1, 'valid', bias=bias, activation='prelu', prelu_activation_weights=alpha)]""",
                     [x, w, x6, w6, v, vw, edge, bias, alpha], rtol=1e-4, atol=1e-4)
    assert run_py(count) > before


@pytest.mark.webgl_only("webgl's packed (im2col / vec4) convolution programs")
def test_packed_depthwise(compare_with_cpu, run_py):
    """Channels-last depthwise convolutions with multiplier 1 compute four channels at four
    output columns per fragment (conv.glsl's depthwise_packed)."""
    x, w = floats(2, 9, 10, 6), floats(3, 3, 6, 1)      # 6 channels: the second texel half padding
    x8, w8 = floats(1, 7, 13, 8), floats(2, 5, 8, 1)    # a wider filter, widths not multiples of 4
    edge = x.copy()
    edge[0, 1, 1, 0], edge[1, 4, 3, 5], edge[0, 8, 9, 2] = np.nan, np.inf, -np.inf
    bias = floats(6)
    count = "result = sum(1 for key in tf.backend().programs if str(key[0]).startswith('conv:depthwise_packed'))"
    before = run_py(count)
    compare_with_cpu("""lambda x, w, x8, w8, edge, bias: [
        tf.depthwise_conv2d(x, w, 1, 'same'), tf.depthwise_conv2d(x, w, 2, 'valid'),
        tf.depthwise_conv2d(x, w, [1, 2], 'same'), tf.depthwise_conv2d(x, w, 1, 'same', dilations=2),
        tf.depthwise_conv2d(x8, w8, 1, 'valid'), tf.depthwise_conv2d(x8, w8, 3, 'same'),
        tf.depthwise_conv2d(x8, w8, 1, [[0, 0], [1, 2], [3, 0], [0, 0]]),
        tf.depthwise_conv2d(edge, w, 1, 'same'),
        tf.fused.depthwise_conv2d(x, w, 1, 'same', bias=bias, activation='relu6')]""",
                     [x, w, x8, w8, edge, bias], rtol=1e-4, atol=1e-4)
    assert run_py(count) > before


@pytest.mark.webgl_only("webgl's packed (im2col / vec4) convolution programs")
def test_packed_backprop_input(compare_with_cpu, run_py):
    """Conv2DBackpropInput / Conv3DBackpropInputV2 of at least gemm.MIN_WORK multiply-adds run as
    products (conv.glsl's backprop_input_value): conv gradients and conv2d_transpose."""
    x, w = floats(2, 9, 8, 8), floats(3, 3, 8, 12)
    v, vw = floats(1, 6, 7, 6, 4), floats(2, 3, 2, 4, 8)
    t = floats(2, 5, 4, 12)
    count = "result = sum(1 for key in tf.backend().programs if str(key[0]).startswith('gemm:pack_a:backprop_input'))"
    before = run_py(count)
    compare_with_cpu("""lambda x, w, v, vw, t: [
        tf.grad(lambda a: tf.sum(tf.conv2d(a, w, 1, 'same') ** 2))(x),
        tf.grad(lambda a: tf.sum(tf.conv2d(a, w, 2, 'valid') ** 2))(x),
        tf.grad(lambda a: tf.sum(tf.conv2d(a, w, 1, 'same', dilations=2) ** 2))(x),
        tf.grad(lambda a: tf.sum(tf.conv2d(a, w, [2, 1], 'same', 'NCHW') ** 2))(tf.transpose(x, [0, 3, 1, 2])),
        tf.grad(lambda a: tf.sum(tf.conv3d(a, vw, 1, 'same') ** 2))(v),
        tf.conv2d_transpose(t, w, [2, 9, 8, 8], 2, 'same')]""", [x, w, v, vw, t], rtol=1e-4, atol=1e-3)
    assert run_py(count) > before


@pytest.mark.webgl_only("webgl's packed (im2col / vec4) convolution programs")
@pytest.mark.filterwarnings("ignore:invalid value encountered")  # numpy, on inf - inf in the reference
def test_packed_backprop_filter(compare_with_cpu, run_py):
    """Conv2DBackpropFilter / Conv3DBackpropFilterV2 run as split products (dy^T im2col(x), summed
    over batches of gemm rows: conv.glsl's backprop_filter_*): four channels at once or one,
    output channels not a multiple of 4, strides, dilations, explicit padding, NCHW, 3D, sums
    over several splits (the last one partial), NaN and infinities."""
    x, w = floats(2, 9, 8, 8), floats(3, 3, 8, 12)           # 144 positions: one split
    big, bw = floats(5, 17, 15, 3), floats(5, 3, 3, 6)      # 1275 positions: two splits, 3 channels
    v, vw = floats(1, 6, 7, 6, 4), floats(2, 3, 2, 4, 8)
    edge = x.copy()
    edge[0, 1, 1, 0], edge[1, 4, 3, 5] = np.nan, np.inf
    count = "result = sum(1 for key in tf.backend().programs if str(key[0]).startswith('gemm:pack_b:backprop_filter'))"
    before = run_py(count)
    compare_with_cpu("""lambda x, w, big, bw, v, vw, edge: [
        tf.grad(lambda f: tf.sum(tf.conv2d(x, f, 1, 'same') ** 2))(w),
        tf.grad(lambda f: tf.sum(tf.conv2d(x, f, 2, 'valid') ** 2))(w),
        tf.grad(lambda f: tf.sum(tf.conv2d(x, f, 1, 'same', dilations=2) ** 2))(w),
        tf.grad(lambda f: tf.sum(tf.conv2d(x, f, 1, [[0, 0], [2, 1], [0, 3], [0, 0]]) ** 2))(w),
        tf.grad(lambda f: tf.sum(tf.conv2d(tf.transpose(x, [0, 3, 1, 2]), f, [2, 1], 'same', 'NCHW') ** 2))(w),
        tf.grad(lambda f: tf.sum(tf.conv2d(big, f, 1, 'valid') ** 2))(bw),
        tf.grad(lambda f: tf.sum(tf.conv2d(big, f, [1, 2], 'same') * big[:, :, ::2, :1]))(bw),
        tf.grad(lambda f: tf.sum(tf.conv3d(v, f, [1, 2, 1], 'same') ** 2))(vw),
        tf.grad(lambda f: tf.sum(tf.conv2d(edge, f, 1, 'same')))(w)]""",
                     [x, w, big, bw, v, vw, edge], rtol=1e-4, atol=2e-3)
    assert run_py(count) > before


def test_products_past_a_small_texture_limit(run_py):
    """Under a texture limit of 64: a filter gradient's splits shrink to 64 positions, and B's
    packed matrices, too many to stack in one column of the texture, lie in columns side by side
    (a batched product too); the packed depthwise programs fold their grids of 108 rows."""
    x, w = floats(2, 9, 8, 8), floats(3, 3, 8, 12)
    a, b = floats(10, 16, 24), floats(10, 24, 16)
    dx, dw = floats(4, 9, 10, 6), floats(3, 3, 6, 1)
    depthwise = "lambda a, f: [tf.depthwise_conv2d(a, f, 1, 'same'), *tf.grads(lambda a, f: " \
                "tf.sum(tf.depthwise_conv2d(a, f, 1, 'same') ** 2))([a, f])]"
    tf.set_backend("cpu")
    depthwise_want = tf.tidy(lambda: [t.numpy() for t in eval(depthwise)(  # noqa: S307
        tf.tensor(as_stored(dx)), tf.tensor(as_stored(dw)))])
    out = run_py(_on_small_textures("""
    xt, wt = tf.tensor(x), tf.tensor(w)
    dw_grad = tf.grad(lambda f: tf.sum(tf.conv2d(xt, f, 1, 'same') ** 2))(wt)
    c = tf.mat_mul(tf.tensor(a), tf.tensor(b))
    grads = sum(1 for key in tf.backend().programs if str(key[0]).startswith('gemm:pack_b:backprop_filter'))
    folded = eval(depthwise)(tf.tensor(dx), tf.tensor(dw))
    packed = sum(1 for key in tf.backend().programs
                 if str(key[0]).startswith('conv:depthwise') and 'BLOCK_FOLD 2' in str(key[0]))
    result = [dw_grad.array_sync(), c.array_sync(), grads, [t.array_sync() for t in folded], packed]
"""), x=x.tolist(), w=w.tolist(), a=a.tolist(), b=b.tolist(), dx=dx.tolist(), dw=dw.tolist(), depthwise=depthwise)
    dw_grad, c, grads, folded, packed = out
    assert grads == 1 and packed == 2    # the forward and the input gradient, folded
    for got, want in zip(folded, depthwise_want):
        np.testing.assert_allclose(got, want, *tolerance(1e-4, 1e-3))
    a, b, x, w = (as_stored(t) for t in (a, b, x, w))
    np.testing.assert_allclose(c, a @ b, *tolerance(1e-5, 1e-4))
    padded = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    patches = np.stack([padded[:, i:i + 9, j:j + 8, :] for i in range(3) for j in range(3)], axis=3)
    y = np.einsum("bhwtc,tcd->bhwd", patches, w.reshape(9, 8, 12))
    want = np.einsum("bhwtc,bhwd->tcd", patches, 2 * y).reshape(3, 3, 8, 12)
    np.testing.assert_allclose(dw_grad, want, *tolerance(1e-4, 1e-2))


@pytest.mark.webgl_only("webgl's packed (im2col / vec4) convolution programs")
def test_packed_depthwise_gradients(compare_with_cpu, run_py):
    """Depthwise gradients (channels last, multiplier 1) on the packed programs: the input's four
    channels at four columns per fragment for column strides 1, 2 and 4 (3: the one-value program),
    the filter's four channels per fragment summed over splits of the batch's rows; dilations,
    explicit and 'same' padding, widths not a multiple of 4, 6 channels (padding in a texel), NaN
    and infinity."""
    x, w = floats(2, 9, 10, 6), floats(3, 3, 6, 1)
    x8, w8 = floats(1, 7, 13, 8), floats(2, 5, 8, 1)
    edge = x.copy()
    edge[0, 1, 1, 0], edge[1, 4, 3, 5] = np.nan, np.inf
    count = ("result = [sum(1 for key in tf.backend().programs if str(key[0]).startswith(f'conv:depthwise_{p}'))"
             " for p in ('backprop_input_packed', 'backprop_filter_packed')]")
    before = run_py(count)
    compare_with_cpu("""lambda x, w, x8, w8, edge: [
        tf.grads(lambda a, f: tf.sum(tf.depthwise_conv2d(a, f, 1, 'same') ** 2))([x, w]),
        tf.grads(lambda a, f: tf.sum(tf.depthwise_conv2d(a, f, 2, 'valid') ** 2))([x, w]),
        tf.grads(lambda a, f: tf.sum(tf.depthwise_conv2d(a, f, [2, 1], 'same') ** 2))([x, w]),
        tf.grads(lambda a, f: tf.sum(tf.depthwise_conv2d(a, f, 1, 'same', dilations=2) ** 2))([x, w]),
        tf.grads(lambda a, f: tf.sum(tf.depthwise_conv2d(a, f, 1, 'valid') ** 2))([x8, w8]),
        tf.grads(lambda a, f: tf.sum(tf.depthwise_conv2d(a, f, 4, 'same') ** 2))([x8, w8]),
        tf.grads(lambda a, f: tf.sum(tf.depthwise_conv2d(a, f, 3, 'same') ** 2))([x8, w8]),
        tf.grads(lambda a, f: tf.sum(tf.depthwise_conv2d(a, f, 1, [[0, 0], [1, 2], [3, 0], [0, 0]]) ** 2))([x8, w8]),
        tf.grads(lambda a, f: tf.sum(tf.depthwise_conv2d(a, f, 1, 'same')))([edge, w])]""",
                     [x, w, x8, w8, edge], rtol=1e-4, atol=2e-3)
    after = run_py(count)
    assert after[0] >= before[0] + 7 and after[1] >= before[1] + 8


@pytest.mark.webgl_only("webgl's shapeless unpack program (gemm.py)")
def test_unpack_is_one_program_across_layer_shapes(compare_with_cpu, run_py):
    """The packed products' and depthwise blocks' unpack, with a per-channel bias and an
    activation, is shapeless: convolutions, depthwise convolutions and products of new shapes add
    no unpack program. Widths off the block sizes (rows padded to 8, columns to 4), a batched
    product and epilogue inputs that are not one per column (the shaped unpack) equal cpu's."""
    def layers(h, w, c, oc):
        return [floats(1, h, w, c), floats(3, 3, c, oc), floats(oc), floats(3, 3, oc, 1), floats(3 * h, 256),
                floats(256, oc)]
    fn = """lambda x, w, b, dw, ma, mb: [
        tf.fused.conv2d(x, w, 1, 'same', bias=b, activation='relu6'),
        tf.fused.depthwise_conv2d(tf.fused.conv2d(x, w, 1, 'valid', bias=b), dw, 1, 'same', bias=b,
                                  activation='relu6'),
        tf.fused.mat_mul(ma, mb, bias=b, activation='relu')]"""
    count = ("result = [sum(1 for k in tf.backend().programs if k[0].startswith(p)) "
             "for p in ('gemm:unpack_flat:', 'gemm:unpack:')]")
    compare_with_cpu(fn, layers(9, 11, 8, 12), rtol=1e-4, atol=1e-4)
    before = run_py(count)
    compare_with_cpu(fn, layers(13, 7, 4, 20), rtol=1e-4, atol=1e-4)
    compare_with_cpu(fn, layers(6, 17, 12, 8), rtol=1e-4, atol=1e-4)
    assert before[0] > 0 and run_py(count) == before
    a, b, alpha, full = floats(3, 13, 96), floats(96, 40), floats(40), floats(3, 13, 40)
    compare_with_cpu("""lambda a, b, alpha, full: [
        tf.fused.mat_mul(a, b, bias=alpha, activation='prelu', prelu_activation_weights=alpha),
        tf.fused.mat_mul(a, b, bias=alpha, activation='prelu', prelu_activation_weights=full),
        tf.fused.mat_mul(a, b, bias=full, activation='leakyrelu', leakyrelu_alpha=0.2)]""",
                     [a, b, alpha, full], rtol=1e-4, atol=1e-4)
    assert run_py(count)[1] > before[1]


def test_rows_of_several_pixels_past_a_small_texture_limit(run_py):
    """Under a texture limit of 64, images too tall for a row a pixel (or an image row) lie in rows
    of a power of two of whole pixels (12 and 10 channels: four pixels a row, 48 and 40 texels wide):
    a MobileNet block over them (1x1 expansion, ReLU6, depthwise, projection, residual add), pooling,
    resizing, reductions, a transpose and slices read and write that layout, batch 2, edge values."""
    x, w1, dw = floats(2, 10, 12, 6), floats(1, 1, 6, 12), floats(3, 3, 12, 1)
    w2, w3 = floats(1, 1, 12, 6), floats(1, 1, 6, 10)
    # (on half floats 1e30 would be an infinity, which SwiftShader's half-float draws store as NaN)
    x[0, 0, 0, :3] = [0.0, -0.0, 1e4 if F16 else 1e30]
    fn = """lambda x, w1, dw, w2, w3: (lambda e: (lambda d: (lambda p: [
        e, d, p, tf.conv2d(p, w3, 1, 'valid'), tf.max_pool(e, 2, 2, 'same'), tf.avg_pool(d, 3, 1, 'same'),
        tf.image.resize_bilinear(p, [7, 9]), tf.mean(e, [1, 2]), tf.sum(d, 3), tf.transpose(e, [0, 3, 1, 2]),
        e[:, 3:9, 1:, 5:], tf.reshape(d, [2, 120, 12]) * 2 - 1])(
        tf.add(tf.conv2d(d, w2, 1, 'valid'), x)))(
        tf.relu6(tf.depthwise_conv2d(e, dw, 1, 'same'))))(
        tf.relu6(tf.conv2d(x, w1, 1, 'valid')))"""
    tf.set_backend("cpu")
    args = [as_stored(t) for t in (x, w1, dw, w2, w3)]
    want = tf.tidy(lambda: [t.numpy() for t in eval(fn)(*map(tf.tensor, args))])  # noqa: S307
    out = run_py(_on_small_textures("""
    from pytfweb.backends.webgl.shader_compiler import row_units
    ys = eval(fn)(*[tf.tensor(a) for a in (x, w1, dw, w2, w3)])
    layouts = [row_units(y.shape, tf.backend().texture_layout(y.data_id)) for y in ys[:4]]
    result = [[y.array_sync() for y in ys], [list(u) if u else None for u in layouts]]
    tf.dispose(ys)
"""), x=x.tolist(), w1=w1.tolist(), dw=dw.tolist(), w2=w2.tolist(), w3=w3.tolist(), fn=fn)
    got, layouts = out
    assert layouts == [[3, 4], [3, 4], [3, 4], [3, 4]]
    for g, wnt in zip(got, want):
        np.testing.assert_allclose(np.asarray(g, dtype=np.float32), wnt, *tolerance(1e-4, 1e-3))
