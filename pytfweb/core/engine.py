"""The engine: backends, kernel dispatch, tidy scopes, reference-counted data, memory.

Every op ends in `ENGINE.run_kernel(name, inputs, attrs)`. Tensors are handles; their data
lives in a backend under a DataId that several tensors may share (reshape, clone), counted
here so that the data goes when its last tensor goes.
"""
import inspect
import time
from collections import namedtuple
from types import SimpleNamespace
from typing import Any, Callable, Optional, Union

from ._numpy import np
from .dtypes import BYTES_PER_ELEMENT, string_bytes, upcast
from .environment import ENV
from .errors import BackendError, EngineError, NaNError, TensorConversionError
from ..kernels import STRING_KERNELS, get_kernel
from .shapes import size_of
from ..kernels import get_gradient
from .tape import TapeNode, backpropagate, filter_tape
from .tensor import Tensor, Variable, bind_engine
from .tensor_values import _NP_DTYPES, fill_value


class _Scope:
    __slots__ = ("name", "id", "track")

    def __init__(self, name, scope_id):
        self.name, self.id, self.track = name, scope_id, []


KernelProfile = namedtuple("KernelProfile", "name input_shapes output_shapes kernel_ms bytes_added tensors_added "
                                            "total_bytes_snapshot total_tensors_snapshot")
TimingInfo = namedtuple("TimingInfo", "kernel_ms wall_ms")


class ProfileInfo(SimpleNamespace):
    """What tf.profile returns: new_bytes, new_tensors, peak_bytes, kernels, kernel_names, result."""


class MemoryInfo(SimpleNamespace):
    """What tf.memory() returns: attributes, also readable as a dict."""

    def __getitem__(self, key):
        return getattr(self, key)


