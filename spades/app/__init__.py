"""The application layer: what the pages do, with no Streamlit in it.

The Play page's controller (:mod:`spades.app.play`), the tutorial's course and practice
hand (:mod:`spades.app.tutorial`), the bot lab's jobs (:mod:`spades.app.lab`), the
player's table preferences and themes (:mod:`spades.app.prefs`, :mod:`spades.app.themes`),
the table's sounds (:mod:`spades.app.sound`), the profile a sign-in plays as
(:mod:`spades.app.profiles`) and the cookies a browser keeps its tokens in
(:mod:`spades.app.cookies`). The pages reach the store only through here: the shared
store of a database and what they read and change in it (:mod:`spades.app.site`), and its
errors (:mod:`spades.app.errors`). It uses the engine, the bots, the stats and the store;
:mod:`spades.ui` draws it, and nothing here imports Streamlit.
"""
