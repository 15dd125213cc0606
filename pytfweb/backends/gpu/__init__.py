"""What the GPU backends (webgl, webgpu) share: code that depends on neither's API."""
