"""FusedBatchNorm, LRN, LRNGrad and Multinomial as shaders (contracts in ops/normalization.py).

Multinomial samples in the shader, as TF.js's webgl backend does (its cpu backend draws with
Alea): the same distribution, other draws than the cpu backend's for the same seed."""
from ....kernels import get_kernel, register_kernel
from ...gpu import shader_source
from .program import Program
from .slicing import defines


def _code(section, **macros):
    return defines(**macros) + shader_source.program("normalization.glsl", section)


@register_kernel("FusedBatchNorm", "webgl")
def fused_batch_norm(backend, inputs, attrs):
    x = inputs[0]
    names = ["x", "mean", "variance"]
    macros = {"OFFSET": "0.0", "SCALE": "1.0"}
    for key, name in (("has_offset", "offset"), ("has_scale", "scale")):
        if attrs[key]:
            names.append(name)
            macros[name.upper()] = f"get{name.capitalize()}AtOutCoords()"
    key = "batch_norm:" + ",".join(names)
    program = Program(key, tuple(names), x.shape, _code("batch_norm", **macros), (("varianceEpsilon", "float"),))
    return backend.run(program, inputs, "float32", (float(attrs["variance_epsilon"]),))


_LRN_UNIFORMS = (("bias", "float"), ("alpha", "float"), ("beta", "float"))


def _lrn_program(section, names, x_shape, attrs):
    """An LRN program for x_shape; the radius is compiled in (it bounds a loop)."""
    depth = x_shape[-1]
    radius = min(attrs["depth_radius"], depth)
    head = defines(RADIUS=radius, DEPTH=depth) + shader_source.function("normalization.glsl", "lrnNorm")
    code = head + shader_source.program("normalization.glsl", section)
    return Program(f"{section}:{radius}", names, x_shape, code, _LRN_UNIFORMS)


def _lrn_values(attrs):
    return tuple(float(attrs[k]) for k in ("bias", "alpha", "beta"))


@register_kernel("LRN", "webgl")
def lrn(backend, inputs, attrs):
    (x,) = inputs
    return backend.run(_lrn_program("lrn", ("x",), x.shape, attrs), inputs, "float32", _lrn_values(attrs))


@register_kernel("LRNGrad", "webgl")
def lrn_grad(backend, inputs, attrs):
    x = inputs[0]
    program = _lrn_program("lrn_grad", ("x", "y", "dy"), x.shape, attrs)
    return backend.run(program, inputs, "float32", _lrn_values(attrs))


@register_kernel("Multinomial", "webgl")
def multinomial(backend, inputs, attrs):
    (logits,) = inputs
    probs = logits if attrs["normalized"] else get_kernel("Softmax", "webgl")(backend, inputs, {"dim": 1})
    batch, outcomes = logits.shape
    code = defines(OUTCOMES=outcomes) + shader_source.function("normalization.glsl", "uniformDraw") + \
        shader_source.program("normalization.glsl", "multinomial")
    program = Program(f"multinomial:{outcomes}", ("probs",), (batch, attrs["num_samples"]), code,
                      (("seed", "float"),))
    out = backend.run(program, [probs], "int32", (float(attrs["seed"]),))
    if probs is not logits:
        backend.dispose_data(probs.data_id)
    return out
