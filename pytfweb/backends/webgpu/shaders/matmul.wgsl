// BatchMatMul (programs/matmul.py) and the convolutions' implicit GEMMs (programs/conv.py) as a
// register-blocked GEMM (section gemm): an invocation computes a block of ROWS output rows times
// VEC4S vec4s of neighbouring output columns in vec4 accumulators, stepping through K 4 at a
// time, from registers only: no workgroup tiles and barriers, which cost more than they save on a
// CPU implementation such as SwiftShader (a tiled workgroup-memory GEMM was 2-6x slower there).
// Per step of 4 along K it takes 4 x 4 blocks of each operand as vec4s, read along whichever side
// is contiguous in memory:
//   aRow(base, r, k) = A[r, k..k+3]      aCol(base, k, r) = A[r..r+3, k]
//   bRow(base, k, c) = B[k, c..c+3]      bCol(base, c, k) = B[c, k..k+3]
// from the loader sections below (Python picks one A and one B loader per operand layout: a vec4
// binding where the operand is contiguous and aligned that way). Where one of them is not, the
// loop steps through K one at a time (KSTEP 1): A's values one by one, aAt(base, r, k), times
// B's rows bRow (vec4 loads, or four scalar ones through bAt). Every loader gives 0 past K, so a
// partial last step adds 0 * 0; rows and columns past M and N are read at a clamped (or zero)
// position and never stored. The loaders use select, not early returns: with nested functions
// returning early inside the K loop SwiftShader lost the device.
// Python fills in TYPE (f32 or i32), the batch coordinates (BATCH_COORDS, BATCH_A, BATCH_B:
// offsets of a's and b's matrices; a broadcast batch dim has stride 0) and the unrolled
// DECLARE / LOAD / MULTIPLY / STORE lines of the block.

// @program gemm
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let index = i32(gid.x + gid.y * nwg.x * 64u);
  if (index >= u.size) { return; }
  let c = (index % u.NB) * (4 * VEC4S);
  let r = ((index / u.NB) % u.MB) * ROWS;
  let batch = index / (u.NB * u.MB);
BATCH_COORDS
  let aBase = BATCH_A;
  let bBase = BATCH_B;
  let outBase = batch * u.M * u.N;
DECLARE
  for (var k = 0; k < u.K; k += KSTEP) {
LOAD
MULTIPLY
  }
STORE
}

// @program b_scalar_rows
fn bRow(base: i32, k: i32, c: i32) -> vec4<TYPE> {
  return vec4<TYPE>(bAt(base, k, c), bAt(base, k, c + 1), bAt(base, k, c + 2), bAt(base, k, c + 3));
}

// @program mm_a_scalar
// BatchMatMul's a [M, K] (or [K, M] transposed) per batch entry, one value (0 outside).
fn aAt(base: i32, r: i32, k: i32) -> TYPE {
  let ok = r < u.M && k < u.K;
  let i = select(base + r * u.K + k, base + k * u.M + r, TRANSPOSE_A);
  return select(TYPE(0), a[select(0, i, ok)], ok);
}

// @program mm_a_row4
// a [M, K] bound as vec4s, K a multiple of 4.
fn aRow(base: i32, r: i32, k: i32) -> vec4<TYPE> { return a[(base + r * u.K + k) / 4]; }

// @program mm_a_col4
// a transposed, [K, M] bound as vec4s, M a multiple of 4.
fn aCol(base: i32, k: i32, r: i32) -> vec4<TYPE> {
  let ok = k < u.K;
  return select(vec4<TYPE>(TYPE(0)), a[select(0, (base + k * u.M + r) / 4, ok)], ok);
}

// @program mm_b_scalar
// BatchMatMul's b [K, N] (or [N, K] transposed), one value (0 outside); also a plain [K, N]
// operand of the implicit GEMMs (not transposed, base 0).
fn bAt(base: i32, k: i32, c: i32) -> TYPE {
  let ok = k < u.K && c < u.N;
  let i = select(base + k * u.N + c, base + c * u.K + k, TRANSPOSE_B);
  return select(TYPE(0), b[select(0, i, ok)], ok);
}

