"""What model.warmup() runs (LayersModel and GraphModel): a model's predict with inputs of zeros, so
that the backend compiles every program of it before the first real predict, which then compiles
nothing (at that input shape).

On webgl the predict runs under the backend's compile_only(): every kernel starts its program's
compile and link in the browser's GPU process without waiting for it and draws nothing, and the
programs are checked once, at the end (TF.js's ENGINE_COMPILE_ONLY; awaited, as GraphModel.warmup_async
is, the check first waits without blocking where the context has KHR_parallel_shader_compile). Nothing is read back: the
outputs mean nothing and are disposed. Tracing is off for the pass (a trace would keep values the
pass never computed); the traced predict that follows runs the same kernels, whose programs are then
in the cache. Backends without compile_only (webgpu, cpu) run the predict once, without a readback:
webgpu's pipelines are compiled by it."""
from .api import dispose, tidy
from .engine import ENGINE
from .environment import ENV
from .engine import tensors_in

_FLAGS = ("TRACE_FUNCTIONS", "TRACE_STEPS")


def program_count(backend=None):
    """How many compiled programs the backend holds (webgl's programs, webgpu's pipelines; 0 on cpu)."""
    backend = backend or ENGINE.backend
    programs = getattr(backend, "programs", None)
    if programs is None:
        device = getattr(backend, "device", None)
        programs = getattr(device, "pipelines", None) if device is not None else None
    return len(programs) if programs is not None else 0


def input_shape(shape, given, name, api):
    """A concrete shape for input `name`: given, else the model's with an unknown batch (the first
    dimension) as 1; another unknown dimension needs the shape given."""
    if given is not None:
        if not isinstance(given, (list, tuple)) or not all(isinstance(d, int) and not isinstance(d, bool) and d > 0
                                                           for d in given):
            raise ValueError(f"{api}: input_shape for input '{name}' must be a list of positive ints, got {given!r}")
        return list(given)
    if shape is None:
        raise ValueError(f"{api}: input '{name}' has no known shape; pass input_shape")
    dims = [1 if (d is None or d < 0) and i == 0 else d for i, d in enumerate(shape)]
    if any(d is None or d < 0 for d in dims):
        raise ValueError(f"{api}: input '{name}' has the shape {list(shape)}, with unknown dimensions beyond the "
                         "batch; pass input_shape with every dimension")
    return dims


def shapes_for(names, shapes, input_shape_arg, api):
    """The concrete shapes of the inputs: input_shape_arg is None, one shape (one input), or a list of
    shapes (one per input)."""
    if input_shape_arg is None:
        given = [None] * len(names)
    elif len(names) == 1 and input_shape_arg and all(isinstance(d, int) for d in input_shape_arg):
        given = [input_shape_arg]
    else:
        given = list(input_shape_arg)
        if len(given) != len(names):
            raise ValueError(f"{api}: the model has {len(names)} inputs {names}; input_shape gives {len(given)} shapes")
    return [input_shape(s, g, n, api) for n, s, g in zip(names, shapes, given)]


def zeros(shape, dtype):
    """Inputs of zeros written from Python (an upload, as a user's input is): ops.zeros would run a fill
    program, one the predict itself does not need."""
    import array
    n = 1
    for d in shape:
        n *= d
    shape = tuple(shape)
    if dtype == "string":
        return ENGINE.make_tensor([""] * n, shape, dtype)
    code = {"int32": "i", "bool": "B"}.get(dtype, "f")
    return ENGINE.make_tensor(array.array(code, bytes(array.array(code).itemsize * n)), shape, dtype)


def compile_run(run):
    """run() (a predict: returns tensors) compiled and not run where the backend can, its outputs
    disposed; the number of programs the backend compiled for it."""
    backend = ENGINE.backend
    before = program_count(backend)
    saved = {f: ENV.get(f) for f in _FLAGS}
    try:
        for f in _FLAGS:
            ENV.set(f, False)
        compile_only = getattr(backend, "compile_only", None)
        if compile_only is not None:
            with compile_only():
                out = tidy(run)
                dispose(list(tensors_in(out)))
        else:
            out = tidy(run)
            dispose(list(tensors_in(out)))
    finally:
        for f, v in saved.items():
            ENV.set(f, v)
    return program_count(backend) - before


async def compile_run_async(run):
    """compile_run for a run that is awaited (graph models with control flow)."""
    backend = ENGINE.backend
    before = program_count(backend)
    saved = {f: ENV.get(f) for f in _FLAGS}
    try:
        for f in _FLAGS:
            ENV.set(f, False)
        compile_only = getattr(backend, "compile_only", None)
        if compile_only is not None:
            with compile_only(finish=False):
                out = await run()
                dispose(list(tensors_in(out)))
            await backend.finish_programs_async()
        else:
            out = await run()
            dispose(list(tensors_in(out)))
    finally:
        for f, v in saved.items():
            ENV.set(f, v)
    return program_count(backend) - before
