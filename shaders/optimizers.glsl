// Optimizer updates, one program per output (programs/optimizers.py): each optimizer's float32
// steps (train/*.py) in their order. A program is a `<optimizer>_common` section (the new slot
// values) and a `<optimizer>_<output>` main. Inputs are the variable `value`, its `gradient`
// and its slots (one shape), and scalars; uniforms come from the hyper-parameters. Python
// prepends op_Sqrt, op_Abs, op_Maximum and the helpers section.

// @program helpers
// NaN in gives NaN out, as the unary ops' programs do
float sqrtOf(float x) { return isNaN(x) ? x : op_Sqrt(x); }
float absOf(float x) { return isNaN(x) ? x : op_Abs(x); }

// @program sgd_common

// @program sgd_value
void main() { setOutput(negLearningRate * getGradientAtOutCoords() + getValueAtOutCoords()); }

// @program momentum_common
float newAccumulation() { return momentum * getAccumulationAtOutCoords() + getGradientAtOutCoords(); }

// @program momentum_accumulation
void main() { setOutput(newAccumulation()); }

// @program momentum_value
void main() { setOutput(negLearningRate * newAccumulation() + getValueAtOutCoords()); }

// @program momentum_nesterov_value
void main() {
  setOutput(negLearningRate * (getGradientAtOutCoords() + newAccumulation() * momentum) + getValueAtOutCoords());
}

// @program rmsprop_common
float newMs() {
  float g = getGradientAtOutCoords();
  return getMsAtOutCoords() * decay + g * g * oneMinusDecay;
}
float newMom() {
  return getMomAtOutCoords() * momentum + getGradientAtOutCoords() * learningRate / sqrtOf(newMs() + epsilon);
}

// @program rmsprop_centered_common
float newMs() {
  float g = getGradientAtOutCoords();
  return getMsAtOutCoords() * decay + g * g * oneMinusDecay;
}
float newMg() { return getMgAtOutCoords() * decay + getGradientAtOutCoords() * oneMinusDecay; }
float newMom() {
  float mg = newMg();
  return getMomAtOutCoords() * momentum
         + getGradientAtOutCoords() * learningRate / sqrtOf(newMs() - (mg * mg + epsilon));
}

// @program rmsprop_ms
void main() { setOutput(newMs()); }

// @program rmsprop_mg
void main() { setOutput(newMg()); }

// @program rmsprop_mom
void main() { setOutput(newMom()); }

// @program rmsprop_value
void main() { setOutput(getValueAtOutCoords() - newMom()); }

// @program adagrad_common
float newAccumulator() {
  float g = getGradientAtOutCoords();
  return getAccumulatorAtOutCoords() + g * g;
}

// @program adagrad_accumulator
void main() { setOutput(newAccumulator()); }

// @program adagrad_value
void main() {
  setOutput(getGradientAtOutCoords() / sqrtOf(newAccumulator() + epsilon) * negLearningRate + getValueAtOutCoords());
}

// @program adadelta_common
float newAccumGrad() {
  float g = getGradientAtOutCoords();
  return getAccumGradAtOutCoords() * rho + g * g * oneMinusRho;
}
// TF.js's: the previous accumulated gradient, not the new one
float updates() {
  return sqrtOf(getAccumVarAtOutCoords() + epsilon) / sqrtOf(getAccumGradAtOutCoords() + epsilon)
         * getGradientAtOutCoords();
}

// @program adadelta_accumGrad
void main() { setOutput(newAccumGrad()); }

// @program adadelta_accumVar
void main() {
  float u = updates();
  setOutput(getAccumVarAtOutCoords() * rho + u * u * oneMinusRho);
}

// @program adadelta_value
void main() { setOutput(updates() * negLearningRate + getValueAtOutCoords()); }

// @program adamax_common
float newM() { return getMAtOutCoords() * beta1 + getGradientAtOutCoords() * oneMinusBeta1; }
float newV() { return op_Maximum(getVAtOutCoords() * beta2, absOf(getGradientAtOutCoords())); }

// @program adamax_m
void main() { setOutput(newM()); }

// @program adamax_v
void main() { setOutput(newV()); }

// @program adamax_value
void main() {
  setOutput(getLrAtOutCoords() / getOneMinusAccBeta1AtOutCoords() * (newM() / (newV() + epsilon))
            + getValueAtOutCoords());
}

// @program adam_common
float newM() { return getMAtOutCoords() * beta1 + getGradientAtOutCoords() * oneMinusBeta1; }
float newV() {
  float g = getGradientAtOutCoords();
  return getVAtOutCoords() * beta2 + g * g * oneMinusBeta2;
}

// @program adam_m
void main() { setOutput(newM()); }

// @program adam_v
void main() { setOutput(newV()); }

// @program adam_value
void main() {
  float m = newM() / getOneMinusAccBeta1AtOutCoords();
  float v = newV() / getOneMinusAccBeta2AtOutCoords();
  setOutput(m / (sqrtOf(v) + epsilon) * negLearningRate + getValueAtOutCoords());
}
