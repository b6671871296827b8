"""The Play page's sidebar: the table's look and sound, house rules, bot levels, your name,
the pace and undo.

The house rules are a named preset (:data:`spades.engine.rules.PRESETS`, picked with the ``preset``
selectbox) or Custom, the player's own mix: only then does every ``Rules`` option get a
widget (keyed ``rule_<name>``) built from its type, label and help text in
:func:`spades.engine.rules.describe_options`. The choices are kept in
``st.session_state["play_settings"]`` so they survive a visit to another page; rules, bots,
name and undo apply to the next game, the pace at once. The current game's rules are listed
read-only below.

The option widgets are drawn only while Custom is picked, starting (through ``value``) from
the preset picked before it. Nothing then ever rewrites a widget the browser shows: a
preset that wrote the options' widget state from the server was undone by the browser,
which sent the values it still showed back with its next rerun.

The felt, the card back, the four-colour deck, sound, volume and the void-tracking aid are
the player's own (:mod:`spades.app.prefs`): they apply at once and are saved with the
player (whoever is at this browser, not whoever shares their name) whenever one changes.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final, Literal

import streamlit as st

from spades.app.errors import StoreError
from spades.app.play import GameController, default_bot_level
from spades.app.prefs import TablePrefs
from spades.app.seats import HUMAN_SEAT, bot_seats, person_name, seat_names
from spades.app.site import NAME_MAX
from spades.app.tables import PACES
from spades.app.themes import CARD_BACKS, FELTS
from spades.bots import bot_names
from spades.engine.cards import SEAT_LETTERS, Seat
from spades.engine.rules import (
    PRESETS,
    Game,
    Preset,
    Rules,
    RulesError,
    describe_options,
    option_choices,
    value_words,
)
from spades.ui import identity, safe
from spades.ui.db import app_site

SETTINGS_KEY: Final = "play_settings"
PREFS_ERROR_KEY: Final = "prefs_error"
SAVED_PREFS_KEY: Final = "table_prefs_saved"
PRESET_KEY: Final = "preset"
#: The picker's name for the player's own mix of the options.
CUSTOM: Final = "Custom"
_PRESETS: Final = {preset.name: preset for preset in PRESETS}
#: The widget key of each table preference.
PREF_KEYS: Final = {
    "felt": "felt",
    "back": "back_design",
    "sound": "sound_on",
    "volume": "sound_volume",
    "voids": "show_voids",
    "speed": "speed",
    "four_colour": "four_colour",
    "trick_stay": "trick_stay",
    "auto_play": "auto_play",
    "turn_sound": "turn_sound",
}
#: How each choice of how long a finished trick stays reads.
TRICK_STAY_LABELS: Final = {
    "pace": "With the bots' speed",
    "1": "1 second",
    "2": "2 seconds",
    "3": "3 seconds",
    "tap": "Until I tap Next trick",
}


@dataclass(slots=True)
class PlaySettings:
    """What the sidebar holds: the next game's options and the pace.

    ``preset`` names the next game's rule set: a preset's name, or :data:`CUSTOM` for the
    options in ``rule_values``.
    """

    player_name: str = "You"
    pace: str = "normal"
    undo_allowed: bool = True
    bot_levels: dict[Seat, str] = field(default_factory=dict)
    preset: str = PRESETS[0].name
    rule_values: dict[str, Any] = field(default_factory=lambda: Rules().to_dict())

    def rules(self) -> Rules:
        """The next game's rules: the preset's, or the custom options (which raise
        :class:`RulesError` when they contradict each other)."""
        named = _PRESETS.get(self.preset)
        return named.rules if named else Rules(**self.rule_values)

    def pick(self, name: str) -> None:
        """Pick a preset or Custom; Custom starts from the rules picked before it."""
        named = _PRESETS.get(self.preset)
        if name == CUSTOM and named is not None:
            self.rule_values = named.rules.to_dict()
        if name == CUSTOM or name in _PRESETS:
            self.preset = name

    def levels(self, rules: Rules) -> dict[Seat, str]:
        """A bot level for each bot seat of a game under ``rules``, the default where
        none is chosen."""
        known = bot_names()
        chosen = {seat: self.bot_levels.get(seat, default_bot_level()) for seat in bot_seats(rules)}
        return {s: level if level in known else default_bot_level() for s, level in chosen.items()}


def settings() -> PlaySettings:
    """The session's play settings (made with the defaults on first use).

    Values the sidebar's widgets hold are taken first, so a callback that runs before the
    sidebar is drawn (such as "new game") sees the latest choices.
    """
    found = st.session_state.get(SETTINGS_KEY)
    if not isinstance(found, PlaySettings):
        found = PlaySettings()
        st.session_state[SETTINGS_KEY] = found
    state = st.session_state
    if "speed" in state:
        found.pace = str(state["speed"])
    if "player_name" in state:
        found.player_name = str(state["player_name"]).strip() or "You"
    if "allow_undo" in state:
        found.undo_allowed = bool(state["allow_undo"])
    for seat, letter in enumerate(SEAT_LETTERS):
        if f"bot_{letter}" in state:
            found.bot_levels[seat] = str(state[f"bot_{letter}"])
    if PRESET_KEY in state:
        found.pick(str(state[PRESET_KEY]))
    if found.preset != CUSTOM:
        return found
    hints = _hints()
    for name in found.rule_values:
        if f"rule_{name}" in state:
            value = state[f"rule_{name}"]
            found.rule_values[name] = int(value) if isinstance(value, float) else value
        if _optional(hints[name]) and state.get(f"rule_{name}_on") is False:
            found.rule_values[name] = None
    return found


def _player_name() -> str:
    return person_name(str(st.session_state.get("player_name", "")))


def _saved_prefs() -> TablePrefs:
    """The player's preferences as last loaded or saved in this session.

    The widgets start from these through their ``value``; the page never writes a widget's
    key itself, which the browser could undo with the value it still shows.
    """
    found = st.session_state.get(SAVED_PREFS_KEY)
    if not isinstance(found, TablePrefs):
        found = st.session_state[SAVED_PREFS_KEY] = app_site().table_prefs(identity.player_id())
    return found


def table_prefs() -> TablePrefs:
    """The session's table preferences: the widgets' values, else the player's saved ones."""
    state = st.session_state
    saved = _saved_prefs()
    return TablePrefs.from_dict(
        {name: state.get(key, getattr(saved, name)) for name, key in PREF_KEYS.items()}
    )