class Engine:
    def __init__(self):
        self.registry = {}       # backend name -> (factory, priority)
        self.instances = {}      # backend name -> backend object
        self.backend = None
        self.backend_name = None
        self.passed_over = {}    # backend name -> why the automatic choice passed over it
        self._grad_ops = _GradOps(self)
        self._reset_state()

    def _reset_state(self):
        self.data = {}           # DataId -> [ref count, bytes]
        self.num_tensors = 0
        self.num_bytes = 0
        self.scopes = []
        self.next_scope_id = 0
        self.profiling = None    # list of KernelProfile while tf.profile runs
        self.peak_bytes = 0
        self.registered_variables = {}
        self.next_variable_id = 0
        self.active_tape = None  # list of TapeNode while a gradient is being computed
        self.gradient_depth = 0  # nested gradient computations (they share one tape)
        self.kernel_depth = 0    # > 0 inside a custom-gradient forward: its kernels are not taped
        # recorded plans hold data of this state: dispose_all and reset start a new generation
        self.generation = getattr(self, "generation", 0) + 1
        self.recorder = None     # a core.plan.Recorder while a trace runs: told of every kernel, constant,
        #                          variable write, read back and host step (see core/plan.py)

    # --- backends ------------------------------------------------------------------
    def register_backend(self, name: str, factory: Callable[[], Any], priority: int = 1) -> bool:
        """Register a backend factory under a name (TF.js's registerBackend).

        Args:
            name: the backend's name.
            factory: a function of no argument returning the backend object.
            priority: when no backend is set, the highest priority that initialises is chosen.

        Returns:
            True, or False if the name is already registered (the registration is then unchanged).

        Example:
            >>> tf.register_backend("cpu", lambda: None)
            False
        """
        if name in self.registry:
            return False
        self.registry[name] = (factory, priority)
        return True

    def remove_backend(self, name: str) -> None:
        """Unregister a backend, disposing its instance if it was made.

        Args:
            name: the backend's registered name.

        Raises:
            BackendError: no backend of that name is registered.

        Example:
            >>> tf.register_backend("spare", tf.find_backend_factory("cpu"))
            True
            >>> tf.remove_backend("spare")
            >>> tf.find_backend("spare") is None
            True
        """
        if name not in self.registry:
            raise BackendError(f"remove_backend: backend '{name}' is not registered")
        inst = self.instances.pop(name, None)
        if inst is not None:
            inst.dispose()
        del self.registry[name]
        if self.backend_name == name:
            self.backend = self.backend_name = None

    def find_backend(self, name: str) -> Any:
        """The backend object registered under name (initialising it if needed), or None.

        Args:
            name: the backend's registered name.

        Returns:
            The backend object, or None if no backend of that name is registered.

        Example:
            >>> tf.find_backend("cpu").name
            'cpu'
        """
        if name not in self.registry:
            return None
        return self._instance(name)

    def find_backend_factory(self, name: str) -> Optional[Callable[[], Any]]:
        """The factory registered under name, or None.

        Args:
            name: the backend's registered name.

        Returns:
            The factory function, or None.

        Example:
            >>> callable(tf.find_backend_factory("cpu"))
            True
        """
        entry = self.registry.get(name)
        return entry[0] if entry else None

    def _instance(self, name):
        inst = self.instances.get(name)
        if inst is None:
            if name not in self.registry:
                raise BackendError(f"Backend '{name}' is not registered; registered backends: "
                                   f"{', '.join(sorted(self.registry)) or 'none'}")
            factory = self.registry[name][0]
            try:
                inst = factory()
            except BackendError:
                raise
            except Exception as exc:
                raise BackendError(f"Backend '{name}' failed to initialise: {exc}") from exc
            self.instances[name] = inst
        return inst

    def set_backend(self, name: str) -> bool:
        """Make a registered backend the active one; new tensors are made there, and existing ones
        move to it when used.

        Args:
            name: a registered backend's name: 'cpu' (numpy), 'webgl' or 'webgpu' (in the browser).

        Returns:
            True.

        Raises:
            BackendError: no backend of that name is registered, or it fails to initialise.

        Example:
            >>> tf.set_backend("cpu")
            True
            >>> tf.get_backend()
            'cpu'
        """
        self.backend = self._instance(name)
        self.backend_name = name
        return True

    def get_backend(self) -> str:
        """The registered name of the active backend (initialising the best one if none is).

        Returns:
            The name, such as 'cpu', 'webgl' or 'webgpu'.

        Example:
            >>> tf.set_backend("cpu")
            True
            >>> tf.get_backend()
            'cpu'
        """
        self._active()
        return self.backend_name

    def _active(self):
        if self.backend is None:
            self._init_best()
        return self.backend

    def _by_priority(self):
        return [name for name, _ in sorted(self.registry.items(), key=lambda kv: -kv[1][1])]

    def _init_best(self):
        """Without `await tf.ready()`: the best backend that can initialise synchronously (webgpu
        only where Python may block on its device request)."""
        errors = {}
        for name in self._by_priority():
            try:
                init = getattr(self._instance(name), "ready_sync", None)
                if init is not None:
                    init(automatic=True)
                self.set_backend(name)
                self.passed_over = errors
                return
            except BackendError as exc:
                errors[name] = str(exc)
        raise BackendError("No backend could be initialised: " +
                           ("; ".join(errors.values()) or "none registered"))

    async def ready(self) -> None:
        """Finish the active backend's initialisation, or choose the best backend that initialises
        (awaited; why each higher one was passed over is kept in the engine's `passed_over`, name ->
        message).

        Example:
            >>> import asyncio
            >>> asyncio.run(tf.ready())
            >>> tf.get_backend()
            'cpu'
        """
        if self.backend is not None:
            init = getattr(self.backend, "ready", None)
            if init is not None:
                await init()
            return
        errors = {}
        for name in self._by_priority():
            try:
                init = getattr(self._instance(name), "ready", None)
                if init is not None:
                    await init(automatic=True)
                self.set_backend(name)
                self.passed_over = errors
                return
            except BackendError as exc:
                errors[name] = str(exc)
        raise BackendError("No backend could be initialised: " +
                           ("; ".join(errors.values()) or "none registered"))

    # --- tensors and data ------------------------------------------------------------
    def make_tensor(self, values, shape, dtype):
        """A new tensor on the active backend from a flat buffer."""
        backend = self._active()
        t = self._track(Tensor(backend.write(values, shape, dtype), shape, dtype))
        if self.recorder is not None:
            self.recorder.constant(t)
        return t

    def run_host(self, name, fn, inputs):
        """fn(*inputs) -> Tensor or list of Tensors, computed on the host from new draws (the random
        ops): a trace records it as a host step that runs fn again on every replay, where its
        values would otherwise be frozen as a constant."""
        rec = self.recorder
        if rec is None:
            return fn(*inputs)
        self.recorder = None
        try:
            out = fn(*inputs)
        finally:
            self.recorder = rec
        rec.host(name, fn, inputs, out if isinstance(out, (list, tuple)) else [out])
        return out

    def _track(self, t, scoped=True):
        ref = self.data.get(t.data_id)
        if ref is None:
            if t.dtype == "string":  # no fixed size: the values' UTF-8 bytes, as TF.js counts them
                nbytes = string_bytes(t.data_id.backend.read_sync(t.data_id))
            else:
                nbytes = size_of(t.shape) * BYTES_PER_ELEMENT[t.dtype]
            self.data[t.data_id] = [1, nbytes]
            self.num_bytes += nbytes
        else:
            ref[0] += 1
        self.num_tensors += 1
        if scoped and self.scopes:
            scope = self.scopes[-1]
            t.scope_id = scope.id
            scope.track.append(t)
        return t

    def _dec_ref(self, data_id):
        ref = self.data[data_id]
        ref[0] -= 1
        if ref[0] == 0:
            del self.data[data_id]
            self.num_bytes -= ref[1]
            data_id.backend.dispose_data(data_id)

    def dispose_tensor(self, t):
        if t.is_disposed_internal:
            return
        t.is_disposed_internal = True
        self.num_tensors -= 1
        if isinstance(t, Variable):
            self.registered_variables.pop(t.name, None)
        self._dec_ref(t.data_id)

    def make_variable(self, initial, trainable=True, name=None):
        if name is None:
            while str(self.next_variable_id) in self.registered_variables:  # a user took the name
                self.next_variable_id += 1
            name = str(self.next_variable_id)
            self.next_variable_id += 1
        if name in self.registered_variables:
            raise ValueError(f"variable: a variable named '{name}' already exists")
        initial.data_id.backend.settle(initial.data_id)
        v = self._track(Variable(initial, trainable, name), scoped=False)
        self.registered_variables[name] = v
        return v

    def assign_data(self, var, new_value):
        if self.recorder is not None:
            self.recorder.assign(var, new_value)
        new_value.data_id.backend.settle(new_value.data_id)
        old = var.data_id
        self.data[new_value.data_id][0] += 1
        var.data_id = new_value.data_id
        self._dec_ref(old)

    def _on_backend(self, t, backend):
        """Move t's data to backend if it lives elsewhere (all tensors sharing it follow)."""
        d = t.data_id
        if d.backend is not backend:
            old = d.backend
            values = old.read_sync(d)
            old.dispose_data(d)
            backend.write(values, t.shape, t.dtype, data_id=d)

    def read_sync(self, t):
        values = t.data_id.backend.read_sync(t.data_id)
        if self.recorder is not None:
            self.recorder.read(t, values)
        return values

    async def read(self, t):
        values = await t.data_id.backend.read(t.data_id)
        if self.recorder is not None:
            self.recorder.read(t, values)
        return values

    def read_numpy(self, t, shared=False):
        """t's values as a new ndarray; shared=True: the backend's own array, read-only, where it
        keeps one (cpu: DLPack export shares it), else None."""
        out = self._read_numpy(t, shared)
        if self.recorder is not None and out is not None:
            self.recorder.read(t, out)
        return out

    def _read_numpy(self, t, shared):
        backend = t.data_id.backend
        if shared:
            reader = getattr(backend, "shared_numpy", None)
            return None if reader is None else reader(t.data_id).reshape(t.shape)
        reader = getattr(backend, "read_numpy", None)
        if reader is not None:
            return reader(t.data_id).reshape(t.shape)
        # A copy: a backend may hand out the buffer it keeps (webgl keeps what it read back).
        if t.dtype == "complex64":   # (read back as interleaved float32 [re, im, ...])
            return np.array(backend.read_sync(t.data_id), dtype=np.float32).view(np.complex64).reshape(t.shape)
        return np.array(backend.read_sync(t.data_id), dtype=_NP_DTYPES[t.dtype]).reshape(t.shape)

    # --- kernels -----------------------------------------------------------------------
    def run_kernel(self, name, inputs, attrs=None):
        """Run kernel `name` on the active backend; returns a Tensor or a list of Tensors."""
        backend = self.backend
        if backend is None:
            backend = self._active()
        for t in inputs:
            if t.is_disposed_internal:
                t.throw_if_disposed(name)
            if t.dtype == "string" and name not in STRING_KERNELS:
                raise TypeError(f"{name}: does not take string tensors (an input has dtype string); strings go "
                                f"only to the tf.string ops and to ops that move values (reshape, slice, "
                                f"gather, concat, stack, tile, transpose, reverse)")
            if t.data_id.backend is not backend:
                self._on_backend(t, backend)
        # Kernels are registered under the name a backend was registered with (as in TF.js).
        fn = get_kernel(name, self.backend_name)
        if fn is None:
            hint = getattr(backend, "missing_kernel_hint", "")   # what to do instead (webgpu says)
            raise NotImplementedError(f"Kernel '{name}' is not implemented on backend '{self.backend_name}'"
                                      + (f": {hint}" if hint else ""))
        attrs = attrs or {}
        if self.profiling is not None:
            outputs, many = self._run_profiled(name, fn, backend, inputs, attrs)
        elif ENV.flags["DEBUG"]:
            start = time.perf_counter()
            out = fn(backend, inputs, attrs)
            many = isinstance(out, list)
            outputs = [self._track(Tensor(i.data_id, tuple(i.shape), i.dtype)) for i in (out if many else [out])]
            self._debug_check(name, outputs, start)
        else:
            out = fn(backend, inputs, attrs)
            many = isinstance(out, list)
            outputs = [self._track(Tensor(i.data_id, tuple(i.shape), i.dtype)) for i in (out if many else [out])]
        if self.recorder is not None:
            self.recorder.kernel(name, fn, inputs, attrs, outputs)
        if self.active_tape is not None and self.kernel_depth == 0:
            self.active_tape.append(TapeNode(name, inputs, outputs, attrs, get_gradient(name), self._save))
        return outputs if many else outputs[0]

    # --- gradients -------------------------------------------------------------------------
    def _save(self, t):
        """A kept reference sharing t's data, outside every scope, for the tape. It has t's id:
        to the tape it is t, so that what a gradient computes from it is connected to t (a
        gradient of a gradient) and it survives t being disposed."""
        ref = Tensor(t.data_id, t.shape, t.dtype)
        ref.id = t.id
        ref.kept = True
        return self._track(ref, scoped=False)

    def gradients(self, f, xs, dy=None, allow_no_gradients=False):
        """(y, [dy/dx for x in xs]) for y = f(); a gradient is None where y does not depend on x
        (allowed only with allow_no_gradients). Everything else made on the way is disposed."""
        if self.gradient_depth == 0:
            self.active_tape = []
        self.gradient_depth += 1
        try:
            return self._run_tidy("gradients", self._gradients, (f, xs, dy, allow_no_gradients), {})
        finally:
            self.gradient_depth -= 1
            if self.gradient_depth == 0:
                for node in self.active_tape:
                    for t in node.saved():
                        self.dispose_tensor(t)
                self.active_tape = None

    def _gradients(self, f, xs, dy, allow_no_gradients):
        y = f()
        if not isinstance(y, Tensor):
            raise TypeError(f"gradients: the function must return a Tensor, got {type(y).__name__}")
        filtered = filter_tape(self.active_tape, xs, y)
        if not filtered and xs and not allow_no_gradients and not any(x.id == y.id for x in xs):
            raise ValueError("Cannot compute gradient of y=f(x) with respect to x. Make sure that the f "
                             "you passed encloses all operations that lead from x to y.")

        def backward():
            grads = {y.id: dy if dy is not None else self._grad_ops.fill(y.shape, 1, "float32")}
            backpropagate(filtered, grads, self._grad_ops, lambda fn: self._run_tidy("gradient", fn, (), {}))
            # A gradient may be the caller's dy itself (an identity on the way): hand back a new
            # handle, so that disposing one does not dispose the other.
            return [self._grad_ops.clone(g) if g is dy and g is not None else grads.get(x.id)
                    for x, g in ((x, grads.get(x.id)) for x in xs)]
        return y, self._run_tidy("backward", backward, (), {})

    def run_custom_gradient(self, forward, inputs, grad_fn):
        """Run forward() (its kernels untaped) and tape it as one node whose gradient is
        grad_fn(dy, node). forward returns (outputs, tensors to save)."""
        self.kernel_depth += 1
        try:
            outputs, to_save = forward()
        finally:
            self.kernel_depth -= 1
        if self.active_tape is not None and self.kernel_depth == 0:
            node = TapeNode("CustomGradient", inputs, outputs, {}, None, self._save)
            node.grad_fn = grad_fn
            node.x = [self._save(t) for t in to_save]
            self.active_tape.append(node)
        return outputs

    def _run_profiled(self, name, fn, backend, inputs, attrs):
        """Run a kernel timed to completion (the backend is synced before and after, so the time
        is the kernel's own work, GPU included) and record it for tf.profile / tf.time."""
        bytes_before, tensors_before = self.num_bytes, self.num_tensors
        backend.sync()
        start = time.perf_counter()
        out = fn(backend, inputs, attrs)
        backend.sync()
        ms = (time.perf_counter() - start) * 1000
        many = isinstance(out, list)
        outputs = [self._track(Tensor(i.data_id, tuple(i.shape), i.dtype)) for i in (out if many else [out])]
        self.profiling.append(KernelProfile(
            name, [list(t.shape) for t in inputs], [list(t.shape) for t in outputs], ms,
            self.num_bytes - bytes_before, self.num_tensors - tensors_before, self.num_bytes, self.num_tensors))
        self.peak_bytes = max(self.peak_bytes, self.num_bytes)
        return outputs, many

    async def profile(self, f: Callable[[], Any]) -> ProfileInfo:
        """Run f (sync or async) and report what its kernels did (TF.js's tf.profile; awaited).

        Args:
            f: the function to run.

        Returns:
            A ProfileInfo: new_bytes, new_tensors, peak_bytes, kernels (each kernel's name, input and
            output shapes, kernel_ms, bytes_added, ...), kernel_names and result (what f returned).

        Raises:
            EngineError: a profile is already running (profiles do not nest).

        Example:
            >>> import asyncio
            >>> info = asyncio.run(tf.profile(lambda: tf.add(tf.tensor([1, 2]), 1)))
            >>> info.kernel_names, info.new_tensors
            (['Add'], 2)
        """
        if self.profiling is not None:
            raise EngineError("profile: profiling is already running (profiles do not nest)")
        bytes_before, tensors_before = self.num_bytes, self.num_tensors
        self.profiling, self.peak_bytes = [], self.num_bytes
        try:
            result = f()
            if inspect.isawaitable(result):
                result = await result
        finally:
            kernels, self.profiling = self.profiling, None
        return ProfileInfo(new_bytes=self.num_bytes - bytes_before, new_tensors=self.num_tensors - tensors_before,
                           peak_bytes=self.peak_bytes, kernels=kernels,
                           kernel_names=sorted({k.name for k in kernels}), result=result)

    async def time(self, f: Callable[[], Any]) -> TimingInfo:
        """Time f (TF.js's tf.time; awaited): wall_ms until its GPU work is done, and kernel_ms, the
        sum of its kernels' own times (each timed to completion, so wall_ms includes that syncing).

        Args:
            f: the function to time.

        Returns:
            A TimingInfo named tuple (kernel_ms, wall_ms).

        Example:
            >>> import asyncio
            >>> timing = asyncio.run(tf.time(lambda: tf.square(tf.ones([8]))))
            >>> timing.wall_ms >= timing.kernel_ms >= 0
            True
        """
        start = time.perf_counter()
        info = await self.profile(f)
        self._active().sync()
        wall = (time.perf_counter() - start) * 1000
        return TimingInfo(kernel_ms=sum(k.kernel_ms for k in info.kernels), wall_ms=wall)

    def _debug_check(self, name, outputs, start):
        # Reading the outputs back also waits for the GPU, so the time includes the kernel's work.
        values = [self.read_sync(t) for t in outputs]
        ms = (time.perf_counter() - start) * 1000
        for t in outputs:
            print(f"{name}\t{ms:.3f} ms\tshape {list(t.shape)}\tsize {t.size}\tdtype {t.dtype}")
        for t, vals in zip(outputs, values):
            if t.dtype == "float32" and any(v != v for v in vals):
                for o in outputs:
                    self.dispose_tensor(o)
                raise NaNError(f"The result of the '{name}' kernel is NaN (output shape {list(t.shape)})")

    # --- scopes --------------------------------------------------------------------------
    def start_scope(self, name=None):
        self.scopes.append(_Scope(name, self.next_scope_id))
        self.next_scope_id += 1

    def end_scope(self, result=None):
        scope = self.scopes.pop()
        # (one tensor, what most ops return, without walking a container)
        results = [result] if isinstance(result, Tensor) else tensors_in(result)
        keep = {id(t) for t in results}
        for t in scope.track:
            if not t.kept and id(t) not in keep:
                self.dispose_tensor(t)
        if self.scopes:
            parent = self.scopes[-1]
            for t in results:
                if not t.kept and t.scope_id == scope.id and not t.is_disposed_internal:
                    t.scope_id = parent.id
                    parent.track.append(t)

    def tidy(self, name_or_fn: Union[str, Callable, None] = None, fn: Optional[Callable] = None) -> Any:
        """Run fn and dispose every tensor it made except those it returns (and kept ones).

        Also a decorator: `@tf.tidy` (or `@tf.tidy("name")`) tidies every call of the function. fn
        must not be async.

        Args:
            name_or_fn: the function to run, or a name for the scope (then fn is the function).
            fn: the function to run when a name is given first (None: return a decorator).

        Returns:
            What fn returns (tensors in it survive the scope), or a decorator.

        Example:
            >>> x = tf.tensor([1, 2, 3])
            >>> y = tf.tidy(lambda: tf.square(x).add(1))
            >>> y.print()
            Tensor
                [2, 5, 10]
            >>> tf.memory().num_tensors   # x and y: the square was disposed
            2
        """
        if callable(name_or_fn):
            name, fn = None, name_or_fn
        else:
            name = name_or_fn
        if fn is None:
            return lambda f: _tidy_wrapper(self, name, f)
        if _needs_arguments(fn):
            return _tidy_wrapper(self, name, fn)
        return self._run_tidy(name, fn, (), {})

    def _run_tidy(self, name, fn, args, kwargs):
        self.start_scope(name)
        try:
            result = fn(*args, **kwargs)
        except BaseException:
            self.end_scope(None)
            raise
        if not isinstance(result, Tensor) and inspect.isawaitable(result):
            self.end_scope(None)
            if hasattr(result, "close"):
                result.close()  # never awaited: close it rather than leave a warning behind
            raise EngineError("tidy: the function must not be async (it returned an awaitable); "
                              "await outside tidy and tidy the synchronous parts")
        self.end_scope(result)
        return result

    def keep(self, t: Tensor) -> Tensor:
        """Mark a tensor so that the enclosing tf.tidy does not dispose it.

        Args:
            t: the tensor.

        Returns:
            t.

        Example:
            >>> kept = []
            >>> tf.tidy(lambda: kept.append(tf.keep(tf.ones([2]))))
            >>> kept[0].is_disposed
            False
        """
        if not isinstance(t, Tensor):
            raise TypeError(f"keep: argument 'result' must be a Tensor, got {type(t).__name__}")
        t.kept = True
        return t

    def dispose(self, container: Any) -> None:
        """Dispose every tensor in a tensor or a nested list, tuple, dict or set of them.

        Args:
            container: a Tensor, or a container holding tensors (other values are ignored).

        Example:
            >>> a, b = tf.ones([2]), tf.zeros([3])
            >>> tf.dispose([a, {"b": b}])
            >>> a.is_disposed, b.is_disposed
            (True, True)
        """
        for t in tensors_in(container):
            self.dispose_tensor(t)

    def memory(self) -> MemoryInfo:
        """What the engine and the active backend hold.

        Returns:
            A MemoryInfo with num_tensors, num_data_buffers, num_bytes, unreliable, and the fields the
            backend adds (webgl: num_bytes_in_gpu, ...).

        Example:
            >>> x = tf.ones([4])
            >>> tf.memory().num_tensors, tf.memory().num_bytes
            (1, 16)
        """
        info = MemoryInfo(num_tensors=self.num_tensors, num_data_buffers=len(self.data),
                          num_bytes=self.num_bytes, unreliable=False)
        backend = self._active()
        for k, v in backend.memory().items():
            setattr(info, k, v)
        return info

    def dispose_variables(self) -> None:
        """Dispose every registered Variable.

        Example:
            >>> v = tf.variable(tf.ones([2]))
            >>> tf.dispose_variables()
            >>> v.is_disposed
            True
        """
        for v in list(self.registered_variables.values()):
            self.dispose_tensor(v)

    def dispose_all(self):
        """Dispose every tensor and variable and leave no scope open; backends (and a webgl
        context with its compiled programs) stay. For test harnesses and REPL resets."""
        for data_id in list(self.data):
            data_id.backend.dispose_data(data_id)
        self._reset_state()

    def reset(self):
        """Dispose everything: backends, tensors, variables. Registered backends stay."""
        for inst in self.instances.values():
            inst.dispose()
        self.instances = {}
        self.backend = self.backend_name = None
        self._reset_state()


