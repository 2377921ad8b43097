# report -o a mount point (issue 33: "Invalid cross-device link", the page
# was made beside the target, on the parent's file system, and renamed
# across).  A tmpfs mounted in the scratch folder (skip without root or
# mount).  Expected: the page made inside the target's own file system,
# complete there, nothing left beside or inside it but the page.
mkdir mnt
mount -t tmpfs -o size=64m tmpfs mnt 2>/dev/null || { echo "cannot mount a tmpfs (not root?)" >&2; exit 77; }
trap 'umount mnt' EXIT
m=$(dirname "$0")/../../../experiments/models/llama-2-7b.json
"$ROPELAB" report "$m" -o mnt --samples 2 --bins 4 --quiet
echo "status $?"
ls -A mnt
ls -A