def _save_prefs() -> None:
    chosen = st.session_state[SAVED_PREFS_KEY] = table_prefs()
    try:
        app_site().save_table_prefs(identity.ensure_player(_player_name()), chosen)
    except StoreError as err:
        st.session_state[PREFS_ERROR_KEY] = f"Your table could not be saved: {err}"


def _known_name(controller: GameController) -> str:
    """The player's one name: the one kept with the player (the Profile page's display
    name, the name at shared tables), else the name in the game on the table."""
    player = identity.player_id()
    try:
        kept = app_site().player_name(player) if player is not None else None
    except StoreError:
        kept = None
    return (kept or controller.players[HUMAN_SEAT])[:NAME_MAX]


def _rename_player() -> None:
    """A new name at the table: the player keeps their table, under the new name."""
    player = identity.player_id()
    if player is None:
        return
    try:
        app_site().rename_player(player, _player_name())
    except StoreError as err:
        st.session_state[PREFS_ERROR_KEY] = f"Your name could not be saved: {err}"


def _table_widgets() -> None:
    felts = list(FELTS)
    backs = list(CARD_BACKS)
    saved = _saved_prefs()
    st.selectbox(
        "Felt",
        felts,
        index=felts.index(saved.felt),
        format_func=lambda name: FELTS[name].label,
        key=PREF_KEYS["felt"],
        on_change=_save_prefs,
    )
    st.selectbox(
        "Card back",
        backs,
        index=backs.index(saved.back),
        format_func=lambda name: CARD_BACKS[name].label,
        key=PREF_KEYS["back"],
        on_change=_save_prefs,
    )
    st.toggle(
        "Four-colour deck",
        value=saved.four_colour,
        key=PREF_KEYS["four_colour"],
        on_change=_save_prefs,
        help="Each suit in its own colour: ♠ black, ♥ red, ♦ blue, ♣ green.",
    )
    st.toggle(
        "Show known voids",
        value=saved.voids,
        key=PREF_KEYS["voids"],
        on_change=_save_prefs,
        help="Mark at each seat the suits it has shown it no longer holds.",
    )
    st.toggle(
        "Play sounds",
        value=saved.sound,
        key=PREF_KEYS["sound"],
        on_change=_save_prefs,
        help="A snap for each card, a swish when a trick is gathered, and a cue at the end "
        "of each hand.",
    )
    st.slider(
        "Volume",
        min_value=0,
        max_value=100,
        step=5,
        value=saved.volume,
        key=PREF_KEYS["volume"],
        on_change=_save_prefs,
        help="How loud the sounds play; it can be set while they are off.",
    )
    st.toggle(
        "A sound when it is my turn",
        value=saved.turn_sound,
        key=PREF_KEYS["turn_sound"],
        on_change=_save_prefs,
        help="A soft knock each time the table waits for you (with sounds on).",
    )
    stays = list(TRICK_STAY_LABELS)
    st.selectbox(
        "A finished trick stays",
        stays,
        index=stays.index(saved.trick_stay),
        format_func=TRICK_STAY_LABELS.__getitem__,
        key=PREF_KEYS["trick_stay"],
        on_change=_save_prefs,
        help="How long the four cards of a trick stay on the table before they go to "
        "the winner, at every speed.",
    )
    st.toggle(
        "Play a forced card by itself",
        value=saved.auto_play,
        key=PREF_KEYS["auto_play"],
        on_change=_save_prefs,
        help="When only one of your cards may be played, it is played for you.",
    )


