"""Shared parts of the browser benchmarks: the app server, the in-page clock and a player.

Not a benchmark of its own; ``browser_latency.py`` and ``players_load.py`` use it.

The clock runs in the page. A capture-phase ``click`` listener notes each click on a card
or bid button (its ``event.timeStamp``), and a ``requestAnimationFrame`` loop looks at the
page every frame and notes the first frame in which the click is seen on the table
("drawn", pending or not) and the first in which the server's own drawing is in place
("confirmed"). Both times are on the page's ``performance.now()`` clock, so the Python
side never times anything. The frame time is ``performance.now()`` read in the frame's
callback: Chromium's rAF timestamp is the frame's start, which can come before the input
handled in that frame.
"""

from __future__ import annotations

import os
import platform
import random
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, TypedDict

from playwright.async_api import Browser, BrowserContext, Page
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import TimeoutError as PlaywrightTimeout

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run"]
#: Milliseconds to wait for any one thing on the page.
WAIT = 60_000
#: Milliseconds between two taps at least: a person sees the hand the server drew after
#: a tap before tapping again (the page takes a second tap sooner than that, counted as
#: a double tap's by the phone, for its echo: ``spades.ui.quick.ECHO_MS``).
REACTION_MS = 250
DEVICES: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {
        "viewport": {"width": 390, "height": 844},
        "is_mobile": True,
        "has_touch": True,
        "device_scale_factor": 2,
    },
}

# The in-page clock (see the module docstring). A record is closed, and no longer watched,
# when the next card or bid is clicked or when the benchmark closes it; a card never drawn
# by then is a miss. A trick is "whole" when a frame shows four cards, one a seat, with
# exactly one winner, and the human's card among them. "Shown" is the browser's
# checkVisibility (laid out, not display:none nor visibility:hidden); a card sliding in
# from transparent counts from its first frame.
CLOCK_JS = """
(() => {
  if (window.top !== window || window.__bench) return;
  const bench = window.__bench = {records: [], open: [], frames: 0, maxGap: 0, last: null};
  const shown = el => el.checkVisibility({visibilityProperty: true});
  const pending = el => el.closest('[data-pending="true"]') !== null
    || el.querySelector('[data-pending="true"]') !== null;
  bench.closeAll = () => {
    for (const rec of bench.open) rec.closed = true;
    bench.open = [];
  };
  bench.take = () => {
    const done = bench.records.filter(r => r.closed);
    bench.records = bench.records.filter(r => !r.closed);
    return done;
  };
  document.addEventListener("click", event => {
    const target = event.target instanceof Element ? event.target : null;
    const holder = target && target.closest("[class*='st-key-card_'], [class*='st-key-bid_']");
    const button = target && target.closest("button");
    const found = holder && holder.className.match(/st-key-(card|bid)_(\\w+)/);
    if (!found || !button || button.disabled) return;
    bench.closeAll();
    const [, kind, code] = found;
    const text = code === "blind_nil" ? "blind nil" : code;
    const rec = {kind, code, text, t: event.timeStamp, drawn: null, confirmed: null,
                 whole: false, pendingSeen: false, closed: false};
    bench.records.push(rec);
    bench.open.push(rec);
  }, true);
  const frame = () => {
    const now = performance.now();
    bench.frames += 1;
    // The longest wait between two frames while a click was being watched.
    if (bench.open.length && bench.last !== null) {
      bench.maxGap = Math.max(bench.maxGap, now - bench.last);
    }
    bench.last = now;
    if (bench.open.length) {
      const trick = document.querySelector(".st-key-trick");
      // Only the cards showing count: a finished trick may lie over the next one's cards,
      // which stay hidden meanwhile (and it is hidden in turn once its moment is over).
      const cards = trick ? [...trick.querySelectorAll("[data-seat][data-card]")].filter(shown)
        : [];
      const whole = cards.length === 4 && new Set(cards.map(e => e.dataset.seat)).size === 4
        && cards.filter(e => e.dataset.winner === "true").length === 1;
      // South's bid: the text of .sp-bid, or of the line "bid 3 · won 0" where there is none.
      const stats = trick && trick.querySelector(".sp-south .sp-stats");
      const bid = (trick && trick.querySelector(".sp-south .sp-bid")) || stats;
      const bidText = !bid ? null : bid === stats
        ? (bid.textContent.match(/^\\s*bid (.+?) ·/) || [])[1] : bid.textContent.trim();
      for (const rec of bench.open) {
        if (rec.kind === "card") {
          const mine = cards.filter(e => e.dataset.seat === "S" && e.dataset.card === rec.code);
          if (!mine.length) continue;
          rec.pendingSeen = rec.pendingSeen || mine.some(pending);
          if (rec.drawn === null) rec.drawn = now;
          if (rec.confirmed === null && !mine.every(pending)
              && !document.querySelector(".st-key-card_" + rec.code)) rec.confirmed = now;
          if (whole) rec.whole = true;
        } else if (bid && shown(bid) && bidText === rec.text) {
          const early = pending(bid);
          rec.pendingSeen = rec.pendingSeen || early;
          if (rec.drawn === null) rec.drawn = now;
          if (rec.confirmed === null && !early && !document.querySelector(".st-key-bids")
              && !document.querySelector(".st-key-blind")) rec.confirmed = now;
        }
      }
    }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})();
"""

