// The placeholder floor of a demo whose map is missing: a square of grid lines at one height, centred under the
// camera (a line every 64 units, a brighter one every 512), fading out with distance.
#ifdef VERTEX_SHADER
uniform mat4 u_view_proj;
uniform vec3 u_centre;      // x, y under the camera; z = the floor's height
uniform float u_half;       // half the square's side
out vec2 v_xy;
void main() {
    const vec2 corners[6] = vec2[6](vec2(-1, -1), vec2(1, -1), vec2(1, 1), vec2(-1, -1), vec2(1, 1), vec2(-1, 1));
    v_xy = u_centre.xy + corners[gl_VertexID] * u_half;
    gl_Position = u_view_proj * vec4(v_xy, u_centre.z, 1.0);
}
#endif

#ifdef FRAGMENT_SHADER
uniform vec3 u_centre;
uniform float u_half;
uniform vec3 u_ground;
uniform vec3 u_line;
uniform vec3 u_sky;
in vec2 v_xy;
out vec4 f_color;

float grid(float spacing) {
    vec2 cell = v_xy / spacing;
    vec2 width = fwidth(cell);
    vec2 near_line = abs(fract(cell - 0.5) - 0.5) / max(width, vec2(1e-4));
    return 1.0 - min(min(near_line.x, near_line.y), 1.0);
}

void main() {
    float line = max(grid(64.0) * 0.55, grid(512.0));
    vec3 colour = mix(u_ground, u_line, line);
    float fade = smoothstep(u_half * 0.3, u_half, distance(v_xy, u_centre.xy));
    f_color = vec4(mix(colour, u_sky, fade), 1.0);
}
#endif
