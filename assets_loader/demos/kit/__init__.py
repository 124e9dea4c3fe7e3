"""The decoder kit every demo protocol is built on: the timeline builder (:mod:`.builder`), the message loop and
error policy (:mod:`.messages`), the delta-field compiler (:mod:`.deltas`), the packet-entities merge and frame ring
(:mod:`.packet_entities`), entity rows → columns (:mod:`.rows`) and a demo's entity-state budget (:mod:`.budget`)."""
