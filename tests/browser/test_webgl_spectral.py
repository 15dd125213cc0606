"""webgl against cpu for complex64 and tf.spectral: Complex/Real/Imag/ComplexAbs, FFT/IFFT (the
DFT shader), rfft/irfft/stft, complex Add/Sub/Multiply/Cast; in the page: the interleaved
readback (sync and async), memory (8 bytes per element on the engine, both part textures freed
on dispose), a clear error from a kernel without a complex path, numeric gradients. Complex
outputs are compared through their real and imaginary parts. Grouped into few calls: shader
compiles dominate on SwiftShader."""
import numpy as np

from .conftest import gradient_threshold, lost_infinities

rng = np.random.default_rng(47)


def _floats(*shape):
    return rng.uniform(-2, 2, size=shape).astype(np.float32)


_PARTS = "lambda *zs: [p for z in zs for p in (tf.real(z), tf.imag(z))]"


def test_complex_parts_abs_and_arithmetic(compare_with_cpu):
    a, b, c = _floats(2, 3), _floats(2, 3), _floats(3)
    edge = np.float32([0, 3, -1e30, np.inf, np.nan, 0])
    edge_im = np.float32([0, -4, 1e30, 1, 0, -2])
    compare_with_cpu(f"""lambda a, b, c, e, f: (lambda z, w, v: [tf.abs(z), tf.abs(tf.complex(e, f)),
        *({_PARTS})(z, tf.add(z, w), tf.sub(z, v), tf.mul(z, w), tf.mul(z, v), tf.mul(z, 2.5),
                    tf.cast(a, 'complex64'), tf.reshape(z, [3, 2]), tf.transpose(z), tf.transpose(z, None, True),
                    tf.transpose(tf.reshape(tf.complex(c, b[0]), [1, 3, 1]), [2, 1, 0])),
        tf.cast(z, 'float32'), tf.cast(z, 'int32'), tf.real(a), tf.imag(c)])(
        tf.complex(a, b), tf.complex(b, a), tf.complex(c, c))""", [a, b, c, edge, edge_im], rtol=1e-5, atol=1e-5)


def test_fft_ifft(compare_with_cpu):
    xs = [_floats(1), _floats(6), _floats(2, 5), _floats(2, 3, 8), _floats(1, 33)]
    ys = [_floats(*x.shape) for x in xs]
    compare_with_cpu(f"""lambda *v: ({_PARTS})(*[t(tf.complex(re, im)) for re, im in zip(v[:5], v[5:])
                                                  for t in (tf.spectral.fft, tf.spectral.ifft)])""",
                     xs + ys, rtol=1e-4, atol=2e-4)


def test_rfft_irfft_stft(compare_with_cpu):
    x, y, s = _floats(3, 7), _floats(2, 3, 4), _floats(20)
    compare_with_cpu(f"""lambda x, y, s: [*({_PARTS})(tf.rfft(x), tf.rfft(x, 4), tf.rfft(x, 10),
                                                     tf.signal.stft(s, 6, 3)),
        tf.irfft(tf.rfft(x)), tf.irfft(tf.complex(y, y)), tf.irfft(tf.complex(x[:, :2], x[:, 2:4]))]""",
                     [x, y, s], rtol=1e-4, atol=2e-4)


_IN_PAGE = r'''
from pytfweb.testing import numeric_gradient_error
out = {}
backend = tf.backend()
start, textures = tf.memory(), in_use(backend.memory())
parts = tf.tensor([1.5, -2.0, 3.0]), tf.tensor([0.5, 4.0, -1.0])
before = tf.memory()
z = tf.complex(*parts)
out["data_sync"] = list(z.data_sync())
out["data"] = list(await z.data())
out["array"] = z.array_sync()
out["bytes"] = tf.memory().num_bytes - before.num_bytes
y = tf.spectral.fft(z)
y.data_sync()   # the parts now have textures
try:
    tf.relu(z)   # Relu has no complex path on webgl (Neg has one: it is linear)
except TypeError as e:
    out["error"] = str(e)
tf.dispose([y, z, *parts])
out["leaked"] = [tf.memory().num_tensors - start.num_tensors, tf.memory().num_bytes - start.num_bytes,
                 in_use(backend.memory()) - textures]
re, im = tf.tensor([[0.7, -1.2, 2.0, 0.4]]), tf.tensor([[1.1, 0.3, -0.8, 1.5]])
out["grad"] = {
    "fft_magnitude": numeric_gradient_error(lambda a, b: tf.abs(tf.fft(tf.complex(a, b))), [re, im]),
    "irfft": numeric_gradient_error(lambda a, b: tf.irfft(tf.complex(a, b)), [re, im]),
}
result = out
'''