class _GradOps:
    """What backpropagation needs to seed, fill in, convert and sum gradients, as kernel runs
    (the engine sits below ops): the kernels tf.ones / tf.zeros, tf.cast, tf.clone and tf.add
    run for these same-shape operands."""

    def __init__(self, engine):
        self.engine = engine

    def fill(self, shape, value, dtype):
        if dtype == "string":
            raise TypeError("zeros: a string tensor is filled with a str, got int")
        return self.engine.run_kernel("Fill", [], {"shape": tuple(shape), "value": fill_value(value, dtype, "fill"),
                                                   "dtype": dtype})

    def zeros(self, shape, dtype):
        return self.fill(shape, 0, dtype)

    def clone(self, x):
        return self.engine.run_kernel("Identity", [x])

    def cast(self, x, dtype):
        if x.dtype == dtype:
            return self.engine.run_kernel("Identity", [x])
        if "string" in (dtype, x.dtype):
            raise TypeError(f"cast: cannot cast {x.dtype} to {dtype}: only strings can be cast to strings")
        return self.engine.run_kernel("Cast", [x], {"dtype": dtype})

    def add(self, a, b):
        """a + b for two gradients of one shape (float32 or complex64; a mixed pair is summed
        as complex64, as tf.add upcasts)."""
        if a.dtype == b.dtype:
            return self.engine.run_kernel("Add", [a, b])
        dtype = upcast(a.dtype, b.dtype)
        ca = a if a.dtype == dtype else self.cast(a, dtype)
        cb = b if b.dtype == dtype else self.cast(b, dtype)
        try:
            return self.engine.run_kernel("Add", [ca, cb])
        finally:
            self.engine.dispose([t for t in (ca, cb) if t is not a and t is not b])


