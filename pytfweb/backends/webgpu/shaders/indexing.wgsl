// Indexing kernels (programs/indexing.py). SLOT(r) is the row-major number of the slice that
// index tuple r names (sum over j of indices[r * K + j] * u.st_j, -1 when a component is outside
// its dim), generated for the tuple length K.

// @program gather_nd
// out[r, i] = params[SLOT(r) * u.inner + i]; 0 for an index outside params.
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let index = i32(gid.x + gid.y * nwg.x * 64u);
  if (index >= u.size) { return; }
  let r = index / u.inner;
  let i = index - r * u.inner;
  let s = slot(r);
  if (s < 0) { result[index] = TYPE(0); return; }
  result[index] = params[s * u.inner + i];
}

// @program scatter_nd
// out[s, i] = the sum of updates[r, i] over the tuples r naming slice s, in order (ScatterNd);
// or with REPLACE the last of them, else base[s, i] (TensorScatterUpdate).
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let index = i32(gid.x + gid.y * nwg.x * 64u);
  if (index >= u.size) { return; }
  let s = index / u.inner;
  let i = index - s * u.inner;
  var acc = INITIAL;
  for (var r = 0; r < u.count; r++) {
    if (slot(r) == s) { acc = COMBINE; }
  }
  result[index] = acc;
}

// @program segment_sum
// out[s, i] = the sum of x[r, i] over the rows r with ids[r] == s, in order.
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let index = i32(gid.x + gid.y * nwg.x * 64u);
  if (index >= u.size) { return; }
  let s = index / u.inner;
  let i = index - s * u.inner;
  var acc = TYPE(0);
  for (var r = 0; r < u.count; r++) {
    if (ids[r] == s) { acc = acc + x[r * u.inner + i]; }
  }
  result[index] = acc;
}

// @program search_sorted
// For values[b, j]: the first index of row b of the sorted sequence whose entry is not < (left)
// or not <= (right) the value: a binary search, as TF.js's (NaN compares false: 0).
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let index = i32(gid.x + gid.y * nwg.x * 64u);
  if (index >= u.size) { return; }
  let b = index / u.m;
  let v = values[index];
  var lo = 0;
  var hi = u.n;
  while (lo < hi) {
    let mid = (lo + hi) / 2;
    if (BEFORE(seq[b * u.n + mid], v)) { lo = mid + 1; } else { hi = mid; }
  }
  result[index] = lo;
}

// @program diag
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let index = i32(gid.x + gid.y * nwg.x * 64u);
  if (index >= u.size) { return; }
  let i = index / u.n;
  let j = index - i * u.n;
  result[index] = select(TYPE(0), x[i], i == j);
}

// @program sparse_to_dense
// out[s] = values[r] (values[0] when there is one value for all) for the last entry r whose index
// tuple names s, else the default value.
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let index = i32(gid.x + gid.y * nwg.x * 64u);
  if (index >= u.size) { return; }
  var acc = dflt[0];
  for (var r = 0; r < u.count; r++) {
    if (slot(r) == index) { acc = vals[select(r, 0, u.oneValue != 0)]; }
  }
  result[index] = acc;
}
