// Prepended to every fragment shader after the version and precision lines.
// Programs work in logical coordinates; the compiler adds the samplers and getters.

#define NAN uintBitsToFloat(0x7fc00000u)
#define INFINITY uintBitsToFloat(0x7f800000u)

// A NaN test the compiler cannot fold away (some drivers optimise isnan(x) to false).
bool isNaN(float v) {
  return (floatBitsToUint(v) & 0x7fffffffu) > 0x7f800000u;
}

// int32 values travel as floats; recover them exactly.
// (round, not int(v + 0.5): past 2^23, v + 0.5 is not a float and rounds to the next even value)
int toInt(float v) {
  return int(round(v));
}

// Coordinates of rank 5 and 6 (GLSL stops at ivec4).
struct ivec5 { int x; int y; int z; int w; int u; };
struct ivec6 { int x; int y; int z; int w; int u; int v; };

#ifdef OUTPUTS
// A program with several outputs writes whole texels to OUTPUTS textures at once: the GEMM's
// packed RGBA operands (gemm.glsl), or several tensors of one shape (an optimizer's variable and
// its slots, optimizers.glsl), each value in .r.
layout(location = 0) out vec4 outColor;
#if OUTPUTS > 1
layout(location = 1) out vec4 outColor1;
#endif
#if OUTPUTS > 2
layout(location = 2) out vec4 outColor2;
#endif
#if OUTPUTS > 3
layout(location = 3) out vec4 outColor3;
#endif
#if OUTPUTS > 4
layout(location = 4) out vec4 outColor4;
layout(location = 5) out vec4 outColor5;
layout(location = 6) out vec4 outColor6;
layout(location = 7) out vec4 outColor7;
#endif
#else
out vec4 outColor;

void setOutput(float v) {
  outColor = vec4(v, 0.0, 0.0, 0.0);
}
#endif
