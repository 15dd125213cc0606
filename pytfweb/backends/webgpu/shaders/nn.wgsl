// Softmax and LogSoftmax over the last axis (programs/nn.py): one workgroup of 64 per row; the
// row's maximum (NaN wins, as numpy's max) and then the sum of e^(x - max) go through a tree in
// workgroup memory. FINISH(s, sum) is s / sum (softmax) or s - log(sum) (log softmax), with
// s = x - max. inf - inf and 0 / 0 give NaN, as on cpu.

// @program softmax
var<workgroup> partial: array<f32, 64>;

fn maxNan(a: f32, b: f32) -> f32 {
  if (isNan(a) || isNan(b)) { return nan(); }
  return select(b, a, a > b);
}

fn expNan(x: f32) -> f32 {
  if (isNan(x)) { return x; }
  return op_Exp(x);
}

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32,
        @builtin(num_workgroups) nwg: vec3<u32>) {
  let row = i32(wid.x + wid.y * nwg.x);
  let valid = row < u.rows;
  let base = row * u.n;
  var m = -inf();
  if (valid) {
    for (var i = i32(lid); i < u.n; i += 64) { m = maxNan(m, x[base + i]); }
  }
  partial[lid] = m;
  workgroupBarrier();
  for (var s = 32u; s > 0u; s = s >> 1u) {
    if (lid < s) { partial[lid] = maxNan(partial[lid], partial[lid + s]); }
    workgroupBarrier();
  }
  let rowMax = partial[0];
  workgroupBarrier();
  var total = 0.0;
  if (valid) {
    for (var i = i32(lid); i < u.n; i += 64) { total = total + expNan(x[base + i] - rowMax); }
  }
  partial[lid] = total;
  workgroupBarrier();
  for (var s = 32u; s > 0u; s = s >> 1u) {
    if (lid < s) { partial[lid] = partial[lid] + partial[lid + s]; }
    workgroupBarrier();
  }
  let sum = partial[0];
  if (valid) {
    for (var i = i32(lid); i < u.n; i += 64) {
      let s = x[base + i] - rowMax;
      result[base + i] = FINISH;
    }
  }
}
