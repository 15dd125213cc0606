"""tf.fused: mat_mul, conv2d and depthwise_conv2d with bias and activation in one kernel (being written)."""
__all__ = []
