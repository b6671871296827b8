"""The Profile page: handle, display name and colour, the player's rating over time, their
data to download or delete, and signing in and out where signing in is set up.

A visitor with no profile yet is told what one is for and may make one by choosing a
handle. Every name is escaped (:mod:`spades.ui.safe`); a refusal from the store is shown
in its own words, and a database that cannot be used reaches the router's fault page.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

import streamlit as st

from spades.app.errors import StoreError
from spades.app.site import HANDLE_MAX, HANDLE_MIN, NAME_MAX, Profile, Site
from spades.ui import identity, rating_view, safe
from spades.ui.db import app_site

#: What a player may type to confirm the deletion, besides their handle.
DELETE_WORD: Final = "DELETE"
#: Set for the run after a deletion, which says it is done.
_DELETED_KEY: Final = "profile_deleted"
#: Set while the deletion asks to be confirmed.
_CONFIRM_KEY: Final = "profile_confirm_delete"
HANDLE_HELP: Final = (
    f"How others know you: {HANDLE_MIN} to {HANDLE_MAX} letters, digits and _, "
    "unique here (Ada and ada are one handle)."
)
NEWCOMER: Final = (
    "You have no profile yet. A profile keeps your games, your stats, your rating and how "
    "you like the table; this browser remembers it. Choose a handle to make one (playing "
    "a game makes one too)."
)


def profile_page() -> None:
    """The player's profile, or how a visitor makes one."""
    site = app_site()
    st.title("Profile")
    if st.session_state.pop(_DELETED_KEY, False):
        st.success("Your data is deleted, and this browser has forgotten you.")
    player = identity.player_id()
    if player is None:
        _newcomer()
    else:
        profile = site.profile(player)
        _card(profile)
        _edit(site, profile)
        _rating(site, profile)
        _your_data(site, profile)
    _sign_in_out()


def _newcomer() -> None:
    st.info(NEWCOMER, icon=":material/person_add:")
    with st.form("profile_create"):
        handle = st.text_input(
            "Handle", max_chars=HANDLE_MAX, key="profile_new_handle", help=HANDLE_HELP
        )
        name = st.text_input(
            "Display name", max_chars=NAME_MAX, key="profile_new_name", placeholder="You"
        )
        created = st.form_submit_button("Make my profile", key="profile_create_submit")
    if created:
        try:
            identity.ensure_player(name, handle=handle)
        except StoreError as err:
            st.error(safe.md(err, limit=200), icon=":material/error:")
        else:
            st.rerun()


def _card(profile: Profile) -> None:
    """The player as others see them: their colour, display name and handle."""
    handle = f" @{safe.html_text(profile.handle)}" if profile.handle else ""
    st.html(
        '<div class="spades-profile-card" style="display:flex;align-items:center;gap:.6em">'
        '<span aria-hidden="true" style="display:inline-block;width:1.6em;height:1.6em;'
        f'border-radius:50%;background:{safe.html_text(profile.colour, 7)}"></span>'
        f"<strong>{safe.html_text(profile.name)}</strong>{handle}</div>"
    )


def _edit(site: Site, profile: Profile) -> None:
    with st.form("profile_form"):
        handle = st.text_input(
            "Handle",
            value=profile.handle or "",
            max_chars=HANDLE_MAX,
            key="profile_handle",
            help=HANDLE_HELP,
        )
        name = st.text_input(
            "Display name", value=profile.name, max_chars=NAME_MAX, key="profile_name"
        )
        colour = st.color_picker("Colour", value=profile.colour, key="profile_colour")
        saved = st.form_submit_button("Save", key="profile_save")
    if not saved:
        return
    try:
        site.update_profile(
            profile.player_id,
            # A player who never chose a handle may leave it empty; one they have stays.
            handle=handle if handle.strip() or profile.handle else None,
            name=name,
            colour=colour,
        )
    except StoreError as err:
        st.error(safe.md(err, limit=200), icon=":material/error:")
    else:
        st.rerun()