// @program mm_b_row4
// b [K, N] bound as vec4s, N a multiple of 4.
fn bRow(base: i32, k: i32, c: i32) -> vec4<TYPE> {
  let ok = k < u.K;
  return select(vec4<TYPE>(TYPE(0)), b[select(0, (base + k * u.N + c) / 4, ok)], ok);
}

// @program mm_b_col4
// b transposed, [N, K] bound as vec4s, K a multiple of 4.
fn bCol(base: i32, c: i32, k: i32) -> vec4<TYPE> { return b[(base + c * u.K + k) / 4]; }

// @program dx_a_row4
// Conv2DBackpropInput (NHWC) as an implicit GEMM, OC a multiple of 4: row r of A is input
// position (b, h, w), column k the tap and output channel (kh, kw, oc); A holds dy at the output
// position that reads (h, w) through (kh, kw) (0 where there is none), 4 output channels of one
// tap a vec4 load; B[k, c] = filter[kh, kw, c, oc] (dx_b_col4).
fn aRow(base: i32, r: i32, k: i32) -> vec4<TYPE> {
  let w = r % u.W;
  let h = (r / u.W) % u.H;
  let bb = r / (u.W * u.H);
  let oc = k % u.OC;
  let kw = (k / u.OC) % u.FW;
  let kh = k / (u.OC * u.FW);
  let th = h + u.PH - kh * u.DH;
  let tw = w + u.PW - kw * u.DW;
  let oh = th / u.SH;
  let ow = tw / u.SW;
  let ok = r < u.M && k < u.K && th >= 0 && tw >= 0 && th % u.SH == 0 && tw % u.SW == 0 && oh < u.OH
           && ow < u.OW;
  return select(vec4<TYPE>(TYPE(0)), a[select(0, (((bb * u.OH + oh) * u.OW + ow) * u.OC + oc) / 4, ok)], ok);
}

// @program dx_b_col4
// B's column c at k..k+3 with OC a multiple of 4: filter[kh, kw, c, oc..oc+3], the filter bound as vec4s.
fn bCol(base: i32, c: i32, k: i32) -> vec4<TYPE> { return b[(((k / u.OC) * u.C + c) * u.OC + k % u.OC) / 4]; }

// @program df_a_col4
// Conv2DBackpropFilter (NHWC) as an implicit GEMM, C a multiple of 4: row r of A is the tap
// (kh, kw, c), column k the output position (b, oh, ow); A holds x where that tap of that
// position reads it (0 in the padding); aCol gives rows r..r+3 (channels c..c+3 of one tap) at
// one position, x bound as vec4s. B is dy as [B * OH * OW, OC] (mm_b_row4, OC a multiple of 4).
fn aCol(base: i32, k: i32, r: i32) -> vec4<TYPE> {
  let c = r % u.C;
  let kw = (r / u.C) % u.FW;
  let kh = r / (u.C * u.FW);
  let ow = k % u.OW;
  let oh = (k / u.OW) % u.OH;
  let bb = k / (u.OW * u.OH);
  let h = oh * u.SH - u.PH + kh * u.DH;
  let w = ow * u.SW - u.PW + kw * u.DW;
  let ok = r < u.M && k < u.K && h >= 0 && h < u.H && w >= 0 && w < u.W;
  return select(vec4<TYPE>(TYPE(0)), a[select(0, (((bb * u.H + h) * u.W + w) * u.C + c) / 4, ok)], ok);
}

