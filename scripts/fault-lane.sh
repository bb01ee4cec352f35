#!/usr/bin/env bash
# The fault lane: one Copy call of four files (0 B, 1 B, 100 KiB, 5 MiB) by MSBuild's own Copy and by
# CloneCopy's, each in a process of its own under strace, with one system-call fault injected into the calls each task
# makes on the 5 MiB file (as source, or as destination): an errno, or a zero return where a kernel can give one
# (copy_file_range on procfs, FUSE or network filesystems; read at the end of a file), once (transient, with Retries=0:
# a hidden second attempt would show) or from then on (persistent, with Retries=2). On reflink XFS (the clone) and ext4
# (the kernel copy; with copy_file_range refused, the read/write loop); every call CloneCopy makes that MSBuild's Copy
# does not (statx of the destination it opened, the clone's read-back preads, fallocate, lseek, copy_file_range after
# the first: a 66 MiB file on ext4 takes two) is injected too. Then one process checks every case
# (tests/CloneCopy.Tests/Faults/FaultLaneDriver.cs): a passing build left every destination byte-identical; no source
# touched; a clean rebuild with SkipUnchangedFiles repairs everything; no stray files; every failure has an MSB code;
# CloneCopy never fails where MSBuild's Copy passes (whether or not MSBuild's Copy made the faulted call). Outcomes that differ where both met the
# fault are printed; docs/fidelity.md lists them with their reasons.
#
# Prints one line per case and ends with "faults: N passed, N failed, N skipped".
# CLONECOPY_FAULTS=full runs a bigger matrix (more errnos, both retry counts for every fault); the default stays
# under 4 minutes on a quiet 2-core machine. Needs root (loop mounts) and strace; under CI=true it fails, never skips,
# when it cannot run.
set -uo pipefail
cd "$(dirname "$0")/.."

cannot_run() {
  echo "fault-lane: $1" >&2
  if [[ "${CI:-}" == "true" ]]; then
    echo "faults: 0 passed, 1 failed, 0 skipped"
    exit 1
  fi
  echo "faults: 0 passed, 0 failed, 1 skipped"
  exit 0
}

command -v strace >/dev/null 2>&1 || cannot_run "strace is not installed (scripts/setup.sh installs it)"
[[ $(id -u) -eq 0 && -e /dev/loop-control ]] || cannot_run "needs root and loop devices (it mounts reflink XFS and ext4)"

source scripts/lib/built.sh
tests=$(built_assembly tests/CloneCopy.Tests)
[[ -f "$tests" ]] || cannot_run "build the tests first: dotnet build tests/CloneCopy.Tests -c Release"

scratch=$(mktemp -d /tmp/clonecopy-faults.XXXXXX)
source scripts/lib/loop-fs.sh
cleanup() {
  loop_fs_cleanup
  rm -rf "$scratch"
}
trap cleanup EXIT
# Sparse images; each case keeps two copies of the sources and two outputs (about 21 MiB on ext4, 264 MiB for the
# 66 MiB file) until the check.
size=2G
[[ "${CLONECOPY_FAULTS:-}" == "full" ]] && size=10G
loop_fs xfs "$scratch/xfs" "$size" || cannot_run "could not mount reflink XFS"
loop_fs ext4 "$scratch/ext4" "$size" || cannot_run "could not mount ext4"

