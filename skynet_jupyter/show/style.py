"""The one stylesheet of every view: check and evaluation, quality, optimizer; live and static.

Each view's HTML starts with :data:`STYLE`, whichever surface shows it (the
widget, its static copy, an export, GitHub).  Colours are JupyterLab's theme
variables (``var(--jp-...)``: light, dark, high contrast...), pulled a little
towards the theme's text colour so that coloured text keeps a WCAG contrast of
4.5 on the theme's background; plain light colours stand in where a variable
or ``color-mix()`` is missing (a static export, GitHub).  Every colour a rule
uses is one of the ``--skv-*`` variables set in :data:`THEME_CSS`.

The views keep their own class prefixes (``sk-`` static check report, ``skv-``
live check view, ``skq-`` quality reports, ``sko-`` optimizer); what they share
(title, subtitle, tones, callouts, table heads, notes, numbers) is one rule.
"""

from __future__ import annotations

__all__ = ["STYLE", "THEME_CSS", "VIEW_ROOTS"]

VIEW_ROOTS = ".skv,.skynet-report,.skq,.sko"
"""The root classes of the views: where the theme's colours are set."""

THEME_CSS = (
    VIEW_ROOTS
    + """{--skv-ok:#1a7f37;--skv-bad:#cf222e;--skv-warn:#9a6700;
--skv-accent:#0969da;--skv-muted:var(--jp-ui-font-color2,#57606a);
--skv-text:var(--jp-ui-font-color1,#1f2328);--skv-bad-bg:#ffebe9;--skv-warn-bg:#fff8c5;
--skv-ok-bg:#dafbe1;--skv-line:var(--jp-border-color2,#d0d7de);
--skv-surface:var(--jp-layout-color1,#fff);--skv-code-bg:var(--jp-layout-color2,#f6f8fa);
--skv-track:var(--jp-layout-color3,#eaeef2);
--skv-part-acc:#0969da;--skv-part-speed:#2da44e;--skv-part-cost:#d4a72c;--skv-part-named:#8250df}
@supports (color:color-mix(in srgb,red 50%,blue)){"""
    + VIEW_ROOTS
    + """{
--skv-ok:color-mix(in srgb,var(--jp-success-color1,#1a7f37) 70%,var(--jp-content-font-color0,#000));
--skv-bad:color-mix(in srgb,var(--jp-error-color1,#cf222e) 75%,var(--jp-content-font-color0,#000));
--skv-warn:color-mix(in srgb,var(--jp-warn-color1,#9a6700) 60%,var(--jp-content-font-color0,#000));
--skv-accent:color-mix(in srgb,var(--jp-brand-color1,#0969da) 75%,
var(--jp-content-font-color0,#000));
--skv-bad-bg:color-mix(in srgb,var(--jp-error-color1,#cf222e) 12%,var(--jp-layout-color1,#fff));
--skv-warn-bg:color-mix(in srgb,var(--jp-warn-color1,#d4a72c) 14%,var(--jp-layout-color1,#fff));
--skv-ok-bg:color-mix(in srgb,var(--jp-success-color1,#1a7f37) 14%,var(--jp-layout-color1,#fff))}}
"""
)

