# text.gp: titles that fit the page, loaded by common.gp and by scripts
# that set their own terminal (precision.gp), after W (pixels) is set.
#   - wrap: `wrap_in = TEXT; eval wrap` leaves TEXT in wrap_out cut into
#     lines of at most wrap_n characters, after "; " where it can, else at
#     a space (pngcairo draws an 11 pt title at 96 dpi, 14.7 px, about 7 px
#     a character of DejaVu Sans: a line longer than the page was clipped
#     at both edges; 8 px a character leaves a margin);
#   - nlines(S): the number of lines of S.
wrap_n = int(W / 8.0)
wrap = 'wrap_out = ""; wrap_l = ""; wrap_r = wrap_in . "; "; ' . \
       'while (strlen(wrap_r) > 0) { wrap_p = strstrt(wrap_r, "; "); wrap_c = wrap_r[1:wrap_p - 1]; wrap_r = wrap_r[wrap_p + 2:]; ' . \
       '  if (strlen(wrap_l) == 0 || strlen(wrap_l) + 2 + strlen(wrap_c) <= wrap_n) { wrap_l = (strlen(wrap_l) > 0) ? wrap_l . "; " . wrap_c : wrap_c } ' . \
       '  else { wrap_out = wrap_out . wrap_l . ";\n"; wrap_l = wrap_c }; ' . \
       '  while (strlen(wrap_l) > wrap_n) { wrap_k = wrap_n + 1; while (wrap_k > 1 && wrap_l[wrap_k:wrap_k] ne " ") { wrap_k = wrap_k - 1 }; ' . \
       '    if (wrap_k <= 1) { break }; ' . \
       '    wrap_out = wrap_out . wrap_l[1:wrap_k - 1] . "\n"; wrap_l = wrap_l[wrap_k + 1:] } }; ' . \
       'wrap_out = wrap_out . wrap_l'
nlines(s) = (strstrt(s, "\n") == 0) ? 1 : 1 + nlines(s[strstrt(s, "\n") + 1:])