// @program tiled_conv
// Conv2D (NHWC) as an implicit GEMM (programs/conv.py): row r of A is output position (b, oh, ow)
// and column k the filter tap (kh, kw, c), read from x on the fly (0 in the padding), as im2col
// would lay it out; B is the filter [FH * FW * C, OC] as it is stored.
fn loadA(base: i32, r: i32, k: i32) -> TYPE {
  if (r >= u.M || k >= u.K) { return TYPE(0); }
  let ow = r % u.OW;
  let oh = (r / u.OW) % u.OH;
  let bb = r / (u.OW * u.OH);
  let c = k % u.C;
  let kw = (k / u.C) % u.FW;
  let kh = k / (u.C * u.FW);
  let h = oh * u.SH - u.PH + kh * u.DH;
  let w = ow * u.SW - u.PW + kw * u.DW;
  if (h < 0 || h >= u.H || w < 0 || w >= u.W) { return TYPE(0); }
  return a[((bb * u.H + h) * u.W + w) * u.C + c];
}

fn loadB(base: i32, k: i32, c: i32) -> TYPE {
  if (k >= u.K || c >= u.N) { return TYPE(0); }
  return b[k * u.N + c];
}

// @program tiled_conv_dx
// Conv2DBackpropInput (NHWC) as an implicit GEMM: row r of A is input position (b, h, w), column k
// the tap and output channel (kh, kw, oc); A holds dy at the output position that reads (h, w)
// through (kh, kw) (0 where there is none); B[k, c] = filter[kh, kw, c, oc].
fn loadA(base: i32, r: i32, k: i32) -> TYPE {
  if (r >= u.M || k >= u.K) { return TYPE(0); }
  let w = r % u.W;
  let h = (r / u.W) % u.H;
  let bb = r / (u.W * u.H);
  let oc = k % u.OC;
  let kw = (k / u.OC) % u.FW;
  let kh = k / (u.OC * u.FW);
  let th = h + u.PH - kh * u.DH;
  let tw = w + u.PW - kw * u.DW;
  if (th < 0 || tw < 0 || th % u.SH != 0 || tw % u.SW != 0) { return TYPE(0); }
  let oh = th / u.SH;
  let ow = tw / u.SW;
  if (oh >= u.OH || ow >= u.OW) { return TYPE(0); }
  return a[((bb * u.OH + oh) * u.OW + ow) * u.OC + oc];
}

fn loadB(base: i32, k: i32, c: i32) -> TYPE {
  if (k >= u.K || c >= u.N) { return TYPE(0); }
  let oc = k % u.OC;
  let tap = k / u.OC;
  return b[(tap * u.C + c) * u.OC + oc];
}

// @program tiled_conv_df
// Conv2DBackpropFilter (NHWC) as an implicit GEMM: row r of A is the tap (kh, kw, c), column k
// the output position (b, oh, ow); A holds x where that tap of that position reads it (0 in the
// padding); B is dy as [B * OH * OW, OC].
fn loadA(base: i32, r: i32, k: i32) -> TYPE {
  if (r >= u.M || k >= u.K) { return TYPE(0); }
  let c = r % u.C;
  let kw = (r / u.C) % u.FW;
  let kh = r / (u.C * u.FW);
  let ow = k % u.OW;
  let oh = (k / u.OW) % u.OH;
  let bb = k / (u.OW * u.OH);
  let h = oh * u.SH - u.PH + kh * u.DH;
  let w = ow * u.SW - u.PW + kw * u.DW;
  if (h < 0 || h >= u.H || w < 0 || w >= u.W) { return TYPE(0); }
  return a[((bb * u.H + h) * u.W + w) * u.C + c];
}

fn loadB(base: i32, k: i32, c: i32) -> TYPE {
  if (k >= u.K || c >= u.N) { return TYPE(0); }
  return b[k * u.N + c];
}

