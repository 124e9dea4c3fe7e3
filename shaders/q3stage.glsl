// One pass of a Quake III shader stage: deformed vertices, generated and modified texture coordinates, the
// stage colour (constant x vertex colour or diffuse light), an optional second texture multiplied on (a collapsed
// texture x lightmap pair) and the alpha test.
// References: ioquake3 renderergl1 tr_shade.c (ComputeColors, ComputeTexCoords), tr_shade_calc.c
// (RB_CalcDeformVertexes, RB_CalcBulgeVertexes, RB_CalcEnvironmentTexCoords, RB_CalcTurbulentTexCoords),
// tr_sky.c (sky box sides, cloud layer texture coordinates).
//
// The per-vertex choices run in the vertex shader; the fragment shader is compiled per variant (q3world.py):
//   COLLAPSED  multiply a second texture sampled at v_st2;   ALPHA_FUNC 1 GT0, 2 LT128, 3 GE128;
//   DETAIL     (with COLLAPSED) then twice a detail texture sampled at v_st3 (blendFunc GL_DST_COLOR GL_SRC_COLOR);
//   SKYBOX     sample the six sky box sides by direction (no vertex work beyond the direction);
//   FOG        a fog volume's pass: its colour blended by the fog image at the vertex fog coordinates.
//   CLIP       discard what lies behind a portal's plane (the view through a mirror or portal).
// Vertex work a pass may need, compiled in only for the passes that use it (llvmpipe runs every branch of a vertex
// shader under a mask, taken or not, so each costs every vertex of every draw): DEFORM (u_deform wave and bulge),
// TCGEN (u_tcgen environment, vector and sky clouds), TURB (tcMod turb), LIGHTING (u_rgb_vertex 2), ALPHA_VIEW
// (u_alpha_mode portal and specular), FOG_FADE (u_fog_adjust). Without one the uniform's value never takes it.
//   DEPTH_ONLY the opaque surfaces' depth before their stages (each pixel is then shaded once).
//   DLIGHT     one dynamic light's projected pass over surfaces just drawn (ProjectDlightTexture): the falloff
//              image at 0.5 + (light - vertex).xy / radius times, per vertex, the light's colour times the height
//              factor (1 within half the radius above or below, then down to 0 at the radius); drawn with
//              blendFunc GL_DST_COLOR GL_ONE on equal depth, so it brightens the surface by (1 + light).
// Fog coordinates (s: distance along the view axis, t: the part of the ray inside the fog) are computed per
// vertex for the fog pass and, for blended stages of fogged surfaces, fade the stage colour (q3fog.py).
#ifdef VERTEX_SHADER
uniform mat4 u_view_proj;
uniform mat4 u_model;
uniform vec3 u_camera;          // in the model's space
uniform int u_deform;           // 0 none, 1 wave along the normal, 2 bulge
uniform int u_deform_func;      // wave function: 0 sin, 1 triangle, 2 square, 3 sawtooth, 4 inverse sawtooth
uniform vec4 u_deform_wave;     // base, amplitude, phase, frequency
uniform float u_deform_spread;  // phase added per unit of x + y + z (1 / div)
uniform float u_time;
uniform vec3 u_bulge;           // width, height, speed
uniform vec3 u_move;            // deformVertexes move offset at this time
uniform int u_tcgen;            // 0 texture, 1 lightmap, 2 environment, 3 vector, 4 sky clouds
uniform vec3 u_tc_vec0;
uniform vec3 u_tc_vec1;
uniform float u_cloud_height;
uniform mat3 u_tc_pre;
uniform vec2 u_turb;            // amplitude, phase + time x frequency
uniform mat3 u_tc_post;
uniform int u_tcgen2;           // second texture of a collapsed pass: 0 texture, 1 lightmap
uniform mat3 u_tc3;             // the detail texture's tcMod chain
uniform vec4 u_color;           // constant rgba of the stage
uniform int u_rgb_vertex;       // 1: multiply the vertex colour in; 2: diffuse light (u_ambient, u_directed);
                                // 3: multiply one minus the vertex colour in; 4: the entity colour; 5: one minus it