# No run of the app going on, and nothing left stale from the last one.
SETTLED_JS = """
() => {
  const app = document.querySelector("[data-testid='stApp']");
  return app !== null && app.dataset.testScriptState === "notRunning"
    && !document.querySelector("[data-testid='stStatusWidget'], [data-stale='true']");
}
"""

# What the human is asked to do, once the page has settled (None until then): the app's
# run over, nothing stale, and the status line, the summary or the end screen showing.
# Streamlit shows its running indicator only once a run has lasted a moment, and draws a
# run's elements one by one, so the status line can say "Your turn" while the hand below
# it is still last run's; the app element's script state says when the run is over.
STATE_JS = (
    "() => {\n  if (!("
    + SETTLED_JS.strip()
    + """)()) return null;
  const seen = sel => [...document.querySelectorAll(sel)]
    .filter(e => e.checkVisibility({visibilityProperty: true}));
  const key = (el, prefix) => (el.closest("[class*='st-key-" + prefix + "']").className
    .match(new RegExp("st-key-(" + prefix + "\\\\w+)")) || [])[1];
  const alerts = seen("[data-testid='stAlert'], [data-testid='stException']")
    .map(e => e.innerText.trim());
  const status = document.querySelector(".st-key-status");
  let state = null, choices = [];
  if (seen(".st-key-match_over .st-key-new_game button").length) state = "over";
  else if (seen(".st-key-next_hand button:enabled").length) state = "summary";
  else if (status && status.innerText.includes("Your turn")) {
    const bids = seen(".st-key-bids button:enabled").map(b => key(b, "bid_"));
    const cards = seen(".st-key-hand [class*='st-key-card_'] button:enabled")
      .map(b => key(b, "card_"));
    if (seen(".st-key-look button:enabled").length) state = "look";
    else if (bids.length) [state, choices] = ["bid", bids];
    else if (cards.length) [state, choices] = ["card", cards];
  }
  return state && {state, choices, alerts};
}
"""
)

# A point of a button that is not covered by another element (relative to its box), the
# middle one of a grid of candidates; null if none is.
SPOT_JS = """
button => {
  const box = button.getBoundingClientRect();
  const spots = [];
  for (let fy = 0.2; fy < 0.85; fy += 0.15) {
    for (let fx = 0.1; fx < 0.95; fx += 0.1) {
      const x = box.left + fx * box.width, y = box.top + fy * box.height;
      const hit = document.elementFromPoint(x, y);
      if (hit && hit.closest("button") === button) spots.push({x: x - box.left, y: y - box.top});
    }
  }
  return spots.length ? spots[Math.floor(spots.length / 2)] : null;
}
"""

