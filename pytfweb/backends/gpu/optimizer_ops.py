"""The optimizers' fused updates (ApplyGradientDescent, ApplyMomentum, ApplyRMSProp, ApplyAdagrad,
ApplyAdadelta, ApplyAdaMax, ApplyAdam: pytfweb's own kernels, see backends/cpu/kernels/optimizers.py),
written once in the IR of elementwise_ir.py and rendered to GLSL for webgl and WGSL for webgpu.
Each update is TF.js's float32 steps (train/*.py) in their order, as the cpu kernels do them.

An update (UPDATES[name]) reads, at one element, the variable `value`, its `gradient`, its slots
(the kernel's inputs after those two, all of one shape) and its scalar tensors (one value each),
and gives the variable's new value and each slot's. It is one function per output:

  <name>_<slot>(...)   the slot's new value
  <name>_value(...)    the variable's

whose parameters are named after what they take: an input's name (its old value at this element)
or `new_<slot>` (that slot's new value: the caller computes it first, Update.slots_for gives the
order). Hyper-parameters are attributes: uniforms the webgl program declares, parameters after the
others on webgpu (in order of use; wgsl.signature reads them). Update.uniforms gives their values
from the kernel's attrs, so a changed learning rate compiles nothing.

shader_source serves the rendered functions as optimizers.glsl and optimizers.wgsl (not files),
with the helpers and op functions they call (op_Sqrt, op_Abs, op_Maximum: elementwise_ops.py's)."""
import functools

from . import elementwise_ops
from .elementwise_ir import F32, I32, TARGETS, Function, Stmt, arg, attr, call, isnan, let, render, select, v

X = arg("x")
V, G = arg("value"), arg("gradient")

# NaN in gives NaN out, as the unary ops' programs do (op_Sqrt and op_Abs alone need not)
HELPERS = [Function("sqrtOf", [("x", F32)], select(isnan(X), X, call("op_Sqrt", X))),
           Function("absOf", [("x", F32)], select(isnan(X), X, call("op_Abs", X)))]


def sqrt_of(x):
    return call("sqrtOf", x)


def new(slot):
    """A slot's new value (a parameter `new_<slot>`, computed before the function is called)."""
    return arg("new_" + slot)


def hyper(*names):
    return tuple(attr(n) for n in names)


def _params(body):
    """((name, f32), ...) of the arguments body (expressions and let statements) reads, in order
    of first use: the parameters main passes."""
    seen = []

    def visit(n):
        if n.kind == "arg" and n.value not in seen:
            seen.append(n.value)
        for a in n.args:
            visit(a)
    for item in body:
        visit(item.expr if isinstance(item, Stmt) else item)
    return tuple((name, F32) for name in seen)


class Update:
    """One kernel's update: its slots and scalar inputs (in the kernel's input order), the body of
    each output ({"value": ..., slot: ...}, each a body list of the IR) and uniforms(attrs), the
    hyper-parameters' ((name, type, value), ...)."""

    def __init__(self, name, slots, scalars, bodies, uniforms, targets=TARGETS):
        self.name, self.slots, self.scalars, self.uniforms = name, tuple(slots), tuple(scalars), uniforms
        self.functions = {}
        for out in ("value",) + self.slots:
            body = bodies[out] if isinstance(bodies[out], list) else [bodies[out]]
            self.functions[out] = Function(f"{name}_{out}", _params(body), body, targets=targets)

    @property
    def inputs(self):
        """The kernel's input names, in order."""
        return ("value", "gradient") + self.slots + self.scalars

    def slots_for(self, outputs):
        """The slots whose new values the functions of `outputs` need (those outputs' own
        included), each after the slots it needs."""
        order = []

        def visit(out, stack=()):
            if out in stack:
                raise ValueError(f"optimizer update {self.name}: {out} needs itself")
            for p, _ in self.functions[out].params:
                if p.startswith("new_"):
                    visit(p[4:], stack + (out,))
            if out != "value" and out not in order:
                order.append(out)
        for out in outputs:
            visit(out)
        return tuple(order)


UPDATES = {}


def update(name, slots=(), scalars=(), uniforms=None, targets=TARGETS, **bodies):
    UPDATES[name] = Update(name, slots, scalars, bodies, uniforms, targets)


def _f32(**values):
    return tuple((n, "f32", val) for n, val in values.items())


NEG_LR, = hyper("negLearningRate")
update("sgd", value=NEG_LR * G + V, uniforms=lambda a: _f32(negLearningRate=-a["learning_rate"]))

# momentum: webgl compiles plain and nesterov as two programs; webgpu compiles one, which chooses
# by the i32 uniform `nesterov` (select computes both: the same values)
MOMENTUM, = hyper("momentum")
_ACCUMULATION = MOMENTUM * arg("accumulation") + G
_PLAIN = NEG_LR * new("accumulation")
_NESTEROV = NEG_LR * (G + new("accumulation") * MOMENTUM)


def _momentum_uniforms(a):
    return _f32(negLearningRate=-a["learning_rate"], momentum=a["momentum"])


update("momentum", ("accumulation",), accumulation=_ACCUMULATION, value=_PLAIN + V, uniforms=_momentum_uniforms)
update("momentum_nesterov", ("accumulation",), accumulation=_ACCUMULATION, value=_NESTEROV + V,
       uniforms=_momentum_uniforms)
