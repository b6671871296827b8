"""Text from players and records, made safe to show: the one place that escapes it.

A display name, a bot level, a rule-set label or a query value may hold anything a
stranger typed or an imported record carried. Streamlit renders Markdown (links, images,
``:red[...]`` colours, ``:material/...:`` icons, LaTeX between dollars) and ``st.html``
renders HTML, so such text goes through :func:`md` or :func:`html_text` on its way to the
page, and :func:`bounded` first cuts it to a length the layout can hold.
"""

from __future__ import annotations

import html
import re
from typing import Final

#: The longest piece of outside text drawn anywhere.
MAX_SHOWN: Final = 60
# CommonMark lets a backslash escape any ASCII punctuation; escaping all of it also covers
# Streamlit's own syntax (colons for icons and colours, dollars for LaTeX).
_MD_SPECIAL: Final = re.compile(r"([!-/:-@\[-`{-~])")
_SPACES: Final = re.compile(r"\s+")
# GitHub-flavoured Markdown links bare addresses (``http://…``, ``www.…``, ``a@b.c``) even
# when their punctuation is escaped: an invisible word joiner where such an address would
# start to be recognised (``:`` before ``/``, ``www`` before ``.``, after ``@``) breaks it
# without changing what the reader sees.
_AUTOLINKED: Final = re.compile(r"(?i)(?<=:)(?=\\?/)|(?<=www)(?=\\?\.)|(?<=@)")
_JOINER: Final = "\u2060"


def bounded(text: object, limit: int = MAX_SHOWN) -> str:
    """``text`` on one line, at most ``limit`` characters (an ellipsis marks a cut).

    >>> bounded("  Ada\\n  Lovelace ")
    'Ada Lovelace'
    >>> bounded("x" * 100, 5)
    'xxxx…'
    """
    flat = _SPACES.sub(" ", str(text)).strip()
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def md(text: object, limit: int = MAX_SHOWN) -> str:
    """``text`` as Markdown that shows exactly those characters, bounded in length.

    >>> print(md("![x](http://a.b) :red[z]").replace(_JOINER, "+"))
    \\!\\[x\\]\\(http\\:+\\/\\/a\\.b\\) \\:red\\[z\\]
    >>> print(md("Mail a@b.c or see WWW.b.c: now.").replace(_JOINER, "+"))
    Mail a\\@+b\\.c or see WWW+\\.b\\.c\\: now\\.
    """
    escaped = _MD_SPECIAL.sub(r"\\\1", bounded(text, limit))
    return _AUTOLINKED.sub(_JOINER, escaped)


def html_text(text: object, limit: int = MAX_SHOWN) -> str:
    """``text`` as HTML character data or an attribute value, bounded in length.

    >>> html_text('<img src=x onerror="alert(1)">')
    '&lt;img src=x onerror=&quot;alert(1)&quot;&gt;'
    """
    return html.escape(bounded(text, limit), quote=True)
