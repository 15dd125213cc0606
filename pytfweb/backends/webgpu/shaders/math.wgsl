// Cumulative sums and products, LRN, TopK (programs/math.py).

// TopK's order, used by its programs (IS_NAN is isNan or, for int32, neverNan):
// Whether index ia of row `batch` goes before index ib: larger values first, equal values by
// index, NaN before everything (cpu's order); an index past the row (n) after every real one.
fn before(batch: i32, ia: i32, ib: i32) -> bool {
  if (ib >= u.n) { return ia < u.n || ia < ib; }
  if (ia >= u.n) { return false; }
  let a = x[batch * u.n + ia];
  let b = x[batch * u.n + ib];
  let na = IS_NAN(a);
  let nb = IS_NAN(b);
  if (na || nb) { return select(na, ia < ib, na && nb); }
  if (a != b) { return a > b; }
  return ia < ib;
}

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

// @program top_k_swap
// One compare-and-swap step of a bitonic sort of indices into x [batch, n] (TF.js's
// SwapProgram, after "Bitonic Top K", Shanbhag et al. 2018; webgl's topk_swap): pairs
// (i, i + inc) in groups of 2 * inc, ordered descending or ascending in alternate runs of `dir`.
// On the first pass (no indices yet) index i is i itself. One invocation per output slot.
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let index = i32(gid.x + gid.y * nwg.x * 64u);
  if (index >= u.size) { return; }
  let batch = index / u.width;
  let elem = index - batch * u.width;
  let first = elem % (2 * u.inc) < u.inc;
  let i = select(elem - u.inc, elem, first);
  var i0 = i;
  var i1 = i + u.inc;
  if (u.firstPass == 0) {
    i0 = indices[batch * u.width + i];
    i1 = indices[batch * u.width + i + u.inc];
  }
  let reverse = elem % (2 * u.dir) >= u.dir;
  if (reverse == before(batch, i0, i1)) {
    let t = i0;
    i0 = i1;
    i1 = t;
  }
  result[index] = select(i1, i0, first);
}

// @program top_k_merge
// Halves the candidates (TF.js's MergeProgram): output position p keeps the larger of the pair
// (i, i + k) of the previous sequence, where i maps p back into every other run of k.
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let index = i32(gid.x + gid.y * nwg.x * 64u);
  if (index >= u.size) { return; }
  let batch = index / u.width;
  let elem = index - batch * u.width;
  let i = select(elem * 2 - elem % u.k, elem, elem < u.k);
  var i0 = i;
  var i1 = i + u.k;
  if (u.firstPass == 0) {
    i0 = indices[batch * u.inWidth + i];
    i1 = indices[batch * u.inWidth + i + u.k];
  }
  result[index] = select(i1, i0, before(batch, i0, i1));
}

// @program top_k_gather
// The first k candidates of each row (sorted, larger first) and their values.
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let index = i32(gid.x + gid.y * nwg.x * 64u);
  if (index >= u.size) { return; }
  let batch = index / u.k;
  let j = index - batch * u.k;
  var i = j;
  if (u.firstPass == 0) { i = indices[batch * u.width + j]; }
  result[index] = x[batch * u.n + i];
  outIndices[index] = i;
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
