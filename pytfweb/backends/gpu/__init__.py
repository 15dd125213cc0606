"""The GPU core: what the webgl and webgpu backends share, so that neither imports the other.

  backend           GPUBackend, the base of both backends' data handling (complex parts, pending data)
  shader_source     reading shaders/ (files, `// @program NAME` sections, single functions)
  fusion_graph      lazy elementwise fusion's expression graph and PendingData bookkeeping
  complex_paths     complex64 through the real kernels, part by part
  composed_kernels  Einsum from a backend's own Transpose, Multiply and Sum
  host_kernels      Unique, BroadcastArgs, NonMaxSuppressionV3/V4/V5 computed on the host
  elementwise_ir    the expression IR elementwise op bodies are written in, rendered to GLSL and WGSL
  elementwise_ops   every elementwise op's body, once (shader_source serves them as *_ops.glsl/.wgsl)
  optimizer_ops     the optimizers' fused updates, once (served as optimizers.glsl/.wgsl)

Nothing here imports webgl or webgpu (nor ops and above): import-linter checks it (.importlinter)."""
