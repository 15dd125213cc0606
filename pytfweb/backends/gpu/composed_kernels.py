"""Kernels a GPU backend composes from its own kernels, the same way on every such backend."""
from ...kernels import TensorInfo, get_kernel, register_kernel
from ...kernels.einsum_plan import einsum_plan


def register_composed_einsum(backend_name):
    """Einsum as TF.js's webgl backend runs it: the backend's Transpose, Multiply and Sum kernels
    along kernels/einsum_plan.py's plan."""
    def run(backend, kernel, inputs, attrs=None):
        return get_kernel(kernel, backend_name)(backend, inputs, attrs or {})

    def einsum(backend, inputs, attrs):
        plan = einsum_plan(attrs["equation"], [t.shape for t in inputs])
        made = []   # intermediates; some kernels may hand back their input's data (a view)
        out = None
        for x, perm, shape in zip(inputs, plan.perms, plan.shapes):
            if list(perm) != sorted(perm):
                x = run(backend, "Transpose", [x], {"perm": list(perm)})
                made.append(x)
            x = TensorInfo(x.data_id, shape, x.dtype)   # unit axes for missing labels: a free reshape
            if out is not None:
                x = run(backend, "Multiply", [out, x])
                made.append(x)
            out = x
        if plan.summed_axes:
            out = run(backend, "Sum", [out], {"axis": plan.summed_axes, "keep_dims": False})
        keep = {out.data_id} | {t.data_id for t in inputs}
        for t in made:
            if t.data_id not in keep:
                backend.dispose_data(t.data_id)
                keep.add(t.data_id)
        return TensorInfo(out.data_id, plan.out_shape, out.dtype)
    register_kernel("Einsum", backend_name, einsum)
