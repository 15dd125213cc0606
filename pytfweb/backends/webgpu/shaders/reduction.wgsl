// Reductions (programs/reduction.py). The input is seen as outer dims (kept) and reduced dims,
// adjacent dims of one kind merged; OUTER_COORDS splits the output index into oc0.. and
// OUTER_OFFSET is their offset in x; REDUCED_COORDS splits r into rc0.. and REDUCED_OFFSET is
// theirs. TYPE is f32 or i32. Each op is a section defining initial(), combine() and finish()
// (a section named <op>_<type> where the types differ). Reducing nothing (count 0) never
// reaches a shader: the program fills the op's empty value instead.

// @program Sum
fn initial() -> TYPE { return TYPE(0); }
fn combine(a: TYPE, b: TYPE) -> TYPE { return a + b; }
fn finish(a: TYPE) -> TYPE { return a; }

// @program Mean
fn initial() -> TYPE { return TYPE(0); }
fn combine(a: TYPE, b: TYPE) -> TYPE { return a + b; }
fn finish(a: TYPE) -> TYPE { return a / TYPE(u.count); }

// @program Prod
fn initial() -> TYPE { return TYPE(1); }
fn combine(a: TYPE, b: TYPE) -> TYPE { return a * b; }
fn finish(a: TYPE) -> TYPE { return a; }

// @program Max_f32
// NaN wins (numpy's max propagates it); -inf is the start, so NaN must be checked both ways.
fn initial() -> f32 { return -inf(); }
fn combine(a: f32, b: f32) -> f32 {
  if (isNan(a) || isNan(b)) { return nan(); }
  return select(b, a, a > b);
}
fn finish(a: f32) -> f32 { return a; }

// @program Max_i32
fn initial() -> i32 { return i32(-2147483647 - 1); }
fn combine(a: i32, b: i32) -> i32 { return max(a, b); }
fn finish(a: i32) -> i32 { return a; }

// @program Min_f32
fn initial() -> f32 { return inf(); }
fn combine(a: f32, b: f32) -> f32 {
  if (isNan(a) || isNan(b)) { return nan(); }
  return select(b, a, a < b);
}
fn finish(a: f32) -> f32 { return a; }

// @program Min_i32
fn initial() -> i32 { return 2147483647; }
fn combine(a: i32, b: i32) -> i32 { return min(a, b); }
fn finish(a: i32) -> i32 { return a; }

// @program Any_i32
fn initial() -> i32 { return 0; }
fn combine(a: i32, b: i32) -> i32 { return select(0, 1, a != 0 || b != 0); }
fn finish(a: i32) -> i32 { return a; }

// @program All_i32
fn initial() -> i32 { return 1; }
fn combine(a: i32, b: i32) -> i32 { return select(0, 1, a != 0 && b != 0); }
fn finish(a: i32) -> i32 { return a; }

// @program serial
// One invocation per output value, for short reductions.
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let index = i32(gid.x + gid.y * nwg.x * 64u);
  if (index >= u.size) { return; }
OUTER_COORDS
  let base = OUTER_OFFSET;
  var acc = initial();
  for (var r = 0; r < u.count; r++) {
REDUCED_COORDS
    acc = combine(acc, x[base + REDUCED_OFFSET]);
  }
  result[index] = finish(acc);
}

// @program parallel
// One workgroup per output value: 64 invocations stride over the reduced values, then a tree
// in workgroup memory. No early return: every invocation reaches the barriers.
var<workgroup> partial: array<TYPE, 64>;

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32,
        @builtin(num_workgroups) nwg: vec3<u32>) {
  let index = i32(wid.x + wid.y * nwg.x);
  let valid = index < u.size;
OUTER_COORDS
  let base = OUTER_OFFSET;
  var acc = initial();
  if (valid) {
    for (var r = i32(lid); r < u.count; r += 64) {
REDUCED_COORDS
      acc = combine(acc, x[base + REDUCED_OFFSET]);
    }
  }
  partial[lid] = acc;
  workgroupBarrier();
  for (var s = 32u; s > 0u; s = s >> 1u) {
    if (lid < s) { partial[lid] = combine(partial[lid], partial[lid + s]); }
    workgroupBarrier();
  }
  if (lid == 0u && valid) { result[index] = finish(partial[0]); }
}

// @program arg
// ArgMax / ArgMin as TF.js's scan: the first value is kept unless a later one is strictly better,
// so ties give the first index, a NaN at index 0 wins and a NaN elsewhere never does. BETTER(v, w)
// is v > w (ArgMax) or v < w (ArgMin); IS_NAN(v) is isNan(v) or false for int32. Each invocation
// keeps the best of its values (index -1: none yet), then a tree merges them.
var<workgroup> bestValue: array<TYPE, 64>;
var<workgroup> bestIndex: array<i32, 64>;

fn merge(av: TYPE, ai: i32, bv: TYPE, bi: i32) -> bool {   // whether (bv, bi) wins over (av, ai)
  if (bi < 0) { return false; }
  if (ai < 0) { return true; }
  if (ai == 0 && IS_NAN(av)) { return false; }
  if (bi == 0 && IS_NAN(bv)) { return true; }
  if (BETTER(bv, av)) { return true; }
  if (BETTER(av, bv)) { return false; }
  return bi < ai;
}

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32,
        @builtin(num_workgroups) nwg: vec3<u32>) {
  let index = i32(wid.x + wid.y * nwg.x);
  let valid = index < u.size;
OUTER_COORDS
  let base = OUTER_OFFSET;
  var bv = TYPE(0);
  var bi = -1;
  if (valid) {
    for (var r = i32(lid); r < u.count; r += 64) {
REDUCED_COORDS
      let v = x[base + REDUCED_OFFSET];
      if (r != 0 && IS_NAN(v)) { continue; }
      if (merge(bv, bi, v, r)) { bv = v; bi = r; }
    }
  }
  bestValue[lid] = bv;
  bestIndex[lid] = bi;
  workgroupBarrier();
  for (var s = 32u; s > 0u; s = s >> 1u) {
    if (lid < s && merge(bestValue[lid], bestIndex[lid], bestValue[lid + s], bestIndex[lid + s])) {
      bestValue[lid] = bestValue[lid + s];
      bestIndex[lid] = bestIndex[lid + s];
    }
    workgroupBarrier();
  }
  if (lid == 0u && valid) { result[index] = max(bestIndex[0], 0); }
}
