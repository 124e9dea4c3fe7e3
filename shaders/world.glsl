// Brush surfaces: diffuse texture (alpha = fullbright mask) x lightmap styles; liquids warp; sky scrolls.
// References: GLQuake gl_rsurf.c (R_BuildLightMap styles, R_AddDynamicLights, EmitWaterPolys turbulence),
// gl_warp.c (EmitSkyPolys).
//
// One source, several programs (world.py compiles each with #defines and picks one per draw): a software
// rasterizer (Mesa llvmpipe) runs both sides of every branch with lane masks, so each program carries only what its
// surfaces need.
//   SKY         two scrolling layers;                     LIQUID   turbulent warp, translucent;
//   SKYBOX      (with SKY) Quake II's six-sided box;      TRANSLUCENT  unlit texture at u_alpha (Quake II);
//   (neither)   lit: texture x lightmap x light style value, scaled by LIGHTMAP_SCALE;
//   FULLBRIGHTS (lit) texels with alpha 1 unlit (Quake's fullbright palette range; Quake II has none);
//   MULTISTYLE  lit faces with 2-4 light styles (4 lightmap blocks side by side; most faces have one);
//   FOG         exp2 fog on the eye depth (1 / gl_FragCoord.w, as fixed-function fog); the sky is covered by
//               u_sky_fog of the fog colour instead (QuakeSpasm r_skyfog);
//   DLIGHTS     up to 32 dynamic lights added to the lightmap light (only while lights are alive);
//   TEXTURE_ARRAY (lit, translucent) the texture is a layer of an array, its number a vertex attribute.
#ifdef VERTEX_SHADER
uniform mat4 u_view_proj;
uniform mat4 u_model;
in vec3 in_position;
#ifdef SKY
uniform vec3 u_camera;
out vec3 v_dir;
#else
uniform float u_scroll;          // SURF_FLOWING: texture widths scrolled along s
in vec2 in_uv;
out vec2 v_uv;
#endif
#ifdef TEXTURE_ARRAY
in float in_layer;               // the texture's layer in the array of its size
flat out float v_layer;
#endif
#ifdef LIT
uniform float u_styles[64];      // light style values (1.0 = normal, 'm')
in vec2 in_lm_uv;
in uvec4 in_styles;
out vec2 v_lm_uv;
#ifdef MULTISTYLE
in float in_lm_step;
flat out float v_lm_step;
flat out vec4 v_style_weights;   // the current value of each of the face's 4 styles, 0 for unused slots
#else
flat out float v_style_weight;
#endif
#ifdef DLIGHTS
out vec3 v_world;
#endif
#endif
void main() {
    vec4 world = u_model * vec4(in_position, 1.0);
#ifdef SKY
    v_dir = world.xyz - u_camera;
#else
    v_uv = in_uv + vec2(u_scroll, 0.0);
#endif
#ifdef TEXTURE_ARRAY
    v_layer = in_layer;
#endif
#ifdef LIT
    v_lm_uv = in_lm_uv;
#ifdef MULTISTYLE
    v_lm_step = in_lm_step;
    for (int k = 0; k < 4; ++k) {
        v_style_weights[k] = in_styles[k] == 255u ? 0.0 : u_styles[in_styles[k]];
    }
#else
    v_style_weight = in_styles.x == 255u ? 0.0 : u_styles[in_styles.x];
#endif
#ifdef DLIGHTS
    v_world = world.xyz;
#endif
#endif
    gl_Position = u_view_proj * world;
}
#endif

#ifdef FRAGMENT_SHADER
#ifdef TEXTURE_ARRAY
uniform sampler2DArray u_texture; // the plain textures of one size, a layer each (texture_arrays.py)
flat in float v_layer;
#define TEXEL(uv) texture(u_texture, vec3(uv, v_layer))
#else
uniform sampler2D u_texture;     // RGB colour, A = 1 where the palette index is fullbright (sky: front layer)
#define TEXEL(uv) texture(u_texture, uv)
#endif
out vec4 f_color;

#ifdef FOG
uniform vec4 u_fog;              // rgb colour, a = density
vec3 apply_fog(vec3 color) {
    float d = u_fog.a / 64.0 / gl_FragCoord.w;  // 1/w = eye depth, QuakeSpasm's GL_EXP2 fog coordinate
    return mix(u_fog.rgb, color, clamp(exp(-d * d), 0.0, 1.0));
}
#else
vec3 apply_fog(vec3 color) { return color; }
#endif

#if defined(SKYBOX)
// Quake II's MakeSkyVec puts rt on +X, bk on +Y, lf on -X, ft on -Y, up on +Z, dn on -Z (layers 0..5); st runs
// over [-1, 1] along each picture's columns and upwards, and the picture's top row is at t = +1.
uniform sampler2DArray u_sky_box;
uniform mat3 u_sky_rotation;     // view direction -> the turning box's frame
in vec3 v_dir;
void main() {
    vec3 d = u_sky_rotation * v_dir;
    vec3 a = abs(d);
    float layer;
    vec2 st;
    if (a.x >= a.y && a.x >= a.z) {
        layer = d.x > 0.0 ? 0.0 : 2.0;
        st = vec2(d.x > 0.0 ? -d.y : d.y, d.z) / a.x;
    } else if (a.y >= a.z) {
        layer = d.y > 0.0 ? 1.0 : 3.0;
        st = vec2(d.y > 0.0 ? d.x : -d.x, d.z) / a.y;
    } else {
        layer = d.z > 0.0 ? 4.0 : 5.0;
        st = vec2(-d.y, d.z > 0.0 ? -d.x : d.x) / a.z;
    }
    f_color = vec4(texture(u_sky_box, vec3((st.x + 1.0) * 0.5, (1.0 - st.y) * 0.5, layer)).rgb, 1.0);
}

