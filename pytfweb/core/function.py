"""tf.function: trace a Python function once per input signature, replay the record after.

    @tf.function
    def step(x):
        return tf.relu(tf.mat_mul(x, w) + b)

The first call with a signature runs the function eagerly while recording every kernel it runs
(core/plan.py); later calls with that signature replay the record: the kernels run in order on
the backend's data with no op-level Python. The signature is the shape and dtype of each tensor
argument (anywhere in lists, tuples and dicts), which tensor arguments are the same tensor, each
variable argument (by identity), the values of the other arguments (which must be hashable) and
the backend. What changes between calls without being in the signature is frozen at the trace:
Python values the function reads from outside (globals, attributes), Python side effects
(print, appending to a list), tensors created from Python values. Variables are read and written
at every call (their current values); random ops draw new values on every call.

Value-dependent steps split the plan: a kernel whose output shape depends on values (unique,
non-max suppression, ...) and a read of values inside the function (data_sync, array, int(t):
the Python after it may branch on them) are checked at every replay, the kernel's output shapes
and the read's values against the trace's. A call where they differ is traced again, as another
variant of that signature's plan (up to MAX_VARIANTS; a replay tries each, the last that matched
first), so a read that takes a few values (a flag, a class) replays each; past that, such calls
run eagerly, and after MAX_DIVERGENCES of them the signature stays eager. `fn.breaks` names the splits. A split
after a variable write or a random draw breaks the trace instead (a call that diverges there
could not be undone), as does a tensor made outside the recorded kernels: that signature stays
eager, and `fn.breaks` says why. Calls run eagerly too inside a gradient computation (tf.grads, ...), under
tf.profile or debug mode, inside another trace, and with tf.env().set("TRACE_FUNCTIONS", False).
"""
import functools
import inspect
import warnings
import weakref
from typing import Any, Callable, Optional

from .engine import ENGINE
from .plan import Diverged, signature, trace, tracing_enabled
from .tensor import Tensor, Variable

# More traces than this for one function earn a warning: its signature changes from call to
# call (a Python number argument, a new shape every time), so it never gets to replay.
RETRACE_WARNING = 5
# Traces kept per signature whose splits (a split kernel's output shapes, a read's values) took
# other values: a replay tries each, the last one that matched first.
MAX_VARIANTS = 4
# Calls of one signature that matched none of its MAX_VARIANTS traces before its plans are dropped.
MAX_DIVERGENCES = 3
# Signatures one function keeps plans for (as the graph executor's _MAX_RECORDED): a new one beyond
# it drops the least recently called one's plans and what they hold (constants, a runner's textures
# or buffers), so a function called with ever new shapes holds bounded memory.
MAX_PLANS = 8


class Function:
    """What tf.function returns: call it as the function it wraps. trace_count is the number of
    traces so far, breaks the (signature, reason) of each signature that runs eagerly; plans holds
    the MAX_PLANS most recently called signatures' plans."""

    def __init__(self, fn, instance=None):
        if not callable(fn):
            raise TypeError(f"function: argument 'fn' must be callable, got {type(fn).__name__}")
        if inspect.iscoroutinefunction(fn):
            raise TypeError("function: fn must not be async (a traced function runs its kernels synchronously); "
                            "await outside it")
        functools.update_wrapper(self, fn)
        self.fn = fn
        # as a method: the instance, weakly (the instance owns this Function, not the reverse)
        self._instance = None if instance is None else weakref.ref(instance)
        self.plans = {}          # signature -> Plan (the variant that last replayed), or None where the trace broke
        self._variants = {}      # signature -> its other Plans: traces whose splits took other values
        self._variant_traces = 0
        self.trace_count = 0
        self.breaks = []
        try:
            self._params = list(inspect.signature(fn).parameters)
        except (TypeError, ValueError):
            self._params = []

    def __get__(self, obj, objtype=None):
        """As a method: a Function per instance (its own plans, trace_count and breaks), kept as
        long as the instance lives."""
        if obj is None:
            return self
        bound = self.__dict__.get("_bound")
        if bound is None:
            bound = self._bound = weakref.WeakKeyDictionary()
        try:
            f = bound.get(obj)
            if f is None:
                f = bound[obj] = Function(self.fn, obj)
        except TypeError:
            raise TypeError(f"function: '{getattr(self.fn, '__qualname__', self.fn)}' is traced per instance, and "
                            f"a {type(obj).__name__} cannot be weakly referenced (add '__weakref__' to its "
                            f"__slots__) or is unhashable") from None
        return f

    def __call__(self, *args, **kwargs):
        if self._instance is not None:
            args = (self._instance(),) + args
        if not tracing_enabled():
            return self.fn(*args, **kwargs)
        tensors = []
        key = (ENGINE.get_backend(), self._spec(args, kwargs, tensors))
        key = key + (signature(tensors),)
        plans = self.plans
        variant = False
        if key in plans:
            plan = plans[key]
            if len(plans) > 1:
                del plans[key]
                plans[key] = plan   # (the dict's order: least recently called first)
            if plan is None:   # (in its own scope, as the trace ran it: what a replay would leave)
                return _scoped(lambda: self.fn(*args, **kwargs))
            if plan.stale:   # (the engine was reset: every variant's data is gone)
                self._drop(key)
            else:
                others = self._variants.get(key, ())
                for p in (plan, *others):
                    try:
                        out = p.run(tensors)
                    except Diverged as exc:
                        diverged = exc
                        continue
                    if p is not plan:   # the variant that matched goes first
                        self._variants[key] = [plan] + [o for o in others if o is not p]
                        plans[key] = p
                    return out
                # no variant's splits match: record another while there is room (a read that takes a
                # few values, such as a flag, replays each); a signature that keeps diverging stops trying
                if len(others) + 1 < MAX_VARIANTS:
                    variant = True
                else:
                    self._diverged(key, diverged)
                    return _scoped(lambda: self.fn(*args, **kwargs))
        self.trace_count += 1
        self._variant_traces += variant
        if self.trace_count - self._variant_traces > RETRACE_WARNING:
            warnings.warn(f"tf.function '{getattr(self.fn, '__name__', 'fn')}' has been traced {self.trace_count} "
                          f"times: its argument signature (tensor shapes and dtypes, values of other arguments) "
                          f"changes from call to call, so it rarely replays; pass changing numbers as tensors",
                          RuntimeWarning, stacklevel=2)
        result, plan, reason = trace(lambda: self.fn(*args, **kwargs), tensors)
        if variant:
            if plan is None:   # (a variant that broke leaves the others in place)
                self._diverged(key, reason)
            else:
                self._variants[key] = [plans[key]] + self._variants.get(key, [])
                plans[key] = plan
            return result
        plans.pop(key, None)
        plans[key] = plan
        while len(plans) > MAX_PLANS:
            old = next(iter(plans))
            self._drop(old)
            del plans[old]
        if plan is None:
            self.breaks.append((_describe(key), reason))
        elif plan.splits:
            self.breaks.append((_describe(key), f"split at {', '.join(plan.splits)}: replayed while split kernels' "
                                                f"output shapes and values read back are those of the trace"))
        return result

    def _spec(self, args, kwargs, tensors):
        spec = []
        for i, a in enumerate(args):
            if i == 0 and self._instance is not None:
                continue   # the instance: this Function is its own
            name = self._params[i] if i < len(self._params) else f"args[{i}]"
            spec.append(_spec_of(a, name, tensors, self.fn))
        for k in sorted(kwargs):
            spec.append((k, _spec_of(kwargs[k], k, tensors, self.fn)))
        return tuple(spec)

    def _diverged(self, key, why):
        plan = self.plans[key]
        plan.divergences += 1
        if plan.divergences >= MAX_DIVERGENCES:
            traces = 1 + len(self._variants.get(key, ()))
            self._drop(key)
            self.plans[key] = None
            self.breaks.append((_describe(key), f"{why}: {MAX_DIVERGENCES} calls matched none of the signature's "
                                                f"{traces} traces, so the calls run eagerly"))

    def _drop(self, key):
        for p in (self.plans.get(key), *self._variants.pop(key, ())):
            if p is not None:
                p.dispose()

    def dispose(self):
        """Drop the recorded plans (and the constants they hold); the next call traces again."""
        for key in list(self.plans):
            self._drop(key)
        self.plans = {}

    def __repr__(self):
        return f"<tf.function {getattr(self.fn, '__qualname__', self.fn)!r}: {self.trace_count} trace(s)>"


