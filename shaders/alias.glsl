// Alias models (.mdl): two poses blended in the vertex shader, GLQuake-style shadedots lighting; skins filtered
// trilinearly from an RGBA copy, or (player colours) looked up per texel through the translation and the palette
// and filtered bilinearly; fullbright indices 224..255 unlit.
// Light is coloured by the map's .lit light under the model (u_light_color); fog as the world's (exp2 on eye depth).
//
// One source, several programs (alias.py compiles each with #defines and picks one per draw), so no draw switches
// a branch by a uniform (Mesa specialises a program on the uniforms its branches read, and switching them between
// draws stalls llvmpipe, issue 20):
//   (neither)     the RGBA skin;                 TRANSLATED   player colours through u_translation;
//   PLACEHOLDER   flat magenta box for a missing model;   FOG  exp2 fog (only while the world has fog);
//   SHELL         Quake II colour shell: the model pushed u_push units out along its normals, one flat colour,
//                 no texture, unlit.
#ifdef VERTEX_SHADER
uniform mat4 u_mvp;            // clip <- model (view_proj @ model_matrix)
uniform float u_blend;         // 0 = pose a, 1 = pose b
uniform vec3 u_shadevector;    // light direction in model space (quantized entity yaw, as QuakeSpasm)
uniform float u_ambient;       // Quake light units 0..255
uniform float u_shade;         // Quake light units 0..255
uniform vec3 u_light_color;    // colour of the light (1, 1, 1 = white; mean 1)
uniform float u_light_max;     // largest light multiplier (Look.light_max)
uniform bool u_fullbright;     // whole model unlit (light 1.0; decided per vertex, not per pixel)
#ifdef SHELL
uniform float u_push;          // units along the normal (POWERSUIT_SCALE)
#endif
// The normals a vertex names by index (alias_program.NORMALS): the 162 anorms, (0, 0, 1) for an index out of
// range, then the six axes of the placeholder box.
uniform vec3 u_normals[169];

// Fixed locations, so a vertex array's pose bindings mean the same in every program variant.
layout(location = 0) in vec3 in_pos_a;
layout(location = 1) in float in_normal_a;   // index into u_normals (a byte: a pose vertex is 13 bytes, not 24)
layout(location = 2) in vec3 in_pos_b;
layout(location = 3) in float in_normal_b;
layout(location = 4) in vec2 in_uv;

out vec2 v_uv;
out vec3 v_light;

// The anorm_dots table approximated from a normal and the shade vector (MH's fit, used by QuakeSpasm):
// 1 + d for d >= 0, 1 + d * 13/44 behind.
float anorm_dot(vec3 n) {
    float d = dot(n, u_shadevector);
    return d < 0.0 ? 1.0 + d * (13.0 / 44.0) : 1.0 + d;
}

void main() {
    vec3 normal_a = u_normals[int(in_normal_a)];
    vec3 normal_b = u_normals[int(in_normal_b)];
    vec3 pos = mix(in_pos_a, in_pos_b, u_blend);
#ifdef SHELL
    pos += normalize(mix(normal_a, normal_b, u_blend)) * u_push;
#endif
    float term = mix(anorm_dot(normal_a), anorm_dot(normal_b), u_blend) - 1.0;   // -0.295 .. 1
    // Quake light units (128 = the texture as painted) -> a 0..2 multiplier.
    v_light = u_fullbright ? vec3(1.0)
                           : clamp((u_ambient + u_shade * term) / 128.0 * u_light_color, 0.0, u_light_max);
    v_uv = in_uv;
    gl_Position = u_mvp * vec4(pos, 1.0);
}
#endif

#ifdef FRAGMENT_SHADER
#if defined(TRANSLATED)
uniform sampler2DArray u_skin;      // R8: palette indices / 255, one layer per skin picture
uniform sampler2D u_translation;    // 256x1 R8: translated index / 255 (identity except shirt/pants)
uniform sampler2D u_palette;        // 256x1 RGBA8
uniform int u_first_fullbright;     // skin indices from here on are unlit (224; 256 for none)
#elif defined(SHELL)
uniform vec3 u_shell_color;         // the shell's flat colour
#elif !defined(PLACEHOLDER)
uniform sampler2DArray u_skin_rgba; // RGBA8 with mipmaps: palette colours, A = 1 where fullbright (untranslated)
#endif
uniform float u_layer;              // skin picture (layer of the skin textures)
uniform float u_alpha;              // entity alpha, 1 = opaque
#ifdef FOG
uniform vec4 u_fog;                 // rgb colour, a = density
#endif

in vec2 v_uv;
in vec3 v_light;
out vec4 f_color;

#ifdef FOG
vec3 apply_fog(vec3 color) {
    float d = u_fog.a / 64.0 / gl_FragCoord.w;  // QuakeSpasm's GL_EXP2 fog on the eye depth
    return mix(u_fog.rgb, color, clamp(exp(-d * d), 0.0, 1.0));
}
#else
vec3 apply_fog(vec3 color) { return color; }
#endif

#if defined(PLACEHOLDER)
void main() {
    f_color = vec4(vec3(1.0, 0.0, 1.0) * clamp(v_light.g, 0.35, 1.0), 1.0);
}

#elif defined(SHELL)
void main() {
    f_color = vec4(apply_fog(u_shell_color), u_alpha);
}

#elif defined(TRANSLATED)
// One skin texel through the player-colour translation, lit unless its own index is fullbright.
vec3 translated_texel(ivec2 texel, ivec2 size, vec3 light) {
    ivec2 q = ivec2(mod(vec2(texel), vec2(size)));
    int index = int(texelFetch(u_skin, ivec3(q, int(u_layer)), 0).r * 255.0 + 0.5);
    int shown = int(texelFetch(u_translation, ivec2(index, 0), 0).r * 255.0 + 0.5);
    vec3 colour = texelFetch(u_palette, ivec2(shown, 0), 0).rgb;
    return index >= u_first_fullbright ? colour : min(colour * light, vec3(1.0));
}

void main() {
    vec3 light = v_light;   // 1.0 for a fullbright model (vertex shader)
    // Bilinear over the translated colours (the engine filters its translated skin texture linearly).
    ivec2 size = textureSize(u_skin, 0).xy;
    vec2 p = v_uv * vec2(size) - 0.5;
    ivec2 i0 = ivec2(floor(p));
    vec2 f = p - floor(p);
    vec3 a = mix(translated_texel(i0, size, light), translated_texel(i0 + ivec2(1, 0), size, light), f.x);
    vec3 b = mix(translated_texel(i0 + ivec2(0, 1), size, light), translated_texel(i0 + ivec2(1, 1), size, light),
                 f.x);
    f_color = vec4(apply_fog(mix(a, b, f.y)), u_alpha);
}

#else
void main() {
    // The engine's texture mode for skins; fullbright texels unlit (v_light is 1.0 for a fullbright model).
    vec4 texel = texture(u_skin_rgba, vec3(v_uv, u_layer));
    f_color = vec4(apply_fog(mix(min(texel.rgb * v_light, vec3(1.0)), texel.rgb, texel.a)), u_alpha);
}
#endif
#endif
