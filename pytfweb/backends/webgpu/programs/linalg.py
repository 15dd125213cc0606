"""Einsum as webgl runs it (and TF.js's webgl backend): a composition of this backend's Transpose,
Multiply and Sum kernels along ops/einsum.py's plan."""
from ....kernels import TensorInfo, get_kernel, register_kernel
from ....ops.einsum import einsum_plan
from .elementwise import BACKEND


def _run(backend, kernel, inputs, attrs=None):
    return get_kernel(kernel, BACKEND)(backend, inputs, attrs or {})


@register_kernel("Einsum", BACKEND)
def einsum(backend, inputs, attrs):
    plan = einsum_plan(attrs["equation"], [t.shape for t in inputs])
    made = []   # intermediates, freed at the end (a kernel may hand back its input's data)
    out = None
    for x, perm, shape in zip(inputs, plan.perms, plan.shapes):
        if list(perm) != sorted(perm):
            x = _run(backend, "Transpose", [x], {"perm": list(perm)})
            made.append(x)
        x = TensorInfo(x.data_id, shape, x.dtype)   # unit axes for the missing labels: a free reshape
        if out is not None:
            x = _run(backend, "Multiply", [out, x])
            made.append(x)
        out = x
    if plan.summed_axes:
        out = _run(backend, "Sum", [out], {"axis": plan.summed_axes, "keep_dims": False})
    keep = {out.data_id} | {t.data_id for t in inputs}
    for t in made:
        if t.data_id not in keep:
            backend.dispose_data(t.data_id)
            keep.add(t.data_id)
    return TensorInfo(out.data_id, plan.out_shape, out.dtype)
