"""The table's stylesheet. Streamlit gives each keyed element the class ``st-key-<key>``,
so the rules below reach card buttons (``card_*``), bid buttons and the table by key.
"""

from __future__ import annotations

from typing import Final

import streamlit as st

CSS: Final = """
<style>
[class*="st-key-card_"] button {
  min-width: 2.55rem; width: 2.55rem; height: 3.9rem; padding: 0.1rem 0.15rem;
  background: #fffdf7; color: #1b1b1b; border: 1px solid #8a8a8a; border-radius: 0.45rem;
  box-shadow: 0 1px 3px rgba(0, 0, 0, 0.35); transition: transform 0.12s ease;
}
[class*="st-key-card_"] button p { font-size: 1.15rem; font-weight: 700; line-height: 1.1; }
.st-key-hand, .st-key-hand_waiting { gap: 0.22rem; }
.st-key-bids { gap: 0.3rem; }
.st-key-bids button { min-width: 2.3rem; padding: 0.2rem 0.45rem; }
[class*="st-key-card_"] button:enabled:hover {
  transform: translateY(-0.45rem); border-color: #1f6f43;
}
[class*="st-key-card_"] button:disabled { opacity: 0.45; background: #e6e2d8; }
.st-key-hand_waiting [class*="st-key-card_"] button:disabled {
  opacity: 0.95; background: #fffdf7; color: #1b1b1b; cursor: wait;
}
.st-key-hand_waiting [class*="st-key-card_"] button:disabled p { color: #1b1b1b; }
.sp-row { display: flex; flex-wrap: wrap; gap: 0.35rem; align-items: flex-end; }
.sp-card {
  display: inline-flex; flex-direction: column; align-items: center; justify-content: center;
  width: 2.8rem; height: 4rem; background: #fffdf7; color: #1b1b1b;
  border: 1px solid #8a8a8a; border-radius: 0.45rem; box-shadow: 0 1px 3px rgba(0,0,0,.35);
  font-size: 1.2rem; line-height: 1.1;
}
.sp-card b { font-weight: 700; } .sp-card i { font-style: normal; font-size: 1.35rem; }
.sp-card.sp-red { color: #c62828; }
.sp-card.sp-small { width: 2.5rem; height: 3.5rem; font-size: 1rem; }
.sp-card.sp-back {
  background: repeating-linear-gradient(45deg, #27496d 0 6px, #1d3554 6px 12px);
  border-color: #102033;
}
.sp-play { display: inline-flex; flex-direction: column; align-items: center; gap: 0.1rem; }
.sp-table {
  display: grid; grid-template-columns: 1fr 1.1fr 1fr; grid-template-rows: auto auto auto;
  gap: 0.4rem; padding: 0.8rem; border-radius: 1rem;
  background: radial-gradient(circle at center, #2e7d4f 0%, #1b5e3a 70%, #144a2d 100%);
  color: #f1f5ef;
}
.sp-seat {
  display: flex; flex-direction: column; align-items: center; gap: 0.2rem;
  padding: 0.3rem; border-radius: 0.6rem; border: 2px solid transparent;
}
.sp-north { grid-column: 2; grid-row: 1; }
.sp-west { grid-column: 1; grid-row: 2; }
.sp-east { grid-column: 3; grid-row: 2; }
.sp-south { grid-column: 2; grid-row: 3; }
.sp-center {
  grid-column: 2; grid-row: 2; display: flex; flex-direction: column;
  align-items: center; justify-content: center; text-align: center; font-size: 0.9rem;
}
.sp-name { font-weight: 700; }
.sp-letter {
  display: inline-block; min-width: 1.2rem; border-radius: 0.3rem; font-size: 0.75rem;
  background: rgba(0, 0, 0, 0.3); text-align: center; margin-right: 0.15rem;
}
.sp-stats { font-size: 0.85rem; opacity: 0.9; }
.sp-slot { min-height: 4.1rem; display: flex; align-items: center; }
.sp-to-act { border-color: #ffd54f; background: rgba(255, 213, 79, 0.12); }
.sp-winner { border-color: #81d4fa; background: rgba(129, 212, 250, 0.15); }
.sp-badge {
  font-size: 0.7rem; background: #ffd54f; color: #222; border-radius: 0.5rem;
  padding: 0 0.35rem; margin-left: 0.2rem;
}
.sp-winner .sp-badge { background: #81d4fa; }
.sp-dealer {
  font-size: 0.7rem; background: #f1f5ef; color: #144a2d; border-radius: 50%;
  padding: 0 0.3rem;
}
.sp-trump { font-size: 1.6rem; }
.sp-marker { font-size: 0.8rem; opacity: 0.9; }
</style>
"""


def inject() -> None:
    """Add the table's stylesheet to the page (once a run)."""
    st.html(CSS)


def highlight(key: str) -> None:
    """Ring the element with widget key ``key`` (the hinted card or bid)."""
    st.html(
        f"<style>.st-key-{key} button {{ outline: 3px solid #ffb300; "
        "outline-offset: 2px; }</style>"
    )