def _hints() -> dict[str, Any]:
    return typing.get_type_hints(Rules)


def _rule_widget(name: str, label: str, help_text: str, hint: Any, value: Any, default: Any) -> Any:
    key = f"rule_{name}"
    if hint is bool:
        return st.toggle(label, value=bool(value), help=help_text, key=key)
    if typing.get_origin(hint) is Literal:
        options = list(typing.get_args(hint))
        return st.selectbox(
            label,
            options,
            index=options.index(value),
            format_func=value_words,
            help=help_text,
            key=key,
        )
    choices = option_choices(name)
    if choices is not None:
        return st.selectbox(label, choices, index=choices.index(value), help=help_text, key=key)
    step = 50 if default is not None and abs(default) >= 100 else 1
    if _optional(hint):
        on = st.toggle(
            f"Use the {label.lower()}",
            value=value is not None,
            help=help_text,
            key=f"{key}_on",
        )
        number = st.number_input(
            label,
            value=default if value is None else value,
            step=step,
            format="%d",
            disabled=not on,
            key=key,
        )
        return int(number) if on else None
    return st.number_input(
        label,
        value=value,
        step=step,
        format="%d",
        help=help_text,
        key=key,
    )


def _optional(hint: Any) -> bool:
    """Whether a rule's type allows None (the option can be turned off)."""
    return isinstance(hint, types.UnionType) and type(None) in typing.get_args(hint)


