"""Learn Spades by doing: lessons and exercises that the engine checks."""

from spades.ui.tutorial_view import render

render()
