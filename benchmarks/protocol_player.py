"""A player of the Play page that speaks Streamlit's own protocol instead of running a browser.

Not a benchmark of its own; ``players_load.py --via protocol`` uses it. Twenty browsers on
two cores leave nothing for the server, so to load one server with many players the
players must cost next to nothing: this one is a websocket and a few protobuf messages.

It does what the browser's Streamlit client does with the server's messages, and no more:

- it connects to ``/_stcore/stream`` and asks for a run of the app, as a page load does;
- it keeps, for every element a run draws that has a key (the end of its element id), its
  kind, whether it is disabled and the fragment it belongs to; a full run replaces them
  all, a fragment's run only that fragment's (as the browser drops a run's stale elements);
- it fires each fragment's timer (``AutoRerun``) while no run is going on, which is what
  paces the bots;
- it clicks a button by asking for a rerun with the button's trigger set, from the
  button's fragment, and it sends back the address the app last gave (``game=…``).

Times are on this process's monotonic clock. A click is "confirmed" at the end of the
first finished run that no longer offers it (the card out of the hand, the bid row gone),
which is when the browser, too, removes what a run did not draw again. Nothing is drawn, so
nothing about drawing is timed: that is the browser benchmarks' part.
"""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass, field
from typing import Any

import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

#: Seconds to wait for the next thing the player expects before it gives up.
WAIT = 60.0


@dataclass(slots=True)
class Element:
    """An element with a key, as the last run that drew it left it."""

    kind: str
    element_id: str
    disabled: bool
    fragment: str


@dataclass(slots=True)
class Click:
    """One click on a card or a bid: when it was sent and when the server's run took it."""

    kind: str
    code: str
    t: float
    confirmed: float | None = None


def _key(element_id: str) -> str | None:
    """The user key at the end of an element id (``$$ID-<hash>-<key>``), if it has one."""
    parts = element_id.split("-", 2)
    return parts[2] if len(parts) == 3 and parts[0] == "$$ID" and parts[2] else None


