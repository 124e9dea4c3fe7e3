"""The demo library (``qdv index``, ``qdv find``, ``qdv render --highlights``): demos of many folders decoded once
into a SQLite file and searched.

:mod:`.records` (the pure per-demo work), :mod:`.store` (the SQLite schema), :mod:`.index` (walking folders, the
process pool or a Dask cluster), :mod:`.find` (searches), :mod:`.highlights` (clips of the hits), :mod:`.clip_pool`
(rendering them in parallel), :mod:`.commands` (the subcommands' arguments).
"""