# The page in a few words, for a wait that timed out.
SEEN_JS = """
() => {
  const app = document.querySelector("[data-testid='stApp']");
  const status = document.querySelector(".st-key-status");
  return [
    "script " + (app ? app.dataset.testScriptState : "?"),
    "status " + (status ? status.innerText.trim() : "none"),
    document.querySelector("[data-testid='stStatusWidget']") ? "running indicator" : "",
    document.querySelectorAll("[data-stale='true']").length + " stale",
    [...document.querySelectorAll("[data-testid='stAlert'], [data-testid='stException']")]
      .map(e => e.innerText.trim().slice(0, 80)).join(" / "),
  ].filter(Boolean).join("; ");
}
"""

# The button for each of the human's other moves.
BUTTONS = {
    "look": ".st-key-look",
    "summary": ".st-key-next_hand",
    "over": ".st-key-match_over .st-key-new_game",
}

# Where a click has been taken by the server: what it answers with is gone.
GONE = {
    "look": ".st-key-look",
    "bid": ".st-key-bids",
    "summary": ".st-key-next_hand",
    "over": ".st-key-match_over",
}


class Record(TypedDict):
    """One click as the page's clock saw it (times in ms on ``performance.now()``)."""

    kind: str
    code: str
    text: str
    t: float
    drawn: float | None
    confirmed: float | None
    whole: bool
    pendingSeen: bool
    closed: bool


@dataclass(slots=True)
class Server:
    """A ``streamlit run`` of the app with a store of its own."""

    url: str
    pid: int
    db_url: str


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def serve(
    script: str = "serve.py", *, db_url: str | None = None, trace: Path | None = None
) -> Iterator[Server]:
    """Start the app on a free port, sealed in a temporary folder (home, data, store), the
    way ``tests/conftest.py`` does but watching no files; stop it and remove the folder
    at the end. ``script`` is what ``streamlit run`` starts: the server as players start it,
    or ``streamlit_app.py`` for the app without the tables' news route. The store is a new
    SQLite file unless ``db_url`` names one (several servers may share a PostgreSQL
    database). With ``trace``, the server notes what it was sent and what it did with it
    in that file (``click_trace.py``)."""
    with tempfile.TemporaryDirectory(prefix="spades-bench-") as name:
        folder = Path(name)
        data, home = folder / "data", folder / "home"
        data.mkdir()
        home.mkdir()
        db_url = db_url or f"sqlite:///{data / 'spades.db'}"
        port = _free_port()
        env = {
            **os.environ,
            "HOME": str(home),
            "XDG_CONFIG_HOME": str(home / ".config"),
            "XDG_CACHE_HOME": str(home / ".cache"),
            "XDG_DATA_HOME": str(home / ".local" / "share"),
            "XDG_STATE_HOME": str(home / ".local" / "state"),
            "SPADES_DB_URL": db_url,
            "SPADES_DATA_DIR": str(data),
            "STREAMLIT_BROWSER_GATHER_USAGE_STATS": "false",
        }
        if trace is not None:
            env["SPADES_CLICK_TRACE"] = str(trace)
            command = [sys.executable, str(ROOT / "benchmarks" / "click_trace.py")]
        else:
            command = [sys.executable, "-m", "streamlit"]
        command += ["run", str(ROOT / script)]
        command += ["--server.headless", "true", "--server.port", str(port)]
        command += ["--server.address", "127.0.0.1"]
        log_path = folder / "server.log"
        with open(log_path, "w") as log:
            proc = subprocess.Popen(
                command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT
            )
            url = f"http://127.0.0.1:{port}"
            try:
                _wait_healthy(url, proc, log_path)
                yield Server(url, proc.pid, db_url)
            finally:
                proc.terminate()
                try:
                    proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()


