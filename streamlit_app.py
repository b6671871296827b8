"""Router: the pages of the app and nothing else."""

import streamlit as st

st.set_page_config(page_title="Spades", page_icon="♠", layout="wide")

page = st.navigation(
    [
        st.Page("pages/play.py", title="Play", icon="♠", default=True),
    ]
)
page.run()