update("momentum_either", ("accumulation",), accumulation=_ACCUMULATION,
       value=select(attr("nesterov", I32).ne(0), _NESTEROV, _PLAIN) + V,
       uniforms=lambda a: _momentum_uniforms(a) + (("nesterov", "i32", int(bool(a["use_nesterov"]))),),
       targets=("wgsl",))

DECAY, ONE_MINUS_DECAY, LR, EPSILON = hyper("decay", "oneMinusDecay", "learningRate", "epsilon")
_MS = arg("ms") * DECAY + G * G * ONE_MINUS_DECAY


def _rmsprop_uniforms(a):
    return _f32(decay=a["decay"], oneMinusDecay=1 - a["decay"], momentum=a["momentum"],
                learningRate=a["learning_rate"], epsilon=a["epsilon"])


update("rmsprop", ("ms", "mom"), ms=_MS,
       mom=arg("mom") * MOMENTUM + G * LR / sqrt_of(new("ms") + EPSILON),
       value=V - new("mom"), uniforms=_rmsprop_uniforms)
# centered: the mean gradient mg too, subtracted from the mean square with epsilon (TF.js's)
update("rmsprop_centered", ("ms", "mom", "mg"), ms=_MS,
       mg=arg("mg") * DECAY + G * ONE_MINUS_DECAY,
       mom=arg("mom") * MOMENTUM + G * LR / sqrt_of(new("ms") - (new("mg") * new("mg") + EPSILON)),
       value=V - new("mom"), uniforms=_rmsprop_uniforms)

update("adagrad", ("accumulator",), accumulator=arg("accumulator") + G * G,
       value=G / sqrt_of(new("accumulator") + EPSILON) * NEG_LR + V,
       uniforms=lambda a: _f32(negLearningRate=-a["learning_rate"], epsilon=a["epsilon"]))

RHO, ONE_MINUS_RHO = hyper("rho", "oneMinusRho")
# TF.js's: the step from the previous accumulated gradient, not the new one
_ADADELTA_STEP = sqrt_of(arg("accumVar") + EPSILON) / sqrt_of(arg("accumGrad") + EPSILON) * G
update("adadelta", ("accumGrad", "accumVar"),
       accumGrad=arg("accumGrad") * RHO + G * G * ONE_MINUS_RHO,
       accumVar=[let("d", _ADADELTA_STEP), arg("accumVar") * RHO + v("d") * v("d") * ONE_MINUS_RHO],
       value=_ADADELTA_STEP * NEG_LR + V,
       uniforms=lambda a: _f32(rho=a["rho"], oneMinusRho=1 - a["rho"], epsilon=a["epsilon"],
                               negLearningRate=-a["learning_rate"]))

BETA1, ONE_MINUS_BETA1, BETA2, ONE_MINUS_BETA2 = hyper("beta1", "oneMinusBeta1", "beta2", "oneMinusBeta2")
_M = arg("m") * BETA1 + G * ONE_MINUS_BETA1
# absOf: op_Maximum gives NaN for a NaN operand whatever op_Abs made of it
update("adamax", ("m", "v"), ("oneMinusAccBeta1", "lr"), m=_M,
       v=call("op_Maximum", arg("v") * BETA2, call("absOf", G)),
       value=arg("lr") / arg("oneMinusAccBeta1") * (new("m") / (new("v") + EPSILON)) + V,
       uniforms=lambda a: _f32(beta1=a["beta1"], oneMinusBeta1=1 - a["beta1"], beta2=a["beta2"],
                               epsilon=a["epsilon"]))
update("adam", ("m", "v"), ("oneMinusAccBeta1", "oneMinusAccBeta2"), m=_M,
       v=arg("v") * BETA2 + G * G * ONE_MINUS_BETA2,
       value=[let("mHat", new("m") / arg("oneMinusAccBeta1")), let("vHat", new("v") / arg("oneMinusAccBeta2")),
              v("mHat") / (sqrt_of(v("vHat")) + EPSILON) * NEG_LR + V],
       uniforms=lambda a: _f32(beta1=a["beta1"], oneMinusBeta1=1 - a["beta1"], beta2=a["beta2"],
                               oneMinusBeta2=1 - a["beta2"], epsilon=a["epsilon"],
                               negLearningRate=-a["learning_rate"]))


# --- the rendered files --------------------------------------------------------------------------

_FILES = {"optimizers.glsl": "glsl", "optimizers.wgsl": "wgsl"}
_HEADER = ("// Rendered from pytfweb/backends/gpu/optimizer_ops.py by elementwise_ir.py (not a file on disk).\n"
           "// Optimizer updates: <update>_<output>(...), one function per output; the helpers they call first.\n\n")


def names():
    return tuple(_FILES)


@functools.lru_cache(maxsize=None)
def source(name):
    """The rendered text of optimizers.glsl or optimizers.wgsl, or KeyError."""
    target = _FILES[name]
    functions = [f for u in UPDATES.values() for f in u.functions.values()]
    library = (elementwise_ops.HELPERS + elementwise_ops.UNARY_FUNCTIONS + elementwise_ops.BINARY_FUNCTIONS
               + HELPERS)
    return _HEADER + render(functions, target, library)


__all__ = ["UPDATES", "Update", "names", "source"]