def op(fn: Callable) -> Callable:
    """Decorator for ops, as TF.js's op(): fn runs in its own scope, so tensors it makes from
    Python values and its intermediates are disposed when it returns or raises; only its result
    survives (moved to the caller's scope).

    Args:
        fn: the op's function.

    Returns:
        The wrapped function (same name, signature and docstring).

    Example:
        >>> @tf.op
        ... def double_plus_one(x):
        ...     return tf.add(tf.mul(x, 2), 1)
        >>> double_plus_one(tf.tensor([1, 2])).print()
        Tensor
            [3, 5]
        >>> tf.memory().num_tensors   # the input, its result; the intermediates were disposed
        2
    """
    import functools

    @functools.wraps(fn)
    def wrapped(*args, **kwargs):
        try:
            return ENGINE._run_tidy(fn.__name__, fn, args, kwargs)
        except TensorConversionError as exc:   # a tensor where a number was expected: name op and argument
            arg = _argument_holding(fn, args, kwargs, exc.tensor)
            where = f"argument '{arg}' must not be a tensor of this shape or dtype here" if arg else \
                "a tensor was given where a Python value was expected"
            raise TypeError(f"{fn.__name__}: {where} ({exc})") from exc
    return wrapped


def _argument_holding(fn, args, kwargs, tensor):
    """The name of fn's parameter whose value is tensor or holds it (in a list or tuple)."""
    try:
        bound = inspect.signature(fn).bind_partial(*args, **kwargs).arguments
    except (TypeError, ValueError):
        return None
    for name, value in bound.items():
        if value is tensor or (isinstance(value, (list, tuple)) and any(v is tensor for v in value)):
            return name
    return None


