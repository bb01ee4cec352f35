#!/usr/bin/env bash
# Rehearses the hosted Linux CI job here: `.ci/run` (the README's test command with empty caches) from a fresh clone
# of this commit, as root with CI=true, in a Debian 13 (trixie) root made with debootstrap, inside a cgroup limited to
# a hosted agent's 7 GB of memory and 2 CPUs, with loop devices, FUSE and strace as the agent has them.
#
#   sudo bash scripts/rehearse-ci.sh          # 30-60 minutes; needs root, debootstrap (installed if missing), network
#
# Prints .ci/run's output, then its closing lane lines, the peak memory, the wall time and where this still differs
# from a hosted agent. Exits with .ci/run's status. Committed work only: the clone is of HEAD.
#
# Variables:
#   CLONECOPY_REHEARSAL_CACHE   where the root is kept and reused (default /var/cache/clonecopy-rehearsal); made
#                               again when the recipe below changes. Each run works in a throwaway overlay on it, so
#                               what setup.sh installs is installed again every run, as on a fresh agent.
#   CLONECOPY_REHEARSAL_MIRROR  the Debian mirror (default: the first URIs of this machine's apt sources)
#   CLONECOPY_REHEARSAL_MEMORY  memory limit (default 7G: Azure's Microsoft-hosted Linux agents)
#   CLONECOPY_REHEARSAL_CPUS    CPU list (default: the first two of this process's cpuset)
#   CLONECOPY_REHEARSAL_COMMAND another command than `bash .ci/run` in the clone (one lane: `bash scripts/wine-lane.sh`)
#   CLONECOPY_REHEARSAL_KEEP=1  keep the run's folder (clone, artifacts, temp files) under the cache for a look
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
start=$(date +%s)

say() { echo "rehearsal: $*"; }
fail() { echo "rehearsal: $*" >&2; exit 1; }

[[ $(uname -s) == Linux ]] || fail "Linux only (debootstrap, cgroups, loop devices)"
[[ $(id -u) -eq 0 ]] || fail "run as root: it makes a root filesystem, a cgroup and mounts"
commit=$(git rev-parse HEAD)
[[ -z $(git status --porcelain --untracked-files=no) ]] || say "uncommitted changes are not rehearsed: the clone is of $commit"

cache=${CLONECOPY_REHEARSAL_CACHE:-/var/cache/clonecopy-rehearsal}
memory=${CLONECOPY_REHEARSAL_MEMORY:-7G}
command=${CLONECOPY_REHEARSAL_COMMAND:-bash .ci/run}
mkdir -p "$cache"
exec 9>"$cache/lock"
flock -n 9 || fail "another rehearsal is running with $cache (flock $cache/lock)"

