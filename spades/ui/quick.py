"""The Play page answers a click in the browser first, and the server confirms it.

A Streamlit click is a round trip: the browser sends it, the server reruns the table and
sends the new table back. Under load that takes longer than a player should wait to see
their card land, so the small script here draws the answer the moment the button is
pressed:

- a card played goes into South's place in the trick, and out of the hand;
- a bid shows as South's bid, and the bid row goes away;
- a trick still on show from the bots goes at once (the player has moved on);
- until the server has answered, further clicks on the hand or the bids are swallowed,
  and so is the second click of a double click when it lands on a hand the server drew
  after the first (a new hand under the pointer), so a double click plays one card. The
  browser counts a click as a double click's second by time and place: two clicks on one
  spot within half a second, or two taps a finger's width apart. Such a click is
  swallowed only when it comes within ``ECHO_MS`` of the click before it or of the
  drawing it lands on, sooner than a person could answer what they see. Later, it is a
  person's answer to the hand on show (the leader of a trick just won plays again at
  once, often on the same spot), and it is taken.

Everything it draws is marked ``data-pending="true"``. The server's next drawing of the
table replaces it; if the server refused the click, the table it sends is unchanged, and
the script takes its own drawing back. It knows the server has answered from the run
mark the table draws each run (:func:`run_mark_html`), which also says what a click on
the hand means now (play a card, or pass one in the exchange) and the position the
drawing's clicks carry.

A press can be lost on its way to the server: a run of the whole page started at once
(a click in the sidebar) can take the place of the table's run that carried it. When a
drawing at the same position, with the same button still offered, follows the press
instead of the server's answer, the script presses the button again once that run is
over, once. A press the server did take is then refused as stale.
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from typing import Final, Literal

import streamlit as st

#: What a click on a card in the hand does now; only a card played goes into the trick.
HandUse = Literal["play", "other"]

#: Milliseconds within which a click counted as a double click's second is its echo: the
#: server's answer to the first click and a person's answer to the hand it draws take
#: longer.
ECHO_MS: Final = 250

SCRIPT: Final = """
<script>
(() => {
  if (window.spadesQuick) return;
  const doc = window.document;
  let pending = null;
  // When the last click on the hand or the bids was taken, and when the table on show
  // was drawn (its run mark first seen).
  let last = -Infinity;
  let drawn = -Infinity;
  let shown = null;
  const ECHO = ECHO_MS;
  const mark = () => doc.querySelector(".sp-run");
  const keyOf = (element, prefix) => {
    for (const name of element.classList) {
      if (name.startsWith("st-key-" + prefix)) return name.slice(7);
    }
    return null;
  };
  // The stylesheet paints the card's face (spades.ui.faces), as it does the server's.
  const faceOf = (code) => {
    const card = doc.createElement("span");
    card.className = "sp-card sp-fresh sp-f-" + code;
    card.setAttribute("aria-hidden", "true");
    return card;
  };
  const hide = (selector) => {
    const sheet = doc.createElement("style");
    sheet.textContent = selector + " { display: none !important; }";
    doc.head.append(sheet);
    return () => sheet.remove();
  };
  const drawCard = (table, code) => {
    const slot = table.querySelector(".sp-south .sp-slot");
    if (!slot) return [];
    const played = doc.createElement("span");
    played.className = "sp-pending";
    played.dataset.card = code;
    played.dataset.seat = "S";
    played.dataset.pending = "true";
    played.append(faceOf(code));
    slot.append(played);
    table.classList.add("sp-moved-on");
    return [() => played.remove(), () => table.classList.remove("sp-moved-on")];
  };
  const drawBid = (table, words) => {
    const bid = table.querySelector(".sp-south .sp-bid");
    if (!bid) return [];
    const before = bid.textContent;
    bid.textContent = words;
    bid.dataset.pending = "true";
    return [() => { bid.textContent = before; delete bid.dataset.pending; }];
  };
  // A press the server may never have had: its drawing was taken back by a drawing of
  // the table at the same position (its ply), not by the server's answer to it.
  let unanswered = null;
  let resending = false;
  const settle = (force) => {
    const run = mark();
    if (!pending || (!force && run && run.dataset.run === pending.run)) return;
    clearTimeout(pending.timer);
    for (const undo of pending.undo) undo();
    const press = pending;
    pending = null;
    if (!force && !press.again && run && run.dataset.ply === press.ply) unanswered = press;
  };
  // Once the run that drew the table again is over, the press is sent again if the same
  // button is still offered: a run of the whole page started at once (the sidebar) can
  // take the place of the run that carried the press. Once only; and a press the server
  // did take is refused as stale, for its table has moved on.
  const again = () => {
    const press = unanswered;
    const run = mark();
    const app = doc.querySelector("[data-testid='stApp']");
    if (!press || !run || !app || app.getAttribute("data-test-script-state") !== "notRunning") {
      return;
    }
    unanswered = null;
    if (run.dataset.ply !== press.ply) return;
    const button = doc.querySelector(".st-key-" + press.key + " button");
    if (!button || button.disabled) return;
    resending = true;
    button.click();
    resending = false;
  };
  // Once a run is over, a card button its drawing does not hold is hidden: Streamlit
  // can leave the button of a card played in the hand after a run of the table that a
  // look or the news cut short, shown though the server drew the hand without it.
  const stray = doc.createElement("style");
  doc.head.append(stray);
  const tidy = () => {
    const run = mark();
    const app = doc.querySelector("[data-testid='stApp']");
    if (!run || !app || app.getAttribute("data-test-script-state") !== "notRunning") return;
    const held = new Set((run.dataset.cards || "").split(" "));
    const keys = new Set();
    const row = ":is(.st-key-hand, .st-key-hand_waiting) > [class*='st-key-card_']";
    for (const element of doc.querySelectorAll(row)) {
      const key = keyOf(element, "card_");
      if (key && !held.has(key)) keys.add(key);
    }
    const rule = keys.size
      ? [...keys].map(key => ".st-key-" + key).join(", ") + " { display: none !important; }"
      : "";
    if (stray.textContent !== rule) stray.textContent = rule;
  };
  const watch = () => {
    const run = mark();
    const now = run && run.dataset.run;
    if (now !== shown) { shown = now; drawn = performance.now(); }
    settle(false);
    tidy();
    again();
  };
  new MutationObserver(watch).observe(doc.body, {
    childList: true, subtree: true, attributes: true, attributeFilter: ["data-test-script-state"],
  });
  doc.addEventListener("click", (event) => {
    const run = mark();
    const target = event.target;
    if (!run || !(target instanceof Element)) return;
    const button = target.closest("button");
    const row = button && button.closest(".st-key-hand, .st-key-bids, .st-key-blind");
    if (!row) return;
    const echo = event.detail > 1
      && Math.min(event.timeStamp - last, event.timeStamp - drawn) < ECHO;
    if (pending || echo) {
      event.preventDefault();
      event.stopImmediatePropagation();
      return;
    }
    if (button.disabled) return;
    unanswered = null;
    last = event.timeStamp;
    const table = doc.querySelector(".st-key-trick .sp-table");
    const holder = button.closest("[class*='st-key-card_'], [class*='st-key-bid_']");
    if (!table || !holder) return;
    const card = keyOf(holder, "card_");
    const bid = keyOf(holder, "bid_");
    let undo = [];
    if (card && run.dataset.hand === "play") {
      undo = drawCard(table, card.slice(5)).concat(hide(".st-key-" + card));
    } else if (bid) {
      const words = bid === "bid_nil" ? "nil" : bid === "bid_blind_nil" ? "blind nil"
        : bid.slice(4);
      undo = drawBid(table, words).concat(hide(".st-key-bids, .st-key-blind"));
    }
    // A click the server never answers (the connection dropped) must not lock the hand.
    pending = {
      run: run.dataset.run, ply: run.dataset.ply, key: card || bid, again: resending, undo,
      timer: setTimeout(() => settle(true), 15000),
    };
  }, true);
  window.spadesQuick = true;
})();
</script>
""".replace("ECHO_MS", str(ECHO_MS))


def run_mark_html(run: int, ply: int, hand: HandUse, cards: Iterable[str] = ()) -> str:
    """The mark of the table's ``run``-th drawing, of the position its clicks carry
    (``ply``), saying what a click on the hand does and which card buttons (their keys)
    the drawing holds.

    >>> run_mark_html(7, 12, "play", ["card_AS"]).split()[3:]
    ['data-run="7"', 'data-ply="12"', 'data-hand="play"', 'data-cards="card_AS"></div>']
    """
    held = html.escape(" ".join(cards))
    return (
        f'<div class="sp-run" hidden data-run="{run}" data-ply="{ply}"'
        f' data-hand="{html.escape(hand)}" data-cards="{held}"></div>'
    )


def install() -> None:
    """Add the script to the page (it installs itself once per browser tab)."""
    st.html(SCRIPT, unsafe_allow_javascript=True)