def test_readback_memory_errors_gradients_in_page(run_py):
    out = run_py(_IN_PAGE)
    interleaved = [1.5, 0.5, -2.0, 4.0, 3.0, -1.0]
    assert out["data_sync"] == out["data"] == out["array"] == interleaved
    assert out["bytes"] == 8 * 3
    assert "complex64" in out["error"]
    assert out["leaked"] == [0, 0, 0]
    for name, err in out["grad"].items():
        assert err < gradient_threshold(5e-2), f"{name}: numeric gradient error {err} on webgl"


# complex64 through the kernels that move values or are linear in them (regression: each raised
# "program ... cannot write complex64" on webgl while cpu computed them; found by
# tests/browser/test_webgl_malformed_args.py's hostile tensors)
_COMPLEX_OPS = [
    "tf.concat([c, c], 0)", "tf.stack([c, c], 1)", "tf.slice(c, [1, 0], [1, 2])", "tf.tile(c, [2, 1])",
    "tf.reverse(c, 1)", "tf.gather(c, tf.tensor([1, 0, 1], dtype='int32'))",
    "tf.gather_nd(c, tf.tensor([[1, 2], [0, 0]], dtype='int32'))", "tf.split(c, [1, 2], 1)", "tf.unstack(c)",
    "tf.pad(c, [[1, 0], [0, 2]], 3)", "tf.mirror_pad(c, [[1, 1], [0, 0]], 'symmetric')",
    "tf.where(tf.tensor([[True, False, True], [False, False, True]]), c, tf.neg(c))", "tf.broadcast_to(c, [2, 2, 3])",
    "tf.strided_slice(c, [0, 0], [2, 3], [1, 2])", "tf.neg(c)", "tf.sum(c, 1)", "tf.sum(c)", "tf.add_n([c, c, c])",
    "tf.cumsum(c, 1, False, True)", "tf.unsorted_segment_sum(c, tf.tensor([1, 1], dtype='int32'), 3)",
    "tf.diag(tf.reshape(c, [6]))",
]


def test_complex64_through_moving_and_linear_kernels(page_harness):
    from .. import fuzz
    import pytfweb as tf
    re = np.float32([[1, 2, -3], [0.5, np.nan, 4]])
    im = np.float32([[-1, 0.25, 2], [3, 1, -np.inf]])
    cases = [{"src": "lambda a, b: tf.tidy(lambda: [f(t) for c in [tf.complex(a, b)] for t in "
                     f"(lambda r: r if isinstance(r, list) else [r])({op}) for f in (tf.real, tf.imag)])",
              "inputs": [re, im]} for op in _COMPLEX_OPS]
    tf.set_backend("cpu")
    want = [fuzz.run_cpu(c) for c in cases]
    assert not [w for w in want if isinstance(w, tuple)], want
    payload = [{"src": c["src"], "inputs": [fuzz.encode(x) for x in c["inputs"]]} for c in cases]
    out = page_harness.run(fuzz.PAGE_RUNNER, cases=payload, reverse=False)
    assert not out["leaks"], out["leaks"]
    got = [[lost_infinities(np.asarray(g, np.float32), v) if dtype == "float32" else g for (_, dtype, v), g in zip(w, gs)]
           for w, gs in zip(want, out["results"])]
    problems = [p for c, w, g in zip(cases, want, got) if (p := fuzz.compare(c, w, g))]
    assert not problems, "\n".join(problems)
