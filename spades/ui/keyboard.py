"""Keyboard play and screen-reader names for the Play page's buttons.

Streamlit's buttons are real ``<button>`` elements, so Tab and Enter already work. The
small script here adds what a card table needs on top:

- the arrow keys move the focus along the row that is waiting for you (the blind nil
  choice, the bids, or your playable cards), and Enter presses the focused button;
- typing a rank then a suit (``A`` ``S`` for the ace of spades, ``T`` or ``0`` for a ten)
  plays that card when it is playable;
- while you bid, a digit focuses that bid (``1`` then ``0``–``3`` for 10–13, ``N`` or
  ``0`` for nil), and Enter bids it;
- when a keyboard player's focused button goes away after a click, the focus returns to
  the next row that waits for them;
- each card and bid button gets its accessible name (``aria-label``) from a hidden map
  the page draws every run (:func:`labels_html`), since a Streamlit button label is
  Markdown and cannot carry one.

Keys typed into a text field, a select box or the sidebar are left alone.
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping
from typing import Final

import streamlit as st

SCRIPT: Final = """
<script>
(() => {
  const doc = window.document;
  if (window.spadesKeyboard) { window.spadesKeyboard.apply(); return; }
  const ROWS = ["blind", "bids", "hand"];
  const shown = (b) => b.getClientRects().length > 0 && b.offsetParent !== null;
  const rowButtons = () => {
    for (const key of ROWS) {
      const row = doc.querySelector(".st-key-" + key);
      if (!row) continue;
      const buttons = [...row.querySelectorAll("button")].filter((b) => shown(b) && !b.disabled);
      if (buttons.length) return buttons;
    }
    return [];
  };
  const find = (key) => [...doc.querySelectorAll(".st-key-" + key + " button")]
    .find((b) => shown(b) && !b.disabled);
  let usingKeys = false;
  let pending = "";
  let pendingAt = 0;
  const apply = () => {
    const holder = doc.querySelector(".sp-labels");
    if (!holder) return;
    let labels = {};
    try { labels = JSON.parse(holder.dataset.labels || "{}"); } catch (e) { return; }
    for (const [key, label] of Object.entries(labels)) {
      for (const b of doc.querySelectorAll(".st-key-" + key + " button")) {
        if (b.getAttribute("aria-label") !== label) b.setAttribute("aria-label", label);
      }
    }
  };
  const refocus = () => {
    const active = doc.activeElement;
    if (!usingKeys || (active && active !== doc.body && doc.contains(active))) return;
    const buttons = rowButtons();
    if (buttons.length) buttons[0].focus();
  };
  let queued = false;
  new MutationObserver(() => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; apply(); refocus(); });
  }).observe(doc.body, { childList: true, subtree: true, attributes: true,
    attributeFilter: ["disabled", "data-labels"] });
  const RANKS = "23456789TJQKA";
  doc.addEventListener("mousedown", () => { usingKeys = false; }, true);
  // Streamlit has one-letter shortcuts of its own (C clears the cache, R reruns): a key
  // the table uses is taken on the window, before they see it.
  const take = (event) => { event.preventDefault(); event.stopImmediatePropagation(); };
  window.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target instanceof Element && target.closest(
      "input, textarea, select, [contenteditable='true'], [role='listbox'], [role='dialog'], "
      + "[data-testid='stSidebar']")) return;
    const key = event.key;
    if (key === "Tab" || key === "Enter" || key === " ") { usingKeys = true; return; }
    const buttons = rowButtons();
    if (!buttons.length) return;
    if (["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"].includes(key)) {
      usingKeys = true;
      take(event);
      const step = key === "ArrowLeft" || key === "ArrowUp" ? -1 : 1;
      const at = buttons.indexOf(doc.activeElement);
      const next = at < 0 ? (step > 0 ? 0 : buttons.length - 1)
        : (at + step + buttons.length) % buttons.length;
      buttons[next].focus();
      return;
    }
    const letter = key.length === 1 ? key.toUpperCase() : "";
    if (!letter) return;
    const now = Date.now();
    const recent = now - pendingAt < 1500 ? pending : "";
    if (buttons[0].closest(".st-key-bids")) {
      let bid = null;
      if (recent === "1" && "0123".includes(letter)) bid = "bid_1" + letter;
      else if (letter === "N" || letter === "0") bid = "bid_nil";
      else if ("123456789".includes(letter)) bid = "bid_" + letter;
      if (!bid) return;
      take(event);
      pending = letter; pendingAt = now;
      const button = find(bid);
      if (button) { usingKeys = true; button.focus(); }
      return;
    }
    if (!buttons[0].closest(".st-key-hand")) return;
    if ("SHDC".includes(letter)) {
      take(event);
      const button = recent && find("card_" + recent + letter);
      pending = "";
      if (button) { usingKeys = true; button.focus(); button.click(); }
      return;
    }
    const rank = letter === "0" || letter === "1" ? "T" : letter;
    if (RANKS.includes(rank)) { take(event); pending = rank; pendingAt = now; }
  }, true);
  window.spadesKeyboard = { apply };
  apply();
})();
</script>
"""

HELP: Final = (
    "Keys: ← → choose, Enter plays or bids; or type a rank then a suit (A S is the A♠, "
    "T H the 10♥); while bidding type the number (N for nil)."
)


def install() -> None:
    """Add the keyboard script to the page (it installs itself once per browser tab)."""
    st.html(SCRIPT, unsafe_allow_javascript=True)


def labels_html(labels: Mapping[str, str]) -> str:
    """A hidden element carrying each button key's accessible name for the script.

    >>> labels_html({"bid_3": "Bid 3"})
    '<div class="sp-labels" hidden data-labels="{&quot;bid_3&quot;: &quot;Bid 3&quot;}"></div>'
    """
    data = html.escape(json.dumps(dict(labels), ensure_ascii=False), quote=True)
    return f'<div class="sp-labels" hidden data-labels="{data}"></div>'