def _needs_arguments(fn):
    code = getattr(fn, "__code__", None)
    if code is not None and type(fn).__name__ == "function":
        # A plain function or lambda (what tidy is mostly given, once per call): its code object
        # answers in a few attribute reads, where inspect.signature takes ~100 us in Pyodide.
        required = code.co_argcount - len(fn.__defaults__ or ())
        kw_required = code.co_kwonlyargcount - len(fn.__kwdefaults__ or {})
        return required > 0 or kw_required > 0
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return False
    return any(p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
               for p in sig.parameters.values())


def _tidy_wrapper(engine, name, fn):
    import functools

    @functools.wraps(fn)
    def wrapped(*args, **kwargs):
        return engine._run_tidy(name or fn.__name__, fn, args, kwargs)
    return wrapped


def tensors_in(container):
    """Every Tensor inside a tensor, list, tuple, dict or set (recursively)."""
    out = []
    _collect(container, out, set())
    return out


def _collect(x, out, seen):
    """Depth first, in order, with a stack rather than recursion (a container nested thousands
    deep, or holding itself, is walked once without a RecursionError)."""
    stack, walked = [x], set()
    while stack:
        x = stack.pop()
        if isinstance(x, Tensor):
            if id(x) not in seen:
                seen.add(id(x))
                out.append(x)
        elif isinstance(x, (list, tuple, set, frozenset, dict)) and id(x) not in walked:
            walked.add(id(x))
            stack.extend(reversed(list(x.values() if isinstance(x, dict) else x)))


ENGINE = Engine()
bind_engine(ENGINE)
