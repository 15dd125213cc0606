"""A WebGL2 context for computation: one OffscreenCanvas, a unit quad, one framebuffer,
R32F textures (R16F where float32 rendering is unavailable or forced), program compilation,
uploads and synchronous or fenced asynchronous readback."""
import js
from pyodide.ffi import to_js

from ...core.errors import BackendError
from ...core.package_data import beside
from ..gpu import shader_source
from .shader_compiler import numbered


class ShaderError(RuntimeError):
    """A GLSL compile or link error, with the info log and the numbered source."""


def _early_canvas():
    """The canvas whose WebGL2 context the loader (web/pytfweb.js) made while Pyodide started, taken
    once: a context made after a loss, or a second backend, gets a canvas of its own."""
    canvas = getattr(js.globalThis, "pytfwebEarlyCanvas", None)
    if not canvas:
        return None
    js.Reflect.deleteProperty(js.globalThis, "pytfwebEarlyCanvas")
    return canvas


class GPGPUContext:
    def __init__(self, force_f16=False, max_texture_size=0, max_draw_buffers=0):
        self.open_reads = 0   # read_async_start calls not yet finished or cancelled
        self.canvas = _early_canvas() or js.OffscreenCanvas.new(1, 1)
        attrs = to_js({"alpha": False, "antialias": False, "premultipliedAlpha": False,
                       "preserveDrawingBuffer": False, "depth": False, "stencil": False,
                       "failIfMajorPerformanceCaveat": False}, dict_converter=js.Object.fromEntries)
        gl = self.canvas.getContext("webgl2", attrs)
        # JS null comes as Pyodide's jsnull (falsy, not None): tested by truth, here and below
        if not gl:
            raise BackendError("webgl: this browser gives no WebGL2 context")
        self.gl = gl
        float_render = bool(gl.getExtension("EXT_color_buffer_float"))
        half_render = float_render or bool(gl.getExtension("EXT_color_buffer_half_float"))
        if not half_render:
            raise BackendError("webgl: neither float32 nor float16 textures can be rendered to here")
        self.half_float = bool(force_f16) or not float_render
        # one channel per texel for tensors, four for the GEMM's packed operands
        self.internal_formats = {1: gl.R16F if self.half_float else gl.R32F,
                                 4: gl.RGBA16F if self.half_float else gl.RGBA32F}
        self.bytes_per_texel = 2 if self.half_float else 4   # per channel
        limit = gl.getParameter(gl.MAX_TEXTURE_SIZE)
        self.max_texture_size = min(limit, max_texture_size) if max_texture_size else limit
        info = gl.getExtension("WEBGL_debug_renderer_info")
        self.renderer = str(gl.getParameter(info.UNMASKED_RENDERER_WEBGL if info else gl.RENDERER))
        self.parallel_compile = gl.getExtension("KHR_parallel_shader_compile")
        limit = int(gl.getParameter(gl.MAX_DRAW_BUFFERS))
        self.max_draw_buffers = min(limit, max_draw_buffers) if max_draw_buffers else limit

        gl.disable(gl.DEPTH_TEST)
        gl.disable(gl.STENCIL_TEST)
        gl.disable(gl.BLEND)
        gl.disable(gl.DITHER)
        self.vertex_shader = self._compile(gl.VERTEX_SHADER, shader_source.read("vertex.glsl"))
        quad = js.Float32Array.new(to_js([-1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0, -1.0]))
        self.vao = gl.createVertexArray()
        gl.bindVertexArray(self.vao)
        self.quad = gl.createBuffer()
        gl.bindBuffer(gl.ARRAY_BUFFER, self.quad)
        gl.bufferData(gl.ARRAY_BUFFER, quad, gl.STATIC_DRAW)
        gl.enableVertexAttribArray(0)  # clipSpacePos, bound to location 0 in every program
        gl.vertexAttribPointer(0, 2, gl.FLOAT, False, 0, 0)
        self.fbo = gl.createFramebuffer()
        make_helpers = js.Function.new("return (" + _read_helpers() + "\n)")()
        self.js = make_helpers(gl, self.fbo)

    # --- programs ---------------------------------------------------------------------
    def _compile(self, kind, source):
        gl = self.gl
        shader = gl.createShader(kind)
        gl.shaderSource(shader, source)
        gl.compileShader(shader)
        if not gl.getShaderParameter(shader, gl.COMPILE_STATUS):
            log = gl.getShaderInfoLog(shader)
            gl.deleteShader(shader)
            what = "vertex" if kind == gl.VERTEX_SHADER else "fragment"
            raise ShaderError(f"webgl: {what} shader failed to compile:\n{log}\n{numbered(source)}")
        return shader

    def start_program(self, fragment_source):
        """Compile and link a fragment shader against the quad's vertex shader, asking for no status:
        the browser's GPU process does the work while the caller goes on (a status query waits for
        it). finish_program() checks it. Returns what finish_program takes."""
        gl = self.gl
        fs = gl.createShader(gl.FRAGMENT_SHADER)
        gl.shaderSource(fs, fragment_source)
        gl.compileShader(fs)
        prog = gl.createProgram()
        gl.attachShader(prog, self.vertex_shader)
        gl.attachShader(prog, fs)
        gl.bindAttribLocation(prog, 0, "clipSpacePos")
        gl.linkProgram(prog)
        return prog, fs, fragment_source

    def finish_program(self, started):
        """The linked program of start_program(); waits for it. ShaderError with the compile or link
        log where it failed."""
        prog, fs, source = started
        gl = self.gl
        # One query, the link's: it fails where the compile did, and then the compile's log says why.
        if not gl.getProgramParameter(prog, gl.LINK_STATUS):
            if not gl.getShaderParameter(fs, gl.COMPILE_STATUS):
                log, what = gl.getShaderInfoLog(fs), "fragment shader failed to compile"
            else:
                log, what = gl.getProgramInfoLog(prog), "program failed to link"
            gl.deleteProgram(prog)
            gl.deleteShader(fs)
            raise ShaderError(f"webgl: {what}:\n{log}\n{numbered(source)}")
        gl.deleteShader(fs)
        return prog

    def programs_done(self, started):
        """Whether every started program has finished compiling and linking, asked without waiting:
        KHR_parallel_shader_compile's COMPLETION_STATUS_KHR where the context has it; without it
        there is no asking, only waiting (True: finish_program then waits)."""
        ext = self.parallel_compile
        if not ext:
            return True
        gl, done = self.gl, ext.COMPLETION_STATUS_KHR
        return all(gl.getProgramParameter(prog, done) for prog, _, _ in started)

    def program_handle(self, prog, sampler_names, uniforms):
        """The JS object helpers.draw() takes: program, input count, uniform locations."""
        gl = self.gl
        gl.useProgram(prog)
        for unit, name in enumerate(sampler_names):
            loc = gl.getUniformLocation(prog, name)
            if loc:
                gl.uniform1i(loc, unit)  # sampler i always reads texture unit i
        handle = js.Object.new()
        handle.program = prog
        handle.numInputs = len(sampler_names)
        handle.uniformLocs = to_js([gl.getUniformLocation(prog, n) for n, _ in uniforms])
        handle.uniformTypes = to_js(["float" if t == "float" else "int" for _, t in uniforms])
        return handle

    # --- textures ------------------------------------------------------------------------
    def create_texture(self, width, height, channels=1):
        """A width x height float texture of 1 or 4 channels; channels 4n (n > 1): an RGBA
        TEXTURE_2D_ARRAY of n layers (a product's blocks), marked `layers` for helpers.js, which
        binds it to that target and attaches its layers as the draw's colour attachments."""
        gl = self.gl
        tex = gl.createTexture()
        target = gl.TEXTURE_2D if channels <= 4 else gl.TEXTURE_2D_ARRAY
        gl.bindTexture(target, tex)
        for p in (gl.TEXTURE_WRAP_S, gl.TEXTURE_WRAP_T):
            gl.texParameteri(target, p, gl.CLAMP_TO_EDGE)
        for p in (gl.TEXTURE_MIN_FILTER, gl.TEXTURE_MAG_FILTER):
            gl.texParameteri(target, p, gl.NEAREST)
        if channels <= 4:
            gl.texStorage2D(target, 1, self.internal_formats[channels], width, height)
        else:
            gl.texStorage3D(target, 1, self.internal_formats[4], width, height, channels // 4)
            tex.layers = channels // 4
        gl.bindTexture(target, None)
        return tex

    def delete_texture(self, tex):
        self.gl.deleteTexture(tex)

    def upload(self, tex, width, height, floats):
        """floats: a Python buffer of float32 ('f'), len <= width * height."""
        n = len(floats)
        data = js.Float32Array.new(n)
        data.assign(floats)
        self.js.upload(tex, width, height, data, n != width * height)

    def read_sync(self, tex, width, height, n):
        """The first n values of a texture as a JS Float32Array (blocks until the GPU is done)."""
        return self.js.readSync(tex, width, height, n)

    def read_async_start(self, tex, width, height):
        job = self.js.readAsyncStart(tex, width, height)
        self.open_reads += 1
        return job

    async def read_async_wait(self, job):
        """True once the read's fence has signalled; False if the context was lost (or the
        read cancelled) first. Polled in JS: Python wakes once."""
        return bool(await self.js.readAsyncWait(job))

    def read_async_finish(self, job, n):
        self.open_reads -= 1
        return self.js.readAsyncFinish(job, n)

    def read_async_cancel(self, job):
        self.open_reads -= 1
        self.js.readAsyncCancel(job)

    def draw(self, handle, out_tex, width, height, *args):
        """out_tex: one texture, or a list of them for a program with several outputs. Returns
        True when the context is lost (and the draw did nothing)."""
        if isinstance(out_tex, list):
            out_tex = to_js(out_tex)
        return bool(self.js.draw(handle, out_tex, width, height, *args))

    def lost(self):
        return bool(self.js.isLost())

    def dispose(self):
        ext = self.gl.getExtension("WEBGL_lose_context")
        if ext:
            ext.loseContext()


def _read_helpers():
    return beside(__file__, "helpers.js")
