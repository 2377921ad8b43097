# term.gp: the terminal of a figure script that does not load common.gp
# (the experiments' figures), loaded after out (the image), term ("" for
# out's extension, or pngcairo, svg, pdfcairo, table), W x H (pixels) and
# FS (the font in points, 11 unless set) are set.  "table" writes the
# drawn points as text into out (gnuplot's `set table`, which the figure
# tests read); the script ends with `eval term_end`.  Then text.gp (wrap,
# nlines) is loaded.
if (!exists("FS")) { FS = 11 }
if (strlen(term) == 0) {
    ext = out[strlen(out)-2:]
    term = (ext eq "png") ? "pngcairo" : (ext eq "svg") ? "svg" : (ext eq "pdf") ? "pdfcairo" : ""
    if (strlen(term) == 0) { print "OUT must end in .png, .svg or .pdf"; exit status 1 }
}
if (term eq "pngcairo") { eval sprintf('set terminal pngcairo size %d,%d noenhanced font ",%g"', W, H, FS) }
if (term eq "svg")      { eval sprintf('set terminal svg size %d,%d noenhanced dynamic font ",%g"', W, H, FS) }
if (term eq "pdfcairo") { eval sprintf('set terminal pdfcairo size %gin,%gin noenhanced font ",%g"', W/150.0, H/150.0, FS - 1) }
if (term eq "table") {
    set terminal dumb
    set output "/dev/null"
    set table out
} else {
    if (term ne "pngcairo" && term ne "svg" && term ne "pdfcairo") { print "unknown terminal ", term; exit status 1 }
    set output out
}
term_end = 'if (term eq "table") { unset table }; unset output'
load system(sprintf("dirname '%s'", ARG0)) . "/text.gp"