// @program tiled
// The implicit GEMMs whose operands are not vec4-aligned (programs/conv.py: channels not a
// multiple of 4): a 32 x 32-tiled GEMM in workgroup memory, the operands read by loadA(base, row,
// k) and loadB(base, k, column) of section tiled_conv, tiled_conv_dx or tiled_conv_df (0 outside).
// The register-blocked gemm with the conv loaders one value at a time (KSTEP 1) lost the device
// on SwiftShader (apparently compiling), so these keep this program. A workgroup of
// 8 x 8 invocations computes a 32 x 32 tile, each invocation 4 x 4 values (rows ty + 8i, columns
// tx + 8j) in four vec4 accumulators, stepping through K 32 at a time.
// The tiles hold vec4s: tileA[k][ty] = A's column k at rows ty, ty + 8, ty + 16, ty + 24 of the
// tile, tileB[k][tx] = B's row k at columns tx, tx + 8, tx + 16, tx + 24: two vec4 reads per k
// give an invocation its 4 x 4 outer product.
var<workgroup> tileA: array<array<vec4<TYPE>, 8>, 32>;
var<workgroup> tileB: array<array<vec4<TYPE>, 8>, 32>;

@compute @workgroup_size(8, 8, 1)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>,
        @builtin(local_invocation_index) flat: u32) {
  let batch = i32(wid.z);
BATCH_COORDS
  let aBase = BATCH_A;
  let bBase = BATCH_B;
  let row0 = i32(wid.y) * 32;
  let col0 = i32(wid.x) * 32;
  let ty = i32(lid.y);
  let tx = i32(lid.x);
  // Each invocation fills entries (lk + 8j, lt) (j < 4) of both tiles.
  let lk = i32(flat) / 8;
  let lt = i32(flat) % 8;
  // One vec4 per output row ty + 8i, over the columns tx + 8j (j < 4): no arrays indexed in loops,
  // which a CPU implementation such as SwiftShader would keep in memory.
  var acc0 = vec4<TYPE>(TYPE(0));
  var acc1 = vec4<TYPE>(TYPE(0));
  var acc2 = vec4<TYPE>(TYPE(0));
  var acc3 = vec4<TYPE>(TYPE(0));
  for (var k0 = 0; k0 < u.K; k0 += 32) {
    for (var j = 0; j < 32; j += 8) {
      let k = k0 + lk + j;
      tileA[lk + j][lt] = vec4<TYPE>(loadA(aBase, row0 + lt, k), loadA(aBase, row0 + lt + 8, k),
                                     loadA(aBase, row0 + lt + 16, k), loadA(aBase, row0 + lt + 24, k));
      tileB[lk + j][lt] = vec4<TYPE>(loadB(bBase, k, col0 + lt), loadB(bBase, k, col0 + lt + 8),
                                     loadB(bBase, k, col0 + lt + 16), loadB(bBase, k, col0 + lt + 24));
    }
    workgroupBarrier();
    for (var k = 0; k < 32; k++) {
      let av = tileA[k][ty];
      let bv = tileB[k][tx];
      acc0 = acc0 + av.x * bv;
      acc1 = acc1 + av.y * bv;
      acc2 = acc2 + av.z * bv;
      acc3 = acc3 + av.w * bv;
    }
    workgroupBarrier();
  }
  let outBase = batch * u.M * u.N;
  store(outBase, row0 + ty, col0 + tx, acc0);
  store(outBase, row0 + ty + 8, col0 + tx, acc1);
  store(outBase, row0 + ty + 16, col0 + tx, acc2);
  store(outBase, row0 + ty + 24, col0 + tx, acc3);
}

// Row r of the output at columns c, c + 8, c + 16, c + 24 (those inside M x N).
fn store(outBase: i32, r: i32, c: i32, v: vec4<TYPE>) {
  if (r >= u.M) { return; }
  if (c < u.N) { result[outBase + r * u.N + c] = v.x; }
  if (c + 8 < u.N) { result[outBase + r * u.N + c + 8] = v.y; }
  if (c + 16 < u.N) { result[outBase + r * u.N + c + 16] = v.z; }
  if (c + 24 < u.N) { result[outBase + r * u.N + c + 24] = v.w; }
}
