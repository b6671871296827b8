"""The cookies this session owes its browser, set by the server's answer, ``HttpOnly``.

A session that gives its browser a player or a seat owes it the token's cookie
(:func:`owe`; the cookies are :mod:`spades.app.cookies`'). Streamlit sends no header of the
app's own, and a cookie a script sets is one any script may read, so the page is never
handed the token: :func:`deliver` hands it a single-use code, good for a minute, and a
small script that posts the code to the server's route ``POST /_spades/cookie``
(:func:`take_code`). The route redeems the code and answers ``204`` with the cookie:
``HttpOnly; SameSite=Strict; Path=/``, and ``Secure`` when the page came over https.

The script posts each code once (it retries a failed post a few times). The session draws
it on every run until the store says the code was redeemed, so a run cut short by a click
cannot lose the cookie, and hands the page a new code when one expired untaken.

The route takes a code only from a page of this server's own origin (the request's
``Origin`` must name the host it was sent to), reads at most :data:`BODY_MAX` bytes, and
answers an unknown, used or expired code with a bare ``404``. Nothing of a code or a
token is logged. The server's routes (this one and the tables' news) sit under Streamlit's
``server.baseUrlPath`` (:func:`served`), and the pages' scripts find them there.
"""

from __future__ import annotations

import json
from typing import Final
from urllib.parse import urlsplit

import streamlit as st
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from spades.app.cookies import Cookie, CookiesUnavailable, Offer
from spades.ui.db import app_site

#: The route's path, under the app's base path (:func:`served`).
PATH: Final = "/_spades/cookie"
#: The cookies this session owes its browser: by name, the cookie and the last offer.
OWED_KEY: Final = "cookies_owed"
#: The most bytes the route reads of a request's body (a code is 43).
BODY_MAX: Final = 256
#: The longest ``Origin`` header the route reads.
_ORIGIN_MAX: Final = 512

Owed = dict[str, tuple[Cookie, Offer | None]]


def served(path: str) -> str:
    """``path`` (``/…``) where the server answers it: under Streamlit's
    ``server.baseUrlPath``, when one is set."""
    base = str(st.get_option("server.baseUrlPath") or "").strip("/")
    return f"/{base}{path}" if base else path


def script_string(text: str) -> str:
    """``text`` as a string literal for a page's script (quoted, and no ``</script>``)."""
    return json.dumps(text).replace("<", "\\u003c")


def routes() -> list[BaseRoute]:
    """The route that sets the cookies (see the module's docstring)."""
    return [Route(served(PATH), take_code, methods=["POST"])]


# ------------------------------------------------------------------ the session's side
def _owed() -> Owed:
    found = st.session_state.get(OWED_KEY)
    if not isinstance(found, dict):
        found = st.session_state[OWED_KEY] = {}
    return found


def owe(cookie: Cookie) -> None:
    """The browser is to be given ``cookie``, in place of any owed cookie of its name."""
    _owed()[cookie.name] = (cookie, None)


def deliver() -> None:
    """Draw the script that has the server set each cookie owed, while it is owed."""
    owed = st.session_state.get(OWED_KEY)
    if not isinstance(owed, dict) or not owed:
        return
    service = app_site().cookies()
    for name, (cookie, last) in list(owed.items()):
        try:
            offer = service.due(cookie, last)
        except CookiesUnavailable:
            # The next run asks again; the code the page has, if any, is still good to post.
            offer = last
            if offer is None:
                continue
        if offer is None:
            del owed[name]
            continue
        owed[name] = (cookie, offer)
        st.html(_SCRIPT % (offer.code, script_string(served(PATH))), unsafe_allow_javascript=True)


# The codes are URL-safe base64: they need no quoting inside the script's string.
_SCRIPT: Final = """
<script>
(() => {
  const code = "%s";
  const sent = window.spadesCookies || (window.spadesCookies = new Map());
  if (sent.has(code)) return;
  sent.set(code, "sending");
  const post = (tries) => fetch(%s, {
    method: "POST", body: code, credentials: "same-origin", cache: "no-store", keepalive: true,
  }).then((reply) => {
    if (reply.status >= 500) throw new Error("not now");
    sent.set(code, reply.ok ? "set" : "refused");
  }).catch(() => {
    if (tries > 0) setTimeout(() => post(tries - 1), 1000);
    else sent.delete(code);  // the session draws the code again on its next run
  });
  post(4);
})();
</script>
"""


# ------------------------------------------------------------------ the route
async def take_code(request: Request) -> Response:
    """Redeem the code in the request's body and set its cookie (see the module's
    docstring)."""
    if not _same_origin(request):
        return Response(status_code=403)
    body = await _body(request)
    if body is None:
        return Response(status_code=413)
    code = body.decode("ascii", errors="replace")
    try:
        cookie = await run_in_threadpool(lambda: app_site().cookies().redeem(code))
    except CookiesUnavailable:
        return Response(status_code=503)
    if cookie is None:
        return Response(status_code=404)
    reply = Response(status_code=204, headers={"Cache-Control": "no-store"})
    reply.set_cookie(
        cookie.name,
        cookie.value,
        max_age=cookie.max_age,
        path="/",
        secure=_secure(request),
        httponly=True,
        samesite="strict",
    )
    return reply


def _first(request: Request, header: str) -> str:
    """The first value of a header a proxy may have given a list of, lower case."""
    return request.headers.get(header, "").split(",")[0].strip().lower()


def _same_origin(request: Request) -> bool:
    """Whether the request comes from a page of the host it was sent to (as the browser
    says in ``Origin``; a proxy in front may name the host in ``X-Forwarded-Host``)."""
    origin = request.headers.get("origin", "")
    if not origin or len(origin) > _ORIGIN_MAX:
        return False
    if request.headers.get("sec-fetch-site", "same-origin") != "same-origin":
        return False
    parts = urlsplit(origin.lower())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return False
    hosts = {_first(request, "host"), _first(request, "x-forwarded-host")} - {""}
    return parts.netloc in hosts


def _secure(request: Request) -> bool:
    """Whether the page came over https (as the browser, the server or a proxy says)."""
    return "https" in (
        urlsplit(request.headers.get("origin", "").lower()).scheme,
        request.url.scheme,
        _first(request, "x-forwarded-proto"),
    )


async def _body(request: Request) -> bytes | None:
    """The request's body, or None when it is longer than :data:`BODY_MAX` bytes (read no
    further than that)."""
    declared = request.headers.get("content-length", "0")
    if not declared.isdigit() or int(declared) > BODY_MAX:
        return None
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > BODY_MAX:
            return None
    return body
