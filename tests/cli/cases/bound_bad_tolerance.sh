exec "$ROPELAB" bound men --search fine --tolerance 0
