// Batched matrix products (programs/matmul.py): one fragment per output value, looping over
// the inner dimension. a, b and the output are read as 3D, [batch, rows, columns]. Python
// prepends K (the inner size), A(batch, m, k) and B(batch, k, n), getA and getB with the
// indices in the order transposes put them, and
//   int aBatch(int batch), int bBatch(int batch)
// which of a's and b's matrices an output batch uses (batch dimensions broadcast).

// @program batch_mat_mul
void main() {
  ivec3 c = getOutputCoords();
  int batchA = aBatch(c.x);
  int batchB = bBatch(c.x);
  float acc = 0.0;
  for (int k = 0; k < K; k++) {
    acc += A(batchA, c.y, k) * B(batchB, k, c.z);
  }
  setOutput(acc);
}
