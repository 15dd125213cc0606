"""Eager automatic differentiation, as TF.js's tf.grad family.

    df = tf.grad(lambda x: tf.sum(x * x))
    df(tf.tensor([1.0, 2.0]))            # -> [2, 4]
    value, dx = tf.value_and_grad(f)(x)
    value, grads = tf.variable_grads(lambda: loss())   # grads: {variable name: gradient}
"""
from collections import namedtuple
from typing import Any, Callable, List, Optional

from .core.engine import ENGINE, op
from .ops.creation import convert_to_tensor
from .core.tensor import Tensor, Variable

ValueAndGrad = namedtuple("ValueAndGrad", "value grad")
ValueAndGrads = namedtuple("ValueAndGrads", "value grads")
VariableGrads = namedtuple("VariableGrads", "value grads")


def _check_callable(f, api):
    if not callable(f):
        raise TypeError(f"{api}: argument 'f' must be a function, got {type(f).__name__}")


def _args(args, api):
    if not isinstance(args, (list, tuple)):
        raise TypeError(f"{api}(f)(args): 'args' must be a list of tensors, got {type(args).__name__}")
    return [convert_to_tensor(a, f"args[{i}]", api) for i, a in enumerate(args)]


def _dy(dy, api):
    """As TF.js: values become float32, and a tensor dy must be float32 (complex64 here too)."""
    if dy is None:
        return None
    dy = convert_to_tensor(dy, "dy", api, "float32")
    if dy.dtype not in ("float32", "complex64"):
        raise TypeError(f"{api}: argument 'dy' must have 'float32' dtype, but has '{dy.dtype}'")
    return dy


def _compute(api, f, xs, dy):
    """As TF.js: without dy, a non-scalar y is differentiated as if summed (dy = ones), which is
    what makes tf.grad(tf.grad(f)) work for an elementwise f."""
    def call():
        y = f()
        if not isinstance(y, Tensor):
            raise TypeError(f"{api}: the function f must return a Tensor, got {type(y).__name__}")
        if dy is not None and tuple(dy.shape) != tuple(y.shape):
            raise ValueError(f"{api}: the shape of dy {list(dy.shape)} must match the shape returned by "
                             f"f {list(y.shape)}")
        return y
    y, grads = ENGINE.gradients(call, xs, dy)
    missing = [i for i, g in enumerate(grads) if g is None]
    if missing:
        ENGINE.dispose([y, grads])
        raise ValueError("Cannot compute gradient of y=f(x) with respect to x. Make sure that the f you "
                         "passed encloses all operations that lead from x to y "
                         f"({api}: no gradient reaches argument {missing[0]}; it may enter y only through "
                         "inputs that have none, such as gather's indices or a comparison's operands).")
    return y, grads


def _gradient_function(api, f, one_input, with_value):
    """The function tf.<api>(f) returns: one input x or a list of args; gradients alone, or the
    value with them. It runs in its own scope (engine.op), so inputs converted from Python values
    go with it and only the results survive."""
    _check_callable(f, api)

    @op
    def g(x_or_args, dy=None):
        xs = [convert_to_tensor(x_or_args, "x", api)] if one_input else _args(x_or_args, api)
        y, gs = _compute(api, lambda: f(*xs), xs, _dy(dy, api))
        if with_value:
            return ValueAndGrad(y, gs[0]) if one_input else ValueAndGrads(y, gs)
        y.dispose()
        return gs[0] if one_input else gs
    g.__name__ = g.__qualname__ = api
    return g


def grad(f: Callable[[Tensor], Tensor]) -> Callable[..., Tensor]:
    """The gradient function of f, a function of one tensor: g(x, dy=None) is df/dx at x.

    Without dy, a non-scalar f(x) is differentiated as if summed (dy of ones), as in TF.js.

    Args:
        f: a function of one tensor returning a tensor.

    Returns:
        g(x, dy=None): the gradient, a Tensor of x's shape.

    Example:
        >>> g = tf.grad(lambda x: x.square())   # d(x^2)/dx = 2x
        >>> g(tf.tensor([1, 2, -3])).print()
        Tensor
            [2, 4, -6]
    """
    return _gradient_function("grad", f, one_input=True, with_value=False)


def grads(f: Callable[..., Tensor]) -> Callable[..., List[Tensor]]:
    """The gradient function of f, a function of several tensors: g(args, dy=None) is the list
    of df/darg, one per argument.

    Args:
        f: a function of tensors returning a tensor.

    Returns:
        g(args, dy=None): a list of gradients, each of its argument's shape.

    Example:
        >>> g = tf.grads(lambda a, b: a.mul(b))
        >>> da, db = g([tf.tensor([2, 3]), tf.tensor([5, 7])])
        >>> da.print()
        Tensor
            [5, 7]
    """
    return _gradient_function("grads", f, one_input=False, with_value=False)


def value_and_grad(f: Callable[[Tensor], Tensor]) -> Callable[..., Any]:
    """As tf.grad, but g(x, dy=None) returns f(x) as well: a named tuple (value, grad).

    Args:
        f: a function of one tensor returning a tensor.

    Returns:
        g(x, dy=None) -> (value, grad).

    Example:
        >>> value, grad = tf.value_and_grad(lambda x: x.square().sum())(tf.tensor([1, 2]))
        >>> value.print(); grad.print()
        Tensor
            5
        Tensor
            [2, 4]
    """
    return _gradient_function("value_and_grad", f, one_input=True, with_value=True)


