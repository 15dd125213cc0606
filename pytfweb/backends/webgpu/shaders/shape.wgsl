// Shape and slicing kernels (programs/shape.py).

// @program map
// out[c] = x[base + sum_d k_d * u.xs_d] with k_d = c_d * u.mul_d + u.add_d: transpose (permuted
// strides), slice, strided slice (mul = step), reverse (mul = -1), unstack and split (base).
// TILE: k_d = c_d % u.in_d. PAD: a k_d outside [0, u.in_d) gives u.padValue.
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let index = i32(gid.x + gid.y * nwg.x * 64u);
  if (index >= u.size) { return; }
COORDS
  var at = u.base;
  var inside = true;
DIMS
  if (!inside) { result[index] = u.padValue; return; }
  result[index] = x[at];
}

// @program place
// Copies x into the region of result starting at u.off_d (concat and stack, one dispatch per
// input into one output buffer): result[sum_d (c_d + u.off_d) * u.rs_d] = x[index].
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let index = i32(gid.x + gid.y * nwg.x * 64u);
  if (index >= u.size) { return; }
COORDS
  result[PLACED] = x[index];
}

// @program gather
// GatherV2: x seen as [outer, dim, inner] (the batch dims are part of outer), indices as
// [batch, count]; out as [outer, count, inner]. An index outside [0, dim) gives 0 (checked by
// the op's data on cpu; here the values are on the GPU).
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let index = i32(gid.x + gid.y * nwg.x * 64u);
  if (index >= u.size) { return; }
  let o = index / (u.count * u.inner);
  let rest = index - o * u.count * u.inner;
  let j = rest / u.inner;
  let i = rest - j * u.inner;
  let batch = o / u.perBatch;
  let k = indices[batch * u.count + j];
  if (k < 0 || k >= u.dim) { result[index] = ZERO; return; }
  result[index] = x[(o * u.dim + k) * u.inner + i];
}

// @program one_hot
// out[i, j] = on where indices[i] == j, else off (an index outside [0, depth) gives a row of off).
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let index = i32(gid.x + gid.y * nwg.x * 64u);
  if (index >= u.size) { return; }
  let i = index / u.depth;
  let j = index - i * u.depth;
  result[index] = select(u.off, u.on, indices[i] == j);
}
