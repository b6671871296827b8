"""Streamlit helpers: the only part of the package besides the pages that imports streamlit."""
