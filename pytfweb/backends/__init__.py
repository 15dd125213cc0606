"""Backends register themselves with the engine on import; see register_all()."""


def register_all():
    """Register every backend this platform can offer (cpu needs numpy, webgl a browser, webgpu a
    browser with navigator.gpu).

    Kernels are registered here too, not when a backend is first created, so that
    tf.get_kernel() answers for every registered backend straight after import.

    The imports are here, not at the top, for their load-time cost: importing any module of
    pytfweb.backends (strings, the GPU core) would otherwise load the engine and numpy, and a
    backend is imported only where it can run (cpu needs numpy, webgl and webgpu a browser)."""
    from ..core.engine import ENGINE
    from ..core._numpy import np
    from ..core.environment import IS_BROWSER
    if np is not None:
        from . import cpu
        from .cpu import kernels as _cpu_kernels  # noqa: F401
        ENGINE.register_backend("cpu", cpu.create_backend, priority=1)
    if IS_BROWSER:
        from . import webgl
        from .webgl import programs as _webgl_programs  # noqa: F401
        ENGINE.register_backend("webgl", webgl.create_backend, priority=2)
        from . import webgpu
        if webgpu.available():
            # Above webgl. Its device request is asynchronous: `await tf.ready()` (or, where Python
            # may block on a promise, the first op) requests it; where there is no adapter, or
            # Python cannot wait for the GPU, the engine goes on to webgl (engine.passed_over says why).
            from .webgpu import programs as _webgpu_programs  # noqa: F401
            ENGINE.register_backend("webgpu", webgpu.create_backend, priority=3)