def _spec_of(x, name, tensors, fn):
    if isinstance(x, Variable):
        return ("variable", id(x))
    if isinstance(x, Tensor):
        x.throw_if_disposed(f"function: argument '{name}'")
        tensors.append(x)
        return "tensor"
    if isinstance(x, (list, tuple)):
        return (type(x), tuple(_spec_of(v, name, tensors, fn) for v in x))
    if isinstance(x, dict):
        return (dict, tuple((k, _spec_of(v, name, tensors, fn)) for k, v in x.items()))
    try:
        hash(x)
    except TypeError:
        raise TypeError(f"function {getattr(fn, '__name__', '')}: argument '{name}' must be a tensor, a list, tuple "
                        f"or dict of them, or a hashable Python value (it is part of the signature that picks the "
                        f"recorded plan), got unhashable {type(x).__name__}") from None
    return (type(x), x)


def _scoped(fn):
    """fn() in its own scope, as a trace runs it: only its result survives (a call that would
    have replayed leaves what a replay leaves)."""
    ENGINE.start_scope("function")
    try:
        result = fn()
    except BaseException:
        ENGINE.end_scope(None)
        raise
    ENGINE.end_scope(result)
    return result


def _describe(key):
    backend, _, tensors = key
    return f"{backend}: " + ", ".join(f"{dtype}{list(shape)}" for shape, dtype, _ in tensors)


def function(fn: Optional[Callable] = None, **options: Any) -> Any:
    """Trace a function once per input signature and replay the recorded kernels after
    (`tf.function(fn)` or `@tf.function`).

    The first call with a signature (each tensor argument's shape and dtype, the other
    arguments' values, the backend) runs fn eagerly while recording its kernels; later calls
    with that signature replay them with no op-level Python. Python values read from outside and
    Python side effects are frozen at the trace; variables are read and written at every call.
    Values read back inside fn and value-dependent shapes split the plan: a replay checks them
    against the trace and runs the call eagerly where they differ; `.breaks` names the splits and
    any break. See the pytfweb.core.function module.

    Args:
        fn: the function (None: return a decorator).
        **options: none are accepted (TensorFlow's options raise a TypeError).

    Returns:
        A Function, called as fn (its trace_count counts traces), or a decorator.

    Example:
        >>> @tf.function
        ... def step(x):
        ...     return tf.relu(x * 2 - 1)
        >>> step(tf.tensor([0, 1, 2])).print()
        Tensor
            [0, 1, 3]
        >>> step(tf.tensor([3, 4, 5])).print()   # replayed
        Tensor
            [5, 7, 9]
        >>> step.trace_count
        1
    """
    if options:
        raise TypeError(f"function: unknown option(s) {', '.join(sorted(options))}")
    if fn is None:
        return function
    return Function(fn)
