"""Start the app (``streamlit run …``) with a trace of what the server is sent and does.

Not a benchmark of its own: ``browser_clock.serve(trace=...)`` starts the server through it
when a benchmark wants to know what became of each click. One JSON object a line goes to
the file named by ``SPADES_CLICK_TRACE``, each with ``t`` (ms since the epoch):

- ``request``: a rerun the browser asked for (Streamlit's ``rerun_script`` message), with
  the session, the fragment it names and whether the session still knows that fragment
  (Streamlit drops a request for a fragment it no longer has), and the buttons pressed;
- ``callbacks``: before a run, the card, bid and look buttons whose press Streamlit found,
  each with ``ok``, ``disabled`` (its last drawing had it disabled: Streamlit skips the
  callback) or ``unknown`` (never drawn: skipped too);
- ``act``: what the table service made of a move (taken, or refused and why);
- ``took``: how long the service took to move the table on, read a seat's view or the
  table's version for a page (``what``, ``ms``).

It wraps three internals of Streamlit 1.67 (``AppSession.request_rerun``,
``SessionState._call_callbacks``) and the service's ``act``; a Streamlit that renames them
fails here at once, never silently.

    python benchmarks/click_trace.py run serve.py --server.port 8501
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from typing import Any

import streamlit.runtime.app_session as app_session
import streamlit.runtime.state.session_state as session_state
from streamlit.web.cli import main

import spades.app.tables as tables

#: Buttons worth tracing, by the end of their widget id (the key).
TRACED = ("card_", "bid_", "table_news", "look")

_lock = threading.Lock()
_out = open(os.environ["SPADES_CLICK_TRACE"], "a", buffering=1)  # noqa: SIM115 (the server's life)


def note(**fields: Any) -> None:
    """One line of the trace."""
    with _lock:
        _out.write(json.dumps({"t": round(time.time() * 1000, 1), **fields}) + "\n")


def _key(widget_id: str) -> str:
    """A widget's key from its id (``$$ID-<hash>-card_AS`` → ``card_AS``)."""
    return widget_id.split("-", 2)[-1] if widget_id.startswith("$$ID") else widget_id


def _traced(widget_id: str) -> bool:
    return any(name in _key(widget_id) for name in TRACED)


_request_rerun = app_session.AppSession.request_rerun


def _requested(self: app_session.AppSession, client_state: Any) -> None:
    if client_state is not None:
        fragment = client_state.fragment_id
        pressed = [
            _key(w.id)
            for w in client_state.widget_states.widgets
            if w.WhichOneof("value") == "trigger_value" and w.trigger_value
        ]
        note(
            ev="request",
            session=self.id[:8],
            fragment=fragment[:8],
            known=self.has_fragment(fragment) if fragment else None,
            pressed=pressed,
            auto=client_state.is_auto_rerun,
        )
    _request_rerun(self, client_state)


_call_callbacks = session_state.SessionState._call_callbacks


def _calling(self: session_state.SessionState, **kwargs: Any) -> None:
    found = []
    for widget_id in self._new_widget_state:
        if _traced(widget_id) and self._widget_changed(widget_id):
            meta = self._new_widget_state.widget_metadata.get(widget_id)
            state = "unknown" if meta is None else "disabled" if meta.disabled else "ok"
            found.append([_key(widget_id), state])
    if found:
        note(ev="callbacks", found=found)
    _call_callbacks(self, **kwargs)


_act = tables.TableService.act


def _acting(
    self: tables.TableService, table_id: str, token: str, action: int, version: int
) -> None:
    try:
        _act(self, table_id, token, action, version)
    except Exception as err:
        note(ev="act", action=action, version=version, taken=False, why=str(err))
        raise
    note(ev="act", action=action, version=version, taken=True)


def _timed(name: str, call: Any) -> Any:
    """``call``, noting how long each call took (``took``, ms)."""

    def timed(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return call(*args, **kwargs)
        finally:
            note(ev="took", what=name, ms=round((time.perf_counter() - start) * 1000, 1))

    return timed


for _name in ("advance", "view", "version"):
    setattr(tables.TableService, _name, _timed(_name, getattr(tables.TableService, _name)))

app_session.AppSession.request_rerun = _requested  # type: ignore[method-assign]
session_state.SessionState._call_callbacks = _calling  # type: ignore[method-assign]
tables.TableService.act = _acting  # type: ignore[method-assign]

if __name__ == "__main__":
    sys.argv[0] = "streamlit"
    sys.exit(main())
