"$ROPELAB" check --tolerance-scale -0.5
