// Image kernels (programs/image.py). The per-axis source positions come from Python (computed in
// float64 as cpu computes them, so the same pixels are chosen): idx holds the rows' lower then
// upper index, then the columns' (for nearest neighbour: the rows', then the columns'); wts the
// rows' then the columns' weights of the upper index. Images are [B, H, W, C]; the output
// [B, OH, OW, C].

// @program bilinear
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let index = i32(gid.x + gid.y * nwg.x * 64u);
  if (index >= u.size) { return; }
  let c = index % u.C;
  let x = (index / u.C) % u.OW;
  let y = (index / (u.C * u.OW)) % u.OH;
  let b = index / (u.C * u.OW * u.OH);
  let r0 = idx[y];
  let r1 = idx[u.OH + y];
  let c0 = idx[2 * u.OH + x];
  let c1 = idx[2 * u.OH + u.OW + x];
  let fr = wts[y];
  let fc = wts[u.OH + x];
  let tl = images[((b * u.H + r0) * u.W + c0) * u.C + c];
  let tr = images[((b * u.H + r0) * u.W + c1) * u.C + c];
  let bl = images[((b * u.H + r1) * u.W + c0) * u.C + c];
  let br = images[((b * u.H + r1) * u.W + c1) * u.C + c];
  let top = tl + (tr - tl) * fc;
  let bottom = bl + (br - bl) * fc;
  result[index] = top + (bottom - top) * fr;
}

// @program nearest
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let index = i32(gid.x + gid.y * nwg.x * 64u);
  if (index >= u.size) { return; }
  let c = index % u.C;
  let x = (index / u.C) % u.OW;
  let y = (index / (u.C * u.OW)) % u.OH;
  let b = index / (u.C * u.OW * u.OH);
  result[index] = images[((b * u.H + idx[y]) * u.W + idx[u.OH + x]) * u.C + c];
}