uniform vec3 u_ambient;
uniform vec3 u_directed;
uniform vec3 u_light_dir;
uniform vec4 u_fog_distance;    // s = dot(world, xyz) + w
uniform vec4 u_fog_depth;       // t before the eye test = dot(world, xyz) + w
uniform float u_fog_eye_t;
uniform int u_fog_adjust;       // 0 none; fade by the fog: 1 rgb, 2 alpha, 3 rgba (adjustColorsForFog)
uniform vec4 u_entity_color;    // the entity's shaderRGBA (0..1)
uniform int u_entity_from_vertex; // 1: the vertex colours carry the entity colour (sprites and polygons)
uniform int u_alpha_mode;       // 0 the colour's own, 1 vertex, 2 one minus vertex, 3 portal, 4 specular
uniform float u_portal_range;
uniform vec4 u_clip_plane;      // world-space plane; v_clip = dot(world, xyz) - w
in vec3 in_position;
in vec2 in_st;
in vec2 in_lm;
in vec3 in_normal;
in vec4 in_color;
out vec2 v_st;
out vec2 v_st2;
out vec2 v_st3;
out vec4 v_color;
out vec3 v_dir;
out vec2 v_fog;
out float v_clip;
#ifdef DLIGHT
uniform vec4 u_dlight;          // xyz origin in the model's space, w radius
uniform vec3 u_dlight_color;
out vec2 v_dlight_st;
out vec3 v_dlight_color;
#endif
invariant gl_Position;          // the depth-only pre-pass and the stage passes meet at equal depths

float wave_value(int func, float x) {
    float f = fract(x);
    if (func == 1) return f < 0.5 ? 4.0 * f - 1.0 : 3.0 - 4.0 * f;
    if (func == 2) return f < 0.5 ? 1.0 : -1.0;
    if (func == 3) return f;
    if (func == 4) return 1.0 - f;
    return sin(6.28318530718 * f);
}

vec2 tc_apply(mat3 m, vec2 st) {
    return (m * vec3(st, 1.0)).xy;
}

vec2 fog_coords(vec3 world) {
    float s = dot(world, u_fog_distance.xyz) + u_fog_distance.w;
    float t = dot(world, u_fog_depth.xyz) + u_fog_depth.w;
    if (u_fog_eye_t < 0.0) {
        t = t < 1.0 ? 1.0 / 32.0 : 1.0 / 32.0 + 30.0 / 32.0 * t / (t - u_fog_eye_t);
    } else {
        t = t < 0.0 ? 1.0 / 32.0 : 31.0 / 32.0;
    }
    return vec2(s, t);
}

float fog_factor(vec2 st) {
    float s = st.x - 1.0 / 512.0;
    float t = st.y;
    if (s < 0.0 || t < 1.0 / 32.0) return 0.0;
    if (t < 31.0 / 32.0) s *= (t - 1.0 / 32.0) / (30.0 / 32.0);
    s = min(s * 8.0, 1.0);
    return sqrt(floor(s * 255.0) / 255.0);
}

