# report needs one CONFIG
"$ROPELAB" report --samples 4
