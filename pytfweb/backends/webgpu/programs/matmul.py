"""BatchMatMul (contract in ops/matmul.py) as a tiled workgroup-memory GEMM
(shaders/webgpu/matmul.wgsl): transposes are compile-time variants, the batch dims (broadcast
between a and b) are split by uniform strides, one grid layer (z) per output matrix."""
from ....kernels import register_kernel
from ....shapes import broadcast_shapes, strides_of
from .. import wgsl
from ..backend import Program, _size
from .elementwise import BACKEND, broadcast_strides

TILE = 32


@register_kernel("BatchMatMul", BACKEND)
def batch_mat_mul(backend, inputs, attrs):
    a, b = inputs
    ta, tb = bool(attrs["transpose_a"]), bool(attrs["transpose_b"])
    m = a.shape[-1] if ta else a.shape[-2]
    k = a.shape[-2] if ta else a.shape[-1]
    n = b.shape[-2] if tb else b.shape[-1]
    batch_shape = broadcast_shapes(a.shape[:-2], b.shape[:-2], "mat_mul")
    out_shape = tuple(batch_shape) + (m, n)
    batches = _size(batch_shape)
    if _size(out_shape) == 0:
        return backend.empty(out_shape, a.dtype)
    limit = backend.max_workgroups
    if batches > limit or -(-m // TILE) > limit or -(-n // TILE) > limit:
        raise ValueError(f"mat_mul: webgpu runs at most {limit} matrices of at most {limit * TILE} rows and columns "
                         f"in one product, got output shape {list(out_shape)}")
    rank = len(batch_shape)
    a_strides = [s * m * k for s in broadcast_strides(a.shape[:-2], batch_shape)]
    b_strides = [s * k * n for s in broadcast_strides(b.shape[:-2], batch_shape)]
    fields = (("M", "i32"), ("N", "i32"), ("K", "i32")) + wgsl.stride_fields("bs", rank, last=False) \
        + wgsl.stride_fields("as_", rank) + wgsl.stride_fields("bx", rank)
    values = (m, n, k) + tuple(strides_of(batch_shape)[:-1]) + tuple(a_strides) + tuple(b_strides)
    t = wgsl.STORAGE_TYPE[a.dtype]
    key = f"matmul:{t}:{int(ta)}{int(tb)}:{rank}"

    def source():
        text = wgsl.program("matmul.wgsl", "load_matrices") + wgsl.program("matmul.wgsl", "main")
        for old, new in (("BATCH_COORDS", wgsl.coords("bc", rank, index="batch", strides="bs")),
                         ("BATCH_A", wgsl.dot("bc", rank, "as_")), ("BATCH_B", wgsl.dot("bc", rank, "bx")),
                         ("TRANSPOSE_A", "true" if ta else "false"), ("TRANSPOSE_B", "true" if tb else "false"),
                         ("TYPE", t)):
            text = text.replace(old, new)
        return wgsl.bindings(t, (("a", t), ("b", t)), fields) + text

    groups = (-(-n // TILE), -(-m // TILE), batches)
    return backend.run(Program(key, source, fields), [a, b], out_shape, a.dtype, values, groups)
