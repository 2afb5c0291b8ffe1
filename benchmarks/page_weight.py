"""What a first visit costs: bytes on the wire, requests, and the time until the lobby can
be used, on a phone-sized window against a real ``basra serve`` on loopback.

    .venv/bin/python benchmarks/page_weight.py [--runs 5] [--json]

Each run is a fresh browser context (an empty cache, no service worker yet: it registers
after the load and its precache is counted apart) at 360x640. "Transferred" is what the
network carried (Chrome's encoded data length: headers and compressed bodies); "decoded"
the bodies' sizes once unpacked. "Interactive" is the time from the navigation's start
until the lobby's "Play a bot" button is on screen and enabled (the page has its rules,
its language and its handlers). A second visit in the same context shows what the cache
headers save. Debian's chromium through Playwright (tests/web_helpers.py's flags).
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from playwright.async_api import BrowserContext, Page, async_playwright
from serving import basra_serve, bench_main

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
PHONE = {"width": 360, "height": 640}
READY = "#play-bot"
USABLE = """(() => {
  // When (ms since the navigation began) the lobby's play button is there and enabled.
  const look = () => {
    const button = document.querySelector("#play-bot");
    if (button && !button.disabled && window.__usable_at === undefined) {
      window.__usable_at = performance.now();
    }
  };
  new MutationObserver(look).observe(document, { childList: true, subtree: true,
                                                 attributes: true });
})();"""


async def visit(context: BrowserContext, base: str) -> dict[str, Any]:
    """Open the lobby in ``context``: what went over the network and when it was usable."""
    page: Page = await context.new_page()
    cdp = await context.new_cdp_session(page)
    await cdp.send("Network.enable")
    wire: dict[str, int] = {}
    decoded: dict[str, int] = {}
    urls: dict[str, str] = {}
    cached: set[str] = set()

    def sent(event: dict[str, Any]) -> None:
        urls[event["requestId"]] = event["request"]["url"]

    def finished(event: dict[str, Any]) -> None:
        wire[event["requestId"]] = int(event["encodedDataLength"])

    def received(event: dict[str, Any]) -> None:
        decoded[event["requestId"]] = decoded.get(event["requestId"], 0) + int(
            event["dataLength"])

    def from_cache(event: dict[str, Any]) -> None:
        cached.add(event["requestId"])

    cdp.on("Network.requestWillBeSent", sent)
    cdp.on("Network.loadingFinished", finished)
    cdp.on("Network.dataReceived", received)
    cdp.on("Network.requestServedFromCache", from_cache)
    started = time.perf_counter()
    await page.goto(base + "/")
    await page.wait_for_selector(f"{READY}:not([disabled])", state="visible")
    interactive = await page.evaluate("() => window.__usable_at")
    wall = time.perf_counter() - started
    await page.wait_for_load_state("networkidle")
    network = [r for r in wire if r not in cached and wire[r] > 0]
    out = {"transferred": sum(wire[r] for r in network), "decoded": sum(decoded.values()),
           "requests": len(urls), "network_requests": len(network),
           "interactive_ms": round(interactive, 1), "wall_ms": round(wall * 1000, 1),
           "largest": sorted(((wire[r], urls.get(r, "?").split("/")[-1]) for r in network),
                             reverse=True)[:5]}
    await page.close()
    return out


async def run(args: argparse.Namespace) -> dict[str, Any]:
    async with basra_serve() as served, async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        firsts, seconds, precache = [], [], []
        for _ in range(args.runs):
            context = await browser.new_context(
                viewport=PHONE, is_mobile=True, has_touch=True)  # type: ignore[arg-type]
            await context.add_init_script(USABLE)
            firsts.append(await visit(context, served.base))
            # The service worker registered after the load: what its precache fetched.
            sw = await context.new_page()
            await sw.goto(served.base + "/")
            await sw.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
            precache.append(await sw.evaluate(
                "async () => { const keys = await caches.keys();"
                " const c = await caches.open(keys[0]); return (await c.keys()).length; }"))
            await sw.close()
            seconds.append(await visit(context, served.base))
            await context.close()
        await browser.close()

    def median(rows: list[dict[str, Any]], key: str) -> float:
        return float(statistics.median(r[key] for r in rows))

    return {
        "runs": args.runs,
        "first": {k: median(firsts, k) for k in ("transferred", "decoded", "requests",
                                                 "network_requests", "interactive_ms",
                                                 "wall_ms")},
        "largest": firsts[0]["largest"],
        "second": {k: median(seconds, k) for k in ("transferred", "network_requests",
                                                   "interactive_ms")},
        "service_worker_cached_files": precache[0],
    }


def report(result: dict[str, Any]) -> None:
    first, second = result["first"], result["second"]
    print(f"first visit (median of {result['runs']}, 360x640, empty cache):")
    print(f"  transferred {first['transferred'] / 1024:.1f} KB in "
          f"{first['network_requests']:.0f} requests (decoded {first['decoded'] / 1024:.1f} KB)")
    print(f"  interactive after {first['interactive_ms']:.0f} ms")
    print("  largest: " + ", ".join(f"{name} {size / 1024:.1f} KB"
                                    for size, name in result["largest"]))
    print(f"second visit: transferred {second['transferred'] / 1024:.1f} KB in "
          f"{second['network_requests']:.0f} requests, interactive after "
          f"{second['interactive_ms']:.0f} ms")
    print(f"service worker: {result['service_worker_cached_files']} files kept for offline")


def options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--runs", type=int, default=5, help="fresh visits (default 5)")


if __name__ == "__main__":
    bench_main(__doc__ or "", options, run, report)
