// The packed matrix product (programs/gemm.py): C[batch] = A[batch] B[batch], with A [M, K] and
// B [K, N] packed four values to an RGBA texel, and each fragment computing a BLOCK_ROWS x 4
// block of C (BLOCK_ROWS 8, or 4 where fewer render targets exist) into BLOCK_ROWS render
// targets, the layers of one array texture (outColor: row 0 of the block, into layer 0;
// outColor1: row 1, ...). Per step of four k, a fragment
// fetches four texels of B and BLOCK_ROWS of A for 16 BLOCK_ROWS multiply-adds, where the
// one-value-per-fragment program fetches two values per multiply-add.
//
// Layouts (every size a #define from Python; A_ROWS is M rounded up to a multiple of 8, Q is
// K / 4 rounded up, KPAD = 4 Q; padding is written as zeros, so it adds nothing):
//   a4: texel (r, q) of the grid [A_BATCHES * A_ROWS, Q] holds A(batch, row, 4q .. 4q+3),
//       r = batch * A_ROWS + row; FOLD grid rows share a texture row (FOLD * Q texels wide)
//       when the grid is taller than a texture may be.
//   b4: B's matrices are tiles of KPAD x N4 texels, stacked B_STACK to a column of tiles, the
//       columns side by side (one column where B_BATCHES * KPAD fits a texture's height): texel
//       ((batch / B_STACK) * N4 + c, (batch % B_STACK) * KPAD + k) holds B(batch, k, 4c .. 4c+3).
//   the outputs (the blocks): texel (rb, c) of output (layer) t holds C rows BLOCK_ROWS rb + t, columns 4c .. 4c+3,
//       the rows counted as in a4 (batch * A_ROWS + row).
// A split product (a long K cut into SPLITS batches of partial sums, as for a filter's gradient)
// is summed by the unpack program.

// @program pack_a
// Python adds M, K, Q, A_ROWS, A_BATCHES, FOLD and `float aValue(int batch, int row, int k)`,
// or defines A_VALUES and `vec4 aValues(int batch, int row, int k)` (k, k+1, k+2, k+3; zero
// past K) where four at once are cheaper.
#ifndef A_VALUES
vec4 aValues(int batch, int row, int k) {
  return vec4(aValue(batch, row, k),
              k + 1 < K ? aValue(batch, row, k + 1) : 0.0,
              k + 2 < K ? aValue(batch, row, k + 2) : 0.0,
              k + 3 < K ? aValue(batch, row, k + 3) : 0.0);
}
#endif

void main() {
  ivec2 t = ivec2(gl_FragCoord.xy);
  int fold = t.x / Q;
  int q = t.x - fold * Q;
  int r = t.y * FOLD + fold;
  int batch = r / A_ROWS;
  int row = r - batch * A_ROWS;
  outColor = batch < A_BATCHES && row < M ? aValues(batch, row, 4 * q) : vec4(0.0);
}

// @program pack_b
// Python adds N, N4, K, KPAD, B_BATCHES, B_STACK and `float bValue(int batch, int k, int n)`, or
// defines B_VALUES and `vec4 bValues(int batch, int k, int n)` (n .. n+3; zero past N).
#ifndef B_VALUES
vec4 bValues(int batch, int k, int n) {
  return vec4(bValue(batch, k, n),
              n + 1 < N ? bValue(batch, k, n + 1) : 0.0,
              n + 2 < N ? bValue(batch, k, n + 2) : 0.0,
              n + 3 < N ? bValue(batch, k, n + 3) : 0.0);
}
#endif

void main() {
  ivec2 t = ivec2(gl_FragCoord.xy);
  int stack = t.x / N4;
  int inStack = t.y / KPAD;
  int k = t.y - inStack * KPAD;
  int batch = stack * B_STACK + inStack;
  outColor = k < K && batch < B_BATCHES ? bValues(batch, k, 4 * (t.x - stack * N4)) : vec4(0.0);
}

// @program gemm
// Python adds `int aBatch(int batch)`, `int bBatch(int batch)`: which of A's and B's matrices an
// output batch multiplies (batch dimensions broadcast), divide() (flat_coords's) and the sizes
// A_ROWS, Q, KPAD, N4, B_STACK, FOLD as uniforms, not #defines: one program serves every product
// of the same batch code, where a model's first step compiled one per layer shape (SwiftShader's
// JIT of this program, at its first draw, took 50-200 ms a shape). The loop over Q is not unrolled
// either way; the divisions, per fragment and not per step, go through divide().

ivec2 aPosition(int r) {
  int fold = divide(r, FOLD);
  return ivec2((r - fold * FOLD) * Q, fold);
}