void main() {
    vec3 pos = in_position;
#ifdef DEFORM
    if (u_deform == 1) {
        float off = (pos.x + pos.y + pos.z) * u_deform_spread;
        float scale = u_deform_wave.x + wave_value(u_deform_func, u_deform_wave.z + off + u_time * u_deform_wave.w)
                      * u_deform_wave.y;
        pos += in_normal * scale;
    } else if (u_deform == 2) {
        pos += in_normal * sin(in_st.x * u_bulge.x + u_time * u_bulge.z) * u_bulge.y;
    }
#endif
    pos += u_move;
    vec2 st;
    if (u_tcgen == 1) {
        st = in_lm;
#ifdef TCGEN
    } else if (u_tcgen == 2) {
        vec3 viewer = normalize(u_camera - pos);
        vec3 r = in_normal * 2.0 * dot(in_normal, viewer) - viewer;
        st = vec2(0.5 + r.y * 0.5, 0.5 - r.z * 0.5);
    } else if (u_tcgen == 3) {
        st = vec2(dot(pos, u_tc_vec0), dot(pos, u_tc_vec1));
    } else if (u_tcgen == 4) {
        // the point where the view ray meets a dome of radius 4096 raised by the cloud height
        vec3 d = normalize(pos - u_camera);
        float r = 4096.0;
        float h = u_cloud_height;
        float p = -d.z * r + sqrt(d.z * d.z * r * r + 2.0 * r * h + h * h);
        vec3 v = normalize(d * p + vec3(0.0, 0.0, r));
        st = vec2(acos(clamp(v.x, -1.0, 1.0)), acos(clamp(v.y, -1.0, 1.0)));
#endif
    } else {
        st = in_st;
    }
    st = tc_apply(u_tc_pre, st);
#ifdef TURB
    if (u_turb.x != 0.0) {
        st += u_turb.x * vec2(sin(6.28318530718 * ((pos.x + pos.z) * (0.125 / 128.0) + u_turb.y)),
                              sin(6.28318530718 * (pos.y * (0.125 / 128.0) + u_turb.y)));
    }
#endif
    v_st = tc_apply(u_tc_post, st);
    v_st2 = u_tcgen2 == 1 ? in_lm : in_st;
    v_st3 = tc_apply(u_tc3, in_st);
    vec4 color = u_color;
    if (u_rgb_vertex == 1) {
        color.rgb *= in_color.rgb;
    } else if (u_rgb_vertex == 3) {
        color.rgb *= vec3(1.0) - in_color.rgb;
#ifdef LIGHTING
    } else if (u_rgb_vertex == 2) {
        color.rgb *= min(u_ambient + u_directed * max(dot(in_normal, u_light_dir), 0.0), vec3(1.0));
#endif
    }
    vec4 entity = u_entity_from_vertex == 1 ? in_color : u_entity_color;
    if (u_rgb_vertex == 4) {
        color.rgb *= entity.rgb;
    } else if (u_rgb_vertex == 5) {
        color.rgb *= vec3(1.0) - entity.rgb;
    }
    if (u_alpha_mode == 1) {
        color.a *= in_color.a;
    } else if (u_alpha_mode == 2) {
        color.a *= 1.0 - in_color.a;
#ifdef ALPHA_VIEW
    } else if (u_alpha_mode == 3) {
        color.a *= clamp(length(pos - u_camera) / u_portal_range, 0.0, 1.0);
    } else if (u_alpha_mode == 4) {
        // lightingSpecular: a fixed light at (-960, 1980, 96) in the model's space, reflected towards the eye
        vec3 l = normalize(vec3(-960.0, 1980.0, 96.0) - pos);
        vec3 reflected = in_normal * 2.0 * dot(in_normal, l) - l;
        float spec = dot(reflected, normalize(u_camera - pos));
        color.a *= spec < 0.0 ? 0.0 : min(spec * spec * spec * spec, 1.0);
#endif
    } else if (u_alpha_mode == 5) {
        color.a *= entity.a;
    } else if (u_alpha_mode == 6) {
        color.a *= 1.0 - entity.a;
    }
    vec3 world = (u_model * vec4(pos, 1.0)).xyz;
    v_fog = fog_coords(world);
#ifdef FOG_FADE
    if (u_fog_adjust != 0) {
        float keep = 1.0 - fog_factor(v_fog);
        if (u_fog_adjust != 2) color.rgb *= keep;
        if (u_fog_adjust != 1) color.a *= keep;
    }
#endif
    v_color = color;
    v_dir = pos - u_camera;
    v_clip = dot(world, u_clip_plane.xyz) - u_clip_plane.w;
#ifdef DLIGHT
    vec3 to_light = u_dlight.xyz - pos;
    float radius = u_dlight.w;
    float height = abs(to_light.z);
    float modulate = height > radius ? 0.0 : (height < 0.5 * radius ? 1.0 : 2.0 * (radius - height) / radius);
    v_dlight_st = vec2(0.5) + to_light.xy / radius;
    v_dlight_color = min(u_dlight_color * modulate, vec3(1.0));
#endif
    gl_Position = u_view_proj * vec4(world, 1.0);
}
#endif

