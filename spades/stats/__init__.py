"""Statistics: pandas frames for the charts, the leaderboard and the rating maths."""