# What every view shares: its font, title, subtitle, tones, callouts, table heads, notes.
_SHARED = """.skv,.skq,.sko,.skynet-report{
font-family:var(--jp-ui-font-family,system-ui,-apple-system,"Segoe UI",sans-serif);
font-size:13px;color:var(--skv-text)}
.skv,.skq,.sko{line-height:1.45}
.skv .skv-title,.skq .skq-title,.sko .sko-title{font-size:15px;font-weight:600;margin:2px 0}
.skv .skv-sub,.skq .skq-sub,.sko .sko-sub{color:var(--skv-muted);margin-bottom:6px}
.skv .skv-pass,.skynet-report .sk-pass,.skq .skq-good,.sko .sko-up,.sko .sko-kept,
.sko .sko-best-mark{color:var(--skv-ok)}
.skv .skv-fail,.skynet-report .sk-fail,.skq .skq-bad,.skv .skv-error{color:var(--skv-bad)}
.skv .skv-advice,.skynet-report .sk-advice,.skq .skq-warn,.sko .sko-flat{color:var(--skv-warn)}
.sko .sko-run{color:var(--skv-accent)}
.skv .skv-skip,.skv .skv-pending,.skv .skv-none,.skynet-report .sk-skip,
.skynet-report .sk-held,.skq td.skq-err,.sko .sko-dropped{color:var(--skv-muted)}
.skv .skv-score-hi,.skynet-report .sk-score-hi{color:var(--skv-ok)}
.skv .skv-score-mid,.skynet-report .sk-score-mid{color:var(--skv-warn)}
.skv .skv-score-lo,.skynet-report .sk-score-lo{color:var(--skv-bad)}
.skv .skv-callout,.skq .skq-box,.sko .sko-advice,.sko .sko-error{
border-left:4px solid var(--skv-bad);background:var(--skv-bad-bg);color:var(--skv-text);
padding:6px 10px;margin:6px 0;border-radius:0 6px 6px 0;white-space:pre-wrap;
overflow-wrap:break-word}
.skv .skv-callout.skv-advice-box,.skq .skq-box.skq-note,.sko .sko-advice{
border-color:var(--skv-warn);background:var(--skv-warn-bg)}
.skq .skq-box.skq-ok{border-color:var(--skv-ok);background:var(--skv-ok-bg)}
.skv .skv-cases th,.skq th,.sko th{font-weight:600;text-align:left;font-size:12px;
color:var(--skv-muted);border-bottom:2px solid var(--skv-line);white-space:nowrap}
.skv .skv-notes,.skq .skq-small,.sko .sko-note{color:var(--skv-muted);font-size:12px}
.skv .skv-num,.skq td.skq-num,.sko .sko-num{font-variant-numeric:tabular-nums;white-space:nowrap}
"""

# The static check report (``render.report_html``).  The selectors name the table
# (``table.sk-cases td``) to outweigh the host page's own table rules (JupyterLab and
# nbconvert right-align cells and fix the table layout).  Words wrap at spaces
# (``overflow-wrap:break-word`` leaves the columns' minimum width at the longest word; a
# long run without spaces, a URL or compact JSON, gets break opportunities in
# ``case_columns.breakable``; headings wrap at spaces too).  Eleven columns need about
# 900 px even then (Portuguese headings, JSON values): a narrower output stacks each
# case's cells under its row, so that no column is pushed out of view.
_STATIC_REPORT = """.skynet-report{container-type:inline-size}
.skynet-report .sk-head{font-weight:600;font-size:14px;margin:4px 0}
.skynet-report .sk-score-hi,.skynet-report .sk-score-mid,
.skynet-report .sk-score-lo{font-weight:600}
.skynet-report ul.sk-steps{list-style:none;padding-left:4px;margin:4px 0}
.skynet-report table.sk-cases{border-collapse:collapse;margin:6px 0 0;table-layout:auto;
width:auto;border:none;font-size:12.5px}
.skynet-report table.sk-cases th,.skynet-report table.sk-cases td{
border-bottom:1px solid var(--skv-line);padding:3px 6px;text-align:left;vertical-align:top;
max-width:28em;white-space:pre-wrap;overflow-wrap:break-word;word-break:normal}
.skynet-report table.sk-cases th{white-space:normal;color:var(--skv-muted)}
.skynet-report .sk-hint{color:var(--skv-muted);margin-left:1.5em}
.skynet-report .sk-notes{color:var(--skv-muted);font-size:12px;margin:3px 0}
.skynet-report pre{margin:2px 0;font-size:11px;white-space:pre-wrap;overflow-wrap:break-word}
@container (max-width:900px){
.skynet-report table.sk-cases,.skynet-report table.sk-cases tbody,
.skynet-report table.sk-cases tr,.skynet-report table.sk-cases td{display:block;
max-width:none;width:auto}
.skynet-report table.sk-cases thead{display:none}
.skynet-report table.sk-cases tr{border-top:2px solid var(--skv-line);padding:3px 0}
.skynet-report table.sk-cases td{border-bottom:none;padding:1px 4px}
.skynet-report table.sk-cases td[data-label]::before{content:attr(data-label) ": ";
font-weight:600;color:var(--skv-muted)}
}
"""