#ifdef FRAGMENT_SHADER
uniform sampler2D u_texture;
in vec2 v_st;
in vec2 v_st2;
in vec2 v_st3;
in vec4 v_color;
in vec3 v_dir;
in vec2 v_fog;
in float v_clip;
out vec4 frag_color;
#ifdef COLLAPSED
uniform sampler2D u_texture2;
#endif
#ifdef DETAIL
uniform sampler2D u_texture3;
#endif
#ifdef SKYBOX
uniform sampler2D u_sides[6];   // rt bk lf ft up dn
#endif
#ifdef FOG
uniform sampler2D u_fog_image;  // R_CreateFogImage's 256 x 32 image (alpha = the fog factor)
uniform vec3 u_fog_color;
#endif
#ifdef DLIGHT
in vec2 v_dlight_st;
in vec3 v_dlight_color;
uniform sampler2D u_dlight_image; // R_CreateDlightImage's 16 x 16 falloff, clamped to its (black) edge
#endif
void main() {
#ifdef DEPTH_ONLY
    frag_color = vec4(0.0);
    return;
#endif
#ifdef CLIP
    if (v_clip < 0.0) discard;
#endif
#ifdef FOG
    frag_color = vec4(u_fog_color, texture(u_fog_image, v_fog).a);
    return;
#endif
#ifdef DLIGHT
    frag_color = vec4(texture(u_dlight_image, v_dlight_st).rgb * v_dlight_color, 1.0);
    return;
#endif
#ifdef SKYBOX
    vec3 d = v_dir;
    vec3 a = abs(d);
    vec2 st;
    vec4 c;
    if (a.x >= a.y && a.x >= a.z) {
        if (d.x > 0.0) { st = vec2(-d.y, d.z) / a.x; c = vec4(0.0); }
        else { st = vec2(d.y, d.z) / a.x; c = vec4(1.0, 0.0, 0.0, 0.0); }
    } else if (a.y >= a.z) {
        if (d.y > 0.0) { st = vec2(d.x, d.z) / a.y; c = vec4(2.0, 0.0, 0.0, 0.0); }
        else { st = vec2(-d.x, d.z) / a.y; c = vec4(3.0, 0.0, 0.0, 0.0); }
    } else {
        if (d.z > 0.0) { st = vec2(-d.y, -d.x) / a.z; c = vec4(4.0, 0.0, 0.0, 0.0); }
        else { st = vec2(-d.y, d.x) / a.z; c = vec4(5.0, 0.0, 0.0, 0.0); }
    }
    vec2 uv = vec2((st.x + 1.0) * 0.5, 1.0 - (st.y + 1.0) * 0.5);
    int side = int(c.x);
    vec4 texel;
    if (side == 0) texel = texture(u_sides[0], uv);
    else if (side == 1) texel = texture(u_sides[1], uv);
    else if (side == 2) texel = texture(u_sides[2], uv);
    else if (side == 3) texel = texture(u_sides[3], uv);
    else if (side == 4) texel = texture(u_sides[4], uv);
    else texel = texture(u_sides[5], uv);
    frag_color = vec4(texel.rgb, 1.0);
#else
    vec4 color = texture(u_texture, v_st) * v_color;
#ifdef COLLAPSED
    color.rgb *= texture(u_texture2, v_st2).rgb;
#endif
#ifdef DETAIL
    color.rgb = min(color.rgb, vec3(1.0)) * 2.0 * texture(u_texture3, v_st3).rgb;
#endif
#if ALPHA_FUNC == 1
    if (color.a <= 0.0) discard;
#elif ALPHA_FUNC == 2
    if (color.a >= 0.5) discard;
#elif ALPHA_FUNC == 3
    if (color.a < 0.5) discard;
#endif
    frag_color = color;
#endif
}
#endif
