// Viewer UI (timeline bar, help, messages): coloured rectangles and conchars glyphs in window pixels.
// Each vertex has a position (pixels, origin top-left), a font coordinate (0..1, row 0 = top), a colour, and a
// mode: 0 = solid colour, 1 = glyph (font texel times the colour; transparent texels discarded).
#ifdef VERTEX_SHADER
uniform vec2 u_screen;

in vec2 in_pos;
in vec2 in_uv;
in vec4 in_color;
in float in_mode;

out vec2 v_uv;
out vec4 v_color;
flat out float v_mode;

void main() {
    v_uv = in_uv;
    v_color = in_color;
    v_mode = in_mode;
    gl_Position = vec4(in_pos.x / u_screen.x * 2.0 - 1.0, 1.0 - in_pos.y / u_screen.y * 2.0, 0.0, 1.0);
}
#endif

#ifdef FRAGMENT_SHADER
uniform sampler2D u_font;   // conchars as RGBA8, alpha 0 where the palette index is 0

in vec2 v_uv;
in vec4 v_color;
flat in float v_mode;
out vec4 f_color;

void main() {
    vec4 c = v_color;
    if (v_mode > 0.5) {
        c *= texture(u_font, v_uv);
        if (c.a <= 0.0)
            discard;
    }
    f_color = c;
}
#endif
