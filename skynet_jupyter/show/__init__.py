"""Reports as text and HTML, for every surface: notebook, terminal, exports.

Modules::

    render.py         check and evaluation reports as text and HTML; the fragments' public home
    fragments.py      what every view says once: headline, summary, "failed at", marks, values
    case_columns.py   the one table of case columns: a case as text, static HTML and live HTML
    style.py          the one stylesheet of every view, in the theme's colours
    formats.py        how every view writes a score, a mean, a time, money
    terminal_text.py  text laid out for a terminal's width
    progress_line.py  the one-line progress of a running check
"""
