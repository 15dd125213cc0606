// The TF.js twins of pytfweb/host/bench_models.py, built from tf.layers with random weights, for
// `pytfweb bench` (web/bench.html loads this file after TF.js). Change the two together.

// (pointwise filters, strides) of the 13 depthwise-separable blocks
const MOBILENET_V1_BLOCKS = [[64, 1], [128, 2], [128, 1], [256, 2], [256, 1], [512, 2], [512, 1], [512, 1],
                             [512, 1], [512, 1], [512, 1], [1024, 2], [1024, 1]];

// MobileNet v1 (width alpha, size x size x 3 in), the Keras / TF.js architecture; alpha 1.0 at 224:
// 4,253,864 parameters.
function mobilenetV1(alpha = 1.0, size = 224, classes = 1000, dropout = 1e-3) {
  const inputs = tf.input({shape: [size, size, 3], name: 'input_1'});
  let x = tf.layers.conv2d({filters: Math.trunc(32 * alpha), kernelSize: 3, padding: 'same', useBias: false,
                            strides: 2,
                            name: 'conv1'}).apply(inputs);
  x = tf.layers.batchNormalization({axis: -1, name: 'conv1_bn'}).apply(x);
  x = tf.layers.reLU({maxValue: 6, name: 'conv1_relu'}).apply(x);
  MOBILENET_V1_BLOCKS.forEach(([filters, strides], i) => {
    const id = i + 1;
    if (strides !== 1) x = tf.layers.zeroPadding2d({padding: [[0, 1], [0, 1]], name: `conv_pad_${id}`}).apply(x);
    x = tf.layers.depthwiseConv2d({kernelSize: 3, padding: strides === 1 ? 'same' : 'valid', strides,
                                   useBias: false, name: `conv_dw_${id}`}).apply(x);
    x = tf.layers.batchNormalization({name: `conv_dw_${id}_bn`}).apply(x);
    x = tf.layers.reLU({maxValue: 6, name: `conv_dw_${id}_relu`}).apply(x);
    x = tf.layers.conv2d({filters: Math.trunc(filters * alpha), kernelSize: 1, padding: 'same', useBias: false,
                          name: `conv_pw_${id}`}).apply(x);
    x = tf.layers.batchNormalization({name: `conv_pw_${id}_bn`}).apply(x);
    x = tf.layers.reLU({maxValue: 6, name: `conv_pw_${id}_relu`}).apply(x);
  });
  x = tf.layers.globalAveragePooling2d({name: 'global_average_pooling2d'}).apply(x);
  x = tf.layers.reshape({targetShape: [1, 1, Math.trunc(1024 * alpha)], name: 'reshape_1'}).apply(x);
  x = tf.layers.dropout({rate: dropout, name: 'dropout'}).apply(x);
  x = tf.layers.conv2d({filters: classes, kernelSize: 1, padding: 'same', name: 'conv_preds'}).apply(x);
  x = tf.layers.reshape({targetShape: [classes], name: 'reshape_2'}).apply(x);
  const outputs = tf.layers.activation({activation: 'softmax', name: 'predictions'}).apply(x);
  return tf.model({inputs, outputs, name: `mobilenet_${alpha.toFixed(2)}_${size}`});
}

// The convnet of TF.js's MNIST tutorial: conv 5x5 (8) -> max pool -> conv 5x5 (16) -> max pool ->
// flatten -> dense softmax (10), on 28x28x1 images.
function smallConvnet() {
  return tf.sequential({layers: [
    tf.layers.conv2d({inputShape: [28, 28, 1], kernelSize: 5, filters: 8, activation: 'relu',
                      kernelInitializer: 'varianceScaling'}),
    tf.layers.maxPooling2d({poolSize: 2, strides: 2}),
    tf.layers.conv2d({kernelSize: 5, filters: 16, activation: 'relu', kernelInitializer: 'varianceScaling'}),
    tf.layers.maxPooling2d({poolSize: 2, strides: 2}),
    tf.layers.flatten(),
    tf.layers.dense({units: 10, activation: 'softmax', kernelInitializer: 'varianceScaling'}),
  ]});
}

// A 3-layer perceptron on flattened 28x28 images: dense 128 relu, dense 64 relu, dense 10 softmax;
// with dropout > 0, a dropout layer of that rate after each relu layer.
function mlp(dropout = 0) {
  const drop = () => (dropout ? [tf.layers.dropout({rate: dropout})] : []);
  return tf.sequential({layers: [
    tf.layers.dense({inputShape: [784], units: 128, activation: 'relu'}), ...drop(),
    tf.layers.dense({units: 64, activation: 'relu'}), ...drop(),
    tf.layers.dense({units: 10, activation: 'softmax'}),
  ]});
}

// The zoo's input (`pytfweb bench --only zoo`): the JS twin of zoo_input in pytfweb/host/bench_zoo.py (change
// the two together). The catalog's photo decoded by the browser, read by tf.browser.fromPixels,
// resized (bilinear), grayscale by the luma weights for one channel, then pixels * scale + offset
// (float32) or the raw 0..255 values (int32).
async function zooInput(photoUrl, size, channels, dtype, scale, offset) {
  const img = new Image();
  img.src = photoUrl;
  await img.decode();
  return tf.tidy(() => {
    let x = tf.image.resizeBilinear(tf.expandDims(tf.browser.fromPixels(img, 3), 0), [size, size]);
    if (channels === 1) x = tf.image.rgbToGrayscale(x);
    return dtype === 'int32' ? tf.cast(x, 'int32') : tf.add(tf.mul(x, scale), offset);
  });
}
