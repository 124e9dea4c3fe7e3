// Brush surfaces: diffuse texture (alpha = fullbright mask) x lightmap styles; liquids warp; sky scrolls.
// References: GLQuake gl_rsurf.c (R_BuildLightMap styles, EmitWaterPolys turbulence), gl_warp.c (EmitSkyPolys).
#ifdef VERTEX_SHADER
uniform mat4 u_view_proj;
uniform mat4 u_model;
uniform float u_styles[64];      // light style values (1.0 = normal, 'm')
in vec3 in_position;
in vec2 in_uv;
in vec2 in_lm_uv;
in float in_lm_step;
in uvec4 in_styles;
out vec2 v_uv;
out vec2 v_lm_uv;
flat out float v_lm_step;
flat out vec4 v_style_weights;   // the current value of each of the face's 4 styles, 0 for unused slots
out vec3 v_world;
void main() {
    vec4 world = u_model * vec4(in_position, 1.0);
    v_world = world.xyz;
    v_uv = in_uv;
    v_lm_uv = in_lm_uv;
    v_lm_step = in_lm_step;
    for (int k = 0; k < 4; ++k) {
        v_style_weights[k] = in_styles[k] == 255u ? 0.0 : u_styles[in_styles[k]];
    }
    gl_Position = u_view_proj * world;
}
#endif

#ifdef FRAGMENT_SHADER
const int MODE_LIT = 0;
const int MODE_LIQUID = 1;
const int MODE_SKY = 2;
uniform int u_mode;
uniform sampler2D u_texture;     // RGB colour, A = 1 where the palette index is fullbright
uniform sampler2D u_lightmap;    // RGB atlas, styles side by side
uniform sampler2D u_sky_back;    // sky: solid layer (right half of the sky texture)
uniform float u_time;
uniform vec2 u_texture_size;     // texels, for the liquid warp
uniform vec3 u_camera;
uniform float u_liquid_alpha;
uniform vec4 u_fog;              // rgb colour, a = density (0 = no fog)
in vec2 v_uv;
in vec2 v_lm_uv;
flat in float v_lm_step;
flat in vec4 v_style_weights;
in vec3 v_world;
out vec4 f_color;

vec3 apply_fog(vec3 color) {
    if (u_fog.a <= 0.0) return color;
    float d = u_fog.a / 64.0 * length(v_world - u_camera);
    return mix(u_fog.rgb, color, clamp(exp(-d * d), 0.0, 1.0));
}

void main() {
    if (u_mode == MODE_SKY) {
        vec3 dir = v_world - u_camera;
        dir.z *= 3.0;
        vec2 st = dir.xy * (6.0 * 63.0 / length(dir)) / 128.0;
        vec4 back = texture(u_sky_back, st + vec2(u_time * 8.0 / 128.0));
        vec4 front = texture(u_texture, st + vec2(u_time * 16.0 / 128.0));
        f_color = vec4(mix(back.rgb, front.rgb, front.a), 1.0);
        return;
    }
    if (u_mode == MODE_LIQUID) {
        vec2 texel = v_uv * u_texture_size;
        vec2 warped = texel + 8.0 * sin(texel.yx * 0.125 + u_time);
        vec3 color = texture(u_texture, warped / u_texture_size).rgb;
        f_color = vec4(apply_fog(color), u_liquid_alpha);
        return;
    }
    vec4 tex = texture(u_texture, v_uv);
    // Most faces have one style: skip the other blocks' fetches when their weight is zero.
    vec3 light = texture(u_lightmap, v_lm_uv).rgb * v_style_weights.x;
    for (int k = 1; k < 4; ++k) {
        if (v_style_weights[k] > 0.0) {
            light += texture(u_lightmap, v_lm_uv + vec2(float(k) * v_lm_step, 0.0)).rgb * v_style_weights[k];
        }
    }
    // Overbright as QuakeSpasm: a lightmap value of 128 is the texture's own colour, 255 is twice as bright.
    vec3 lit = tex.rgb * min(light * 2.0, vec3(2.0));
    f_color = vec4(apply_fog(mix(lit, tex.rgb, tex.a)), 1.0);
}
#endif
