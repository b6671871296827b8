"""Router: the pages of the app, the fault boundary around them, and nothing else."""

import streamlit as st

from spades.ui.faults import store_faults
from spades.ui.identity import remember

st.set_page_config(page_title="Spades", page_icon="♠", layout="wide")

page = st.navigation(
    {
        "Play": [
            st.Page("pages/play.py", title="Play", icon="♠", default=True),
            st.Page("pages/lobby.py", title="Tables", icon=":material/groups:", url_path="lobby"),
            st.Page("pages/learn.py", title="Learn", icon=":material/school:"),
            st.Page(
                "pages/profile.py", title="Profile", icon=":material/person:", url_path="profile"
            ),
        ],
        "Explore": [
            st.Page("pages/overview.py", title="My stats", icon=":material/insights:"),
            st.Page("pages/explorer.py", title="Game explorer", icon=":material/search:"),
            st.Page("pages/bids.py", title="Bid accuracy", icon=":material/target:"),
            st.Page(
                "pages/leaderboard.py",
                title="Leaderboard",
                icon=":material/leaderboard:",
                url_path="leaderboard",
            ),
            st.Page("pages/bot_lab.py", title="Bot lab", icon=":material/smart_toy:"),
        ],
    }
)
with store_faults():
    page.run()
    remember()
