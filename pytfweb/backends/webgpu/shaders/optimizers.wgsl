// Optimizer updates (programs/optimizers.py): each optimizer's float32 steps (train/*.py) in
// their order, as cpu's kernels. Per optimizer (a prefix): `<prefix>_<slot>(i)`, a slot's new
// value at flat index i from the old values, and `<prefix>_value(i, ...)`, the variable's, given
// the new slots in the kernel's slot order (computed in the same dispatch, or read back from the
// slots an earlier dispatch stored). Python writes main and takes the functions each dispatch
// calls. Bindings, by name: `value`, `gradient`, each slot, the scalar tensors (one value, read at
// [0]); the hyper-parameters are uniforms (a changed learning rate compiles nothing).

// NaN in gives NaN out, as the unary ops' programs do
fn sqrtOf(x: f32) -> f32 { return select(op_Sqrt(x), x, isNan(x)); }

fn sgd_value(i: i32) -> f32 { return u.negLearningRate * gradient[i] + value[i]; }

fn momentum_accumulation(i: i32) -> f32 { return u.momentum * accumulation[i] + gradient[i]; }

fn momentum_value(i: i32, acc: f32) -> f32 {
  let plain = u.negLearningRate * acc;
  let nesterov = u.negLearningRate * (gradient[i] + acc * u.momentum);
  return select(plain, nesterov, u.nesterov != 0) + value[i];
}

fn rmsprop_ms(i: i32) -> f32 {
  let g = gradient[i];
  return ms[i] * u.decay + g * g * u.oneMinusDecay;
}

fn rmsprop_mom(i: i32) -> f32 {
  return mom[i] * u.momentum + gradient[i] * u.learningRate / sqrtOf(rmsprop_ms(i) + u.epsilon);
}

fn rmsprop_value(i: i32, nms: f32, nmom: f32) -> f32 { return value[i] - nmom; }

// centered: the mean gradient mg too, subtracted from the mean square with epsilon (TF.js's)
fn rmspropc_ms(i: i32) -> f32 { return rmsprop_ms(i); }

fn rmspropc_mg(i: i32) -> f32 { return mg[i] * u.decay + gradient[i] * u.oneMinusDecay; }

fn rmspropc_mom(i: i32) -> f32 {
  let nmg = rmspropc_mg(i);
  return mom[i] * u.momentum + gradient[i] * u.learningRate / sqrtOf(rmsprop_ms(i) - (nmg * nmg + u.epsilon));
}

fn rmspropc_value(i: i32, nms: f32, nmom: f32, nmg: f32) -> f32 { return value[i] - nmom; }

fn adagrad_accumulator(i: i32) -> f32 {
  let g = gradient[i];
  return accumulator[i] + g * g;
}

fn adagrad_value(i: i32, acc: f32) -> f32 {
  return gradient[i] / sqrtOf(acc + u.epsilon) * u.negLearningRate + value[i];
}

fn adadelta_accumGrad(i: i32) -> f32 {
  let g = gradient[i];
  return accumGrad[i] * u.rho + g * g * u.oneMinusRho;
}

// TF.js's: from the previous accumulated gradient, not the new one
fn adadelta_updates(i: i32) -> f32 {
  return sqrtOf(accumVar[i] + u.epsilon) / sqrtOf(accumGrad[i] + u.epsilon) * gradient[i];
}

fn adadelta_accumVar(i: i32) -> f32 {
  let d = adadelta_updates(i);
  return accumVar[i] * u.rho + d * d * u.oneMinusRho;
}

fn adadelta_value(i: i32, ngrad: f32, nvar: f32) -> f32 {
  return adadelta_updates(i) * u.negLearningRate + value[i];
}

fn adamax_m(i: i32) -> f32 { return m[i] * u.beta1 + gradient[i] * u.oneMinusBeta1; }

fn adamax_v(i: i32) -> f32 { return op_Maximum(v[i] * u.beta2, op_Abs(gradient[i])); }

fn adamax_value(i: i32, nm: f32, nv: f32) -> f32 {
  return lr[0] / oneMinusAccBeta1[0] * (nm / (nv + u.epsilon)) + value[i];
}

fn adam_m(i: i32) -> f32 { return adamax_m(i); }

fn adam_v(i: i32) -> f32 {
  let g = gradient[i];
  return v[i] * u.beta2 + g * g * u.oneMinusBeta2;
}

fn adam_value(i: i32, nm: f32, nv: f32) -> f32 {
  let mHat = nm / oneMinusAccBeta1[0];
  let vHat = nv / oneMinusAccBeta2[0];
  return mHat / (sqrtOf(vHat) + u.epsilon) * u.negLearningRate + value[i];
}
