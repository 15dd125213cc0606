// The TF.js twins of pytfweb/host/bench_models.py, built from tf.layers with random weights, for
// `pytfweb bench` (web/bench.html loads this file after TF.js). Change the two together.

// (pointwise filters, strides) of the 13 depthwise-separable blocks
const MOBILENET_V1_BLOCKS = [[64, 1], [128, 2], [128, 1], [256, 2], [256, 1], [512, 2], [512, 1], [512, 1],
                             [512, 1], [512, 1], [512, 1], [1024, 2], [1024, 1]];

// MobileNet v1 1.0 (alpha 1.0, 224x224x3), the Keras / TF.js architecture: 4,253,864 parameters.
function mobilenetV1(classes = 1000, dropout = 1e-3) {
  const inputs = tf.input({shape: [224, 224, 3], name: 'input_1'});
  let x = tf.layers.conv2d({filters: 32, kernelSize: 3, padding: 'same', useBias: false, strides: 2,
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
    x = tf.layers.conv2d({filters, kernelSize: 1, padding: 'same', useBias: false, name: `conv_pw_${id}`}).apply(x);
    x = tf.layers.batchNormalization({name: `conv_pw_${id}_bn`}).apply(x);
    x = tf.layers.reLU({maxValue: 6, name: `conv_pw_${id}_relu`}).apply(x);
  });
  x = tf.layers.globalAveragePooling2d({name: 'global_average_pooling2d'}).apply(x);
  x = tf.layers.reshape({targetShape: [1, 1, 1024], name: 'reshape_1'}).apply(x);
  x = tf.layers.dropout({rate: dropout, name: 'dropout'}).apply(x);
  x = tf.layers.conv2d({filters: classes, kernelSize: 1, padding: 'same', name: 'conv_preds'}).apply(x);
  x = tf.layers.reshape({targetShape: [classes], name: 'reshape_2'}).apply(x);
  const outputs = tf.layers.activation({activation: 'softmax', name: 'predictions'}).apply(x);
  return tf.model({inputs, outputs, name: 'mobilenet_1.00_224'});
}
