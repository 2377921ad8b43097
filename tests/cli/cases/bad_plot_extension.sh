exec "$ROPELAB" decay --plot fig.gif
