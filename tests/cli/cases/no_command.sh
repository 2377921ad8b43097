# no command: the usage on stderr (several lines: not the one-line error
# of the other cases), exit 2, stdout empty.
"$ROPELAB" >out 2>err
echo "rc $?"
[ -s out ] && echo "stdout not empty"
head -n 1 err
exit 0
