# --log: default --from 1, both ends exact, points log-spaced: 1, 10, 100.
"$ROPELAB" decay --log --to 100 --points 3 --dim 2 --no-meta --no-header | cut -d, -f1
