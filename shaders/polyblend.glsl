// The screen blend (V_CalcBlend / R_PolyBlend): one fullscreen triangle of a flat colour, alpha-blended over the
// 3D view (damage, bonus flash, liquid contents, powerups).
#ifdef VERTEX_SHADER
void main() {
    vec2 p = vec2((gl_VertexID << 1) & 2, gl_VertexID & 2);
    gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
}
#endif

#ifdef FRAGMENT_SHADER
uniform vec4 u_color;   // rgb 0..1, a = share of the blend colour
out vec4 f_color;
void main() {
    f_color = u_color;
}
#endif
