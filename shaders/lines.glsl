// Line segments in the 3D view (the trails of ghost races): each vertex its own colour, the whole pass's opacity
// scaled by u_alpha (the part behind walls is drawn again, fainter).
#ifdef VERTEX_SHADER
uniform mat4 u_view_proj;
in vec3 in_pos;
in vec4 in_color;
out vec4 v_color;
void main() {
    v_color = in_color;
    gl_Position = u_view_proj * vec4(in_pos, 1.0);
}
#endif

#ifdef FRAGMENT_SHADER
uniform float u_alpha;
in vec4 v_color;
out vec4 f_color;
void main() {
    f_color = vec4(v_color.rgb, v_color.a * u_alpha);
}
#endif
