# an existing folder: the page's files replace their namesakes one by one
# (each by rename), other files stay; the page is complete
m=$(dirname "$0")/../../../experiments/models/llama-2-7b.json
mkdir page && echo keep >page/notes.txt && echo old >page/report.md
"$ROPELAB" report "$m" -o page --samples 2 --bins 4 --quiet || exit 1
ls -A page
cat page/notes.txt
head -1 page/report.md
tail -1 page/report.html
ls -A
