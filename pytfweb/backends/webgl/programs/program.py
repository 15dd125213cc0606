class Program:
    """One GPU computation: input variable names (samplers), output shape, GLSL body.

    `key` names the code (not the shapes: the backend adds those), so two programs with the
    same key must have the same user_code and uniforms. Uniforms are (name, 'float'|'int')
    and get their values per run, so attributes that change often do not recompile.

    packed_outputs = n > 0 makes a packed program (programs/gemm.py, run with
    WebGLBackend.run_packed): it writes RGBA texels on the grid output_shape ([rows, columns])
    itself, through outColor, outColor1, ... (n is 1, 4 or 8), for n > 1 into the layers of one
    array texture (a product's blocks, read through a sampler2DArray).

    outputs = n > 1 makes n tensors of output_shape in one draw (WebGLBackend.run_outputs): the
    code writes each value to outColor, outColor1, ... (in .r), not through setOutput.

    shapeless=True: the code reads its inputs' textures itself (texelFetch on the samplers, sizes
    from uniforms) and never calls the getters or getOutputCoords(), so one compile serves every
    shape: the compiler adds only the samplers, and the program cache keys it by `key` alone.
    Each distinct program costs a compile and, on SwiftShader, a JIT at its first draw (together
    ~15 ms): what a model's first run pays per layer shape."""
    __slots__ = ("key", "variable_names", "output_shape", "user_code", "uniforms", "packed_outputs", "shapeless",
                 "outputs")

    def __init__(self, key, variable_names, output_shape, user_code, uniforms=(), packed_outputs=0,
                 shapeless=False, outputs=1):
        self.key = key
        self.variable_names = variable_names
        self.output_shape = tuple(output_shape)
        self.user_code = user_code
        self.uniforms = uniforms
        self.packed_outputs = packed_outputs
        self.shapeless = shapeless
        self.outputs = outputs
