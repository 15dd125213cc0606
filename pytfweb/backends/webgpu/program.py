"""What every webgpu program module and the backend share, below both (as webgl's
programs/program.py): the Program record, and the sizes and broadcast strides programs index by."""
from ...core.shapes import size_of as _size, strides_of


class Program:
    """A compute shader: `key` names its code exactly (shapes excluded: they are uniforms);
    `source()` builds the WGSL once per key; `uniforms` are the struct's fields ((name, type), ...),
    whose values each run packs (the workgroup size is in the WGSL, the grid in each run)."""
    __slots__ = ("key", "source", "uniforms")

    def __init__(self, key, source, uniforms):
        self.key, self.source, self.uniforms = key, source, uniforms


def broadcast_strides(shape, out_shape):
    """Strides of shape seen at out_shape's rank: 0 along broadcast axes."""
    pad = len(out_shape) - len(shape)
    st = strides_of(shape)
    return [0] * pad + [s if d != 1 else 0 for d, s in zip(shape, st)]


def index_mode(shape, out_shape):
    if tuple(shape) == tuple(out_shape):
        return "same"
    if _size(shape) == 1:
        return "one"
    return "bcast"