# The live check and evaluation view (``notebook/widgets/_html.py``) and its reward bars.
# Its case table (seven columns, long runs breakable as in the static report) fits down
# to about 800 px and stacks below; the reward bars rearrange below 640 px.
_LIVE = """.skv .skv-steps{display:flex;flex-wrap:wrap;gap:6px;margin:6px 0}
.skv .skv-step{border:1px solid var(--skv-line);border-radius:12px;
padding:1px 9px;white-space:nowrap;background:var(--skv-surface)}
.skv .skv-step.skv-fail{border-color:var(--skv-bad);background:var(--skv-bad-bg)}
.skv .skv-step.skv-advice{border-color:var(--skv-warn);background:var(--skv-warn-bg)}
.skv .skv-notes{margin:2px 0 4px}
.skv .skv-callout.skv-first{font-size:13.5px}
.skv .skv-hint{margin-top:3px}
.skv .skv-summary{margin:4px 0;color:var(--skv-text)}
.skv.skv-cases-box,.skv.skv-reward-box{container-type:inline-size}
.skv table.skv-cases{border-collapse:collapse;width:100%;table-layout:auto}
.skv .skv-scroll{overflow-x:auto}
.skv .skv-cases th{padding:4px 6px;white-space:normal}
.skv .skv-cases td{border-bottom:1px solid var(--skv-line);padding:5px 6px;
vertical-align:top;text-align:left;white-space:pre-wrap;overflow-wrap:break-word}
.skv .skv-cases td.skv-val{min-width:6em;max-width:22em}
.skv .skv-cases td.skv-in{min-width:9em;max-width:26em}
.skv .skv-cases td.skv-fb{min-width:12em;max-width:30em}
.skv .skv-cases td.skv-nowrap{white-space:nowrap}
.skv .skv-word{white-space:nowrap}
.skv .skv-cases tr.skv-sub td{border-top:none;padding-top:0;background:transparent}
.skv .skv-cases tr.skv-has-sub td{border-bottom:none}
.skv .skv-mark{font-weight:700;white-space:nowrap}
.skv .skv-held{color:var(--skv-muted);font-weight:400}
.skv .skv-score{font-weight:600;font-size:14px;margin-bottom:2px}
.skv details.skv-more>summary{cursor:pointer;list-style:none}
.skv details.skv-more>summary::-webkit-details-marker{display:none}
.skv details.skv-more>summary::after{content:" ▸";color:var(--skv-accent)}
.skv details.skv-more[open]>summary::after{content:" ▾"}
.skv details.skv-more[open]>summary .skv-cut{display:none}
.skv .skv-full{font-family:var(--jp-code-font-family,monospace);font-size:12px;
max-height:24em;overflow:auto;white-space:pre-wrap;overflow-wrap:anywhere}
.skv .skv-feedback{white-space:pre-wrap;max-height:14em;overflow:auto;overflow-wrap:break-word;
background:var(--skv-code-bg);border-radius:4px;padding:3px 6px;min-width:12em}
.skv .skv-measures{font-size:12px;white-space:nowrap}
.skv .skv-measures span{color:var(--skv-muted)}
.skv pre.skv-tb{font-size:11.5px;margin:3px 0;white-space:pre-wrap;
background:var(--skv-code-bg);padding:4px 6px;border-radius:4px}
.skv .skv-named{display:grid;grid-template-columns:minmax(5em,auto) 60px auto;gap:1px 6px;
align-items:center;font-size:11.5px;white-space:nowrap;color:var(--skv-muted)}
.skv .skv-mini{display:inline-block;width:60px;vertical-align:middle;height:7px;
background:var(--skv-track);border-radius:4px;overflow:hidden}
.skv .skv-mini>span{display:block;height:100%;background:var(--skv-part-named)}
.skv .skv-mini>span.skv-acc{background:var(--skv-part-acc)}
.skv .skv-mini>span.skv-speed{background:var(--skv-part-speed)}
.skv .skv-mini>span.skv-cost{background:var(--skv-part-cost)}
.skv table.skv-named-table{width:auto}
.skv .skv-rh{font-weight:600;font-size:14px;margin:10px 0 2px}
.skv .skv-legend{display:flex;gap:14px;flex-wrap:wrap;font-size:12px;margin:2px 0 6px}
.skv .skv-dot{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:4px;
vertical-align:-1px}
.skv .skv-bars{display:grid;grid-template-columns:max-content minmax(120px,1fr) max-content
max-content minmax(0,max-content);gap:4px 10px;align-items:center;max-width:1100px}
.skv .skv-track{position:relative;height:16px;background:var(--skv-track);
border-radius:4px;overflow:hidden;display:flex}
.skv .skv-seg{height:100%}
.skv .skv-acc{background:var(--skv-part-acc)}.skv .skv-speed{background:var(--skv-part-speed)}
.skv .skv-cost{background:var(--skv-part-cost)}
.skv .skv-mean-row{font-weight:600;border-top:1px solid var(--skv-line);padding-top:3px}
.skv .skv-parts{font-size:12px;color:var(--skv-muted);white-space:nowrap}
.skv .skv-raw{font-size:12px;color:var(--skv-muted)}
.skv code.skv-spec{font-family:var(--jp-code-font-family,monospace);font-size:12px;
background:var(--skv-code-bg);padding:2px 6px;border-radius:4px;
overflow-wrap:anywhere}
@container (max-width:800px){
.skv .skv-scroll{overflow-x:visible}
.skv table.skv-cases,.skv .skv-cases tbody,.skv .skv-cases tr,.skv .skv-cases td{display:block;
width:auto;min-width:0;max-width:none}
.skv .skv-cases thead{display:none}
.skv .skv-cases tr[data-case]{border-top:2px solid var(--skv-line);padding-top:4px}
.skv .skv-cases td{border-bottom:none;padding:2px 4px}
.skv .skv-cases td[data-label]::before{content:attr(data-label);display:block;font-size:11px;
font-weight:600;color:var(--skv-muted)}
.skv .skv-cases td.skv-nowrap,.skv .skv-measures{white-space:normal}
.skv .skv-feedback{min-width:0}
.skv .skv-cases tr.skv-sub td:empty{display:none}
}
@container (max-width:640px){
.skv .skv-bars{grid-template-columns:max-content minmax(60px,1fr) max-content}
.skv .skv-parts,.skv .skv-raw,.skv .skv-why{grid-column:1/-1;white-space:normal;margin-top:-3px}
}
"""

