"""Pure layouts of the viewer's own 2D interface (timeline bar, key help, messages): rectangles and text in pixels."""
