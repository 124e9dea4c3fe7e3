"""Multiview: 2 to 4 views of one demo at once (issue #33 item 3), each pane a
:class:`~viewer.camera_pose.ShotCamera` drawn with :func:`~viewer.picture.draw_picture` into its own rectangle.

:mod:`.layout` places the panes (pure), :mod:`.panes` says who each pane watches (pure), :mod:`.window` is the
window's pane state (pure), :mod:`.draw` draws them (OpenGL).
"""
