"""Sparse kernels on webgl (contract in ops/sparse.py).

SparseToDense is a shader (backends/webgl/shaders/sparse.glsl), as TF.js's webgl scatter. The others'
output sizes depend on the values: they read back and run the shared pure-Python
implementations (backends/impl/sparse.py), as TF.js's webgl backend runs its CPU ones.
"""
from ....kernels import TensorInfo, register_kernel
from ....core.shapes import size_of, strides_of
from ...impl import register_host_kernels
from ...impl.sparse import HOST_KERNELS
from ...gpu import shader_source
from .program import Program
from .slicing import defines, empty, share

register_host_kernels(HOST_KERNELS, "webgl")


def _literal(values):
    return ", ".join(str(int(v)) for v in values)


@register_kernel("SparseToDense", "webgl")
def sparse_to_dense(backend, inputs, attrs):
    indices, values, default = inputs
    shape = tuple(attrs["output_shape"])
    size = size_of(shape)
    if size == 0:
        return empty(backend, shape, values.dtype)
    rank = len(shape)
    count = size_of(indices.shape) // rank
    macros = dict(RANK=rank, NUM_UPDATES=count, ND_STRIDES=_literal(strides_of(shape)), ND_SHAPE=_literal(shape))
    if len(values.shape) == 0:
        macros["SCALAR_VALUES"] = 1
    code = defines(**macros) + shader_source.program("sparse.glsl", "sparse_to_dense")
    # The output shape (strides) and the number of entries are baked into the code, and the backend
    # keys by the flat input shapes only, which are [1] for no entries and for one alike.
    program = Program(f"sparse_to_dense:{shape}:{len(values.shape)}:{count}", ("indices", "values", "defaultValue"),
                      (size,), code)
    flat = [TensorInfo(t.data_id, (max(size_of(t.shape), 1),), t.dtype) for t in (indices, values, default)]
    return share(backend.run(program, flat, values.dtype), shape)
