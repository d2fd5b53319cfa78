"""The simulator's findings as data and as pictures, for the grader and for any program simcc
builds: records.py reads the runtime's finding records, drawing.py lays out their pictures
(templates/drawings.j2 draws them), run_page.py writes the page of one program's run."""
