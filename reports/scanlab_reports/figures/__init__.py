"""One module per kind of figure; each draws a matplotlib Figure, saves it as PNG and returns
a Drawing that says what it drew (canvas.py), which the Markdown report and the tests read."""