def value_and_grads(f: Callable[..., Tensor]) -> Callable[..., Any]:
    """As tf.grads, but g(args, dy=None) returns f(*args) as well: a named tuple (value, grads).

    Args:
        f: a function of tensors returning a tensor.

    Returns:
        g(args, dy=None) -> (value, grads), grads a list with one gradient per argument.

    Example:
        >>> value, (da, db) = tf.value_and_grads(lambda a, b: a.mul(b).sum())([tf.tensor([2]), tf.tensor([5])])
        >>> value.print(); db.print()
        Tensor
            10
        Tensor
            [2]
    """
    return _gradient_function("value_and_grads", f, one_input=False, with_value=True)


def variable_grads(f: Callable[[], Tensor], var_list: Optional[List[Variable]] = None) -> Any:
    """The value of the scalar f() and its gradients with respect to trainable variables.

    Args:
        f: a function of no argument returning a float32 scalar tensor.
        var_list: the variables (default: every trainable variable). Those f does not use get no
            entry.

    Returns:
        A named tuple (value, grads): grads maps each variable's name to its gradient.

    Raises:
        ValueError: f() is not a scalar, or no variable is connected to it.

    Example:
        >>> w = tf.variable(tf.tensor([1, 2]), name="w")
        >>> value, grads = tf.variable_grads(lambda: w.square().sum())
        >>> grads["w"].print()
        Tensor
            [2, 4]
    """
    _check_callable(f, "variable_grads")
    if var_list is None:
        var_list = [v for v in ENGINE.registered_variables.values() if v.trainable]
    else:
        for i, v in enumerate(var_list):
            if not isinstance(v, Variable):
                raise TypeError(f"variable_grads: var_list[{i}] must be a Variable, got {type(v).__name__}")
        var_list = [v for v in var_list if v.trainable]
    if not var_list:
        raise ValueError("variable_grads: expects at least one of the input variables to be trainable, "
                         "but none is")
    for v in var_list:
        if v.dtype != "float32":
            raise TypeError(f"variable_grads: variable '{v.name}' has dtype {v.dtype}; only float32 variables "
                            f"can be differentiated")

    def call():
        y = f()
        if not isinstance(y, Tensor) or y.rank != 0:
            shape = list(y.shape) if isinstance(y, Tensor) else type(y).__name__
            raise ValueError(f"variable_grads: the result of f() must be a scalar tensor, got {shape}")
        if y.dtype != "float32":
            raise TypeError(f"variable_grads: the result of f() must be a float32 tensor, got {y.dtype}")
        return y
    y, gs = ENGINE.gradients(call, var_list, allow_no_gradients=True)
    if all(g is None for g in gs):
        ENGINE.dispose([y, gs])
        raise ValueError("Cannot find a connection between any variable and the result of the loss "
                         "function y=f(x). Please make sure the operations that use variables are inside "
                         "the function f passed to minimize().")
    return VariableGrads(y, {v.name: g for v, g in zip(var_list, gs) if g is not None})


def custom_grad(f: Callable[..., Any]) -> Callable[..., Tensor]:
    """A function with a hand-written gradient (usable as a decorator).

    f(*inputs, save) returns {"value": y, "grad_func": grad_func} (or the tuple (y, grad_func));
    save(list of tensors) keeps tensors for grad_func(dy, saved), which returns one gradient per
    input (a single tensor is accepted for one input).

    Args:
        f: the forward function, as above.

    Returns:
        A function of the inputs returning y, whose gradient is grad_func's.

    Example:
        >>> @tf.custom_grad
        ... def double(x, save):
        ...     return {"value": x.mul(2), "grad_func": lambda dy, saved: dy.mul(10)}
        >>> tf.grad(lambda x: double(x))(tf.tensor([1.0])).print()
        Tensor
            [10]
    """
    _check_callable(f, "custom_grad")

    @op
    def wrapped(*inputs):
        xs = [convert_to_tensor(x, f"inputs[{i}]", "custom_grad") for i, x in enumerate(inputs)]
        box = {}

        def forward():
            saved = []
            result = f(*xs, lambda tensors: saved.extend(_as_list(tensors)))
            if isinstance(result, dict):
                value, grad_func = result.get("value"), result.get("grad_func", result.get("gradFunc"))
            elif isinstance(result, (tuple, list)) and len(result) == 2:
                value, grad_func = result
            else:
                raise TypeError("custom_grad: f must return {'value': tensor, 'grad_func': function} "
                                "or (tensor, function)")
            if not isinstance(value, Tensor):
                raise TypeError(f"custom_grad: f's 'value' must be a Tensor, got {type(value).__name__}")
            if not callable(grad_func):
                raise TypeError("custom_grad: f's 'grad_func' must be a function")
            box["grad_func"] = grad_func
            return [value], saved

        def backward(dy, node):
            out = box["grad_func"](dy, list(node.x))
            out = _as_list(out)
            if len(out) != len(xs):
                raise ValueError(f"custom_grad: grad_func must return {len(xs)} gradient(s), one per input, "
                                 f"got {len(out)}")
            return out

        (value,) = ENGINE.run_custom_gradient(forward, xs, backward)
        return value
    return wrapped


def _as_list(x):
    return list(x) if isinstance(x, (list, tuple)) else [x]