mirror=${CLONECOPY_REHEARSAL_MIRROR:-$(awk '/^URIs:/ && $2 !~ /security/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)}
mirror=${mirror:-http://deb.debian.org/debian}
security=${mirror%/debian}/debian-security

# The root: Debian 13 as debootstrap makes it (minbase) with what a hosted image has before the job starts and the
# wine-lane would otherwise install: git, .NET's native dependencies, Wine 10 from trixie. The rest (xfsprogs,
# btrfs-progs, strace, fuse-overlayfs, jq, python3-yaml) scripts/setup.sh installs in the run, as on an agent.
packages=(ca-certificates git libicu76 libssl3t64 zlib1g procps wine wine64)
recipe="trixie minbase ${packages[*]} $mirror"
root="$cache/trixie-root"

# Mounts the pseudo-filesystems a chroot needs, for making the root (debootstrap's own are gone by then).
chroot_in() {
  local dir=$1; shift
  unshare --mount --propagation private -- bash -c '
    set -e; dir=$1; shift
    mount -t proc proc "$dir/proc"; mount --rbind /sys "$dir/sys"; mount --bind /dev "$dir/dev"; mount --bind /dev/pts "$dir/dev/pts"
    exec chroot "$dir" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"' bash "$dir" "$@"
}

if [[ ! -f $root.ready || $(cat "$root.ready") != "$recipe" ]]; then
  command -v debootstrap >/dev/null || { say "installing debootstrap"; DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null; }
  say "making the Debian 13 root in $root from $mirror (once; reused while its recipe is unchanged)"
  rm -rf "$root" "$root.new" "$root.ready"
  debootstrap --variant=minbase --include=ca-certificates trixie "$root.new" "$mirror" > "$cache/debootstrap.log" 2>&1 \
    || fail "debootstrap failed; its log: $cache/debootstrap.log"
  cat > "$root.new/etc/apt/sources.list.d/debian.sources" <<EOF
Types: deb
URIs: $mirror
Suites: trixie trixie-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: $security
Suites: trixie-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
  rm -f "$root.new/etc/apt/sources.list"
  chroot_in "$root.new" sh -c "apt-get update -qq && apt-get install -y -qq ${packages[*]} && apt-get clean" > "$cache/packages.log" 2>&1 \
    || fail "installing ${packages[*]} in the root failed; its log: $cache/packages.log"
  mkdir -p "$root.new/usr/share/dotnet"
  ln -sf /usr/share/dotnet/dotnet "$root.new/usr/bin/dotnet"
  mv "$root.new" "$root"
  echo "$recipe" > "$root.ready"
fi

# The run: an overlay on the root (thrown away after), the checkout and /tmp on this machine's disk (bound, not in the
# overlay, as an agent's are on its own disk).
run="$cache/run"
if [[ -d $run ]]; then
  umount -R "$run/root" 2>/dev/null || true
  rm -rf "$run"
fi
mkdir -p "$run"/{upper,overlay-work,root,tmp,home}
chmod 1777 "$run/tmp"
log="$cache/rehearsal-${commit:0:7}.log"

# The hosted job's layout: the checkout under the agent's home, owned by the agent's user (uid 1001, "runner"), made
# reachable for uid 65534 as the job's own step does, and .ci/run started through sudo -E (so git accepts the checkout
# through SUDO_UID).
workspace=/home/runner/work/clonecopy/clonecopy
git clone -q --no-checkout "$repo" "$run/home/runner/work/clonecopy/clonecopy"
git -C "$run/home/runner/work/clonecopy/clonecopy" checkout -q --detach "$commit"
chown -R 1001:1001 "$run/home/runner"
chmod 750 "$run/home/runner"
d=$run$workspace
while [[ $d != "$run/home" ]]; do chmod o+x "$d"; d=$(dirname "$d"); done

# The cgroup: a child of this process's own (memory and cpuset, cgroup v1 here; cgroup v2 where that is all there is).
name=clonecopy-rehearsal-$$
cgroups=()
if [[ -d /sys/fs/cgroup/memory && -d /sys/fs/cgroup/cpuset ]]; then
  mem="/sys/fs/cgroup/memory$(awk -F: '$2 == "memory" { print $3 }' /proc/self/cgroup)/$name"
  cpus_parent="/sys/fs/cgroup/cpuset$(awk -F: '$2 == "cpuset" { print $3 }' /proc/self/cgroup)"
  cpu="${cpus_parent%/}/$name"
  mem=${mem/\/\//\/}
  mkdir "$mem" "$cpu"
  cgroups=("$mem" "$cpu")
  echo "$memory" > "$mem/memory.limit_in_bytes"
  [[ ! -f $mem/memory.memsw.limit_in_bytes ]] || echo "$memory" > "$mem/memory.memsw.limit_in_bytes"
  cpus=${CLONECOPY_REHEARSAL_CPUS:-$(python3 -c '
import sys
cpus = []
for part in sys.argv[1].split(","):
    a, _, b = part.partition("-")
    cpus += range(int(a), int(b or a) + 1)
print(",".join(map(str, cpus[:2])))' "$(cat "$cpus_parent/cpuset.cpus")")}
  echo "$cpus" > "$cpu/cpuset.cpus"
  cat "$cpus_parent/cpuset.mems" > "$cpu/cpuset.mems"
  peak_file="$mem/memory.max_usage_in_bytes"
  stat_anon() { awk '$1 == "total_rss" || $1 == "total_shmem" { s += $2 } END { printf "%.0f\n", s }' "$mem/memory.stat"; }
  limit_hits() { echo "$(cat "$mem/memory.failcnt") times at the limit, $(awk '$1 == "oom_kill" { print $2 }' "$mem/memory.oom_control") OOM kills"; }
elif [[ -f /sys/fs/cgroup/cgroup.controllers ]]; then
  mem="/sys/fs/cgroup$(awk -F: '$1 == "0" { print $3 }' /proc/self/cgroup)/$name"
  mem=${mem/\/\//\/}
  mkdir "$mem"
  cgroups=("$mem")
  echo "+memory +cpuset" > "$(dirname "$mem")/cgroup.subtree_control" 2>/dev/null || true
  echo "$memory" > "$mem/memory.max"
  echo 0 > "$mem/memory.swap.max" 2>/dev/null || true
  cpus=${CLONECOPY_REHEARSAL_CPUS:-0-1}
  echo "$cpus" > "$mem/cpuset.cpus"
  peak_file="$mem/memory.peak"
  stat_anon() { awk '$1 == "anon" || $1 == "shmem" { s += $2 } END { printf "%.0f\n", s }' "$mem/memory.stat"; }
  limit_hits() { awk '$1 == "max" { m = $2 } $1 == "oom_kill" { k = $2 } END { print m " times at the limit, " k " OOM kills" }' "$mem/memory.events"; }
else
  fail "no cgroup v1 memory/cpuset hierarchy and no cgroup v2 at /sys/fs/cgroup: cannot limit memory"
fi

sampler=
tidy() {
  local status=$? cg pid
  [[ -z $sampler ]] || kill "$sampler" 2>/dev/null || true
  # Whatever is left in the cgroup is this rehearsal's (the PID namespace ends with its first process anyway).
  for cg in "${cgroups[@]}"; do
    for pid in $(cat "$cg/cgroup.procs" 2>/dev/null); do kill -9 "$pid" 2>/dev/null || true; done
  done
  for cg in "${cgroups[@]}"; do
    for _ in 1 2 3 4 5 6 7 8 9 10; do rmdir "$cg" 2>/dev/null && break; sleep 1; done
  done
  # Mounts live in the run's own mount namespace and go with it; this is for the overlay should one have leaked.
  umount -R "$run/root" 2>/dev/null || true
  [[ ${CLONECOPY_REHEARSAL_KEEP:-} == 1 ]] || rm -rf "$run"
  exit "$status"
}
trap tidy EXIT
trap 'exit 130' INT TERM

# Anonymous memory (processes and tmpfs) sampled every 2 s: the kernel's peak also counts page cache, which a 7 GB
# machine would give back before running short.
(
  anon_peak=0
  while :; do
    a=$(stat_anon)
    ((a > anon_peak)) && anon_peak=$a && echo "$anon_peak" > "$run/anon-peak"
    sleep 2
  done
) &
sampler=$!

# Inside: its own mount and PID namespaces (every mount and process goes when it ends), the overlay as /, this
# machine's disk for the checkout and /tmp, the .NET SDK bound read-only, the certificate bundle (NuGet's feed here is
# served through a proxy with its own CA: without it the restore fails with UntrustedRoot), devices for loop mounts and
# FUSE. Its own trap unmounts all of it even when .ci/run fails.
inner='
set -euo pipefail
root=$1 run=$2 lower=$3 workspace=$4 command=$5; shift 5
r=$run/root
tidy_mounts() { umount -R "$r" 2>/dev/null || umount -R -l "$r" 2>/dev/null || true; }
trap tidy_mounts EXIT
mount -t overlay overlay -o "lowerdir=$lower,upperdir=$run/upper,workdir=$run/overlay-work" "$r"
mount --bind "$run/tmp" "$r/tmp"
mkdir -p "$r/home"
mount --bind "$run/home" "$r/home"
mount --bind /usr/share/dotnet "$r/usr/share/dotnet"
mount -o remount,bind,ro "$r/usr/share/dotnet"
mount -t proc proc "$r/proc"
mount --rbind /sys "$r/sys"
mount --bind /dev "$r/dev"
mount --bind /dev/pts "$r/dev/pts"
mount -t tmpfs -o nosuid,nodev,mode=1777 shm "$r/dev/shm"
cp /etc/ssl/certs/ca-certificates.crt "$r/etc/ssl/certs/ca-certificates.crt"
mkdir -p "$r/usr/local/share/ca-certificates" "$r/root/.nuget/NuGet"
cp /usr/local/share/ca-certificates/*.crt "$r/usr/local/share/ca-certificates/" 2>/dev/null || true
cp /root/.nuget/NuGet/NuGet.Config "$r/root/.nuget/NuGet/" 2>/dev/null || true
cp /etc/resolv.conf "$r/etc/resolv.conf" 2>/dev/null || true
echo "rehearsal: inside: Debian $(cat "$r/etc/debian_version"), $(chroot "$r" wine --version 2>/dev/null), .NET SDK $(chroot "$r" dotnet --version), kernel $(uname -r)"
# Every signal at its default, as an agent starts a step: the run is started in the background below, and a
# non-interactive shell starts background commands with SIGINT and SIGQUIT ignored, which every process inherits
# (.NET then leaves them ignored: a Ctrl+C a test sends a `dotnet build` would go unseen).
chroot "$r" env --default-signal -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/home/runner LANG=C.UTF-8 \
  USER=root LOGNAME=root SUDO_USER=runner SUDO_UID=1001 SUDO_GID=1001 \
  CI=true TF_BUILD=True DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 NUGET_CERT_REVOCATION_MODE=offline \
  bash -c "cd $workspace && $command"
'
say "running $command at ${commit:0:7} in Debian 13 (memory $memory, CPUs $cpus); the whole output also goes to $log"
# In the background and waited for, so that a signal to this script reaches its trap at once (which ends everything
# in the cgroup) instead of after the run.
exec {out}> >(tee "$log")
tee_pid=$!
bash -c 'echo $$ > "$1/cgroup.procs"; [[ -z $2 ]] || echo $$ > "$2/cgroup.procs"; shift 2; exec "$@"' bash "${cgroups[0]}" "${cgroups[1]:-}" \
  unshare --mount --pid --fork --propagation private -- bash -c "$inner" bash "$root" "$run" "$root" "$workspace" "$command" >&"$out" 2>&1 &
status=0
wait $! || status=$?
exec {out}>&-
wait "$tee_pid" 2>/dev/null || true
kill "$sampler" 2>/dev/null || true
sampler=

wall=$(($(date +%s) - start))
peak=$(cat "$peak_file")
anon=$(cat "$run/anon-peak" 2>/dev/null || echo 0)
gib() { awk -v b="$1" 'BEGIN { printf "%.2f GiB", b / 1073741824 }'; }
echo
say "closing lines of .ci/run in Debian 13:"
# test.sh's lane lines follow its last blank line; .ci/run adds its time after them.
awk 'NF == 0 { n = 0; delete block; next } { block[++n] = $0 } END { for (i = 1; i <= n; i++) print block[i] }' "$log"
grep '^lane times:' "$log" | tail -1 || true
say "peak memory $(gib "$peak") of $memory (the kernel's count, page cache included), anonymous memory at most $(gib "$anon") (sampled every 2 s); $(limit_hits)"
say "wall time $((wall / 60)) min $((wall % 60)) s (making the root not included when it was reused), CPUs $cpus of this machine's $(nproc --all)"
say "differs from a hosted agent: the kernel is this machine's ($(uname -r)), shared with its other work, and so are its 2 CPUs, loop devices and disk; Debian 13's packages, not Ubuntu 24.04's (Wine 10 here, Wine 9 there); a chroot in its own PID and mount namespaces under a cgroup v1 limit (page cache counted), not a VM of 7 GB with its own kernel; no Docker, no systemd; Wine installed in the root beforehand (the job's wine-lane installs it); the .NET SDK is this machine's $(dotnet --version), bound read-only, not one installed by UseDotNet/setup-dotnet; NuGet's feed and Debian's mirror through this machine's proxy (its CA copied in, NUGET_CERT_REVOCATION_MODE=offline); no network beyond them"
exit "$status"
