# The one way the scripts make a test filesystem (the tests' own is tests/Shared/Infrastructure/LoopFilesystems.cs).
# Sourced by demo.sh, bench.sh and differential-lanes.sh.
#
#   loop_fs KIND DIR SIZE   a sparse image DIR.img of SIZE, formatted as KIND (xfs: reflink XFS; btrfs; ext4), loop-mounted
#                           at DIR (made if missing; an earlier mount there is unmounted first), and remembered in loop_mounts
#   loop_fs_cleanup         unmounts everything loop_fs mounted and deletes the images (for an EXIT trap)
#
# Needs root and the mkfs tools (scripts/setup.sh installs them). Every script that calls it also takes
# already-mounted directories instead (its own variables), so a contributor without root can run it.
loop_mounts=()

loop_fs() {
  local kind=$1 dir=$2 size=$3 mkfs
  case "$kind" in
    xfs) mkfs=(mkfs.xfs -q -f -m reflink=1) ;;
    btrfs) mkfs=(mkfs.btrfs -q -f) ;;
    ext4) mkfs=(mkfs.ext4 -q -F) ;;
    *) echo "loop_fs: unknown filesystem kind '$kind' (xfs, btrfs or ext4)" >&2; return 1 ;;
  esac
  if [[ $(id -u) -ne 0 || ! -e /dev/loop-control ]]; then
    echo "loop_fs: making a $kind filesystem needs root and loop devices; give the script a mounted directory instead" >&2
    return 1
  fi
  mountpoint -q "$dir" 2>/dev/null && umount "$dir"
  mkdir -p "$dir"
  rm -f "$dir.img"
  truncate -s "$size" "$dir.img"
  "${mkfs[@]}" "$dir.img" >/dev/null || { echo "loop_fs: ${mkfs[0]} failed (install it: scripts/setup.sh)" >&2; return 1; }
  mount -o loop "$dir.img" "$dir" || { echo "loop_fs: mounting $dir.img at $dir failed" >&2; return 1; }
  loop_mounts+=("$dir")
}

loop_fs_cleanup() {
  local dir
  for dir in "${loop_mounts[@]}"; do
    umount "$dir" 2>/dev/null || umount -l "$dir" 2>/dev/null || true
    rm -f "$dir.img"
  done
  loop_mounts=()
}
