"""The decoder kit every demo protocol is built on: the timeline builder (:mod:`.builder`), the message loop and
error policy (:mod:`.messages`), the loop over length-prefixed blocks (:mod:`.blocks`: ``.dem``, ``.dm2``), the
delta-field compiler (:mod:`.deltas`), the packet-entities merge and frame ring (:mod:`.packet_entities`), entity
rows → columns (:mod:`.rows`), a demo's entity-state budget (:mod:`.budget`), coordinate and angle encodings
(:mod:`.coords`), the ``svc`` handlers NetQuake and QuakeWorld share (:mod:`.svc_common`) and stuffed text read
for its visual commands (:mod:`.stufftext`)."""
