# A directory like the ones users point analyze at (run in tests/data): a README, an image, a
# nested folder of traces with the mapping one level deeper, and a corrupt buffer (a method-beat
# buffer cut in the middle of a record). $1: the directory to create.
d=$1
mkdir -p "$d/nested/deeper" "$d/.git"
printf 'Traces of build 42. Displayed (with total) times are in the report.\n' > "$d/README"
printf 'ref: refs/heads/main\n' > "$d/.git/HEAD"
cp detect-image.png "$d/shot.png"
cp an-v1.bin "$d/nested/a.bin"
head -c 100 an-v1.bin > "$d/nested/corrupt.bin"
cp an-map.txt "$d/nested/deeper/methodMapping.txt"
cp an-v1.txt.gz "$d/nested/deeper/b.txt.gz"
