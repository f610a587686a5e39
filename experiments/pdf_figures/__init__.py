"""Numbers read back from a paper's vector figures (gnuplot and the like): the points come from
the PDF's drawing operators (``pdfplumber``), not by eye. ``axes``: a frame's axes mapped onto
its tick labels, and curves read at chosen abscissae; ``drawing``: a page's paths and words,
its plot frames, legends, marker glyphs, polylines and error bars. A paper's own reader
(``experiments.papers.kocsis.paper_figures``) names what it reads and writes the tables."""