def _rating(site: Site, profile: Profile) -> None:
    st.subheader("Rating")
    history = rating_view.player_history(site, profile.player_id)
    if history is None:
        st.caption(
            "No rated games yet: every finished match you play here, against the bots or "
            "at a table, moves your rating."
        )
    else:
        rating_view.show(history, key="profile_rating_chart")


def _your_data(site: Site, profile: Profile) -> None:
    st.subheader("Your data")
    st.caption(
        "Download everything kept about you as one JSON file: your profile, table "
        "settings, rating and its history, and your finished games. Or delete it all."
    )
    download, delete = st.columns(2)
    player = profile.player_id
    download.download_button(
        "Download my data",
        # Made when clicked: a long record of games is not built on every visit.
        data=lambda: site.export_profile(player),
        file_name=f"spades-{profile.handle or 'profile'}.json",
        mime="application/json",
        key="profile_export",
        icon=":material/download:",
        on_click="ignore",
        width="stretch",
    )
    delete.button(
        "Delete my data",
        key="profile_delete",
        icon=":material/delete:",
        width="stretch",
        on_click=_on_delete,
    )
    if st.session_state.get(_CONFIRM_KEY):
        dialog = st.dialog("Delete my data", on_dismiss=_on_keep)
        dialog(_confirm_delete)(site, profile)


def _on_delete() -> None:
    st.session_state[_CONFIRM_KEY] = True


def _on_keep() -> None:
    st.session_state.pop(_CONFIRM_KEY, None)


def _confirm_delete(site: Site, profile: Profile) -> None:
    if not st.session_state.get(_CONFIRM_KEY):
        st.rerun(scope="app")
    word = f"your handle or {DELETE_WORD}" if profile.handle else DELETE_WORD
    st.markdown(
        "This deletes your profile, your games, your rating and its history, and gives up "
        f"your seats at tables. It cannot be undone. Type {safe.md(word)} to confirm."
    )
    typed = st.text_input("Confirm", key="profile_delete_typed").strip()
    with st.container(horizontal=True):
        confirmed = st.button("Delete for good", key="profile_delete_confirm", type="primary")
        st.button("Keep my data", key="profile_delete_keep", on_click=_on_keep)
    if not confirmed:
        return
    if typed != DELETE_WORD and (profile.handle is None or typed.lower() != profile.handle):
        st.error(f"Type {safe.md(word)} to confirm.", icon=":material/error:")
        return
    site.delete_profile(profile.player_id)
    identity.forget()
    st.session_state[_DELETED_KEY] = True
    if identity.signed_in_account() is not None:
        st.logout()
    st.rerun(scope="app")


def _sign_in_out() -> None:
    """Sign in and out, only where signing in is set up."""
    if not identity.auth_configured():
        return
    st.subheader("Sign in")
    if st.user.get("is_logged_in") is True:
        who = st.user.get("email") or st.user.get("name") or "your account"
        st.caption(f"Signed in as {safe.md(who)}: this profile is yours on any device.")
        st.button("Sign out", key="profile_sign_out", on_click=st.logout)
        return
    st.caption("Sign in to keep this profile on every device you sign in on.")
    providers = _providers(st.secrets.get("auth", {}))
    if not providers:
        st.button("Sign in", key="profile_sign_in", on_click=st.login)
    for provider in providers:
        st.button(
            f"Sign in with {safe.md(provider)}",
            key=f"profile_sign_in_{provider}",
            on_click=st.login,
            args=(provider,),
        )


def _providers(auth: Mapping[str, object]) -> list[str]:
    """The named providers of the ``[auth]`` secrets (``[auth.google]`` …); none when the
    section configures one provider of its own.

    >>> _providers({"redirect_uri": "x", "google": {"client_id": "1"}})
    ['google']
    """
    return [name for name, value in auth.items() if isinstance(value, Mapping)]
