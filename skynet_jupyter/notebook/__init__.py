"""The notebook: the magics, what they show and how they read their options.

Magics are thin: they parse, set the run's language, and hand the parsed line
and a typed session (the user's namespace, the models, the cache, the metrics)
to their work, which resolves names, calls the public function through one
skeleton (view shown, closed on an error, the same errors caught) and returns
the report.

Modules::

    magics.py          SkynetMagics: every magic, %load_ext and %unload_ext
    session.py         Session: what a magic's work gets; call_showing, the skeleton
    magic_args.py      IPython's magic decorators and magic_arguments, typed
    option_groups.py   each magic option declared once, in groups
    names.py           what an option names: a variable, an expression, a file
    quality_magics.py  the metric-quality magics' work
    optimize_magic.py  %skynet_optimize's work
    align_magic.py     %skynet_align's work
    race_magic.py      %skynet_race's work
    history_magics.py  %skynet_history and %skynet_diff: the run log (their own Magics class)
    history_view.py    %skynet_history's live view: the chart, read again after each cell
    cell_display.py    a report shown once in its cell (live, then static)
    replay.py          the edit loop: re-registering a metric re-checks it
    save.py            --save: written atomically, never over another file
    check_failed.py    CheckFailed: a failed check ends its cell
    widgets/           the live views, fed by engine events
"""