started=$SECONDS
files=(empty.bin one.bin mid.bin large.bin)
for fs in xfs ext4; do
  p="$scratch/$fs/pristine"
  mkdir -p "$p"
  : > "$p/empty.bin"
  printf 'x' > "$p/one.bin"
  head -c $((100 * 1024)) /dev/urandom > "$p/mid.bin"
  head -c $((5 * 1024 * 1024)) /dev/urandom > "$p/large.bin"
  touch -d '2021-03-04 05:06:07.123456789' "$p"/*.bin
done
# One file longer than CloneCopy's 64 MiB kernel-copy step, on ext4: its second copy_file_range is one File.Copy never makes.
mkdir -p "$scratch/ext4/big/pristine"
head -c $((66 * 1024 * 1024)) /dev/urandom > "$scratch/ext4/big/pristine/huge.bin"
touch -d '2021-03-04 05:06:07.123456789' "$scratch/ext4/big/pristine/huge.bin"

# The matrix: "FS WHERE SPEC [PREFIX]". FS is xfs, ext4, or ext4big (the 66 MiB file alone); WHERE is the 5 MiB file
# as source (src) or as destination (dst), or another file named after a slash (dst/one.bin); SPEC is strace's inject=SPEC without when=; PREFIX is an injection made
# first on every call (unless it names its own when=), to reach a later step (copy_file_range refused, so the
# read/write loop runs).
refuse_kernel_copy="copy_file_range:error=ENOSYS"
matrix=(
  "xfs src openat:error=EACCES"
  "xfs src openat:error=EIO"
  "xfs dst openat:error=ENOSPC"
  "xfs src flock:error=EAGAIN"
  "xfs dst flock:error=EAGAIN"
  "xfs dst ioctl:error=EIO"
  "xfs dst ioctl:error=ENOSPC"
  "xfs dst ioctl:error=EOPNOTSUPP"
  "xfs dst ioctl:error=EINVAL"
  "xfs dst ioctl:error=EPERM"
  "xfs dst utimensat:error=EIO"
  "xfs dst utimensat:error=EPERM"
  "ext4 src copy_file_range:error=EIO"
  "ext4 src copy_file_range:error=ENOSPC"
  "ext4 src copy_file_range:error=EXDEV"
  "ext4 src copy_file_range:error=EOPNOTSUPP"
  "ext4 src copy_file_range:error=EINVAL"
  "ext4 src copy_file_range:retval=0"
  "ext4 src read:error=EIO $refuse_kernel_copy"
  "ext4 src read:error=EINTR:when=1 $refuse_kernel_copy"
  "ext4 src read:retval=0 $refuse_kernel_copy"
  "ext4 dst write:error=EIO $refuse_kernel_copy"
  "ext4 dst write:error=ENOSPC $refuse_kernel_copy"
  # Calls only CloneCopy makes: statx of the destination (once its folder exists, a new destination is made with
  # O_EXCL and looked at through its descriptor; MSBuild's Copy asks with lstat before, and never after: both looks
  # failing too), the clone's
  # read-back (the first clone per pair of filesystems in a build: the 1-byte file), the buffered copy's reservation,
  # and copy_file_range after the first (interrupted once; failing from then on).
  "xfs dst statx:error=EIO"
  "ext4 dst statx:error=EACCES"
  "xfs dst/one.bin pread64:error=EIO"
  "xfs dst statx,lstat,newfstatat:error=EIO"
  "ext4 dst fallocate:error=ENOSPC $refuse_kernel_copy"
  "ext4big src copy_file_range:error=EINTR:when=2"
  "ext4big src copy_file_range:error=EIO:when=2+"
)
if [[ "${CLONECOPY_FAULTS:-}" == "full" ]]; then
  for errno in EPERM EINTR EAGAIN EBUSY ENOENT; do
    once=""
    [[ $errno == EINTR ]] && once=":when=1" # interrupted every time, a call is retried for ever (see below)
    matrix+=("xfs src openat:error=$errno$once" "xfs dst ioctl:error=$errno$once" "ext4 src copy_file_range:error=$errno$once"
      "ext4 src read:error=$errno$once $refuse_kernel_copy" "ext4 dst write:error=$errno$once $refuse_kernel_copy")
  done
  matrix+=("xfs dst openat:error=EIO" "xfs dst openat:error=EACCES" "ext4 dst close:error=EIO"
    "ext4 src read:error=EIO:when=3 $refuse_kernel_copy" "ext4 dst write:error=EIO:when=3 $refuse_kernel_copy")
  matrix+=("xfs dst statx:error=EACCES" "xfs dst statx:error=ENOENT" "ext4 dst statx:error=EIO"
    "ext4 dst statx:error=ENOENT" "xfs src/one.bin pread64:error=EIO" "xfs dst/one.bin pread64:error=EINTR:when=1"
    "xfs src statx,fstat:error=EIO"
    "ext4 dst fallocate:error=EIO $refuse_kernel_copy" "ext4 dst fallocate:error=EDQUOT $refuse_kernel_copy"
    "ext4big src copy_file_range:error=ENOSPC:when=2+" "ext4big dst copy_file_range:error=EINTR:when=2"
    "ext4big src lseek:error=EIO copy_file_range:error=EIO:when=2+")
  variants=("when=1 0" "when=1 2" "when=1+ 0" "when=1+ 2")
else
  # Transient with no retries (a second attempt hidden behind MSBuild's back would pass where MSBuild fails) and
  # persistent with two (the retries, their MSB3026 warnings and MSB3027/MSB3021 in the end).
  variants=("when=1 0" "when=1+ 2")
fi

n=0
for entry in "${matrix[@]}"; do
  read -r fs where spec prefix <<< "$entry"
  syscall=${spec%%:*}
  root="$scratch/$fs" names=("${files[@]}") file=large.bin
  if [[ $fs == ext4big ]]; then root="$scratch/ext4/big" names=(huge.bin) file=huge.bin; fi
  place=$where
  if [[ $where == */* ]]; then file=${where#*/} where=${where%%/*}; fi
  for variant in "${variants[@]}"; do
    read -r when retries <<< "$variant"
    # A SPEC that names its own when= keeps it: a later occurrence, or a fault that only comes once (EINTR: a read
# interrupted every time would be retried for ever, by .NET as by CloneCopy; no kernel does that).
    [[ $spec == *when=* ]] && injection=$spec || injection="$spec:$when"
    n=$((n + 1))
    case_dir=$(printf '%s/case-%03d' "$root" "$n")
    mkdir -p "$case_dir"
    prefix_injection=$prefix
    [[ -z $prefix || $prefix == *when=* ]] || prefix_injection="$prefix:when=1+"
    echo "$fs $place inject=$injection${prefix:+ + $prefix_injection} retries=$retries" > "$case_dir/case.txt"
    for task in msbuild clonecopy; do
      cp -a "$root/pristine" "$case_dir/src-$task"
      if [[ $where == src ]]; then path="$case_dir/src-$task/$file"; else path="$case_dir/out-$task/$file"; fi
      traced=$syscall injections=(-e "inject=$injection")
      if [[ -n "${prefix:-}" ]]; then
        traced="$traced,${prefix%%:*}"
        injections+=(-e "inject=$prefix_injection")
      fi
      timeout 120 strace -f -qq --seccomp-bpf -o "$case_dir/$task.trace" -e "trace=$traced" -P "$path" "${injections[@]}" \
        dotnet "$tests" --fault-copy "$task" "$retries" "$case_dir/out-$task" "${names[@]/#/$case_dir/src-$task/}" \
        > "$case_dir/$task.out" 2> "$case_dir/$task.err" || echo "result crashed" >> "$case_dir/$task.out"
    done
  done
done

# The pristine files are the sources' reference; the check finds them beside the cases of each filesystem.
status=0
roots=(xfs ext4 ext4/big)
for fs in "${roots[@]}"; do
  dotnet "$tests" --fault-check "$scratch/$fs" > "$scratch/$fs.check" || status=1
  grep -v '^faults: \|^differences' "$scratch/$fs.check"
done
passed=0 failed=0 skipped=0 differences=0
for fs in "${roots[@]}"; do
  if [[ $(tail -1 "$scratch/$fs.check") =~ ^faults:\ ([0-9]+)\ passed,\ ([0-9]+)\ failed,\ ([0-9]+)\ skipped ]]; then
    passed=$((passed + BASH_REMATCH[1])) failed=$((failed + BASH_REMATCH[2])) skipped=$((skipped + BASH_REMATCH[3]))
  else
    failed=$((failed + 1)) status=1
  fi
  d=$(grep -o '^differences where both met the fault: [0-9]*' "$scratch/$fs.check" | grep -o '[0-9]*$')
  differences=$((differences + ${d:-0}))
done
echo "fault lane: $n cases, ${#variants[@]} variants each fault, $((SECONDS - started)) s; outcomes that differ where both tasks met the fault: $differences (docs/fidelity.md)"
((skipped == 0)) || [[ "${CI:-}" != "true" ]] || status=1
echo "faults: $passed passed, $failed failed, $skipped skipped"
exit "$status"
