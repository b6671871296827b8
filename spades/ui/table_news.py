"""A shared table's page hears of each move as soon as it is stored.

The server (``serve.py``) adds this route to the app: ``GET /_spades/tables/<id>/news``
(under Streamlit's ``server.baseUrlPath``, if one is set), a stream of server-sent events
whose data is the table's version, sent when the stream opens and again each time the
version moves on (:meth:`~spades.app.tables.TableService.follow`), followed by the move
that made it when that move is public the moment it is made: a card played, as
``1:card:AS`` (:func:`~spades.app.tables.public_move`). It never tells a hand, a card
passed or anything else a seat may not see: a page learns the rest by redrawing its own
seat's view, as it always does; the card is drawn at once where its seat sits on the page.

The table's page draws a hidden button and a small script (:func:`listen`). The script
keeps one stream open for the table on show and, when a version newer than the one the
page drew arrives, presses the button: Streamlit reruns the table's fragment at once, with
the page's own widgets, exactly as a click would. The script also presses it every
:data:`LOOK_EVERY` seconds, the page's look at the table, so a page whose stream cannot
open (the app started without ``serve.py``, or a proxy that holds streams back) still finds
each move a second later at most. While the stream is open and has brought the table's
version, a look only tells the server that the seat is still there: the script then looks
every :data:`QUIET_LOOK_EVERY` seconds, since each look redraws the table (some 0.15 s of
the browser's CPU on a desktop). It presses only while the page has no run under way.

Each stream is bounded: :data:`PER_TABLE` streams a table and :data:`STREAMS` in all on one
server; past that the route answers 503 and the page falls back on looking. A stream ends
after :data:`LIFETIME` seconds and the browser opens it again, and every stream ends when
the server is told to stop.
"""

from __future__ import annotations

import asyncio
import re
import signal
import threading
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager, suppress
from types import FrameType
from typing import Any, Final

import streamlit as st
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response, StreamingResponse
from starlette.routing import BaseRoute, Route

from spades.app.errors import StoreError
from spades.app.tables import TableRefusal
from spades.engine.cards import SOUTH
from spades.ui.cookies import script_string, served
from spades.ui.db import app_site

#: The route's path, under the app's base path (:func:`~spades.ui.cookies.served`);
#: ``{table_id}`` is the table's id as in its link.
PATH: Final = "/_spades/tables/{table_id}/news"
#: The hidden button the script presses, by its widget key.
BUTTON_KEY: Final = "table_news"
#: The hidden container of the button and the script (``display: none`` in the stylesheet).
HOLDER_KEY: Final = "news_listener"
#: Seconds between two looks the page takes at the table by itself (see :func:`listen`)
#: while it hears no news, and while it does (a look is then only the seat's sign of life,
#: which the server notes every ``SEEN_EVERY``, 10 s).
LOOK_EVERY: Final = 1.0
QUIET_LOOK_EVERY: Final = 5.0
#: Streams a table may have open on one server, and streams in all.
PER_TABLE: Final = 64
STREAMS: Final = 2000
#: Seconds a stream stays open; the browser opens a new one after it.
LIFETIME: Final = 600.0
#: Seconds between two comments that keep an idle stream's connection alive.
KEEP_ALIVE: Final = 15.0
#: Seconds a quiet stream waits before it looks whether the server is stopping.
WAKE: Final = 0.5
#: A table id as :func:`secrets.token_urlsafe` makes them (anything else is no table); it
#: is safe in a URL and inside the script's quotes.
TABLE_ID: Final = re.compile(r"[A-Za-z0-9_-]{16,32}")

Handler = Callable[[int, FrameType | None], Any] | int | signal.Handlers | None

_open: Counter[str] = Counter()
#: Set when the server is told to stop (:func:`lifespan`).
_stopping = threading.Event()


def routes() -> list[BaseRoute]:
    """The routes the server adds to the app."""
    return [Route(served(PATH), news, methods=["GET"])]


