# Whether a folder's filesystem can clone, asked of the filesystem itself. Sourced by demo.sh (which builds on a
# loop-mounted reflink XFS when the answer is no); DemoCloneProbeTests runs it on the test suite's ext4 and XFS.
#
#   can_clone DIR   exit status 0 when a file in DIR can be cloned (its copy shares the file's blocks), 1 when not;
#                   leaves nothing behind in DIR
#
# --reflink=always fails where the kernel refuses the clone (FICLONE), instead of copying the bytes: a probe that
# falls back to a copy (--reflink=auto, a plain cp) succeeds everywhere, and would call ext4 able to clone.
can_clone() {
  local dir=$1 probe status
  probe=$(mktemp "$dir/.reflink-probe.XXXXXX") || return 1
  head -c 65536 /dev/urandom >"$probe"
  if cp --reflink=always "$probe" "$probe.clone" 2>/dev/null; then status=0; else status=1; fi
  rm -f "$probe" "$probe.clone"
  return "$status"
}
