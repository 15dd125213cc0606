"""The webgl test modules' (and the layers modules') compare_with_cpu tests, run on webgpu: every test of those modules whose
only fixture is compare_with_cpu (plus its parametrize arguments) is collected here again, with
compare_with_cpu comparing webgpu (in the page) against cpu (compare_webgpu, zeros' signs not
checked, nor leaks: the webgl tests were not written for them, and a layer's weights are variables
that stay). Tests that use run_py (data_sync, webgl
internals) are not taken."""
import inspect

import pytest

from . import (test_layers_conv_lstm, test_layers_recurrent, test_layers_stateful_masking, test_webgl_conv, test_webgl_creation, test_webgl_elementwise, test_webgl_gradients,
               test_webgl_gradients_shape, test_webgl_image, test_webgl_indexing, test_webgl_linalg, test_webgl_math,
               test_webgl_matmul, test_webgl_misc, test_webgl_nn, test_webgl_normalization, test_webgl_pool,
               test_webgl_reduction, test_webgl_shape, test_webgl_slicing, test_webgl_sparse, test_webgl_spectral,
               test_webgl_string)
from .conftest import PageError
from .test_webgpu_backend import compare_webgpu, webgpu  # noqa: F401  (fixtures)

MODULES = (test_layers_conv_lstm, test_layers_recurrent, test_layers_stateful_masking, test_webgl_conv, test_webgl_creation, test_webgl_elementwise, test_webgl_gradients, test_webgl_gradients_shape,
           test_webgl_image, test_webgl_indexing, test_webgl_linalg, test_webgl_math, test_webgl_matmul, test_webgl_misc,
           test_webgl_nn, test_webgl_normalization, test_webgl_pool, test_webgl_reduction, test_webgl_shape,
           test_webgl_slicing, test_webgl_sparse, test_webgl_spectral, test_webgl_string)


@pytest.fixture
def compare_with_cpu(compare_webgpu):
    def compare(fn_src, inputs, rtol=1e-5, atol=1e-6):
        return compare_webgpu(fn_src, inputs, rtol=rtol, atol=atol, signed_zeros=False, check_leaks=False)
    return compare


def _parametrized(fn):
    names = set()
    for mark in getattr(fn, "pytestmark", []):
        if mark.name == "parametrize":
            argnames = mark.args[0]
            names.update(a.strip() for a in (argnames.split(",") if isinstance(argnames, str) else argnames))
    return names


def _taken(fn):
    params = set(inspect.signature(fn).parameters)
    return "compare_with_cpu" in params and params <= {"compare_with_cpu"} | _parametrized(fn)


# Not taken: webgl tests that read GPU-computed values on the host synchronously, which a page
# cannot do on WebGPU (test_sync_reads_of_gpu_values_refuse_clearly checks the error it gives and
# the awaited forms instead).
NEEDS_SYNC_READS = {
    "test_image__transform": "Transform needs its transforms CPU-side; this test slices them on the GPU",
    "test_indexing__read_back_ops": "where(c), boolean_mask and setdiff1d read values synchronously (data_sync); "
                                    "on webgpu use where_async / boolean_mask_async / setdiff1d_async",
    "test_sparse__sparse_host_kernels": "the sparse host kernels need their inputs CPU-side; this test casts and "
                                        "slices them on the GPU",
}

for _module in MODULES:
    _prefix = _module.__name__.rsplit(".", 1)[-1].replace("test_webgl_", "").replace("test_", "")
    for _name, _fn in list(vars(_module).items()):
        if _name.startswith("test_") and inspect.isfunction(_fn) and _fn.__module__ == _module.__name__ and _taken(_fn):
            _new = f"test_{_prefix}__{_name[len('test_'):]}"
            if _new not in NEEDS_SYNC_READS:
                globals()[_new] = _fn
del _module, _name, _fn, _new


def test_sync_reads_of_gpu_values_refuse_clearly(webgpu):
    """What the tests left out above do on webgpu: a synchronous read of values only on the GPU
    raises a BackendError saying to await, and the awaited forms give cpu's answers."""
    setup = ("x = tf.tensor([1.0, -2.0, 3.0]) * 1\nc = x > 0\n"
             "i = tf.tensor([1, 2, 3], dtype='int32') + 0\nj = tf.tensor([2], dtype='int32') + 0\n")
    for call in ("tf.where(c)", "tf.boolean_mask(x, c)", "tf.setdiff1d(i, j)"):
        with pytest.raises(PageError) as e:
            webgpu(setup + call)
        assert e.value.type == "BackendError" and "await" in e.value.message, (call, e.value)
    out = webgpu(setup + """
w = await tf.where_async(c)
m = await tf.boolean_mask_async(x, c)
d, k = await tf.setdiff1d_async(i, j)
result = [await w.array(), await m.array(), await d.array(), await k.array()]
""")
    assert out == [[[0], [2]], [1.0, 3.0], [1, 3], [0, 2]]
