"""The library browser's model (Ctrl+O, issue 34 item 4) on a large library: what one frame, one typed character
and one click on a column header cost.

Run: ``python benchmarks/bench_library_browser.py [ROWS]`` (default 10000). The rows are synthetic
:class:`~viewer.library.catalog.DemoRow` (the browser reads nothing else); prints milliseconds for the first layout
(filter and sort of every row), a cached layout (every later frame), a typed filter character and a sort.
"""

from __future__ import annotations

import random
import sys
import time

from viewer.library.catalog import DemoRow
from viewer.ui.browser import Browser, browser_layout, browser_text

MAPS = ("dm2", "dm4", "dm6", "e1m2", "aerowalk", "ztndm3", "q3dm17")
NAMES = ("Timber", "Sujoy", "Final", "MrJustice", "LQ_Ranger", "LQ_Warden", "Grunt", "Major", "Sarge")


def _rows(n: int) -> tuple[DemoRow, ...]:
    rng = random.Random(34)
    return tuple(DemoRow(f"/demos/{i // 1000}/duel_{i:06d}.mvd", "quakeworld", rng.choice(MAPS),
                         tuple(rng.sample(NAMES, 2)), (rng.randint(-5, 60), rng.randint(-5, 60)),
                         rng.uniform(60, 1200), f"20{rng.randint(10, 25)}-0{rng.randint(1, 9)}-1{rng.randint(0, 9)}")
                 for i in range(n))


def _ms(action) -> float:
    t = time.perf_counter()
    action()
    return (time.perf_counter() - t) * 1000


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
    b = Browser(None, _rows(n))
    size = (1280, 720)
    print(f"{n} rows")
    print(f"first layout      {_ms(lambda: browser_layout(b, size, 2)):7.1f} ms")
    print(f"later frame       {_ms(lambda: browser_layout(b, size, 2)):7.2f} ms")
    typed = browser_text(b, "d")
    print(f"typed 'd'         {_ms(lambda: browser_layout(typed, size, 2)):7.1f} ms")
    by_time = typed.sorted_by(3)
    print(f"sorted by time    {_ms(lambda: browser_layout(by_time, size, 2)):7.1f} ms")


if __name__ == "__main__":
    main()
