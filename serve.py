"""The server: the app (``streamlit_app.py``) with the one route it adds, the news of the
shared tables (:mod:`spades.ui.table_news`). Start it with ``streamlit run serve.py``."""

import streamlit as st

from spades.ui.table_news import lifespan, routes

app = st.App("streamlit_app.py", routes=routes(), lifespan=lifespan)
