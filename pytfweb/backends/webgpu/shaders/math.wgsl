// Cumulative sums and products, LRN, TopK (programs/math.py).

// @program cumulative
// x seen as [outer, n, inner]; out[o, i, k] combines x[o, j, k] for j from the start (or, with
// REVERSE, from the end) up to i, i itself left out when EXCLUSIVE, in cpu's order.
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let index = i32(gid.x + gid.y * nwg.x * 64u);
  if (index >= u.size) { return; }
  let k = index % u.inner;
  let i = (index / u.inner) % u.n;
  let o = index / (u.inner * u.n);
  let base = o * u.n * u.inner + k;
  var acc = IDENTITY;
  if (REVERSE) {
    let last = select(i, i + 1, EXCLUSIVE);
    for (var j = u.n - 1; j >= last; j--) { acc = COMBINE(acc, x[base + j * u.inner]); }
  } else {
    let end = select(i + 1, i, EXCLUSIVE);
    for (var j = 0; j < end; j++) { acc = COMBINE(acc, x[base + j * u.inner]); }
  }
  result[index] = acc;
}

// @program lrn
// x [.., depth]: x / (bias + alpha * sum of x^2 over channels c - radius .. c + radius) ** beta.
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let index = i32(gid.x + gid.y * nwg.x * 64u);
  if (index >= u.size) { return; }
  let c = index % u.depth;
  let base = index - c;
  var total = 0.0;
  for (var j = max(0, c - u.radius); j <= min(u.depth - 1, c + u.radius); j++) {
    let v = x[base + j];
    total = total + v * v;
  }
  let v = x[index];
  result[index] = v * op_Pow(u.bias + u.alpha * total, -u.beta);
}

// @program top_k
// One invocation per value of a row of n: its rank among the row (larger first; equal values by
// index; NaN before everything, as cpu's order); the values of rank < k go to slot rank.
fn before(a: TYPE, ia: i32, b: TYPE, ib: i32) -> bool {
  let na = IS_NAN(a);
  let nb = IS_NAN(b);
  if (na || nb) { return select(na, ia < ib, na && nb); }
  if (a != b) { return a > b; }
  return ia < ib;
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let index = i32(gid.x + gid.y * nwg.x * 64u);
  if (index >= u.size) { return; }
  let row = index / u.n;
  let i = index - row * u.n;
  let v = x[index];
  var rank = 0;
  for (var j = 0; j < u.n; j++) {
    if (before(x[row * u.n + j], j, v, i)) { rank++; }
  }
  if (rank < u.k) {
    result[row * u.k + rank] = v;
    indices[row * u.k + rank] = i;
  }
}

// @program lrn_grad
// dx_k = dy_k * norm_k^-beta - 2 alpha beta x_k * (sum over the window of k of dy_d * y_d / norm_d),
// norm_d = bias + alpha * (sum over the window of d of x^2).
fn norm(base: i32, d: i32) -> f32 {
  var total = 0.0;
  for (var j = max(0, d - u.radius); j <= min(u.depth - 1, d + u.radius); j++) {
    let v = x[base + j];
    total = total + v * v;
  }
  return u.bias + u.alpha * total;
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let index = i32(gid.x + gid.y * nwg.x * 64u);
  if (index >= u.size) { return; }
  let k = index % u.depth;
  let base = index - k;
  var spread = 0.0;
  for (var d = max(0, k - u.radius); d <= min(u.depth - 1, k + u.radius); d++) {
    spread = spread + dy[base + d] * y[base + d] / norm(base, d);
  }
  result[index] = dy[index] * op_Pow(norm(base, k), -u.beta) - 2.0 * u.alpha * u.beta * x[index] * spread;
}

// @program bincount
// out[row, bin]: the count (or the sum of the weights, or with BINARY 1 if any) of the values of
// row equal to bin; negative values are skipped (checked by the kernel where they are CPU-side).
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let index = i32(gid.x + gid.y * nwg.x * 64u);
  if (index >= u.size) { return; }
  let row = index / u.bins;
  let bin = index - row * u.bins;
  var acc = TYPE(0);
  for (var j = 0; j < u.n; j++) {
    if (x[row * u.n + j] == bin) { acc = ADD; }
  }
  result[index] = acc;
}

// @program multinomial
// out[b, s]: the first outcome i whose running float32 sum of probs[b, 0..i] exceeds draw s (the
// same draws for every row, as cpu's and TF.js's), else the last outcome. A draw is a float64
// given as hi + lo (two f32): compared exactly with the float32 sums.
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let index = i32(gid.x + gid.y * nwg.x * 64u);
  if (index >= u.size) { return; }
  let b = index / u.samples;
  let s = index - b * u.samples;
  let hi = draws[2 * s];
  let lo = draws[2 * s + 1];
  var acc = 0.0;
  for (var i = 0; i < u.k - 1; i++) {
    acc = acc + probs[b * u.k + i];
    if (hi < acc || (hi == acc && lo < 0.0)) { result[index] = i; return; }
  }
  result[index] = u.k - 1;
}
