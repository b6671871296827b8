"""``python -m spades``: simulate, arena and bench."""

from spades.cli import main

raise SystemExit(main())
