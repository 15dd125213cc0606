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
    # graph models keep a copy of every node's outputs of the last run (GraphModel.get_intermediate_tensors).
    "KEEP_INTERMEDIATE_TENSORS": False,
}


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

    def reset(self):
        self.flags = dict(_DEFAULTS)


ENV = Environment()


def env():
    return ENV
