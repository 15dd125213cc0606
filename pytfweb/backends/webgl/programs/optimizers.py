"""Optimizer updates in one kernel per variable (pytfweb's own kernels; see the cpu module):
three draws for Adam's value and slots, whatever the hyper-parameters (uniforms)."""
from ....kernels import register_kernel
from .. import shader_source
from .program import Program

_ADAM_NAMES = ("value", "gradient", "m", "v", "oneMinusAccBeta1", "oneMinusAccBeta2")
_ADAM_UNIFORMS = tuple((n, "float") for n in ("beta1", "oneMinusBeta1", "beta2", "oneMinusBeta2", "epsilon",
                                              "negLearningRate"))


_CODE = {}


def _adam_program(output, shape):
    code = _CODE.get(output)
    if code is None:
        code = _CODE[output] = (shader_source.function("unary_ops.glsl", "op_Sqrt")
                                + shader_source.program("optimizers.glsl", "adam_moments")
                                + shader_source.program("optimizers.glsl", "adam_" + output))
    return Program("optimizers:adam_" + output, _ADAM_NAMES, shape, code, _ADAM_UNIFORMS)


@register_kernel("ApplyAdam", "webgl")
def apply_adam(backend, inputs, attrs):
    beta1, beta2 = attrs["beta1"], attrs["beta2"]
    values = (beta1, 1 - beta1, beta2, 1 - beta2, attrs["epsilon"], -attrs["learning_rate"])
    shape = inputs[0].shape
    return [backend.run(_adam_program(output, shape), inputs, "float32", values) for output in ("value", "m", "v")]
