"""The base class of every optimizer, as TF.js's Optimizer (tfjs-core/src/optimizers/optimizer.ts).

It holds what all optimizers share: minimize / compute_gradients / apply_gradients, the
iteration count, the slot variables (per-variable accumulators such as Adam's `m` and `v`),
get_weights / set_weights and dispose. A subclass names its slots and gives its update rule:

    class MyOptimizer(Optimizer):
        class_name = "My"                      # TF.js's className
        slot_names = ("m",)                    # one slot variable per trained variable: "<name>/m"

        def _update(self, value, gradient, slots, step):
            # runs in its own tidy scope, once per variable that has a gradient
            new_m = ops.add(ops.mul(slots["m"], 0.9), gradient)
            slots["m"].assign(new_m)
            value.assign(ops.sub(value, ops.mul(new_m, self.learning_rate)))

Optional hooks: `_begin_step()` returns tensors shared by all variables of one step (made
in the step's tidy scope), `_end_step(step)` updates per-step state afterwards (Adam's powers
of beta), `_initial_slot(kind, value)` gives a slot's starting value (zeros by default),
`_restore_step_state()` rebuilds per-step state after set_weights.

Slot variables are non-trainable and auto-named (so two optimizers can train the same
variables); `get_weights()` reports them under TF.js's names, "<variable name>/<slot>".

One deliberate difference from TF.js: TF.js keys slots by the *position* of a variable in
each apply_gradients call, so a call with another list of variables (another var_list)
updates variable b with variable a's accumulators. Here slots are keyed by variable name;
where TF.js is right (the same variables in the same order every call) the two agree step
for step, including the order of get_weights().
"""
import math
import numbers
import re
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Union

from .. import ops
from ..core.api import backend, dispose, get_backend, keep, registered_variable, tidy
from ..autodiff import variable_grads
from ..core.errors import EngineError
from ..ops import optimizer_updates
from ..core.tensor import Tensor, Variable


class OptimizerVariable(NamedTuple):
    """A slot variable and the name TF.js gives it ("<variable name>/<slot>"): what
    Optimizer.get_weights lists.

    Example:
        >>> w = tf.variable(tf.ones([2]), name="w_slot_example")
        >>> opt = tf.train.adam(0.1)
        >>> opt.minimize(lambda: w.square().sum())
        >>> [weight["name"] for weight in opt.get_weights()]
        ['iter', 'w_slot_example/m', 'w_slot_example/v']
    """
    original_name: str
    variable: Variable


