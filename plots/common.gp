# common.gp: what the figure scripts of the ropelab commands share, loaded
# by them after they set data (ARG1), out (ARG2), term (ARG3) and the
# size W x H (pixels; pdf at 100 px per inch).
#   - the terminal from term, or from OUT's extension when term is empty;
#     term "table" writes the plotted points as text into OUT instead of
#     an image (gnuplot's `set table`), which is how the tests check
#     which column is drawn where;
#   - meta(KEY): the value of the '# KEY=VALUE' metadata line, or "";
#   - hdr, ncol, col(NAME): the header's column names, their number and
#     the index of a column by its exact name (0 when absent);
#   - schedule_desc: the method and every parameter the metadata records
#     for it ("" for plain RoPE), so titles show what changes the picture;
#   - cmdline: the command that made the data, without -o/--plot, drawn
#     small at the bottom left (call `eval footer` after the margins);
#   - wrap, nlines(S): titles cut to the page's width W (text.gp).
# Colour-blind-safe palettes: Okabe and Ito 2008 ("Color Universal Design")
# and Paul Tol's "muted" scheme (Tol 2021, personal.sron.nl/~pault).

if (strlen(term) == 0) {
    ext = out[strlen(out)-2:]
    term = (ext eq "png") ? "pngcairo" : (ext eq "svg") ? "svg" : (ext eq "pdf") ? "pdfcairo" : ""
    if (strlen(term) == 0) { print "OUT must end in .png, .svg or .pdf"; exit status 1 }
}
if (term eq "pngcairo") { eval sprintf('set terminal pngcairo size %d,%d noenhanced font ",11"', W, H) }
if (term eq "svg")      { eval sprintf('set terminal svg size %d,%d noenhanced dynamic font ",11"', W, H) }
if (term eq "pdfcairo") { eval sprintf('set terminal pdfcairo size %gin,%gin noenhanced font ",10"', W/150.0, H/150.0) }
if (term eq "table") {
    set terminal dumb
    set output "/dev/null"
    set table out
} else {
    if (term ne "pngcairo" && term ne "svg" && term ne "pdfcairo") { print "unknown terminal ", term; exit status 1 }
    set output out
}

meta(k) = system(sprintf("sed -n 's/^# %s=//p' '%s' | head -n 1", k, data))
hdr = system(sprintf("awk '!/^#/ { print; exit }' '%s' | tr ',' ' '", data))
ncol = words(hdr)
pad_hdr = " " . hdr . " "
col(n) = strstrt(pad_hdr, " " . n . " ") == 0 ? 0 : words(pad_hdr[1:strstrt(pad_hdr, " " . n . " ")]) + 1

# the method and its parameters (the keys rl_sched_meta writes for it);
# rope's variant is irrelevant (every variant agrees).  The metadata block
# follows the header row (read past it; it stopped there and the titles
# lost the method) and ends at the first data row.
schedule_desc = system(sprintf("awk -F= 'BEGIN { n = split(\"variant factor train_len seq_len beta_fast beta_slow ramp truncate mscale mscale_all_dim low_freq_factor high_freq_factor factors fraction scale_base window leak sections freqs_file\", a, \" \"); for (i = 1; i <= n; i++) K[a[i]] = 1 } " . \
  "NR == 1 && !/^#/ { next } !/^#/ { exit } { k = substr($1, 3); v = substr($0, length($1) + 2) } " . \
  "k == \"method\" { m = v; next } k == \"logit_multiplier\" && v != 1 { lm = sprintf(\"%%.4g\", v) } " . \
  "(k in K) && (k != \"variant\" || m != \"rope\") { s = s (s != \"\" ? \", \" : \"\") k \" \" v } " . \
  "END { if (m != \"\" && (m != \"rope\" || s != \"\")) printf \"%%s%%s\", m, (s != \"\" ? \" (\" s \")\" : \"\"); " . \
  "if (lm != \"\") printf \", logit x %%s\", lm }' '%s'", data))

cmdline = system(sprintf("sed -n 's/^# command=//p' '%s' | head -n 1 | " . \
  "sed -E 's/^[^ ]*ropelab /ropelab /; s/ (-o|--output|--plot) [^ ]+//g; s/ (--output|--plot)=[^ ]+//g' | " . \
  "awk '{ print (length($0) > 150 ? substr($0, 1, 147) \"...\" : $0) }'", data))
footer = 'if (strlen(cmdline) > 0) { set label 99 cmdline at screen 0.01, screen 0.01 left front font ",8" tc rgb "#666666" }'

load system(sprintf("dirname '%s'", ARG0)) . "/text.gp"
