# a config.json cut off in the middle: exit 2, one line with the file, line
# and column, and nothing left behind (the page's folder is made only once
# the config has been read)
printf '{\n "rope_theta": 10000,\n "rope_scaling": {"type": "linear",\n' >cut.json
"$ROPELAB" report cut.json -o page
rc=$?
ls -A
exit $rc
