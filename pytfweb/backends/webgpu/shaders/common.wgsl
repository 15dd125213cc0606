// Helpers any webgpu program may call (taken by name, with what they call: wgsl.py).
// WGSL has no isnan/isinf and may fold float comparisons with NaN: the tests look at the bits.

fn isNan(x: f32) -> bool { return (bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u; }
fn isInf(x: f32) -> bool { return (bitcast<u32>(x) & 0x7fffffffu) == 0x7f800000u; }
fn isNegative(x: f32) -> bool { return (bitcast<u32>(x) & 0x80000000u) != 0u; }   // -0 counts
// Through a var: a const-expression may not make NaN or infinity (the shader would not compile).
fn nan() -> f32 { var bits = 0x7fc00000u; return bitcast<f32>(bits); }
fn inf() -> f32 { var bits = 0x7f800000u; return bitcast<f32>(bits); }
fn negZero() -> f32 { var bits = 0x80000000u; return bitcast<f32>(bits); }

// JS's ToInt32 (what an Int32Array stores): truncated toward zero, NaN and infinities 0, values
// beyond int32 wrapped modulo 2^32. From the bits, since WGSL's i32(f32) saturates.
fn toInt32(x: f32) -> i32 {
  let bits = bitcast<u32>(x);
  let e = i32((bits >> 23u) & 0xffu) - 127;   // unbiased exponent
  if (e < 0 || e == 128) { return 0; }        // |x| < 1, NaN, infinity
  let m = (bits & 0x7fffffu) | 0x800000u;     // 24-bit significand
  var low: u32;
  if (e <= 23) { low = m >> u32(23 - e); }
  else if (e - 23 < 32) { low = m << u32(e - 23); }
  else { low = 0u; }
  if ((bits & 0x80000000u) != 0u) { low = ~low + 1u; }
  return bitcast<i32>(low);
}

fn boolToI32(b: bool) -> i32 { return select(0, 1, b); }
