"""Feature flags, as TF.js's `tf.env()`: named values with defaults, settable at run time."""
import sys

IS_BROWSER = sys.platform == "emscripten"

_DEFAULTS = {
    "DEBUG": False,
    "PROD": False,
    "IS_BROWSER": IS_BROWSER,
    # webgl: render into half-float textures even where float32 rendering works (tests the fallback).
    "WEBGL_FORCE_F16_TEXTURES": False,
    # webgl: the largest texture side to use, 0 for the context's MAX_TEXTURE_SIZE (tests the tiling limit).
    "WEBGL_MAX_TEXTURE_SIZE": 0,
    # webgl: the most render targets one draw may use, 0 for the context's MAX_DRAW_BUFFERS (the packed
    # GEMM computes 8 rows per fragment with 8, 4 with 4, and is off below; tests the fallbacks).
    "WEBGL_MAX_DRAW_BUFFERS": 0,
    # webgl: a budget for the bytes of textures (in use and recycled), 0 for none: above it recycled
    # textures are deleted and least-recently-used data is paged out to the CPU (read back), to be
    # uploaded again when used.
    "WEBGL_MAX_GPU_BYTES": 0,
    # webgl: elementwise ops are recorded and drawn as one fused program when their values are
    # needed (backends/webgl/programs/fusion.py); off: one draw per op.
    "WEBGL_FUSION": True,
    # webgpu: likewise, elementwise ops are recorded and dispatched as one generated compute shader
    # when their values are needed (backends/webgpu/programs/fusion.py); off: one dispatch per op.
    "WEBGPU_FUSION": True,
    # tf.deprecation_warn warns while this is on (tf.disable_deprecation_warnings turns it off).
    "DEPRECATION_WARNINGS_ENABLED": True,
    # tf.function records what a function runs on its first call with a signature and replays the record
    # on later calls; graph models replay the kernels of a static graph the same way (core/plan.py).
    # Off: every call runs eagerly.
    "TRACE_FUNCTIONS": True,
    # Layers models run their per-batch step (fit, train_on_batch, evaluate, test_on_batch, predict,
    # predict_on_batch) through tf.function (layers/training.py); off (or compile(..., jit_compile=False)):
    # eagerly. TRACE_FUNCTIONS off turns these off too.
    "TRACE_STEPS": True,
    # A replayed plan runs through its backend's runner where the backend has one (webgl: all draws
    # in one JavaScript call; Backend.plan_runner); off: step by step, each kernel from Python.
    "PLAN_RUNNERS": True,
    # A replayed plan of elementwise kernels whose values are all small (fewer elements than the threshold)
    # and whose inputs are CPU-side runs as one JavaScript function on the CPU, its outputs CPU-side
    # (backends/gpu/cpu_forward_runner.py): TF.js's flags and thresholds for forwarding small kernels.
    "WEBGL_CPU_FORWARD": True,
    "CPU_HANDOFF_SIZE_THRESHOLD": 128,
    "WEBGPU_CPU_FORWARD": True,
    "WEBGPU_CPU_HANDOFF_SIZE_THRESHOLD": 1000,
    # graph models keep a copy of every node's outputs of the last run (GraphModel.get_intermediate_tensors).
    "KEEP_INTERMEDIATE_TENSORS": False,
    # Limits on what files and arguments may make the process allocate or recurse into (pytfweb/core/limits.py;
    # README, "Loading files you did not make"). Creation ops (fill, zeros, random, initializers) refuse a
    # shape above MAX_TENSOR_ELEMENTS before allocating; a model built from a file or config refuses more
    # than MAX_MODEL_PARAMETERS weights in all; JSON files and nested lists deeper than MAX_NESTING_DEPTH
    # are refused with a ValueError (never a RecursionError).
    "MAX_TENSOR_ELEMENTS": 1 << 30,
    "MAX_MODEL_PARAMETERS": 1 << 30,
    "MAX_NESTING_DEPTH": 100,
    # The most bytes one member of a Keras archive may inflate to, whatever its header says (the weights
    # member is held to the model's declared weight bytes plus a margin, and never more than this); also
    # the most a weights group holding strings (whose size a manifest cannot declare) may take.
    "MAX_ARCHIVE_MEMBER_BYTES": 1 << 31,
    # The most bytes a model.json (or another JSON file a loader reads) may hold.
    "MAX_JSON_BYTES": 1 << 28,
    # Seconds an http load may wait to connect and between bytes read (request_init's "timeout" overrides).
    "HTTP_TIMEOUT_SECONDS": 60.0,
}

# backend -> (flag turning CPU forwarding on, flag of its size threshold): TF.js's names per backend
CPU_FORWARD_FLAGS = {"webgl": ("WEBGL_CPU_FORWARD", "CPU_HANDOFF_SIZE_THRESHOLD"),
                     "webgpu": ("WEBGPU_CPU_FORWARD", "WEBGPU_CPU_HANDOFF_SIZE_THRESHOLD")}


class Environment:
    def __init__(self):
        self.flags = dict(_DEFAULTS)

    def get(self, name):
        if name not in self.flags:
            raise ValueError(f"env.get: unknown flag '{name}'; known flags: {', '.join(sorted(self.flags))}")
        return self.flags[name]

    def set(self, name, value):
        if name not in self.flags:
            raise ValueError(f"env.set: unknown flag '{name}'; known flags: {', '.join(sorted(self.flags))}")
        self.flags[name] = value

    def get_bool(self, name):
        return bool(self.get(name))

    def cpu_forward(self, backend_name, size):
        """Whether a value of `size` elements on that backend is small enough to be computed on
        the CPU (CPU_FORWARD_FLAGS; never on backends without such flags)."""
        flags = CPU_FORWARD_FLAGS.get(backend_name)
        return flags is not None and bool(self.flags[flags[0]]) and size < self.flags[flags[1]]

    def reset(self):
        self.flags = dict(_DEFAULTS)


ENV = Environment()


def env() -> "Environment":
    """The environment: pytfweb's flags (TF.js's tf.env()).

    Returns:
        The Environment: get(name), set(name, value), reset(), and flags (a dict). Flags include
        DEBUG, PROD, TRACE_FUNCTIONS, TRACE_STEPS, WEBGL_FORCE_F16_TEXTURES, ...

    Example:
        >>> tf.env().get("DEBUG")
        False
        >>> tf.env().set("TRACE_FUNCTIONS", False)
        >>> tf.env().reset()
    """
    return ENV
