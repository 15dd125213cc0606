// Pixels (pytfweb/backends/webgl/programs/pixels.py).

// @program from_pixels
// Output [height, width, channels] (int32 values in [0, 255]); `pixels` is an RGBA8 texture
// of the image (normalised on read), one texel per pixel, row 0 at the top.
void main() {
  ivec3 c = getOutputCoords();
  vec4 texel = texelFetch(pixels, ivec2(c.y, c.x), 0);
  setOutput(floor(texel[c.z] * 255.0 + 0.5));
}
