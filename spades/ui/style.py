"""The table's stylesheet. Streamlit gives each keyed element the class ``st-key-<key>``,
so the rules below reach card buttons (``card_*``), bid buttons and the table by key.

Colours come from CSS custom properties set by :func:`spades.app.themes.css_variables`
(the felt, the card back, the suits' colours and the beat of the animations), and the card
faces from the rules of :func:`spades.ui.faces.faces_css`, one a card. Every animation
lasts a fraction of the beat, so it follows the bot speed, and none runs for a player
whose system asks for reduced motion.
"""

from __future__ import annotations

from typing import Final

import streamlit as st

from spades.app.play import TRICK_HOLD
from spades.app.themes import DEFAULT_BACK, DEFAULT_FELT, css_variables
from spades.ui.faces import faces_css

CSS: Final = """
/* The table on one screen: the page starts under Streamlit's toolbar, the felt on the left,
   and beside it the sides' panels, then the controls, the notice, the hint and the last
   trick (below the felt on a phone, see the end). */
.stMain .stMainBlockContainer { padding-top: 3.75rem; }
.st-key-table_layout {
  display: grid; grid-template-columns: minmax(0, 3fr) minmax(13rem, 1fr);
  grid-template-rows: auto 1fr; gap: 0.75rem 1.5rem; align-items: start;
}
.st-key-table_layout > :is(.st-key-table_felt, :has(> .st-key-table_felt)) {
  grid-column: 1; grid-row: 1 / span 2;
}
.st-key-table_layout > :is(.st-key-side_panels, :has(> .st-key-side_panels)) {
  grid-column: 2; grid-row: 1;
}
.st-key-table_layout > :is(.st-key-table_aside, :has(> .st-key-table_aside)) {
  grid-column: 2; grid-row: 2;
}
.st-key-table_aside { gap: 0.6rem; }
.st-key-table_aside [data-testid="stAlert"] > div { padding: 0.6rem 0.75rem; }
.st-key-last_trick_view { padding: 0.5rem 0.6rem; gap: 0.25rem; }
.st-key-last_trick_view .sp-row { gap: 0.25rem; flex-wrap: nowrap; }
/* A card button shows the card's face from the deck (--sp-img, named per card by
   spades.ui.faces); its text label is kept for assistive technology only. */
[class*="st-key-card_"] button {
  min-width: 3.6rem; width: 3.6rem; height: 5.04rem; padding: 0;
  background-color: var(--sp-face); background-image: var(--sp-img);
  background-size: 100% 100%; background-repeat: no-repeat;
  color: var(--sp-black); border: 1px solid #8a8a8a;
  border-radius: 0.45rem; box-shadow: -1px 1px 3px rgba(0, 0, 0, 0.35);
  transition: transform calc(var(--sp-beat) * 0.15) ease;
}
[class*="st-key-card_"] button p {
  position: absolute; width: 1px; height: 1px; margin: 0; overflow: hidden;
  clip: rect(0 0 0 0); white-space: nowrap;
}
/* The hand is one fanned row: each card but the last gets an equal share of the row (its
   own width and a gap at most), and the next card covers the rest of it but never its
   corner index. The playable cards stand raised. */
.st-key-hand, .st-key-hand_waiting { flex-wrap: nowrap; gap: 0; padding-top: 0.6rem; }
:is(.st-key-hand, .st-key-hand_waiting) > [class*="st-key-card_"] {
  position: relative; flex: 1 1 0; min-width: 0; max-width: 3.85rem;
}
:is(.st-key-hand, .st-key-hand_waiting) > [class*="st-key-card_"]:last-child {
  flex: none; max-width: none;
}
/* Each card starts where its share of the row starts (Streamlit puts a button with a help
   text at the end of its box, in an inline style). */
:is(.st-key-hand, .st-key-hand_waiting) > [class*="st-key-card_"] .stTooltipHoverTarget {
  justify-content: flex-start !important;
}
.st-key-hand [class*="st-key-card_"] button:enabled { transform: translateY(-0.6rem); }
/* The hand face down (blind nil not yet chosen, or a watched seat) is fanned the same way,
   its backs the size of the card buttons. */
.sp-fan { display: flex; flex-wrap: nowrap; justify-content: center; padding-top: 0.6rem; }
.sp-fan-card { flex: 1 1 0; min-width: 0; max-width: 3.85rem; }
.sp-fan-card:last-child { flex: none; max-width: none; }
.sp-fan .sp-card { display: block; width: 3.6rem; height: 5.04rem; }
.st-key-bids { gap: 0.3rem; }
.st-key-bids button { min-width: 2.3rem; padding: 0.2rem 0.45rem; }
[class*="st-key-card_"] button:enabled:hover, [class*="st-key-card_"] button:enabled:focus-visible {
  transform: translateY(-0.45rem); border-color: var(--sp-cloth-2);
}
.st-key-hand [class*="st-key-card_"] button:enabled:is(:hover, :focus-visible) {
  transform: translateY(-1rem);
}
[class*="st-key-card_"] button:enabled:is(:hover, :focus, :active) {
  background-color: var(--sp-face); color: var(--sp-black);
}
[class*="st-key-card_"] button:focus-visible, .st-key-bids button:focus-visible,
.st-key-blind button:focus-visible, .st-key-controls button:focus-visible {
  outline: 3px solid var(--sp-focus); outline-offset: 2px;
  box-shadow: 0 0 0 6px rgba(0, 0, 0, 0.55);
}
/* A card that cannot be played is greyed and faded, drawn solid so that none shows through
   another in the fan; while the hand only waits, the cards are shown plainly. */
[class*="st-key-card_"] button:disabled,
[class*="st-key-card_"] button:disabled:is(:hover, :active) {
  opacity: 1; background-color: #c4bfb3; filter: grayscale(0.65) brightness(0.9);
}
.st-key-hand_waiting [class*="st-key-card_"] button:disabled,
.st-key-hand_waiting [class*="st-key-card_"] button:disabled:is(:hover, :active) {
  background-color: var(--sp-face); filter: none; color: var(--sp-black); cursor: wait;
}
.sp-row { display: flex; flex-wrap: wrap; gap: 0.35rem; align-items: flex-end; }
.sp-card {
  display: inline-block; width: 3.2rem; height: 4.48rem; background: var(--sp-face);
  border: 1px solid #8a8a8a; border-radius: 0.45rem; box-shadow: 0 1px 3px rgba(0,0,0,.35);
}
.sp-card:not(.sp-back) {
  background-image: var(--sp-img); background-size: 100% 100%; background-repeat: no-repeat;
}
.sp-card.sp-small { width: 2.5rem; height: 3.5rem; }
.sp-card.sp-back {
  background-color: var(--sp-cloth-3); background-image: var(--sp-back);
  border: 3px solid var(--sp-face); outline: 1px solid var(--sp-back-border);
}
.sp-card.sp-mini { width: 1.5rem; height: 2.15rem; border-width: 2px; border-radius: 0.25rem; }
.sp-held { display: inline-flex; align-items: center; gap: 0.25rem; font-size: 0.8rem; }
.sp-play { display: inline-flex; flex-direction: column; align-items: center; gap: 0.1rem; }
.sp-table {
  display: grid; grid-template-columns: 1fr 1.1fr 1fr; grid-template-rows: auto auto auto;
  gap: 0.4rem; padding: 0.8rem; border-radius: 1rem;
  background: radial-gradient(circle at center, var(--sp-cloth-1) 0%, var(--sp-cloth-2) 70%,
    var(--sp-cloth-3) 100%);
  color: var(--sp-text);
}
.st-key-table_felt {
  background: radial-gradient(ellipse at 50% 35%, var(--sp-cloth-1) 0%, var(--sp-cloth-2) 60%,
    var(--sp-cloth-3) 100%);
  border-radius: 1.2rem; padding: 0.6rem; gap: 0.5rem; color: var(--sp-text);
  box-shadow: inset 0 0 0 6px rgba(0, 0, 0, 0.25);
}
.st-key-table_felt .sp-table { background: none; padding: 0.3rem; }
.st-key-table_felt .st-key-status p, .st-key-table_felt .st-key-keys * {
  color: var(--sp-text) !important;
}
.st-key-table_felt .st-key-keys p { font-size: 0.8rem; }
.st-key-bids button, .st-key-blind button {
  background: var(--sp-face); color: var(--sp-black); border-color: var(--sp-cloth-3);
}
.st-key-bids button:disabled, .st-key-blind button:disabled {
  background: rgba(0, 0, 0, 0.22); color: var(--sp-text); opacity: 0.55;
}
.sp-seat {
  display: flex; flex-direction: column; align-items: center; gap: 0.2rem; min-width: 0;
  padding: 0.3rem; border-radius: 0.6rem; border: 2px solid transparent; text-align: center;
}
.sp-north { grid-column: 2; grid-row: 1; }
/* West and East sit beside the whole trick, so that North's card and South's come close
   to the middle. */
.sp-west { grid-column: 1; grid-row: 1 / span 3; align-self: center; }
.sp-east { grid-column: 3; grid-row: 1 / span 3; align-self: center; }
.sp-south { grid-column: 2; grid-row: 3; }
.sp-center {
  grid-column: 2; grid-row: 2; display: flex; flex-direction: column;
  align-items: center; justify-content: center; text-align: center; font-size: 0.9rem;
}
.sp-name { font-weight: 700; overflow-wrap: anywhere; }
.sp-letter {
  display: inline-block; min-width: 1.2rem; border-radius: 0.3rem; font-size: 0.75rem;
  background: rgba(0, 0, 0, 0.3); text-align: center; margin-right: 0.15rem;
}
.sp-stats { font-size: 0.85rem; }
.sp-voids { font-size: 0.8rem; }
.sp-voids b { background: var(--sp-face); color: var(--sp-black); border-radius: 0.25rem;
  padding: 0 0.2rem; margin-left: 0.15rem; font-weight: 700; }
.sp-voids b.sp-clubs { color: var(--sp-clubs); }
.sp-voids b.sp-diamonds { color: var(--sp-diamonds); }
.sp-voids b.sp-hearts { color: var(--sp-hearts); }
.sp-voids b.sp-spades { color: var(--sp-spades); }
.sp-slot { min-height: 4.6rem; display: flex; align-items: center; }
.sp-to-act { border-color: var(--sp-to-act); background: rgba(0, 0, 0, 0.18); }
.sp-winner { border-color: var(--sp-winner); background: rgba(0, 0, 0, 0.18); }
.sp-badge {
  font-size: 0.7rem; background: var(--sp-to-act); color: var(--sp-badge-text);
  border-radius: 0.5rem; padding: 0 0.35rem; margin-left: 0.2rem;
}
.sp-winner .sp-badge { background: var(--sp-winner); }
.sp-dealer {
  font-size: 0.7rem; background: var(--sp-text); color: var(--sp-black); border-radius: 50%;
  padding: 0 0.3rem;
}
.sp-trump { font-size: 1.6rem; }
.sp-marker { font-size: 0.8rem; }
/* Streamlit's captions are a light grey below WCAG AA on white: darken them to the text
   colour, slightly faded, which keeps them readable on a light or a dark theme. */
[data-testid="stCaptionContainer"] { color: inherit; opacity: 0.86; }
.st-key-table_sound {
  position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0);
}
.sp-sr {
  position: absolute !important; width: 1px; height: 1px; margin: -1px; padding: 0;
  overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0;
}
/* Motion: a card played slides in from its seat, a finished trick goes to its winner. */
.sp-north .sp-fresh { animation: sp-from-north calc(var(--sp-beat) * 0.4) ease-out both; }
.sp-east .sp-fresh { animation: sp-from-east calc(var(--sp-beat) * 0.4) ease-out both; }
.sp-south .sp-fresh { animation: sp-from-south calc(var(--sp-beat) * 0.4) ease-out both; }
.sp-west .sp-fresh { animation: sp-from-west calc(var(--sp-beat) * 0.4) ease-out both; }
@keyframes sp-from-north { from { transform: translateY(-2.5rem); opacity: 0; } }
@keyframes sp-from-east { from { transform: translateX(2.5rem); opacity: 0; } }
@keyframes sp-from-south { from { transform: translateY(2.5rem); opacity: 0; } }
@keyframes sp-from-west { from { transform: translateX(-2.5rem); opacity: 0; } }
.sp-to-north .sp-slot .sp-card { animation: sp-to-north var(--sp-beat) ease-in both; }
.sp-to-east .sp-slot .sp-card { animation: sp-to-east var(--sp-beat) ease-in both; }
.sp-to-south .sp-slot .sp-card { animation: sp-to-south var(--sp-beat) ease-in both; }
.sp-to-west .sp-slot .sp-card { animation: sp-to-west var(--sp-beat) ease-in both; }
@keyframes sp-to-north { 0%, 55% { transform: none; opacity: 1; }
  100% { transform: translateY(-3.5rem) scale(0.6); opacity: 0.2; } }
@keyframes sp-to-east { 0%, 55% { transform: none; opacity: 1; }
  100% { transform: translateX(3.5rem) scale(0.6); opacity: 0.2; } }
@keyframes sp-to-south { 0%, 55% { transform: none; opacity: 1; }
  100% { transform: translateY(3.5rem) scale(0.6); opacity: 0.2; } }
@keyframes sp-to-west { 0%, 55% { transform: none; opacity: 1; }
  100% { transform: translateX(-3.5rem) scale(0.6); opacity: 0.2; } }
.sp-table .sp-slot .sp-card.sp-trumped {
  outline: 3px solid var(--sp-to-act); outline-offset: 1px;
  animation: sp-trumped calc(var(--sp-beat) * 0.5) ease-in-out 2 alternate both;
}
@keyframes sp-trumped { to { box-shadow: 0 0 0.9rem 0.35rem var(--sp-to-act);
  transform: scale(1.12); } }
/* A phone (and any narrow window): the whole table fits the first screen. The scores come
   first as one short bar, the page starts under Streamlit's toolbar, the trick area is
   compact, the bids take two rows of seven (of nine for three players) and the hand is one
   fanned row. */
@media (max-width: 640px) {
  .stMain .stMainBlockContainer { padding: 4rem 0.5rem 2rem; }
  .st-key-header { flex-wrap: nowrap; gap: 0.5rem; }
  .st-key-header h3 { font-size: 1.15rem; padding: 0.2rem 0 1rem; white-space: nowrap; }
  .st-key-header [data-testid="stCaptionContainer"] p { font-size: 0.75rem; line-height: 1.2; }
  .st-key-header button { min-height: 2.1rem; padding: 0.15rem 0.6rem; }
  /* One column: the side panels first, side by side (two teams, or three or four
     players), then the felt, then the controls and what they show. */
  .st-key-table_layout { grid-template-columns: minmax(0, 1fr); row-gap: 0.45rem; }
  .st-key-table_layout > * { grid-column: 1 !important; grid-row: auto !important; }
  .st-key-side_panels { flex-direction: row; gap: 0.4rem; }
  .st-key-side_panels > * { flex: 1 1 0; min-width: 0; }
  .st-key-side_panels [class*="st-key-team_"],
  .st-key-side_panels [class*="st-key-player_"] { padding: 0.25rem 0.5rem; gap: 0; }
  .st-key-side_panels p { font-size: 0.8rem; line-height: 1.3; }
  .st-key-side_panels [data-testid="stCaptionContainer"] p { font-size: 0.72rem; }
  .st-key-table_felt {
    padding: 0.3rem; gap: 0.35rem; border-radius: 0.9rem;
    box-shadow: inset 0 0 0 3px rgba(0, 0, 0, 0.25);
  }
  .sp-table, .st-key-table_felt .sp-table {
    gap: 0.1rem; padding: 0.1rem; grid-template-columns: 1fr 1fr 1fr;
  }
  .sp-seat { padding: 0.1rem 0.15rem; gap: 0.05rem; border-radius: 0.5rem; }
  /* A seat's name, dealer mark and badge share one line when they fit; a long name moves
     the badge to a line of its own, and the badge itself never breaks. */
  .sp-name {
    display: flex; flex-wrap: wrap; align-items: center; justify-content: center;
    gap: 0 0.15rem; max-width: 100%; font-size: 0.8rem; line-height: 1.2;
    overflow-wrap: break-word;
  }
  .sp-letter, .sp-dealer, .sp-badge { flex: none; white-space: nowrap; margin: 0; }
  .sp-letter { min-width: 1rem; font-size: 0.68rem; }
  .sp-dealer { font-size: 0.64rem; padding: 0 0.25rem; }
  .sp-badge { font-size: 0.64rem; padding: 0 0.25rem; }
  .sp-stats, .sp-voids { font-size: 0.7rem; line-height: 1.2; }
  .sp-marker { font-size: 0.68rem; line-height: 1.2; }
  .sp-trump { font-size: 1.2rem; line-height: 1; }
  .sp-card { width: 2.5rem; height: 3.5rem; }
  .sp-card.sp-mini { width: 0.95rem; height: 1.35rem; border-width: 2px; }
  .sp-slot { min-height: 3.55rem; }
  .st-key-status p { font-size: 0.92rem; line-height: 1.25; }
  .st-key-bids { gap: 0.25rem; }
  .st-key-bids > * { flex: 1 1 calc((100% - 1.5rem) / 7); min-width: 0; }
  /* Three players bid up to 17: two rows of nine. */
  .st-key-bids:has(> :nth-child(15)) > * { flex-basis: calc((100% - 2rem) / 9); }
  .st-key-bids .stButton, .st-key-bids button { width: 100%; }
  .st-key-bids button { min-width: 0; min-height: 2.5rem; padding: 0.1rem; }
  /* The hand's fan fills the phone's width, the cards a size smaller. */
  .st-key-hand, .st-key-hand_waiting { justify-content: center; }
  :is(.st-key-hand, .st-key-hand_waiting) > [class*="st-key-card_"] { max-width: 3.1rem; }
  [class*="st-key-card_"] button {
    min-width: 2.9rem; width: 2.9rem; height: 4.06rem; border-radius: 0.4rem;
  }
  .sp-fan-card { max-width: 3.1rem; }
  .sp-fan .sp-card { width: 2.9rem; height: 4.06rem; border-radius: 0.4rem; }
  .st-key-controls button { min-height: 2.2rem; padding: 0.15rem 0.6rem; }
}
/* A shared table's news listener: a button its script presses, never seen. */
.st-key-news_listener { display: none; }
/* A touch screen has no keys to explain and no hover: a tapped card does not stay lifted. */
@media (hover: none) and (pointer: coarse) {
  .st-key-keys { display: none; }
  [class*="st-key-card_"] button:enabled:hover { transform: none; }
  .st-key-hand [class*="st-key-card_"] button:enabled:hover { transform: translateY(-0.6rem); }
}
/* The trick just finished (instant pace) lies over the table for --sp-hold, its winner
   marked, then goes; the cards of the trick now in play show after it. A click ends it. */
.sp-slot { position: relative; }
.sp-flash { position: absolute; inset: 0; display: flex; align-items: center;
  justify-content: center; z-index: 1;
  animation: sp-flash-out 0.2s ease-in var(--sp-hold) both; }
.sp-flash .sp-card { flex: none; }
.sp-flashing .sp-now { animation: sp-after-flash 0s linear var(--sp-hold) both; }
.sp-flash-winner { animation: sp-flash-win 0s linear var(--sp-hold) both; }
.sp-flash-winner .sp-name::after {
  content: "wins"; font-size: 0.7rem; background: var(--sp-winner); color: var(--sp-badge-text);
  border-radius: 0.5rem; padding: 0 0.35rem; margin-left: 0.2rem; white-space: nowrap;
  animation: sp-flash-out 0s linear var(--sp-hold) both;
}
@keyframes sp-flash-out { to { opacity: 0; visibility: hidden; } }
@keyframes sp-after-flash { from { visibility: hidden; } }
@keyframes sp-flash-win { from { border-color: var(--sp-winner);
  background: rgba(0, 0, 0, 0.18); } }
.sp-moved-on .sp-flash, .sp-moved-on .sp-flash-winner .sp-name::after { display: none; }
.sp-moved-on .sp-now, .sp-moved-on .sp-flash-winner { animation: none; }
@media (prefers-reduced-motion: reduce) {
  .sp-table *, [class*="st-key-card_"] button, [class*="st-key-card_"] {
    animation: none !important; transition: none !important;
  }
  /* The trick just finished is still shown for its moment, without motion. */
  .sp-table .sp-flash { animation: sp-flash-out 0s linear var(--sp-hold) both !important; }
  .sp-table .sp-flash-winner { animation: sp-flash-win 0s linear var(--sp-hold) both !important; }
  .sp-table.sp-flashing .sp-now {
    animation: sp-after-flash 0s linear var(--sp-hold) both !important;
  }
  .sp-table.sp-moved-on .sp-now { animation: none !important; }
}
"""


