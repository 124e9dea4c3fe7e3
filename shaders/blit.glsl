// Copy a texture to the whole viewport with one fullscreen triangle (no vertex buffer needed).
#ifdef VERTEX_SHADER
out vec2 v_uv;
void main() {
    vec2 p = vec2((gl_VertexID << 1) & 2, gl_VertexID & 2);
    v_uv = p;
    gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
}
#endif

#ifdef FRAGMENT_SHADER
uniform sampler2D u_image;
in vec2 v_uv;
out vec4 f_color;
void main() {
    f_color = texture(u_image, v_uv);
}
#endif