# The quality reports (``quality/``: probe, stability, agreement, compare).
_QUALITY = """.skq .skq-box b{font-weight:600}
.skq table{border-collapse:collapse;margin:6px 0}
.skq th,.sko th{padding:3px 8px}
.skq td{border-bottom:1px solid var(--skv-line);padding:3px 8px;
vertical-align:top;text-align:left;max-width:28em;overflow-wrap:anywhere;white-space:pre-wrap}
.skq td.skq-num{text-align:right}
.skq td.skq-flag{background:var(--skv-bad-bg);color:var(--skv-bad);font-weight:600}
"""

# The optimizer's report (``optimizers/render.py``).
_OPTIMIZER = """.sko .sko-h{font-weight:600;font-size:13.5px;margin:10px 0 3px}
.sko table{border-collapse:collapse}
.sko td{border-bottom:1px solid var(--skv-line);padding:4px 8px;
vertical-align:top;text-align:left}
.sko .sko-bar{display:inline-block;width:120px;height:9px;background:var(--skv-track);
border-radius:4px;overflow:hidden;vertical-align:middle;margin-right:6px}
.sko .sko-bar>span{display:block;height:100%;background:var(--skv-accent)}
.sko tr.sko-best td{background:var(--skv-ok-bg)}
.sko .sko-best-mark,.sko .sko-kept,.sko .sko-dropped{font-weight:600}
.sko .sko-text{font-family:var(--jp-code-font-family,monospace);font-size:12px;
white-space:pre-wrap;overflow-wrap:anywhere;max-width:60em;max-height:18em;overflow:auto;
background:var(--skv-code-bg);border-radius:4px;padding:4px 8px;margin:3px 0}
.sko del{background:var(--skv-bad-bg);color:var(--skv-bad);text-decoration:line-through}
.sko ins{background:var(--skv-ok-bg);color:var(--skv-ok);text-decoration:none}
.sko .sko-proposal{border:1px solid var(--skv-line);border-radius:6px;
padding:5px 9px;margin:6px 0;max-width:70em}
.sko details.sko-proposal>summary{cursor:pointer}
.sko .sko-records td{font-size:12px;max-width:28em;overflow-wrap:anywhere;white-space:pre-wrap}
.sko .sko-feedback{background:var(--skv-code-bg);border-radius:4px;padding:2px 5px}
"""

STYLE = (
    "<style>\n" + THEME_CSS + _SHARED + _STATIC_REPORT + _LIVE + _QUALITY + _OPTIMIZER + "</style>"
)
"""The ``<style>`` every view's HTML starts with."""