def render(controller: GameController, *, on_new_game: Callable[[], None]) -> PlaySettings:
    """Draw the sidebar and return the settings it holds now; ``on_new_game`` starts a new
    game (offered when the rules chosen differ from the game's)."""
    if "player_name" not in st.session_state and not controller.read_only:
        st.session_state["player_name"] = _known_name(controller)
    chosen = settings()
    if "speed" not in st.session_state:
        chosen.pace = _saved_prefs().speed
    table_prefs()
    hints = _hints()
    with st.sidebar:
        st.subheader("Your table")
        chosen.pace = st.radio(
            "Bot speed",
            list(PACES),
            index=list(PACES).index(chosen.pace) if chosen.pace in PACES else 1,
            horizontal=True,
            key="speed",
            on_change=_save_prefs,
            help="How fast the bots bid and play, one card at a time; instant skips the wait.",
        )
        _table_widgets()
        problem = st.session_state.pop(PREFS_ERROR_KEY, None)
        if problem:
            st.error(safe.md(problem, limit=300))
        st.caption("The options below apply when you start a new game.")
        name = st.text_input(
            "Your name",
            max_chars=NAME_MAX,
            key="player_name",
            on_change=_rename_player,
            help="The name the table shows for you.",
        )
        chosen.player_name = name.strip() or "You"
        try:
            next_rules = chosen.rules()
        except RulesError:
            next_rules = controller.rules
        names = bot_names()
        levels = chosen.levels(next_rules)
        seat_words = seat_names(next_rules)
        partner = " North is your partner." if next_rules.partnerships else ""
        # In a container of their own: three players have one bot fewer, and the widgets
        # after them (the house rules expander, open while a rule set is picked) must keep
        # their place on the page, or the browser would draw them anew, closed.
        with st.container(key="bot_levels"):
            for seat in bot_seats(next_rules):
                chosen.bot_levels[seat] = st.selectbox(
                    f"{seat_words[seat]} bot",
                    names,
                    index=names.index(levels[seat]),
                    key=f"bot_{SEAT_LETTERS[seat]}",
                    help=f"How strongly this seat plays.{partner}",
                )
        chosen.undo_allowed = st.toggle(
            "Allow undo",
            value=chosen.undo_allowed,
            key="allow_undo",
            help="Take back your last bid or card. Games where it was used are marked.",
        )
        with st.expander("House rules for the next game"):
            preset = _preset_picker(chosen)
            if preset is not None:
                st.caption(" · ".join(_option_texts(preset.rules)))
            else:
                for name_, label, help_text, default in describe_options(_game(chosen)):
                    value = _rule_widget(
                        name_, label, help_text, hints[name_], chosen.rule_values[name_], default
                    )
                    chosen.rule_values[name_] = int(value) if isinstance(value, float) else value
            # Last in the expander, so that what it adds moves nothing outside it.
            try:
                waiting = chosen.rules() != controller.rules
            except RulesError as err:
                st.error(f"These rules cannot be played together: {err}")
            else:
                if waiting:
                    st.caption("These rules start with the next game.")
                    st.button(
                        "Start a game with them",
                        key="new_game_with_rules",
                        icon=":material/restart_alt:",
                        on_click=on_new_game,
                    )
        with st.expander("This game's rules"):
            st.markdown(rules_text(controller.rules))
    return chosen


def _preset_picker(chosen: PlaySettings) -> Preset | None:
    """The rule set picker with a line saying what the pick is; returns the preset picked
    (None for Custom)."""
    names = [*_PRESETS, CUSTOM]
    st.selectbox(
        "Rule set",
        names,
        index=names.index(chosen.preset),
        key=PRESET_KEY,
        help="A named rule set for the next game, or Custom to set each option yourself "
        "(starting from the set picked before).",
    )
    preset = _PRESETS.get(chosen.preset)
    st.caption(preset.description if preset else "Your own mix of the options below.")
    return preset


def _game(chosen: PlaySettings) -> Game:
    """The game whose options the custom rules show: cutthroat once partnerships are off."""
    return "partnership" if chosen.rule_values.get("partnerships", True) else "cutthroat"


def _option_texts(rules: Rules) -> list[str]:
    """Each option of the rules' game as "label: value" in Markdown, in bold where it
    differs from that game's defaults (the standard game, or plain cutthroat)."""
    standard = Rules().to_dict()
    if not rules.partnerships:
        standard = Rules(players=rules.players, partnerships=False).to_dict()
    texts = []
    for name, label, _help, _default in describe_options(rules.game):
        value = getattr(rules, name)
        text = f"{label}: {value_words(value)}"
        texts.append(f"**{text}**" if value != standard[name] else text)
    return texts


def rules_text(rules: Rules) -> str:
    """The rules as a Markdown list, options changed from the standard game in bold."""
    return "\n".join(f"- {text}" for text in _option_texts(rules))
