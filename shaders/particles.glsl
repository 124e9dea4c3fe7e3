// Particles: one camera-facing quad per particle (instanced), palette colour, alpha-blended, depth-tested without
// depth writes, fogged like the world.  Two looks (u_q2pro):
// 0, QuakeSpasm: GLQuake's R_DrawParticles size, scale = 1 + 0.004 * depth (1.08 closer than 20 units), a round
//    soft-edged disc about 0.95 * scale units across (R_ParticleTextureLookup), opaque;
// 1, Q2PRO (GL_DrawParticles): scale = 1 + 0.004 * depth (1 closer than 20 units) times gl_partscale 2, the
//    16x16 particle texture (gl_partshape 0: alpha 1 - r / 7.5 texels) centred on the particle over a square
//    scale / (1 + sqrt(1/2)) units across, its alpha times the particle's.
// u_min_pixels keeps far particles from vanishing on small targets.
#ifdef VERTEX_SHADER
uniform mat4 u_view_proj;      // clip <- world
uniform vec3 u_right;          // camera right (world)
uniform vec3 u_up;             // camera up (world)
uniform vec2 u_viewport;       // target size in pixels
uniform float u_min_pixels;    // smallest on-screen diameter
uniform sampler2D u_palette;   // 256x1 RGBA8
uniform int u_q2pro;           // 1: Q2PRO's size and spot

in vec2 in_corner;             // per vertex: (+-1, +-1)
in vec3 in_position;           // per instance
in float in_size;
in uint in_color;
in float in_alpha;

out vec2 v_uv;
out vec4 v_color;

void main() {
    vec4 centre = u_view_proj * vec4(in_position, 1.0);
    float depth = centre.w;                       // distance along the view direction
    float radius;
    if (u_q2pro == 1) {
        float scale = (depth > 20.0 ? 1.0 + depth * 0.004 : 1.0) * 2.0 * in_size;
        radius = scale * 0.5 / 1.70710678;        // half the texture's side: scale * PARTICLE_SCALE
    } else {
        float scale = depth < 20.0 ? 1.08 : 1.0 + depth * 0.004;
        radius = 0.476 * scale * in_size;         // 1.5 * 0.5 (disc in the texture) * 1.27 / 2
    }
    float px_per_unit = abs((u_view_proj * vec4(u_up, 0.0)).y) / max(depth, 1e-3) * 0.5 * u_viewport.y;
    radius = max(radius, 0.5 * u_min_pixels / max(px_per_unit, 1e-6));
    vec3 p = in_position + (in_corner.x * u_right + in_corner.y * u_up) * radius;
    gl_Position = u_view_proj * vec4(p, 1.0);
    v_uv = in_corner;
    v_color = vec4(texelFetch(u_palette, ivec2(int(in_color), 0), 0).rgb, in_alpha);
}
#endif

#ifdef FRAGMENT_SHADER
uniform vec4 u_fog;            // rgb colour, a = density (0: no fog), exp2 on the eye depth as the world
uniform int u_q2pro;
in vec2 v_uv;
in vec4 v_color;
out vec4 f_color;

void main() {
    float a;
    if (u_q2pro == 1) {
        // GL_InitParticleTexture: 1 - r / 7.5 over a 16-texel square (r from its centre, in texels)
        a = clamp(1.0 - length(v_uv) * 8.0 / 7.5, 0.0, 1.0);
    } else {
        // R_ParticleTextureLookup: alpha = 8 * (255 - r^2) over a radius-16 circle, clamped
        a = clamp(8.0 * (1.0 - dot(v_uv, v_uv)), 0.0, 1.0);
    }
    a *= v_color.a;
    if (a <= 0.0) discard;
    float d = u_fog.a / 64.0 / gl_FragCoord.w;
    f_color = vec4(mix(u_fog.rgb, v_color.rgb, clamp(exp(-d * d), 0.0, 1.0)), a);
}
#endif
