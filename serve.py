"""The server: the app (``streamlit_app.py``) with the routes it adds, the news of the shared
tables (:mod:`spades.ui.table_news`), the cookies' (:mod:`spades.ui.cookies`) and the card
faces (:mod:`spades.ui.faces`). Start it with ``streamlit run serve.py``."""

import streamlit as st

from spades.ui import cookies, faces, table_news

app = st.App(
    "streamlit_app.py",
    routes=[*table_news.routes(), *cookies.routes(), *faces.routes()],
    lifespan=table_news.lifespan,
)