#: Keeps the summary dialog closed while the hand's last trick is on show (instant pace).
#: It replaces Streamlit's own slide-in, which would otherwise run first and, once over,
#: hand the dialog to this hold: the dialog would show, blink away for the hold, and show
#: again, losing a click made in the blink.
AFTER_THE_LAST_TRICK: Final = (
    '<style>[data-testid="stDialog"] '
    "{ animation: sp-after-flash 0s linear var(--sp-hold) both !important; }</style>"
)


def deal_css(count: int) -> str:
    """The deal: the hand's cards fly in one after another from the dealer's side.

    Drawn only while the hand's cards are new (the caller decides), so it plays once.
    """
    delays = "".join(
        f'.st-key-hand_waiting [class*="st-key-card_"]:nth-child({i + 1}) button,'
        f'.st-key-hand [class*="st-key-card_"]:nth-child({i + 1}) button'
        f" {{ animation-delay: calc(var(--sp-beat) * {0.05 * i:.2f}); }}"
        for i in range(count)
    )
    return (
        "<style>"
        '.st-key-hand_waiting [class*="st-key-card_"] button,'
        '.st-key-hand [class*="st-key-card_"] button'
        " { animation: sp-deal calc(var(--sp-beat) * 0.5) ease-out both; }"
        "@keyframes sp-deal { from { transform: translateY(-6rem) rotate(-8deg); opacity: 0; } }"
        f"{delays}</style>"
    )


def inject(
    felt: str = DEFAULT_FELT,
    back: str = DEFAULT_BACK,
    beat: float = 0.9,
    *,
    four_colour: bool = False,
) -> None:
    """Add the table's stylesheet to the page (once a run) for a felt, a back, a beat and
    the deck (four colours, or black and red)."""
    hold = f":root {{ --sp-hold: {TRICK_HOLD}s; }}"
    variables = css_variables(felt, back, beat, four_colour=four_colour)
    st.html(f"<style>{variables}{hold}{CSS}{faces_css(four_colour=four_colour)}</style>")


def highlight(key: str) -> None:
    """Ring the element with widget key ``key`` (the hinted card or bid)."""
    st.html(
        f"<style>.st-key-{key} button {{ outline: 3px solid #ffb300; "
        "outline-offset: 2px; }</style>"
    )
