#version 300 es
// A unit quad covering the viewport; fragments find their output texel from gl_FragCoord.
in vec2 clipSpacePos;

void main() {
  gl_Position = vec4(clipSpacePos, 0.0, 1.0);
}
