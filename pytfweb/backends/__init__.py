"""Backends register themselves with the engine on import; see register_all()."""


def register_all():
    """Register every backend this platform can offer (cpu needs numpy, webgl a browser)."""
    from ..engine import ENGINE
    from .._numpy import np
    from ..environment import IS_BROWSER
    if np is not None:
        from .cpu import create_backend as create_cpu
        ENGINE.register_backend("cpu", create_cpu, priority=1)
    if IS_BROWSER:
        from .webgl import create_backend as create_webgl
        ENGINE.register_backend("webgl", create_webgl, priority=2)
