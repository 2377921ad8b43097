# an unwritable --plot path fails before any output.
"$ROPELAB" decay --to 4 --plot nonexistent/d.png
