"""complex64 through float kernels, the same on every GPU backend: complex64 data is two float32
parts (TF.js's complexTensorInfos; `backend.complex_parts`, `backend.make_complex`), so a kernel
that moves values or is linear in them runs its float kernel on each part. A backend registers
these paths over its float kernels with `register_complex_paths`, giving its own copy and complex
multiply."""
from ...kernels import get_kernel, register_kernel

# Kernels that move values or are linear in them (slices, transposes, concatenation, gathers, pads,
# tiles, selects, splits; neg, sum, add_n, cumsum, segment sums): each part through the float kernel.
EACH_PART = ("Slice", "StridedSlice", "Transpose", "Reverse", "Tile", "PadV2", "MirrorPad", "GatherV2", "GatherNd",
             "Concat", "Pack", "Unpack", "SplitV", "Select", "Diag", "Neg", "Sum", "AddN", "Cumsum", "UnsortedSegmentSum")


def _with_complex_path(backend_name, kernel_name, complex_kernel):
    """Register kernel_name again: complex64 inputs go to complex_kernel, others as before."""
    real_kernel = get_kernel(kernel_name, backend_name)

    def kernel(backend, inputs, attrs):
        # The ops give both operands one dtype (a real one is cast up), so one test suffices
        # (for Select, whose first input is the condition, any input is tested).
        if any(t.dtype == "complex64" for t in inputs):
            return complex_kernel(real_kernel, backend, inputs, attrs)
        return real_kernel(backend, inputs, attrs)
    register_kernel(kernel_name, backend_name, kernel)


def _partwise(real_kernel, backend, inputs, attrs):
    """Add and Sub: the float kernel on the real parts, then on the imaginary parts."""
    a, b = (backend.complex_parts(t) for t in inputs)
    return backend.make_complex(*(real_kernel(backend, [a[i], b[i]], attrs) for i in (0, 1)))


def _each_part(copy):
    def run_parts(real_kernel, backend, inputs, attrs):
        """The float kernel on the real parts, then on the imaginary parts; inputs that are not
        complex64 (indices, a condition) go to both. A part that comes back sharing an input
        part's data is copied (`copy`), so that each complex64 result owns its parts."""
        complex_inputs = [t for t in inputs if t.dtype == "complex64"]
        owned = {p.data_id for t in complex_inputs for p in backend.complex_parts(t)}

        def run(i, kernel_attrs):
            return real_kernel(backend, [backend.complex_parts(t)[i] if t.dtype == "complex64" else t for t in inputs],
                               kernel_attrs)

        def release(outs):
            for o in outs if isinstance(outs, list) else [outs]:
                if o.data_id not in owned:
                    backend.dispose_data(o.data_id)

        re = run(0, attrs)
        try:   # a pad's constant is real: the imaginary part pads with 0
            im = run(1, dict(attrs, constant_value=0.0) if "constant_value" in attrs else attrs)
        except BaseException:
            release(re)
            raise

        def own(x):
            return copy(backend, x) if x.data_id in owned else x
        if isinstance(re, list):
            return [backend.make_complex(own(a), own(b)) for a, b in zip(re, im)]
        return backend.make_complex(own(re), own(im))
    return run_parts


def _complex_cast(backend_name, copy):
    float_cast = get_kernel("Cast", backend_name)
    fill = get_kernel("Fill", backend_name)

    def cast(backend, inputs, attrs):
        """Cast with TF.js's complex rules: complex64 -> dtype casts the real part; anything ->
        complex64 is (x as float32) + 0i."""
        (x,) = inputs
        dtype = attrs["dtype"]
        if x.dtype == "complex64":
            re, im = backend.complex_parts(x)
            if dtype == "complex64":
                return backend.make_complex(copy(backend, re), copy(backend, im))
            return float_cast(backend, [re], attrs)
        if dtype == "complex64":
            re = float_cast(backend, inputs, {"dtype": "float32"})
            im = fill(backend, [], {"shape": tuple(x.shape), "value": 0.0, "dtype": "float32"})
            return backend.make_complex(re, im)
        return float_cast(backend, inputs, attrs)
    return cast


def register_complex_paths(backend_name, copy, multiply, each_part=EACH_PART):
    """Add, Sub and Multiply (multiply(real_kernel, backend, inputs, attrs): the backend's own
    complex product), Cast and the kernels of `each_part` take complex64 on backend_name;
    copy(backend, x) is the backend's float32 copy of one part."""
    for name, fn in (("Add", _partwise), ("Sub", _partwise), ("Multiply", multiply)):
        _with_complex_path(backend_name, name, fn)
    run_parts = _each_part(copy)
    for name in each_part:
        _with_complex_path(backend_name, name, run_parts)
    register_kernel("Cast", backend_name, _complex_cast(backend_name, copy))
