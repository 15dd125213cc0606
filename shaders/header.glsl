// Prepended to every fragment shader after the version and precision lines.
// Programs work in logical coordinates; the compiler adds the samplers and getters.

#define NAN uintBitsToFloat(0x7fc00000u)
#define INFINITY uintBitsToFloat(0x7f800000u)

// A NaN test the compiler cannot fold away (some drivers optimise isnan(x) to false).
bool isNaN(float v) {
  return (floatBitsToUint(v) & 0x7fffffffu) > 0x7f800000u;
}

// int32 values travel as floats; recover them exactly.
int toInt(float v) {
  return int(v < 0.0 ? v - 0.5 : v + 0.5);
}

// Coordinates of rank 5 and 6 (GLSL stops at ivec4).
struct ivec5 { int x; int y; int z; int w; int u; };
struct ivec6 { int x; int y; int z; int w; int u; int v; };

out vec4 outColor;

void setOutput(float v) {
  outColor = vec4(v, 0.0, 0.0, 0.0);
}
