// Sprites (.spr): one quad built from gl_VertexID (triangle strip of 4) in the plane spanned by u_up/u_right,
// alpha-tested on the transparent palette index (alpha 0 in the RGBA frame texture). Unlit, like the engines;
// fogged like the world.
#ifdef VERTEX_SHADER
uniform mat4 u_view_proj;   // clip <- world
uniform vec3 u_origin;      // entity origin, world units
uniform vec3 u_up;          // sprite up axis (world, unit length times scale)
uniform vec3 u_right;       // sprite right axis
uniform vec4 u_rect;        // left, right, down, up offsets of the picture along u_right / u_up

out vec2 v_uv;

void main() {
    // 0: down-left, 1: up-left, 2: down-right, 3: up-right
    float rx = float(gl_VertexID >> 1);
    float uy = float(gl_VertexID & 1);
    vec3 pos = u_origin + u_right * mix(u_rect.x, u_rect.y, rx) + u_up * mix(u_rect.z, u_rect.w, uy);
    v_uv = vec2(rx, 1.0 - uy);     // texture row 0 is the picture's top row
    gl_Position = u_view_proj * vec4(pos, 1.0);
}
#endif

#ifdef FRAGMENT_SHADER
uniform sampler2D u_image;  // RGBA8, alpha 0 where the index is 255
uniform float u_alpha;      // entity alpha, 1 = opaque
uniform vec4 u_fog;         // rgb colour, a = density (0: no fog), exp2 on the eye depth as the world

in vec2 v_uv;
out vec4 f_color;

void main() {
    vec4 c = texture(u_image, v_uv);
    if (c.a < 0.5)
        discard;
    float d = u_fog.a / 64.0 / gl_FragCoord.w;
    f_color = vec4(mix(u_fog.rgb, c.rgb, clamp(exp(-d * d), 0.0, 1.0)), u_alpha);
}
#endif