void main() {
  int col = int(gl_FragCoord.x);
  int first = BLOCK_ROWS * int(gl_FragCoord.y);
  int batch = divide(first, A_ROWS);
  int aRow = aBatch(batch) * A_ROWS + first - batch * A_ROWS;
  int bb = bBatch(batch);
  int stack = divide(bb, B_STACK);
  ivec2 bTile = ivec2(stack * N4 + col, (bb - stack * B_STACK) * KPAD);
  ivec2 p0 = aPosition(aRow), p1 = aPosition(aRow + 1), p2 = aPosition(aRow + 2), p3 = aPosition(aRow + 3);
  vec4 c0 = vec4(0.0), c1 = vec4(0.0), c2 = vec4(0.0), c3 = vec4(0.0);
#if BLOCK_ROWS == 8
  ivec2 p4 = aPosition(aRow + 4), p5 = aPosition(aRow + 5), p6 = aPosition(aRow + 6), p7 = aPosition(aRow + 7);
  vec4 c4 = vec4(0.0), c5 = vec4(0.0), c6 = vec4(0.0), c7 = vec4(0.0);
#endif
  for (int q = 0; q < Q; q++) {
    ivec2 k = bTile + ivec2(0, 4 * q);
    // Columns: B's rows k .. k+3, so b * a sums a.x * row k + ... + a.w * row k+3.
    mat4 b = mat4(texelFetch(b4, k, 0), texelFetch(b4, k + ivec2(0, 1), 0),
                  texelFetch(b4, k + ivec2(0, 2), 0), texelFetch(b4, k + ivec2(0, 3), 0));
    ivec2 dq = ivec2(q, 0);
    c0 += b * texelFetch(a4, p0 + dq, 0);
    c1 += b * texelFetch(a4, p1 + dq, 0);
    c2 += b * texelFetch(a4, p2 + dq, 0);
    c3 += b * texelFetch(a4, p3 + dq, 0);
#if BLOCK_ROWS == 8
    c4 += b * texelFetch(a4, p4 + dq, 0);
    c5 += b * texelFetch(a4, p5 + dq, 0);
    c6 += b * texelFetch(a4, p6 + dq, 0);
    c7 += b * texelFetch(a4, p7 + dq, 0);
#endif
  }
  outColor = c0;
  outColor1 = c1;
  outColor2 = c2;
  outColor3 = c3;
#if BLOCK_ROWS == 8
  outColor4 = c4;
  outColor5 = c5;
  outColor6 = c6;
  outColor7 = c7;
#endif
}

// @program flat_coords
// productCoords of a shapeless unpack (gemm.py's unpack with `flat`): the fragment's flat index f
// in the output's texture (outWidth texels a row) is at column f % unpackN of product row
// (p / unpackW) * unpackRowStep + p % unpackW, p = f / unpackN; column_ keeps the column for the
// epilogue's getters. Divisions by uniforms go through float32 (SwiftShader divides integers lane
// by lane), exact for a < 2^24: the quotient is off by at most one, and corrected.
int divide(int a, int b) {
  int q = int(float(a) / float(b));
  q -= int(q * b > a);
  q += int((q + 1) * b <= a);
  return q;
}

void productCoords(out int r, out int col) {
  int f = int(gl_FragCoord.y) * outWidth + int(gl_FragCoord.x);
  int p = divide(f, unpackN);
  col = f - p * unpackN;
  int h = divide(p, unpackW);
  r = h * unpackRowStep + (p - h * unpackW);
  column_ = col;
}

// @program unpack
// The product as a tensor (an ordinary one-value-per-texel program; the fused epilogue may
// redefine setOutput). Python adds `void productCoords(out int r, out int col)`: the row
// (batch * A_ROWS + row for a product) and column of the value this fragment writes, and for a
// split product SPLITS and A_ROWS: the value is the sum of the SPLITS batches' (rows r,
// r + A_ROWS, ...). The packed depthwise convolutions (conv.glsl) write the same layout and
// unpack with this too, their grid folded where it is taller than a texture may be: block row rb
// at texel row rb / BLOCK_FOLD, shifted by (rb % BLOCK_FOLD) * BLOCK_COLUMNS texels.
#ifndef SPLITS
#define SPLITS 1
#endif
#ifndef BLOCK_FOLD
#define BLOCK_FOLD 1
#endif

// blocks: the product's blocks, layer t block t (WebGLBackend.run_packed): one fetch for any t.
vec4 block(int t, ivec2 p) {
  return texelFetch(blocks, ivec3(p, t), 0);
}

void main() {
  int r, col;
  productCoords(r, col);
  // shifts and masks: r and col are not negative, and SwiftShader divides lane by lane
  int rb = BLOCK_ROWS == 8 ? r >> 3 : r >> 2;
#if BLOCK_FOLD > 1
  ivec2 p = ivec2((rb % BLOCK_FOLD) * BLOCK_COLUMNS + (col >> 2), rb / BLOCK_FOLD);
#else
  ivec2 p = ivec2(col >> 2, rb);
#endif
  int t = r & (BLOCK_ROWS - 1);
  vec4 v = block(t, p);
#if SPLITS > 1
  for (int s = 1; s < SPLITS; s++) {
    v += block(t, p + ivec2(0, s * (A_ROWS / BLOCK_ROWS)));
  }
#endif
  setOutput(v[col & 3]);
}