class Optimizer:
    """Base class of the tf.train optimizers (see the pytfweb.train.optimizer module for writing one):
    minimize, compute_gradients, apply_gradients, get_weights / set_weights and dispose.

    Example:
        >>> w = tf.variable(tf.scalar(5.0))
        >>> opt = tf.train.sgd(0.1)
        >>> opt.minimize(lambda: w.square())   # w -= 0.1 * 2w
        >>> w.array_sync(), opt.iterations
        (4.0, 1)
    """
    class_name = "Optimizer"
    slot_names = ()

    def __init__(self):
        self._iterations = 0
        # Bumped where set_weights replaces the slot variables: a traced training step
        # (layers/training.py) keys its plan on it, as the plan reads the slot variables it saw.
        self._slots_version = 0
        self._slots = {}      # slot kind -> {variable name: OptimizerVariable}, in creation order
        self._owned = []      # constants and state variables made by the constructor
        self._disposed = False

    # --- what a subclass provides -------------------------------------------------------------
    def _update(self, value, gradient, slots, step):
        """Update the variable `value` (and its slots, a dict kind -> Variable) from `gradient`."""
        raise NotImplementedError(f"{type(self).__name__} does not define its update rule")

    def _begin_step(self):
        return None

    def _end_step(self, step):
        pass

    def _initial_slot(self, kind, value):
        return ops.zeros_like(value)

    def _restore_step_state(self):
        pass

    def get_config(self) -> dict:
        """The optimizer's constructor arguments (TF.js's getConfig, snake_case).

        Returns:
            A dict, such as {'learning_rate': 0.1} for SGD.
        """
        return {}

    # --- TF.js's public surface -----------------------------------------------------------------
    @property
    def iterations(self):
        """How many times apply_gradients (directly or through minimize) has run."""
        return self._iterations

    def get_class_name(self) -> str:
        """TF.js's class name of the optimizer ('SGD', 'Adam', ...).

        Returns:
            The name.
        """
        return self.class_name

    @classmethod
    def from_config(cls, config: Any, config_if_class_first: Optional[dict] = None) -> "Optimizer":
        """An optimizer made from a get_config() dict: Opt.from_config(config), or TF.js's
        Opt.from_config(Opt, config) (its static fromConfig(cls, config)). camelCase keys, as
        TF.js's getConfig writes them, are taken too.

        Args:
            config: the dict (or, in TF.js's form, the class to make).
            config_if_class_first: the dict, when the class came first.

        Returns:
            A new optimizer of that class.
        """
        if config_if_class_first is not None or isinstance(config, type):
            klass, config = config, config_if_class_first
            if not (isinstance(klass, type) and issubclass(klass, Optimizer)):
                raise TypeError(f"{cls.__name__}.from_config: the class given first must be an Optimizer "
                                f"class, got {klass!r}")
        else:
            klass = cls
        if not isinstance(config, dict):
            raise TypeError(f"{klass.__name__}.from_config: argument 'config' must be a dict, got "
                            f"{type(config).__name__}")
        return klass(**{re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", k).lower(): v for k, v in config.items()})

    def minimize(self, f: Callable[[], Tensor], return_cost: bool = False,
                 var_list: Optional[List[Variable]] = None) -> Optional[Tensor]:
        """Run f() (a scalar loss), compute its gradients with respect to var_list and apply them.

        Args:
            f: a function of no argument returning a float32 scalar tensor.
            return_cost: return the loss.
            var_list: the variables to update (None: every trainable variable).

        Returns:
            The loss (a scalar Tensor) when return_cost, else None.
        """
        api = self._api("minimize")
        self._check_usable(api)
        _check_callable(f, api)
        var_list = _check_var_list(var_list, api)
        value, grads = self.compute_gradients(f, var_list)
        try:
            if var_list is None:
                self.apply_gradients(grads)
            else:
                # As TF.js: every variable of var_list, those without a gradient included.
                self.apply_gradients([{"name": v.name, "tensor": grads.get(v.name)} for v in var_list])
        except BaseException:
            dispose([value, grads])
            raise
        dispose(grads)
        if return_cost:
            return value
        value.dispose()
        return None

    def compute_gradients(self, f: Callable[[], Tensor], var_list: Optional[List[Variable]] = None) -> Any:
        """The value of the scalar f() and its gradients, as tf.variable_grads.

        Args:
            f: a function of no argument returning a float32 scalar tensor.
            var_list: the variables (None: every trainable variable).

        Returns:
            (value, {variable name: gradient}).
        """
        api = self._api("compute_gradients")
        self._check_usable(api)
        _check_callable(f, api)
        return variable_grads(f, _check_var_list(var_list, api))

    def apply_gradients(self, variable_gradients: Union[Dict[str, Tensor], List[dict]]) -> None:
        """Update variables from gradients (one step of the optimizer).

        Args:
            variable_gradients: a dict {variable name: gradient} or a list of {"name": variable name,
                "tensor": gradient}. A None gradient leaves its variable as is.
        """
        api = self._api("apply_gradients")
        self._check_usable(api)
        pairs = self._resolve(variable_gradients, api)

        def step():
            shared = self._begin_step()
            for value, gradient in pairs:
                slots = self._slots_for(value)
                if gradient is not None:
                    tidy(api, lambda: self._update(value, gradient, slots, shared))
            self._end_step(shared)

        tidy(api, step)
        self._iterations += 1

    def _fused_update(self, kernel, value, gradient, slots, scalars, attrs):
        """Run the optimizer's fused update kernel (ops.optimizer_updates.fused_update: its
        composed ops' float32 steps in one kernel, a dozen ops' per-op cost saved) and assign the
        new value and slots; False where it does not apply (a backend without it, a gradient of
        another shape or dtype), and the caller composes the ops (assign_all(..., optimizer_updates.X(...)))."""
        outs = optimizer_updates.fused_update(kernel, value, gradient, slots, scalars, attrs)
        if outs is None:
            return False
        assign_all([value, *slots], outs)
        return True

    def get_weights(self) -> List[dict]:
        """The optimizer's state: the iteration count, then every slot variable, slots grouped by kind
        as TF.js orders them.

        Returns:
            [{"name": "iter", "tensor": int32 scalar}, {"name": "<variable>/<slot>", "tensor": Variable},
            ...]. The "iter" tensor is new (the caller disposes it); the slot variables are the
            optimizer's own.
        """
        self._check_usable(self._api("get_weights"))
        weights = [{"name": "iter", "tensor": ops.scalar(self._iterations, "int32")}]
        for kind in self.slot_names:
            weights += [{"name": s.original_name, "tensor": s.variable}
                        for s in self._slots.get(kind, {}).values()]
        return weights

    def set_weights(self, weight_values: List[dict]) -> None:
        """Restore what get_weights() returned (of this optimizer or one of the same kind and
        configuration): the iteration count, then the slots, grouped by kind in TF.js's order. The
        optimizer keeps its own variables (sharing the data of the given tensors) and frees the slot
        variables it had.

        Args:
            weight_values: a list of {"name": str, "tensor": Tensor}, as get_weights gives.
        """
        api = self._api("set_weights")
        self._check_usable(api)
        weights = _check_named_tensors(weight_values, api)
        if not weights or weights[0][0] != "iter":
            raise ValueError(f"{api}: the first weight must be the iteration count named 'iter' "
                             f"(as get_weights() returns it)")
        rest = weights[1:]
        kinds = self.slot_names
        if not kinds and rest:
            raise ValueError(f"{api}: {self.class_name} has no settable weights besides 'iter', "
                             f"got {len(rest)} more")
        if kinds and len(rest) % len(kinds):
            raise ValueError(f"{api}: {self.class_name} keeps {len(kinds)} slot(s) per variable "
                             f"({', '.join(kinds)}), so the weights after 'iter' must come in groups of "
                             f"{len(kinds)}; got {len(rest)}")
        count = len(rest) // len(kinds) if kinds else 0
        plan = []   # (kind, variable name, original name, tensor)
        for j, (name, tensor) in enumerate(rest):
            kind = kinds[j // count]
            suffix = "/" + kind
            if not name.endswith(suffix) or len(name) == len(suffix):
                raise ValueError(f"{api}: weight_values[{j + 1}] is named '{name}' where a slot "
                                 f"'<variable name>{suffix}' was expected (slots come grouped by kind: "
                                 f"{', '.join(kinds)})")
            if tensor.dtype != "float32":
                raise TypeError(f"{api}: slot '{name}' must be a float32 tensor, got {tensor.dtype}")
            plan.append((kind, name[:-len(suffix)], name, tensor))
        iterations = int(weights[0][1].data_sync()[0])

        new_slots = {}
        for kind, var_name, original_name, tensor in plan:
            variable = ops.variable(tensor, trainable=False)
            new_slots.setdefault(kind, {})[var_name] = OptimizerVariable(original_name, variable)
        old = self._all_slot_variables()
        self._slots, self._iterations = new_slots, iterations
        self._slots_version += 1
        dispose(old)
        self._restore_step_state()

    def dispose(self) -> None:
        """Free the slot variables and the constants this optimizer made. It cannot be used after."""
        if self._disposed:
            return
        dispose(self._all_slot_variables())
        dispose(self._owned)
        self._slots, self._owned, self._disposed = {}, [], True

    def __repr__(self):
        args = ", ".join(f"{k}={v!r}" for k, v in self.get_config().items())
        return f"{type(self).__name__}({args})"

    # --- for subclasses ---------------------------------------------------------------------
    def _constant(self, value):
        """A float32 scalar the optimizer owns: out of every tidy scope, freed by dispose()."""
        t = keep(ops.scalar(value, "float32"))
        self._owned.append(t)
        return t

    def _replace_constant(self, old, value):
        """A new _constant(value) in place of old (None or a constant of this optimizer)."""
        if old is not None:
            # (by identity: list.remove would compare tensors with ==, which is elementwise)
            self._owned = [t for t in self._owned if t is not old]
            old.dispose()
        return self._constant(value)

    def _state_variable(self, value):
        """A non-trainable float32 scalar variable the optimizer updates, freed by dispose()."""
        v = tidy(lambda: ops.variable(ops.scalar(value, "float32"), trainable=False))
        self._owned.append(v)
        return v

    def _epsilon(self, epsilon):
        """epsilon, or the active backend's when None (as TF.js: ENGINE.backend.epsilon(); here tf.backend().epsilon())."""
        if epsilon is not None:
            return check_number(epsilon, "epsilon", type(self).__name__, minimum=0)
        get = getattr(backend(), "epsilon", None)
        if get is None:
            raise NotImplementedError(f"{type(self).__name__}: backend '{get_backend()}' has no "
                                      f"epsilon(); pass epsilon explicitly")
        return get()

    # --- internals --------------------------------------------------------------------------
    def _api(self, method):
        return f"{type(self).__name__}.{method}"

    def _check_usable(self, api):
        if self._disposed:
            raise EngineError(f"{api}: the optimizer has been disposed")
        for t in self._owned:
            if t.is_disposed:
                raise EngineError(f"{api}: the optimizer's own tensors were disposed (by tf.dispose_variables() "
                                  f"or an engine reset?); make a new optimizer")

    def _all_slot_variables(self):
        return [s.variable for table in self._slots.values() for s in table.values()]

    def _slots_for(self, value):
        """{kind: slot Variable} for `value`, creating missing slots (as TF.js, also for a
        variable whose gradient is None in this step)."""
        out = {}
        for kind in self.slot_names:
            table = self._slots.setdefault(kind, {})
            slot = table.get(value.name)
            if slot is None:
                variable = tidy(lambda: ops.variable(self._initial_slot(kind, value), trainable=False))
                slot = table[value.name] = OptimizerVariable(f"{value.name}/{kind}", variable)
            out[kind] = slot.variable
        return out

    def _resolve(self, variable_gradients, api):
        """[(Variable, gradient or None)], every check made before anything is updated."""
        if isinstance(variable_gradients, dict):
            items = list(variable_gradients.items())
        elif isinstance(variable_gradients, (list, tuple)):
            items = []
            for i, item in enumerate(variable_gradients):
                if not isinstance(item, dict) or "name" not in item:
                    raise TypeError(f"{api}: variable_gradients[{i}] must be a dict "
                                    f"{{'name': variable name, 'tensor': gradient}}, got {type(item).__name__}")
                items.append((item["name"], item.get("tensor")))
        else:
            raise TypeError(f"{api}: argument 'variable_gradients' must be a dict {{variable name: gradient}} "
                            f"or a list of {{'name': ..., 'tensor': ...}}, got {type(variable_gradients).__name__}")
        pairs = []
        for name, gradient in items:
            if not isinstance(name, str):
                raise TypeError(f"{api}: variable names must be str, got {type(name).__name__}")
            value = registered_variable(name)
            if value is None:
                raise ValueError(f"{api}: there is no variable named '{name}' (was it disposed?)")
            if value.dtype != "float32":
                raise TypeError(f"{api}: variable '{name}' has dtype {value.dtype}; only float32 variables "
                                f"can be trained")
            if gradient is not None:
                if not isinstance(gradient, Tensor):
                    raise TypeError(f"{api}: the gradient of '{name}' must be a Tensor or None, "
                                    f"got {type(gradient).__name__}")
                gradient.throw_if_disposed(api)
                if tuple(gradient.shape) != tuple(value.shape):
                    raise ValueError(f"{api}: the gradient of '{name}' has shape {list(gradient.shape)}, "
                                     f"the variable {list(value.shape)}")
            for kind in self.slot_names:
                slot = self._slots.get(kind, {}).get(name)
                if slot is not None and (slot.variable.is_disposed or slot.variable.shape != value.shape):
                    problem = ("was disposed" if slot.variable.is_disposed
                               else f"has shape {list(slot.variable.shape)}, the variable {list(value.shape)}")
                    raise ValueError(f"{api}: the optimizer's slot '{slot.original_name}' {problem}")
            pairs.append((value, gradient))
        return pairs


def assign_all(variables, values):
    """Assign an update's new tensors ([value, *slots]) to the variable and its slots."""
    for variable, new in zip(variables, values):
        variable.assign(new)


# --- argument checks shared by the optimizers ------------------------------------------------------

def check_number(value, arg, api, minimum=None, below=None, maximum=None):
    """value as a float: a finite real number (not a bool) within the given bounds."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{api}: argument '{arg}' must be a number, got {type(value).__name__}")
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"{api}: argument '{arg}' must be finite, got {value}")
    if minimum is not None and value < minimum:
        raise ValueError(f"{api}: argument '{arg}' must be >= {minimum}, got {value}")
    if below is not None and value >= below:
        raise ValueError(f"{api}: argument '{arg}' must be < {below}, got {value}")
    if maximum is not None and value > maximum:
        raise ValueError(f"{api}: argument '{arg}' must be <= {maximum}, got {value}")
    return value


def check_bool(value, arg, api):
    if not isinstance(value, bool):
        raise TypeError(f"{api}: argument '{arg}' must be a bool, got {type(value).__name__}")
    return value


def _check_callable(f, api):
    if not callable(f):
        raise TypeError(f"{api}: argument 'f' must be a function returning a scalar loss, "
                        f"got {type(f).__name__}")


def _check_var_list(var_list, api):
    if var_list is None:
        return None
    if not isinstance(var_list, (list, tuple)):
        raise TypeError(f"{api}: argument 'var_list' must be a list of Variables, got {type(var_list).__name__}")
    for i, v in enumerate(var_list):
        if not isinstance(v, Variable):
            raise TypeError(f"{api}: var_list[{i}] must be a Variable, got {type(v).__name__}")
        v.throw_if_disposed(api)
    return list(var_list)


def _check_named_tensors(values, api):
    """[(name, tensor)] from a list of {"name": str, "tensor": Tensor}."""
    if not isinstance(values, (list, tuple)):
        raise TypeError(f"{api}: argument 'weight_values' must be a list of {{'name': ..., 'tensor': ...}}, "
                        f"got {type(values).__name__}")
    out = []
    for i, item in enumerate(values):
        if not isinstance(item, dict) or not isinstance(item.get("name"), str) \
                or not isinstance(item.get("tensor"), Tensor):
            raise TypeError(f"{api}: weight_values[{i}] must be a dict {{'name': str, 'tensor': Tensor}}")
        item["tensor"].throw_if_disposed(api)
        out.append((item["name"], item["tensor"]))
    return out