@dataclass(slots=True)
class ProtocolPlayer:
    """One player on its own websocket, clicking as soon as it is their turn."""

    url: str
    rng: random.Random
    socket: Any = None
    elements: dict[str, Element] = field(default_factory=dict)
    query: str = ""
    running: bool = False
    timers: dict[str, tuple[float, asyncio.Task[None]]] = field(default_factory=dict)
    finished: asyncio.Event = field(default_factory=asyncio.Event)
    reader: asyncio.Task[None] | None = None
    clicks: list[Click] = field(default_factory=list)
    alerts: set[str] = field(default_factory=set)
    stuck: list[str] = field(default_factory=list)
    runs: int = 0
    cards: int = 0
    hands: int = 0
    matches: int = 0

    # ------------------------------------------------------------ the connection
    @classmethod
    async def open(cls, url: str, seed: int) -> ProtocolPlayer:
        """Connect as a new player and wait for the first page."""
        player = cls(url, random.Random(seed))
        stream = url.replace("http://", "ws://", 1) + "/_stcore/stream"
        player.socket = await websockets.connect(
            stream, subprotocols=["streamlit"], origin=url, max_size=None
        )
        player.reader = asyncio.create_task(player._read())
        await player._rerun()
        await player._settled()
        return player

    async def close(self) -> None:
        """Stop the timers and the reader and close the websocket."""
        for _, task in self.timers.values():
            task.cancel()
        if self.reader is not None:
            self.reader.cancel()
        await self.socket.close()

    async def _rerun(self, fragment: str = "", trigger: str = "", auto: bool = False) -> None:
        back = BackMsg()
        state = back.rerun_script
        state.query_string = self.query
        state.fragment_id = fragment
        state.is_auto_rerun = auto
        if trigger:
            widget = state.widget_states.widgets.add()
            widget.id = trigger
            widget.trigger_value = True
        self.running = True
        self.finished.clear()
        await self.socket.send(back.SerializeToString())

    async def _read(self) -> None:
        async for data in self.socket:
            msg = ForwardMsg()
            msg.ParseFromString(data)
            self._take(msg)

    def _take(self, msg: ForwardMsg) -> None:
        kind = msg.WhichOneof("type")
        if kind == "new_session":
            self._run_started(set(msg.metadata.run.fragment_ids))
        elif kind == "delta":
            self._delta(msg)
        elif kind == "auto_rerun":
            self._timer(msg.auto_rerun.fragment_id, msg.auto_rerun.interval)
        elif kind == "page_info_changed":
            self.query = msg.page_info_changed.query_string
        elif kind == "script_finished" and (
            msg.script_finished != ForwardMsg.FINISHED_EARLY_FOR_RERUN
        ):
            # A run that ends in a rerun goes on as the next one.
            self._run_finished()

    def _run_started(self, fragments: set[str]) -> None:
        self.running = True
        if not fragments:
            # A full run draws the whole page again and sets the timers it wants.
            self.elements.clear()
            for _, task in self.timers.values():
                task.cancel()
            self.timers.clear()
        else:
            self.elements = {
                key: el for key, el in self.elements.items() if el.fragment not in fragments
            }

    def _delta(self, msg: ForwardMsg) -> None:
        delta = msg.delta
        which = delta.WhichOneof("type")
        if which == "new_element":
            element = delta.new_element
            kind = element.WhichOneof("type") or ""
            body = getattr(element, kind)
            if kind in ("alert", "exception"):
                self.alerts.add((body.body if kind == "alert" else body.message)[:120])
            element_id = getattr(body, "id", "")
            disabled = bool(getattr(body, "disabled", False))
        elif which == "add_block":
            kind, element_id, disabled = "block", delta.add_block.id, False
        else:
            return
        key = _key(element_id)
        if key is not None:
            self.elements[key] = Element(kind, element_id, disabled, delta.fragment_id)

    def _run_finished(self) -> None:
        self.running = False
        self.runs += 1
        now = time.monotonic()
        for click in self.clicks:
            if click.confirmed is None and not self._offers(click):
                click.confirmed = now
        self.finished.set()

    def _timer(self, fragment: str, interval: float) -> None:
        if fragment in self.timers and self.timers[fragment][0] == interval:
            return
        if fragment in self.timers:
            self.timers[fragment][1].cancel()
        self.timers[fragment] = (interval, asyncio.create_task(self._tick(fragment, interval)))

    async def _tick(self, fragment: str, interval: float) -> None:
        while True:
            await asyncio.sleep(interval)
            if not self.running:
                await self._rerun(fragment, auto=True)

    # -------------------------------------------------------------- the page
    def _enabled(self, prefix: str) -> list[str]:
        return sorted(
            key
            for key, el in self.elements.items()
            if key.startswith(prefix) and el.kind == "button" and not el.disabled
        )

    def _offers(self, click: Click) -> bool:
        """Whether the page still offers what ``click`` took."""
        if click.kind == "card":
            return "card_" + click.code in self.elements
        return bool(self._enabled("bid_"))

    def state(self) -> tuple[str, list[str]] | None:
        """What the player is asked to do now, and the buttons to choose from."""
        if "match_over" in self.elements:
            return "over", ["new_game"]
        for state, key in (("summary", "next_hand"), ("look", "look")):
            if self._enabled(key):
                return state, [key]
        for state, prefix in (("bid", "bid_"), ("card", "card_")):
            if choices := self._enabled(prefix):
                return state, choices
        return None

    async def _settled(self) -> None:
        """Wait for the end of the run going on."""
        deadline = time.monotonic() + WAIT
        while self.running:
            await asyncio.wait_for(self.finished.wait(), max(0.0, deadline - time.monotonic()))

    async def _turn_comes(self) -> tuple[str, list[str]]:
        deadline = time.monotonic() + WAIT
        while True:
            await self._settled()
            found = self.state()
            if found is not None:
                return found
            self.finished.clear()
            await asyncio.wait_for(self.finished.wait(), max(0.0, deadline - time.monotonic()))

    async def turn(self, until: float) -> str:
        """Wait for the player's turn and take it; "stopped" when it came after ``until``."""
        state, choices = await self._turn_comes()
        if time.monotonic() >= until:
            return "stopped"
        if state == "card":
            key = self.rng.choice(choices)
            self.cards += 1
        elif state == "bid":
            bids = [c for c in choices if c != "bid_blind_nil"] or choices
            key = bids[len(bids) // 2]
        else:
            key = choices[0]
            self.hands += state == "summary"
            self.matches += state == "over"
        element = self.elements[key]
        if state in ("card", "bid"):
            self.clicks.append(Click(state, key.split("_", 1)[1], time.monotonic()))
        await self._rerun(element.fragment, trigger=element.element_id)
        await self._settled()
        return state

    async def play(self, until: float) -> None:
        """Take every turn until the deadline (a wait that times out ends the play)."""
        try:
            while await self.turn(until) != "stopped":
                pass
        except TimeoutError:
            self.stuck.append(f"no turn came within {WAIT:.0f} s (state {self.state()})")
