"""The record of a tensor's data (TexData), and textures recycled by physical size and channel
count: a disposed tensor's texture goes to a free list and the next tensor of the same size takes
it, so a steady loop allocates nothing. Tensors use one channel per texel; the packed operands of
the GEMM programs (programs/gemm.py) use four (RGBA), and a product's blocks 4 x their count: one
RGBA array texture of that many layers (a reader fetches any block with one texelFetch)."""
import functools
import math

from ...core.shapes import size_of


class TexData:
    """The backend's record of one tensor's data (WebGLBackend.store): CPU-side values, or its texture."""
    __slots__ = ("shape", "dtype", "values", "texture", "tex_shape", "complex_parts", "channels", "lost")

    def __init__(self, shape, dtype, values=None):
        self.shape, self.dtype, self.values = tuple(shape), dtype, values
        self.texture = None
        self.lost = False   # its values were only in a texture of a lost context
        self.tex_shape = None
        # 4: a packed RGBA operand of the GEMM programs (programs/gemm.py), internal to a kernel;
        # 4n (n > 1): a product's n blocks, the layers of one RGBA array texture (run_packed)
        self.channels = 1
        # complex64 (as TF.js's complexTensorInfos): the DataIds of two float32 data, real and
        # imaginary, owned by this one and freed with it; it has no texture of its own.
        self.complex_parts = None


@functools.lru_cache(maxsize=4096)
def texture_shape(shape, max_size):
    """(width, height) of the 2D texture holding a tensor of this logical shape.

    Rows of the innermost dimension when that fits, else of the innermost few dimensions (a
    [1, 112, 112, 64] image: rows of 112 x 64), so that getters need no division; else of a power
    of two of them; otherwise a squarish rectangle; ValueError when even that exceeds max_size."""
    size = max(size_of(shape), 1)
    if size_of(shape) > 0:
        width = 1
        for d in reversed(shape):
            width *= d
            if width > max_size:
                break
            if size // width <= max_size:
                return (width, size // width)
    # Rows of a power of two of whole innermost dimensions (a [1, 96, 96, 96] image: rows of two
    # pixels of 96 channels), where the rows of one would be too many: a getter then finds a
    # texel with a shift, not a division by a squarish width (shader_compiler.row_units).
    unit = 1
    for d in reversed(shape if size_of(shape) > 0 else ()):
        if unit * d > max_size:
            break
        unit *= d
    k = 1
    while 1 < unit and k * unit <= max_size:
        height = -(-size // (k * unit))
        if height <= max_size:
            return (k * unit, height)
        k *= 2
    width = min(max_size, math.ceil(math.sqrt(size)))
    height = math.ceil(size / width)
    if height > max_size:
        raise ValueError(f"webgl: a tensor of shape {list(shape)} ({size} values) does not fit in a "
                         f"{max_size}x{max_size} texture")
    return (width, height)


class TextureManager:
    def __init__(self, ctx):
        self.ctx = ctx
        self.free = {}          # (w, h, channels) -> [texture, ...]
        self.num_used = 0
        self.num_free = 0
        self.bytes_used = 0
        self.bytes_free = 0

    def nbytes(self, w, h, channels=1):
        return w * h * channels * self.ctx.bytes_per_texel

    def acquire(self, w, h, channels=1):
        pool = self.free.get((w, h, channels))
        nbytes = self.nbytes(w, h, channels)
        if pool:
            tex = pool.pop()
            self.num_free -= 1
            self.bytes_free -= nbytes
        else:
            tex = self.ctx.create_texture(w, h, channels)
        self.num_used += 1
        self.bytes_used += nbytes
        return tex

    def release(self, tex, w, h, channels=1):
        nbytes = self.nbytes(w, h, channels)
        self.free.setdefault((w, h, channels), []).append(tex)
        self.num_used -= 1
        self.bytes_used -= nbytes
        self.num_free += 1
        self.bytes_free += nbytes

    def discard(self, tex, w, h, channels=1):
        """Deletes a texture in use (its data was paged out to the CPU)."""
        self.ctx.delete_texture(tex)
        self.num_used -= 1
        self.bytes_used -= self.nbytes(w, h, channels)

    def drop_free(self, nbytes, keep=None):
        """Deletes free textures, largest first, until at least nbytes are freed or none is left
        (but one of size `keep`: (w, h, channels)); returns the bytes freed."""
        freed = 0
        for key in sorted(self.free, key=lambda k: k[0] * k[1] * k[2], reverse=True):
            pool = self.free[key]
            size = self.nbytes(*key)
            while len(pool) > (key == keep) and freed < nbytes:
                self.ctx.delete_texture(pool.pop())
                self.num_free -= 1
                self.bytes_free -= size
                freed += size
            if not pool:
                del self.free[key]
            if freed >= nbytes:
                break
        return freed

    def dispose(self):
        for pool in self.free.values():
            for tex in pool:
                self.ctx.delete_texture(tex)
        self.free.clear()
        self.num_free = self.bytes_free = 0
