exec "$ROPELAB" precision --precision hf-bf17
