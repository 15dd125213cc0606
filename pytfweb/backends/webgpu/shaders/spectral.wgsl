// complex64 kernels (programs/spectral.py): a complex tensor is two float32 data, its parts.

// @program complex_abs
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let index = i32(gid.x + gid.y * nwg.x * 64u);
  if (index >= u.size) { return; }
  // |re + i im| without overflow or underflow in the squares (hypot)
  let a = abs(re[index]);
  let b = abs(im[index]);
  let m = max(a, b);
  if (isInf(a) || isInf(b)) { result[index] = inf(); return; }
  if (isNan(a) || isNan(b)) { result[index] = nan(); return; }
  if (m == 0.0) { result[index] = 0.0; return; }
  let x = a / m;
  let y = b / m;
  result[index] = m * sqrt(x * x + y * y);
}

// @program dft
// One part (REAL_PART 1: real, 0: imaginary) of the DFT of rows of u.n values: a direct sum per
// output (TF.js's FFTProgram), exp(SIGN 2 pi i k j / n) from unitCircle, times u.scale.
// (cos, sin) of 2 pi m / n for 0 <= m < n: the quadrant from integers, then Taylor polynomials on
// [0, pi/2), exact to float precision (GPU sin and cos are approximations).
fn unitCircle(m: i32) -> vec2<f32> {
  let q = (4 * m) / u.n;
  let x = 1.5707963267948966 * f32(4 * m - q * u.n) / f32(u.n);
  let x2 = x * x;
  let s = x * (1.0 - x2 / 6.0 * (1.0 - x2 / 20.0 * (1.0 - x2 / 42.0 * (1.0 - x2 / 72.0 * (1.0 - x2 / 110.0)))));
  let c = 1.0 - x2 / 2.0 * (1.0 - x2 / 12.0 * (1.0 - x2 / 30.0 * (1.0 - x2 / 56.0 * (1.0 - x2 / 90.0 * (1.0 - x2 / 132.0)))));
  if (q == 0) { return vec2<f32>(c, s); }
  if (q == 1) { return vec2<f32>(-s, c); }
  if (q == 2) { return vec2<f32>(-c, -s); }
  return vec2<f32>(s, -c);
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let index = i32(gid.x + gid.y * nwg.x * 64u);
  if (index >= u.size) { return; }
  let row = index / u.n;
  let k = index - row * u.n;
  var sum = 0.0;
  for (var j = 0; j < u.n; j++) {
    let w = unitCircle((k * j) % u.n);
    let c = w.x;
    let s = u.sign * w.y;
    let a = re[row * u.n + j];
    let b = im[row * u.n + j];
    if (REAL_PART) { sum = sum + (a * c - b * s); } else { sum = sum + (a * s + b * c); }
  }
  result[index] = sum * u.scale;
}
