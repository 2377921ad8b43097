# --help: the commands and the exit codes, on stdout, exit 0, stderr empty.
"$ROPELAB" --help > h.txt || exit 1
grep -E '^  (freqs|decay|check) ' h.txt | cut -c3-7
grep -E '^  [0-3]  ' h.txt