@asynccontextmanager
async def lifespan(app: object) -> AsyncIterator[None]:
    """The server's life, as far as the streams are concerned.

    The ASGI server waits for every response in progress before it stops, and a stream
    would keep it waiting for :data:`LIFETIME`. Once the server has set its handlers of the
    stop signals, they are wrapped so that each first tells the streams to end.
    """
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, _ending_streams(signal.getsignal(sig)))
    yield


def _ending_streams(handler: Handler) -> Callable[[int, FrameType | None], None]:
    def stop(sig: int, frame: FrameType | None) -> None:
        _stopping.set()
        if callable(handler):
            handler(sig, frame)
        elif handler == signal.SIG_DFL:
            signal.default_int_handler(sig, frame)

    return stop


async def news(request: Request) -> Response:
    """The stream of one table's versions (see the module's docstring)."""
    table_id = str(request.path_params["table_id"])
    if not TABLE_ID.fullmatch(table_id):
        return PlainTextResponse("No such table.", status_code=404)
    if _open[table_id] >= PER_TABLE or _open.total() >= STREAMS:
        return PlainTextResponse("Too many pages are listening; look again later.", 503)
    _open[table_id] += 1  # held from here, so that the awaits below cannot overshoot
    service = app_site().tables()
    loop = asyncio.get_running_loop()
    moved = asyncio.Event()
    latest = [0]

    def heard(version: int) -> None:
        def note() -> None:
            latest[0] = max(latest[0], version)
            moved.set()

        loop.call_soon_threadsafe(note)

    try:
        now, stop = await run_in_threadpool(service.follow, table_id, heard)
    except (TableRefusal, StoreError):
        _close(table_id)
        return PlainTextResponse("No such table.", status_code=404)
    latest[0] = max(latest[0], now)

    async def stream() -> AsyncIterator[str]:
        sent = -1
        started = said = time.monotonic()
        try:
            yield "retry: 1000\n\n"
            while not _stopping.is_set() and time.monotonic() - started < LIFETIME:
                if latest[0] > sent:
                    sent = latest[0]
                    said = time.monotonic()
                    yield f"data: {sent} {service.news_of(table_id, sent)}".rstrip() + "\n\n"
                elif time.monotonic() - said >= KEEP_ALIVE:
                    said = time.monotonic()
                    yield ": still here\n\n"
                moved.clear()
                with suppress(TimeoutError):
                    await asyncio.wait_for(moved.wait(), WAKE)
        finally:
            stop()
            _close(table_id)

    return StreamingResponse(
        stream(),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


def _close(table_id: str) -> None:
    """A stream of ``table_id`` is over (or never opened)."""
    _open[table_id] -= 1
    if _open[table_id] <= 0:
        del _open[table_id]


_SCRIPT: Final = """
<script>
(() => {
  const id = "%s";
  const doc = window.document;
  const all = window.spadesNews || (window.spadesNews = {});
  const looks = window.spadesLooks || (window.spadesLooks = {});
  const looked = window.spadesLooked || (window.spadesLooked = {});
  const leave = (table) => {
    if (all[table]) { all[table].close(); delete all[table]; }
    clearInterval(looks[table]);
    delete looks[table];
    delete looked[table];
  };
  for (const other of new Set([...Object.keys(all), ...Object.keys(looks)])) {
    if (other !== id) leave(other);
  }
  const press = (version, tries) => {
    if (new URLSearchParams(window.location.search).get("table") !== id) {
      leave(id); return;  // the page has moved on from the table
    }
    const mark = doc.querySelector(".sp-news");
    if (mark && Number(mark.dataset.version) >= version) return;
    const button = doc.querySelector(".st-key-%s button");
    // A run under way is let finish first: a look sent during a whole run of the page ran
    // right after it, and on a busy browser the page then at times kept a summary that
    // run had closed, or never showed the one it drew. So news heard during a run is
    // pressed the moment the run ends (Streamlit's page marks its run on its app
    // element); the table may also be between two drawings: look again shortly.
    const app = doc.querySelector("[data-testid='stApp']");
    const idle = !app || app.getAttribute("data-test-script-state") === "notRunning";
    if (button && idle) { button.click(); looked[id] = Date.now(); return; }
    if (tries <= 0) return;  // a look: the next one comes soon enough
    if (app && !idle) {
      const waiting = new MutationObserver(() => {
        if (app.getAttribute("data-test-script-state") !== "notRunning") return;
        waiting.disconnect();
        press(version, tries);
      });
      waiting.observe(app, { attributes: true, attributeFilter: ["data-test-script-state"] });
    } else setTimeout(() => press(version, tries - 1), 50);
  };
  // A card another seat played shows at once where that seat sits on this page (turned
  // so that the page's own seat is at the bottom), drawn as the page's own click is
  // (spades.ui.quick), when the table on show is the one the card was played on; the
  // run the news asks for replaces it with the server's drawing.
  const PLACES = {north: "N", east: "E", south: "S", west: "W"};
  const draw = (version, move) => {
    const mark = doc.querySelector(".sp-news");
    const [seat, kind, code] = move.split(":");
    if (!mark || kind !== "card" || Number(mark.dataset.version) !== version - 1) return;
    if (seat === mark.dataset.seat || !/^[0-9]$/.test(seat) || !/^[0-9A-Z]{2}$/.test(code || "")) {
      return;
    }
    const cell = doc.querySelector(".st-key-trick .sp-table .sp-seat[data-at='" + seat + "']");
    const slot = cell && cell.querySelector(".sp-slot");
    const place = cell && [...cell.classList].map(name => name.slice(3)).find(n => n in PLACES);
    if (!slot || !place || slot.querySelector("[data-card]")) return;
    const played = doc.createElement("span");
    played.className = "sp-pending";
    played.dataset.card = code;
    played.dataset.seat = PLACES[place];
    played.dataset.news = String(version);
    const face = doc.createElement("span");
    face.className = "sp-card sp-fresh sp-f-" + code;
    face.setAttribute("aria-hidden", "true");
    played.append(face);
    slot.append(played);
  };
  // The page's own look at the table presses the same button, so that a click made in the
  // meantime is sent with it, once. While the news stream is open and has spoken, a look
  // is only the seat's sign of life, and is taken less often.
  const look = () => {
    const source = all[id];
    const live = source && source.heard && source.readyState === EventSource.OPEN;
    if (live && Date.now() - (looked[id] || 0) < %d) return;
    press(Infinity, 0);
  };
  if (!(id in looks)) looks[id] = setInterval(look, %d);
  if (all[id] || !window.EventSource) return;
  const source = new EventSource(%s.replace("{table_id}", id));
  source.onmessage = (event) => {
    source.heard = true;
    const [version, move] = event.data.split(" ");
    draw(Number(version), move || "");
    press(Number(version), 20);
  };
  source.onerror = () => {
    if (source.readyState === EventSource.CLOSED) delete all[id];
  };
  all[id] = source;
})();
</script>
"""


def listen(table_id: str, version: int, seat: int | None = None) -> None:
    """On a table's page, inside its fragment: the hidden button that reruns the fragment,
    the version drawn, the page's ``seat`` (None: a watcher, who sees the table from
    South), and the script that draws a card another seat played the moment the news
    tells it and presses the button when the table moves on,
    and now and then besides (every :data:`LOOK_EVERY` seconds, or every
    :data:`QUIET_LOOK_EVERY` while the news is heard). ``table_id`` has been checked against
    :data:`TABLE_ID`.

    The script's timer takes the place of the fragment's ``run_every``: Streamlit's page
    holds a click until a 0 ms timer sends it, and its ``run_every`` timer, firing in
    between, sent the click as well, so that its callback ran twice. A press of this
    button waits for the same 0 ms timer, and goes with the click in one message."""
    with st.container(key=HOLDER_KEY):
        st.button("Look at the table", key=BUTTON_KEY)
        st.html(
            f'<span class="sp-news" data-version="{int(version)}"'
            f' data-seat="{SOUTH if seat is None else int(seat)}"></span>'
            + _SCRIPT
            % (
                table_id,
                BUTTON_KEY,
                round(QUIET_LOOK_EVERY * 1000),
                round(LOOK_EVERY * 1000),
                script_string(served(PATH)),
            ),
            unsafe_allow_javascript=True,
        )
