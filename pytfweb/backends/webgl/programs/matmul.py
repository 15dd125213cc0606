"""BatchMatMul: the packed product of gemm.py where it pays (large enough, fits the texture
limits), else one fragment per output value looping over the inner dimension. Either way,
transposes are the order of the getter's indices, and broadcast batch dimensions map each
output batch to the matrices it multiplies."""
from ....kernels import TensorInfo, register_kernel
from ....core.shapes import broadcast_shapes, size_of, strides_of
from ...gpu import shader_source
from . import gemm
from .program import Program
from .reduction import strided_index


def _batch_function(name, out_batch, batch):
    """GLSL `int name(int batch)`: the index among a tensor's matrices (its batch dimensions
    `batch`, broadcast to out_batch) of the one output batch `batch` uses."""
    offset = len(out_batch) - len(batch)
    strides = [0] * offset + [s if d != 1 else 0 for d, s in zip(batch, strides_of(batch))]
    return f"int {name}(int batch) {{ return {strided_index('batch', out_batch, strides)}; }}\n"


def _as_3d(t):
    """t viewed as [batch, rows, columns] (free: textures are row-major)."""
    return TensorInfo(t.data_id, (size_of(t.shape[:-2]),) + tuple(t.shape[-2:]), t.dtype)


def batch_mat_mul_program(a, b, ta, tb):
    """(program, [a, b] as 3D views) of a @ b; its output is [batch, m, n] (also used by the
    fused kernel in conv.py, which adds an epilogue)."""
    rows_a, cols_a = a.shape[-2:]
    m, k = (cols_a, rows_a) if ta else (rows_a, cols_a)
    n = b.shape[-2] if tb else b.shape[-1]
    out_batch = tuple(broadcast_shapes(a.shape[:-2], b.shape[:-2], "mat_mul"))
    code = (f"#define K {k}\n"
            f"#define A(batch, m, k) getA(batch, {'k, m' if ta else 'm, k'})\n"
            f"#define B(batch, k, n) getB(batch, {'n, k' if tb else 'k, n'})\n"
            + _batch_function("aBatch", out_batch, a.shape[:-2])
            + _batch_function("bBatch", out_batch, b.shape[:-2])
            + shader_source.program("matmul.glsl", "batch_mat_mul"))
    # The backend sees only the 3D views: the batch shapes are in the key.
    key = f"batch_mat_mul:{ta}:{tb}:{a.shape[:-2]}:{b.shape[:-2]}"
    return Program(key, ("a", "b"), (size_of(out_batch), m, n), code), [_as_3d(a), _as_3d(b)]


def packed_product(backend, a, b, ta, tb, epilogue=None, lazy=None):
    """a @ b as [batch, m, n] through gemm.py, or None where the packed path does not apply
    (then batch_mat_mul_program does it). epilogue, lazy: see gemm.product (lazy gives the shape
    the caller returns)."""
    rows_a, cols_a = a.shape[-2:]
    m, k = (cols_a, rows_a) if ta else (rows_a, cols_a)
    n = b.shape[-2] if tb else b.shape[-1]
    out_batch = tuple(broadcast_shapes(a.shape[:-2], b.shape[:-2], "mat_mul"))
    a_batches, b_batches = size_of(a.shape[:-2]), size_of(b.shape[:-2])
    p = gemm.plan(backend, m, n, k, a_batches, b_batches, size_of(out_batch))
    if p is None:
        return None
    a_op = gemm.Operand(f"matmul_a:{ta}", ("a",), [_as_3d(a)],
                        "float aValue(int batch, int row, int k) { return getA(batch, %s); }\n"
                        % ("k, row" if ta else "row, k"), a_batches)
    b_op = gemm.Operand(f"matmul_b:{tb}", ("b",), [_as_3d(b)],
                        "float bValue(int batch, int k, int n) { return getB(batch, %s); }\n"
                        % ("n, k" if tb else "k, n"), b_batches)
    batch_code = (_batch_function("aBatch", out_batch, a.shape[:-2])
                  + _batch_function("bBatch", out_batch, b.shape[:-2]))
    coords = ("void productCoords(out int r, out int col) {\n"
              "  ivec3 c = getOutputCoords();\n  r = c.x * A_ROWS + c.y;\n  col = c.z;\n}\n")
    return gemm.product(backend, p, a_op, b_op, batch_code, (size_of(out_batch), m, n), coords, epilogue,
                        row_major=True, lazy=lazy)


@register_kernel("BatchMatMul", "webgl")
def batch_mat_mul(backend, inputs, attrs):
    a, b = inputs
    ta, tb = attrs["transpose_a"], attrs["transpose_b"]
    out = packed_product(backend, a, b, ta, tb)
    if out is not None and a.dtype != "float32":
        # gemm draws float32; int32 data must read back as ints (rounded, NaN/inf as 0)
        backend.store[out.data_id].dtype = a.dtype
    if out is None:
        program, views = batch_mat_mul_program(a, b, ta, tb)
        out = backend.run(program, views, a.dtype)
    out_shape = tuple(broadcast_shapes(a.shape[:-2], b.shape[:-2], "mat_mul")) + out.shape[1:]
    return TensorInfo(out.data_id, out_shape, a.dtype)
