"""scanlab's performance reports: `reports/bench` measures the labs' kernels and the baselines
and writes one results file (format: reports/results-format.md); `reports/plot` turns that file
into figures and Markdown reports (reports/README.md).

The plotting side, one concept per module:
  results      load and validate a results file
  selection    which series a lab's report and the summary show
  comparisons  each point against the baselines measured in the same run
  time_units   the chapter's time-unit model, per algorithm
  counter_ratios  the simulator's counters as the ratios the figures and tables show
  palette      one colour per algorithm, the same in every figure
  figures/     one module per kind of figure
  markdown     the blocks of Markdown the reports are made of
  report       the pages: which figures and tables each report has
  plot         the command line of reports/plot
"""
