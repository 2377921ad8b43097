exec "$ROPELAB" bound mne
