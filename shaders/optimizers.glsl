// Optimizer updates, one program per output (programs/optimizers.py): the optimizer's float32
// steps (train/*.py) in their order. Inputs value, gradient, m, v (one shape) and the scalars
// oneMinusAccBeta1, oneMinusAccBeta2; uniforms from the hyper-parameters. Python prepends op_Sqrt.

// @program adam_moments
float newFirstMoment() { return getMAtOutCoords() * beta1 + getGradientAtOutCoords() * oneMinusBeta1; }
float newSecondMoment() {
  float g = getGradientAtOutCoords();
  return getVAtOutCoords() * beta2 + g * g * oneMinusBeta2;
}

// @program adam_m
void main() { setOutput(newFirstMoment()); }

// @program adam_v
void main() { setOutput(newSecondMoment()); }

// @program adam_value
void main() {
  float m = newFirstMoment() / getOneMinusAccBeta1AtOutCoords();
  float v = newSecondMoment() / getOneMinusAccBeta2AtOutCoords();
  setOutput(m / (op_Sqrt(v) + epsilon) * negLearningRate + getValueAtOutCoords());
}