def _wait_healthy(url: str, proc: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as reply:
                if reply.status == 200:
                    return
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError("the app did not start:\n" + log.read_text())
        time.sleep(0.2)


# ------------------------------------------------------------------ the server's use
def descendants(pid: int) -> list[int]:
    """Every process under ``pid``, however deep."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parent = int(stat.rsplit(")", 1)[1].split()[1])
            children.setdefault(parent, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process, its reaped children and its live ones."""
    return sum(process_seconds(each) for each in (pid, *descendants(pid)))


def process_seconds(pid: int) -> float:
    """User + system CPU seconds of one process and its reaped children (0 once ended)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    # utime, stime, cutime, cstime are fields 14-17 of stat (1-based, pid first).
    return sum(int(value) for value in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def memory_mb(pid: int) -> dict[str, float]:
    """A process's resident memory now (VmRSS) and at its peak (VmHWM), in MB."""
    status = Path(f"/proc/{pid}/status").read_text()
    found = {}
    for name in ("VmRSS", "VmHWM"):
        match = re.search(rf"^{name}:\s+(\d+) kB", status, re.MULTILINE)
        assert match, name
        found[name] = round(int(match.group(1)) / 1024, 1)
    return found


def load_average() -> list[float]:
    """The 1, 5 and 15 minute load averages."""
    return [round(value, 2) for value in os.getloadavg()]


def machine(browser: Browser | None) -> dict[str, Any]:
    """What the figures were measured on."""
    import streamlit

    return {
        "machine": platform.machine(),
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "streamlit": streamlit.__version__,
        "chromium": browser.version if browser is not None else None,
    }


# ------------------------------------------------------------------------ figures
def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile of ``values`` (not empty)."""
    ordered = sorted(values)
    return ordered[int(share * (len(ordered) - 1))]


def latency(
    records: list[Record], end: Literal["drawn", "confirmed"]
) -> dict[str, float | int | None]:
    """Median, p95 and max of click → ``end`` in ms, over the records that got there."""
    return figures([reached - rec["t"] for rec in records if (reached := rec[end]) is not None])


def figures(values: list[float]) -> dict[str, float | int | None]:
    """How many, median, p95 and max of some times in ms."""
    if not values:
        return {"n": 0, "median_ms": None, "p95_ms": None, "max_ms": None}
    return {
        "n": len(values),
        "median_ms": round(percentile(values, 0.5), 1),
        "p95_ms": round(percentile(values, 0.95), 1),
        "max_ms": round(max(values), 1),
    }


def ms(value: float | int | None) -> str:
    """A figure for a Markdown cell."""
    return "–" if value is None else f"{value:.0f}"


def markdown_table(header: list[str], rows: list[list[str]]) -> str:
    """A Markdown table."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


# --------------------------------------------------------------------- the player
@dataclass(slots=True)
class Player:
    """One browser context playing the Play page as a human would, clicking as soon as it is
    its turn. It keeps the clock's closed records and what else it noticed."""

    page: Page
    touch: bool
    rng: random.Random
    records: list[Record] = field(default_factory=list)
    alerts: set[str] = field(default_factory=set)
    stuck: list[str] = field(default_factory=list)
    #: Clicks left out because the page was reloaded before they were confirmed.
    dropped: int = 0
    #: What the player is waiting for (named when a wait times out).
    waiting: str = ""
    #: When the last tap was made, on the page's clock (ms).
    tapped_at: float = -REACTION_MS
    #: Cards played, hand summaries closed and matches ended (new game clicked).
    cards: int = 0
    hands: int = 0
    matches: int = 0

    @classmethod
    async def open(
        cls, browser: Browser, url: str, device: str, speed: str, seed: int
    ) -> tuple[Player, BrowserContext]:
        """A new context (a new player) on the Play page, at ``speed``."""
        context = await browser.new_context(**DEVICES[device])
        await context.add_init_script(CLOCK_JS)
        context.set_default_timeout(WAIT)
        page = await context.new_page()
        player = cls(page, touch=bool(DEVICES[device].get("has_touch")), rng=random.Random(seed))
        await page.goto(url + "/", timeout=WAIT)
        await page.locator(".st-key-new_game").first.wait_for(timeout=WAIT)
        await player.set_speed(speed)
        return player, context

    async def set_speed(self, speed: str) -> None:
        """Pick the bot speed in the sidebar, opening it first where it starts closed."""
        page = self.page
        await self.settled()
        expand = page.get_by_test_id("stExpandSidebarButton")
        opened = await expand.is_visible()
        if opened:
            await expand.click(timeout=WAIT)
        radio = page.locator(".st-key-speed")
        await radio.get_by_text(speed, exact=True).click(timeout=WAIT)
        selected = radio.locator("label[data-selected='true']")
        await selected.get_by_text(speed, exact=True).wait_for(timeout=WAIT)
        if opened:
            collapse = page.get_by_test_id("stSidebarCollapseButton").locator("button")
            await collapse.click(timeout=WAIT)
            await expand.wait_for(timeout=WAIT)
        await self.state()

    async def settled(self) -> None:
        """Wait until no run of the app is going on and nothing on the page is stale."""
        self.waiting = "the page to settle"
        await self.page.wait_for_function(SETTLED_JS, timeout=WAIT)

    async def state(self) -> dict[str, Any]:
        """Wait until the page has settled and asks something of the human."""
        self.waiting = "the human's turn"
        handle = await self.page.wait_for_function(STATE_JS, timeout=WAIT)
        found: dict[str, Any] = await handle.json_value()
        self.alerts.update(found["alerts"])
        return found

    async def _press(self, holder: str) -> None:
        """Click (or tap) the button in ``holder`` (a selector) where it shows: on a phone
        the hand is fanned, each card covering part of the one before, so its middle may be
        another's."""
        button = self.page.locator(f"{holder} button:visible").first
        await button.scroll_into_view_if_needed(timeout=WAIT)
        spot = await button.evaluate(SPOT_JS)
        where = {"position": spot} if spot else {}
        if self.touch:
            await self.page.wait_for_function(
                "([at, ms]) => performance.now() - at >= ms", arg=[self.tapped_at, REACTION_MS]
            )
            await button.tap(timeout=WAIT, **where)
            self.tapped_at = await self.page.evaluate("performance.now()")
        else:
            await button.click(timeout=WAIT, **where)

    async def turn(self, until: float | None = None) -> str:
        """Wait for the human's turn and take it; returns what was done ("card", "bid",
        "look", "summary" or "over") once the server has taken the click, or "stopped"
        when the turn came after ``until`` (a ``time.monotonic()`` deadline)."""
        found = await self.state()
        if until is not None and time.monotonic() >= until:
            return "stopped"
        state, choices = found["state"], found["choices"]
        if state == "card":
            button = f".st-key-{self.rng.choice(choices)}"
            gone = button
            self.cards += 1
        elif state == "bid":
            bids = [c for c in choices if c != "bid_blind_nil"] or choices
            button, gone = f".st-key-{bids[len(bids) // 2]}", GONE["bid"]
        else:
            button, gone = BUTTONS[state], GONE[state]
            self.hands += state == "summary"
            self.matches += state == "over"
        self.waiting = f"{button} to be clicked"
        await self._press(button)
        self.waiting = f"{gone} to go after {button} was clicked"
        await self.page.wait_for_function(
            "sel => !document.querySelector(sel)", arg=gone, timeout=WAIT
        )
        return str(state)

    async def collect(self, *, cut: bool = False) -> None:
        """Close the clock's open records and keep every closed one; with ``cut`` (the
        page is about to be reloaded) a click not yet confirmed is dropped, not counted as
        a miss."""
        taken: list[Record] = await self.page.evaluate(
            "() => { window.__bench.closeAll(); return window.__bench.take(); }"
        )
        if cut:
            self.dropped += sum(rec["confirmed"] is None for rec in taken)
            taken = [rec for rec in taken if rec["confirmed"] is not None]
        self.records.extend(taken)

    async def frames(self) -> dict[str, float]:
        """How many frames the clock saw, and the longest gap between two while a click was
        watched (ms)."""
        found: dict[str, float] = await self.page.evaluate(
            "() => ({frames: window.__bench.frames,"
            " max_gap_ms: Math.round(window.__bench.maxGap * 10) / 10})"
        )
        return found

    async def recover(self, err: PlaywrightTimeout) -> None:
        """After a wait that timed out: note it, keep the records so far and reload (the
        game survives a reload)."""
        seen = await self.page.evaluate(SEEN_JS)
        self.stuck.append(f"{self.waiting}: {str(err).splitlines()[0]} (page: {seen})")
        with suppress(PlaywrightError):
            await self.collect(cut=True)
        await self.page.reload(timeout=WAIT)
        # A new page, with a clock of its own.
        self.tapped_at = -REACTION_MS
