"""Fuzzing and bad-input measurement: one module per parser family (``demos``, ``quake3_demos``,
``quakelive_demos``, ``bsp``, ``models``, ``images``, ``archives``) over the shared :mod:`engine`; ``measure``
runs a child process and reports its CPU time and peak memory; ``bad_inputs`` stages the cases of
``shared/data/bad-input/README.md``.  Run ``python -m tests.fuzz --minutes 30`` for a long run (README, "Fuzzing")."""
