"""Video export (``qdv render``): a demo range rendered headless at a fixed time step and encoded with PyAV.

- :mod:`.options` — the numbers the user asks for (size, fps, speed, motion blur, camera), checked;
- :mod:`.output` — where the frames go (container and codec from the file name, or numbered PNGs), checked;
- :mod:`.timing` — which demo time each output frame (and each motion-blur sub-frame) shows;
- :mod:`.encoder` — writing frames (PyAV or PNG files) on a background thread fed through a bounded queue;
- :mod:`.pipeline` — frame k drawn into one offscreen target while frame k - 1 is read back from another;
- :mod:`.recorder` — the loop: render frame k through the same offscreen path as ``qdv screenshot``, encode it;
- :mod:`.background` — the window's Ctrl+E export: the recorder in a child process beside playback.
"""
