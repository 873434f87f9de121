"""What several bench/ scripts share: the C helpers of bench/ (compiled on
first use), the per-process CPU records of proc-cpu.so, and the floor.

python3 bench/benchlib.py NAME prints the path of helper NAME (building it).
"""
import os
import statistics
import subprocess
import sys

BENCH = os.path.dirname(os.path.abspath(__file__))
# how each helper is built: bench/NAME.c -> ~/.cache/git-parallel-checkout/bin/NAME
SHA1DC = os.path.join(os.path.dirname(BENCH), 'patched', 'sha1dc')
BUILD = {'write-floor': ['-pthread'], 'inflate-floor': ['-ldeflate'],
         'proc-cpu.so': ['-shared', '-fPIC'],
         # the series' sha1dc, with the SIMD paths it picks at run time
         'pack-floor': ['-Wno-deprecated-declarations', '-I' + SHA1DC] +
                       [os.path.join(SHA1DC, f) for f in ('sha1.c', 'ubc_check.c', 'sha1_x86.c')] +
                       ['-ldeflate', '-lcrypto']}


def c_tool(name):
    src = os.path.join(BENCH, name.replace('.so', '') + '.c')
    cache = os.path.join(os.environ.get('XDG_CACHE_HOME', os.path.expanduser('~/.cache')),
                         'git-parallel-checkout', 'bin')
    os.makedirs(cache, exist_ok=True)
    exe = os.path.join(cache, name)
    deps = [src, os.path.join(BENCH, 'span.h')] + [f for f in BUILD[name] if f.endswith('.c')]
    newest = max(os.path.getmtime(p) for p in deps)
    if not os.path.exists(exe) or os.path.getmtime(exe) < newest:
        cc = os.environ.get('CC', 'cc').split()
        flags = BUILD[name]
        subprocess.run(cc + ['-O2', '-o', exe + '.tmp', src] + flags, check=True)
        os.rename(exe + '.tmp', exe)
    return exe


def read_procs(path):
    """proc-cpu.so's records: [{pid, ppid, cpu, main, argv}]."""
    procs = []
    if not os.path.exists(path):
        return procs
    with open(path) as f:
        for line in f:
            pid, ppid, cpu, thread, *argv = line.split()
            procs.append({'pid': int(pid), 'ppid': int(ppid), 'cpu': float(cpu),
                          'thread': float(thread), 'argv': argv})
    return procs


def is_worker(p):
    return 'checkout--worker' in p['argv']


def main_cpu(procs):
    """CPU of the main threads of every process but the checkout workers:
    the part of a checkout that more workers cannot spread (for git
    `worktree add`, itself and the `reset --hard` that checks out; for gix,
    its main thread)."""
    return sum(p['thread'] for p in procs if not is_worker(p)) if procs else None


def projection(main, total, cores):
    """The least wall time on CORES cores: max(main, total / cores)."""
    return max(main, total / cores)


def med(xs):
    return statistics.median(xs) if xs else None


def floor_work(floor, fs):
    """(inflate CPU, write CPU) of the floor on fs: the least of the
    rounds, and for writing the least over the thread counts too; None
    when the floor lacks either."""
    inf = floor.get('inflate') if floor else None
    by = (floor or {}).get('write', {}).get(fs.split()[0], {})
    cpus = [u + s for r in by.values() for u, s in zip(r['user'], r['system'])]
    if not inf or not inf['user'] or not cpus:
        return None
    return min(u + s for u, s in zip(inf['user'], inf['system'])), min(cpus)


def floor_wall(work, workers, nproc):
    """floor(N) = (inflate CPU + write CPU) / min(N, nproc)."""
    return (work[0] + work[1]) / min(workers, nproc)


if __name__ == '__main__':
    print(c_tool(sys.argv[1]))
