"""The server: the app (``streamlit_app.py``) with the routes it adds, the news of the shared
tables (:mod:`spades.ui.table_news`) and the cookies' (:mod:`spades.ui.cookies`). Start it
with ``streamlit run serve.py``."""

import streamlit as st

from spades.ui import cookies, table_news

app = st.App(
    "streamlit_app.py",
    routes=[*table_news.routes(), *cookies.routes()],
    lifespan=table_news.lifespan,
)
