// HUD: screen-space quads textured from an RGBA atlas page, alpha-blended, exact texels (texelFetch = nearest).
// Each vertex carries its picture's rectangle in the atlas and a texel coordinate relative to that rectangle;
// coordinates beyond the rectangle wrap (tiled backgrounds). Fills sample a white texel times the colour.
#ifdef VERTEX_SHADER
uniform vec2 u_screen;      // target size in pixels

in vec2 in_pos;             // screen pixels, origin top-left
in vec2 in_uv;              // texels from the picture's top-left corner
in vec4 in_rect;            // picture in the atlas: x, y, width, height (texels)
in vec4 in_color;           // multiplier (rgb = 1 for pictures; palette colour for fills; a = alpha)

out vec2 v_uv;
flat out vec4 v_rect;
out vec4 v_color;

void main() {
    v_uv = in_uv;
    v_rect = in_rect;
    v_color = in_color;
    gl_Position = vec4(in_pos.x / u_screen.x * 2.0 - 1.0, 1.0 - in_pos.y / u_screen.y * 2.0, 0.0, 1.0);
}
#endif

#ifdef FRAGMENT_SHADER
uniform sampler2D u_atlas;  // RGBA8, row 0 = atlas top row; alpha 0 on transparent palette indices

in vec2 v_uv;
flat in vec4 v_rect;
in vec4 v_color;
out vec4 f_color;

void main() {
    vec2 texel = mod(floor(v_uv), v_rect.zw);
    vec4 c = texelFetch(u_atlas, ivec2(v_rect.xy + texel), 0) * v_color;
    if (c.a <= 0.0)
        discard;
    f_color = c;
}
#endif