#elif defined(SKY)
uniform sampler2D u_sky_back;    // solid layer (right half of the sky texture)
uniform float u_time;
#ifdef FOG
uniform float u_sky_fog;         // share of the fog colour over the sky
#endif
in vec3 v_dir;
void main() {
    vec3 dir = v_dir;
    dir.z *= 3.0;
    vec2 st = dir.xy * (6.0 * 63.0 / length(dir)) / 128.0;
    vec4 back = texture(u_sky_back, st + vec2(u_time * 8.0 / 128.0));
    vec4 front = texture(u_texture, st + vec2(u_time * 16.0 / 128.0));
    vec3 color = mix(back.rgb, front.rgb, front.a);
#ifdef FOG
    color = mix(color, u_fog.rgb, u_sky_fog);
#endif
    f_color = vec4(color, 1.0);
}

#elif defined(LIQUID)
uniform float u_time;
uniform vec2 u_texture_size;     // texels, for the warp
uniform float u_liquid_alpha;
in vec2 v_uv;
void main() {
    vec2 texel = v_uv * u_texture_size;
    vec2 warped = texel + 8.0 * sin(texel.yx * 0.125 + u_time);
    vec3 color = texture(u_texture, warped / u_texture_size).rgb;
    f_color = vec4(apply_fog(color), u_liquid_alpha);
}

#elif defined(TRANSLUCENT)
uniform float u_alpha;
in vec2 v_uv;
void main() {
    f_color = vec4(apply_fog(TEXEL(v_uv).rgb), u_alpha);
}

#else
uniform sampler2D u_lightmap;    // RGB atlas, styles side by side
// Compiled in by world.py (constants llvmpipe folds): TEXTURE_SCALE (clamped at 1) and LIGHTMAP_SCALE (Lighting in
// refdef.py), LIGHT_MAX the largest light multiplier (Look.light_max).
in vec2 v_uv;
in vec2 v_lm_uv;
#ifdef MULTISTYLE
flat in float v_lm_step;
flat in vec4 v_style_weights;
#else
flat in float v_style_weight;
#endif

#ifdef DLIGHTS
// R_AddDynamicLights: a light of radius r at distance d from the surface plane has r' = r - |d| left; at in-plane
// distance x it adds r' - x (lightmap units, 255 = 1.0) where x < r' - minlight, times its colour.
const float DLIGHT_MINLIGHT = 0.0;
uniform vec4 u_dlights[32];      // xyz origin, w radius
uniform vec3 u_dlight_colors[32];
uniform int u_dlight_count;
in vec3 v_world;
vec3 dynamic_light() {
    vec3 normal = normalize(cross(dFdx(v_world), dFdy(v_world)));
    vec3 sum = vec3(0.0);
    for (int i = 0; i < u_dlight_count; ++i) {
        vec3 delta = u_dlights[i].xyz - v_world;
        float plane_dist = dot(delta, normal);
        float rad = u_dlights[i].w - abs(plane_dist);
        float dist = length(delta - plane_dist * normal);
#ifdef DLIGHT_FALLOFF
        // Q2PRO add_dynamic_lights, gl_dlight_falloff 1: none under DLIGHT_CUTOFF (64) left; from r' at the
        // light's foot to 0 at r' - 0.8 DLIGHT_CUTOFF
        float minlight = rad - 51.2;
        if (rad >= 64.0 && dist < minlight) {
            sum += (rad - dist * rad / minlight) * u_dlight_colors[i];
        }
#else
        if (dist < rad - DLIGHT_MINLIGHT) {
            sum += (rad - dist) * u_dlight_colors[i];
        }
#endif
    }
    return sum * (1.0 / 255.0);
}
#endif

void main() {
    vec4 tex = TEXEL(v_uv);
#ifdef MULTISTYLE
    vec3 light = texture(u_lightmap, v_lm_uv).rgb * v_style_weights.x;
    for (int k = 1; k < 4; ++k) {
        light += texture(u_lightmap, v_lm_uv + vec2(float(k) * v_lm_step, 0.0)).rgb * v_style_weights[k];
    }
#else
    vec3 light = texture(u_lightmap, v_lm_uv).rgb * v_style_weight;
#endif
#ifdef DLIGHTS
    light += dynamic_light();
#endif
    // Quake (1, 2): overbright as QuakeSpasm, a lightmap value of 128 is the texture's own colour, 255 twice as
    // bright. Quake II (2, 1): ref_gl's textures brightened by intensity 2 when uploaded, lightmaps x gl_modulate.
    // LIGHT_MAX caps the lightmap multiplier (ezQuake's gl_lightmode 1: 1, never brighter than the texture).
    // The engines keep the light in 8-bit lightmap texels, truncated (R_BuildLightMap's shift).
    const float levels = 255.0 * LIGHTMAP_SCALE / LIGHT_MAX;
    vec3 light_mul = min(floor(light * levels) * (LIGHT_MAX / 255.0), vec3(LIGHT_MAX));
    vec3 lit = min(tex.rgb * TEXTURE_SCALE, vec3(1.0)) * light_mul;
#ifdef FULLBRIGHTS
    lit = mix(lit, tex.rgb, tex.a);
#endif
    f_color = vec4(apply_fog(lit), 1.0);
}
#endif
#endif
