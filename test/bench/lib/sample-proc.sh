#!/usr/bin/env bash
# Samples a long run (the kernel's cold index) every INTERVAL seconds until it exits: its CPU
# seconds (all threads; user + sys), its main thread's, its RSS and peak RSS, and how many files its
# cache folder holds (records written so far: progress, and so a rate to extrapolate from).
# usage: test/bench/lib/sample-proc.sh PID INTERVAL_S [CACHE_DIR] > samples.tsv   (Linux /proc)
pid=$1 interval=${2:-30} dir=$3
tck=$(getconf CLK_TCK)
cpu() { awk -v t="$tck" '{ sub(/^.*\) /, ""); split($0, f, " "); printf "%.2f", (f[12] + f[13]) / t }' "$1"; }
echo -e "time\tcpu_s\tmain_thread_cpu_s\trss_mb\tpeak_rss_mb\tcache_files"
while [ -d "/proc/$pid" ]; do
  line="$(date -u +%H:%M:%S)\t$(cpu /proc/$pid/stat)\t$(cpu /proc/$pid/task/$pid/stat)"
  line="$line\t$(awk '/^VmRSS/ { printf "%d", $2 / 1024 }' /proc/$pid/status)\t$(awk '/^VmHWM/ { printf "%d", $2 / 1024 }' /proc/$pid/status)"
  [ -n "$dir" ] && line="$line\t$(find "$dir" -type f 2>/dev/null | wc -l)"
  echo -e "$line"
  sleep "$interval"
done
