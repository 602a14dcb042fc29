#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# Malformed-input campaign against pmlab (reliability, issue 20): malformed
# files and arguments across every parser and command, each run classified:
#   CRASH      a signal, an exit >= 128, or a sanitizer report
#   timeout    no answer within the case's time box
#   located    exit 2, one line 'pmlab: ...', naming the place (file:line,
#              byte offset, option or key)
#   unlocated  exit 2, one line, without the place
#   multiline  exit 2 with more than one line
#   accepted   exit 0 (the mutation may still be a valid input)
#   exitN      any other exit code
# usage (from the repository root, best with the ASan build):
#   python3 tools/malformed-campaign.py build-asan/src/cli/pmlab [OUTDIR] [JOBS]
# prints the verdicts per category; OUTDIR/details.txt has every case.
import json, os, random, re, shutil, struct, subprocess, sys
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor

R = os.path.abspath(os.path.join(os.path.dirname(__file__), '..')) if os.path.exists(
    os.path.join(os.path.dirname(__file__), '..', 'meson.build')) else os.getcwd()
B = os.path.abspath(sys.argv[1])
T = sys.argv[2] if len(sys.argv) > 2 else '/tmp/pmlab-campaign'
JOBS = int(sys.argv[3]) if len(sys.argv) > 3 else 2
random.seed(2026)
shutil.rmtree(T, ignore_errors=True)
os.makedirs(T)
ENV = dict(os.environ, ASAN_OPTIONS='detect_leaks=1', UBSAN_OPTIONS='halt_on_error=1:print_stacktrace=1',
           PMLAB_MAX_DURATION='0.05', LC_ALL='C')
cases = []  # (category, case, argv, loc, timeout)


def case(cat, name, args, loc=None, timeout=60):
    cases.append((cat, name, args, loc, timeout))


def run(c):
    cat, name, args, loc, timeout = c
    try:
        p = subprocess.run([B] + args, capture_output=True, timeout=timeout, cwd=R, env=ENV,
                           stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return (cat, name, None, 'timeout', '')
    err = p.stderr.decode('utf-8', 'replace')
    rc = p.returncode
    if rc < 0 or rc >= 128 or re.search(r'AddressSanitizer|LeakSanitizer|runtime error:|UndefinedBehavior', err):
        verdict = 'CRASH'
    elif rc == 2:
        lines = [l for l in err.splitlines() if l.strip() and not l.startswith('pmlab: note')]
        one = len(lines) == 1 and lines[0].startswith('pmlab: ')
        locs = loc if isinstance(loc, list) else [loc]
        located = loc is None or any(re.search(x, err) for x in locs)
        verdict = ('located' if located else 'unlocated') if one else 'multiline'
    elif rc == 0:
        verdict = 'accepted'
    else:
        verdict = 'exit%d' % rc
    return (cat, name, rc, verdict, err.strip()[:400])


def write(name, data):
    path = os.path.join(T, name)
    with open(path, 'wb') as f:
        f.write(data if isinstance(data, bytes) else data.encode('utf-8', 'surrogateescape'))
    return path


JUNK = ['=', 'x = ', '[', '[]', '[unterminated', 'key', '= value', 'a = 1e400', 'a = -99999999999999999999',
        'a = nan', '\x00', '\xff\xfe', 'z' * 5000, '\t\t', 'ü = ü', 'a = 1' + '0' * 40]
VALUES = ['-1', 'abc', '99999999999999999999', '1e308', '', 'nan', 'inf', '0x10', '1.5.5', '-0', '\x00x',
          '18446744073709551616', '-9223372036854775809', '4294967296', ' 5', '+5']


def mutate_lines(text, n):
    lines = text.split('\n')
    out = []
    for i in range(n):
        l = list(lines)
        k = random.randrange(len(l)) if l else 0
        op = i % 6
        if op == 0 and l:
            if '=' in l[k]:
                l[k] = l[k].split('=')[0] + '= ' + random.choice(VALUES)
            else:
                l[k] = random.choice(JUNK)
        elif op == 1 and l:
            del l[k]
        elif op == 2:
            l.insert(k, random.choice(JUNK))
        elif op == 3 and l:
            l.insert(k, l[k])
        elif op == 4:
            l = l[:k]
        elif l:
            s = l[k]
            pos = random.randrange(len(s) + 1)
            l[k] = s[:pos] + random.choice(['\x00', '\x7f', '\x1b[0m', '"', "'", '\\', ',', ';', '#']) + s[pos:]
        out.append('\n'.join(l))
    return out


def at_line(p):
    return re.escape(p) + r':\d+'


SIM = ['sim', '--machine', 'i7-4790', '--workload', 'batch', '-d', '0.01']

# 1. machine INI files
for mname in sorted(os.listdir(R + '/data/machines')):
    text = open(R + '/data/machines/' + mname).read()
    for i, v in enumerate(mutate_lines(text, 16)):
        p = write('m-%s-%d.ini' % (mname[:-4], i), v)
        case('machine ini', p, ['sim', '--machine', p, '--workload', 'batch', '-d', '0.01'], loc=at_line(p))
for name, data in [('empty.ini', ''), ('nul.ini', b'[machine]\nname = a\x00b\n'), ('bin.ini', bytes(range(256)))]:
    p = write(name, data)
    case('machine ini', p, ['sim', '--machine', p, '--workload', 'batch', '-d', '0.01'], loc=re.escape(p))
os.makedirs(os.path.join(T, 'adir.ini'), exist_ok=True)
case('machine ini', 'a directory', ['sim', '--machine', os.path.join(T, 'adir.ini'), '--workload', 'batch'],
     loc='adir.ini')

# 2. rt-app JSON
for wname in sorted(os.listdir(R + '/data/workloads')):
    text = open(R + '/data/workloads/' + wname).read()
    doc = json.loads(text)
    variants = [text[:cut] for cut in (1, len(text) // 3, len(text) // 2, len(text) - 2)]
    variants += [text.replace(':', '', 1), text.replace('{', '[', 1), text.replace('"', '\x00', 1)]

    def paths(o, pre=()):
        if isinstance(o, dict):
            for k, v in o.items():
                yield pre + (k,)
                yield from paths(v, pre + (k,))
    ps = list(paths(doc))
    for k in range(24):
        d = json.loads(text)
        path = random.choice(ps)
        o = d
        for key in path[:-1]:
            o = o[key]
        o[path[-1]] = random.choice([-5, 'str', 1e20, 99999999999999999999, None, [], {}, True, 0, -1, 2**31,
                                     'CPU99', 2**63, -2**63 - 1, 1e-300])
        variants.append(json.dumps(d, indent=2))
    for k in range(4):
        d = json.loads(text)
        path = random.choice(ps)
        o = d
        for key in path[:-1]:
            o = o[key]
        o['bogus_key_%d' % k] = 1
        variants.append(json.dumps(d, indent=2))
    for i, v in enumerate(variants):
        p = write('w-%s-%d.json' % (wname[:-5], i), v)
        case('rt-app json', p, ['sim', '--machine', 'i7-4790', '--workload', 'rtapp:' + p, '-d', '0.02'],
             loc=at_line(p))

# 3. tuned profiles
for prof in ['balanced', 'powersave', 'throughput-performance', 'latency-performance', 'virtual-guest']:
    f = os.path.join(R, 'data/profiles', prof, 'tuned.conf')
    if not os.path.exists(f):
        continue
    for i, v in enumerate(mutate_lines(open(f).read(), 12)):
        d = os.path.join(T, 'p-%s-%d' % (prof, i))
        os.makedirs(d)
        with open(os.path.join(d, 'tuned.conf'), 'w', errors='surrogateescape') as fh:
            fh.write(v)
        case('tuned profile', d, SIM + ['--profile', d], loc=[re.escape(d) + r'/tuned.conf:\d+', re.escape(d)])
        case('tuned profile (host plan)', d, ['profile', 'apply', '--dry-run', '--root',
                                              R + '/tests/fixtures/host/intel-hwp-laptop', d],
             loc=[re.escape(d) + r'/tuned.conf:\d+', re.escape(d)])
for spec in ['balanced:governor=', 'balanced:=x', 'balanced:governor=nosuch', 'balanced:' + 'a' * 5000 + '=1',
             'balanced:pm_qos_latency_us=99999999999999999999', 'nosuch', '../../etc', '', ':', 'balanced::']:
    case('tuned profile spec', spec[:60], SIM + ['--profile', spec], loc=['--profile', 'profile', 'override'])

# 4. ftrace text traces
for tname in ['four-cpus.txt', 'tracefs-one-of-each.txt', 'trace-cmd-report-default.txt',
              'tracefs-trace-default.txt', 'tracefs-trace-record-tgid.txt']:
    text = open(R + '/tests/fixtures/traces/' + tname, errors='surrogateescape').read()
    for i, v in enumerate(mutate_lines(text, 12)):
        if v == text:
            continue
        p = write('t-%s-%d.txt' % (tname[:-4], i), v)
        case('ftrace text', p, ['replay', p, '-d', '2'], loc=at_line(p))
    lines = text.split('\n')
    idx = [k for k, l in enumerate(lines) if 'sched_switch' in l or 'cpu_idle' in l or 'sched_wak' in l]
    for i, rep in enumerate([('pid=', 'pid=-7'), ('cpu_id=', 'cpu_id=999'), ('prev_pid=', 'prev_pid=99999999999'),
                             ('state=', 'state=4294967296'), ('[00', '[99'), ('pid=', 'pid=4194305')]):
        have = [k for k in idx if rep[0] in lines[k]]
        if not have:
            continue
        l = list(lines)
        k = random.choice(have)
        l[k] = l[k].replace(rep[0], rep[1], 1)
        p = write('ts-%s-%d.txt' % (tname[:-4], i), '\n'.join(l))
        case('ftrace text', p, ['replay', p, '-d', '2'], loc=at_line(p))
    l = list(lines)
    ts = [k for k, x in enumerate(l) if re.search(r'\d+\.\d{6}:', x)]
    if len(ts) > 3:
        k = ts[len(ts) // 2]
        l[k] = re.sub(r'(\d+)\.(\d{6}):', lambda m: '%d.%s:' % (max(0, int(m.group(1)) - 5), m.group(2)), l[k], 1)
        p = write('tb-%s.txt' % tname[:-4], '\n'.join(l))
        case('ftrace text', p, ['replay', p, '-d', '2'], loc=at_line(p))


# 5. trace.dat: every header field, truncations, flipped bits in the data
def fields(b):
    out = [('page_size', 14, 4)]
    p = 18
    for name in (b'header_page\0', b'header_event\0'):
        p += len(name)
        n = struct.unpack_from('<Q', b, p)[0]
        out.append((name.decode().strip('\0') + '.size', p, 8))
        p += 8 + n
    n = struct.unpack_from('<I', b, p)[0]
    out.append(('ftrace.count', p, 4))
    p += 4
    for i in range(n):
        p += 8 + struct.unpack_from('<Q', b, p)[0]
    nsys = struct.unpack_from('<I', b, p)[0]
    out.append(('nsys', p, 4))
    p += 4
    for i in range(nsys):
        e = b.index(b'\0', p)
        p = e + 1
        cnt = struct.unpack_from('<I', b, p)[0]
        out.append(('sys%d.count' % i, p, 4))
        p += 4
        for j in range(cnt):
            out.append(('sys%d.ev%d.size' % (i, j), p, 8))
            p += 8 + struct.unpack_from('<Q', b, p)[0]
    for name, w in (('kallsyms', 4), ('printk', 4), ('cmdlines', 8)):
        s = int.from_bytes(b[p:p + w], 'little')
        out.append((name + '.size', p, w))
        p += w + s
    cpus = struct.unpack_from('<I', b, p)[0]
    out.append(('cpus', p, 4))
    p += 4 + 10
    for c in range(cpus):
        out.append(('cpu%d.offset' % c, p, 8))
        out.append(('cpu%d.size' % c, p + 8, 8))
        p += 16
    return out


dat = open(R + '/data/traces/hackbench.dat', 'rb').read()
n = 0
for name, off, size in fields(dat):
    v = int.from_bytes(dat[off:off + size], 'little')
    for nv in sorted(set([0, 1, v - 1, v + 1, v * 2, (1 << (8 * size)) - 1])):
        nv &= (1 << (8 * size)) - 1
        if nv == v:
            continue
        p = write('d-%d.dat' % n, dat[:off] + nv.to_bytes(size, 'little') + dat[off + size:])
        n += 1
        case('trace.dat header', p, ['replay', p, '-d', '2'], loc=re.escape(p) + r': byte \d+')
for cut in [0, 10, 17, 100, 5000, 18860, 18900, 20480, 100000, 200000, len(dat) - 4096, len(dat) - 1]:
    p = write('dc-%d.dat' % cut, dat[:cut])
    case('trace.dat truncated', p, ['replay', p, '-d', '2'], loc=re.escape(p) + r'(: byte \d+|: empty)')
for i in range(40):
    b = bytearray(dat)
    for j in range(8):
        o = random.randrange(20480, len(b))
        b[o] ^= 1 << random.randrange(8)
    p = write('df-%d.dat' % i, bytes(b))
    case('trace.dat flipped', p, ['replay', p, '-d', '2'], loc=re.escape(p) + r': byte \d+')

# 6. govtrace / idletrace CSV
for fname in ['ondemand.csv', 'schedutil-iowait.csv', 'intel-pstate.csv']:
    text = open(R + '/tests/fixtures/govtrace/' + fname).read()
    for i, v in enumerate(mutate_lines(text, 12)):
        p = write('g-%s-%d.csv' % (fname[:-4], i), v)
        case('govtrace csv', p, ['govtrace', '--governor', 'ondemand', '--freqs', '1200000,1800000,2400000',
                                 '--input', p], loc=at_line(p))
for fname in ['short.csv', 'latency.csv', 'ladder.csv']:
    text = open(R + '/tests/fixtures/idletrace/' + fname).read()
    for i, v in enumerate(mutate_lines(text, 12)):
        p = write('i-%s-%d.csv' % (fname[:-4], i), v)
        case('idletrace csv', p, ['idletrace', '--governor', 'menu', '--machine', 'i7-4790', '--input', p],
             loc=at_line(p))

# 7. validation files (a mutation that is still valid runs the experiment,
# cut short by PMLAB_MAX_DURATION)
for vname in sorted(os.listdir(R + '/data/validation')):
    text = open(R + '/data/validation/' + vname).read()
    for i, v in enumerate(mutate_lines(text, 16)):
        p = write('v-%s-%d.ini' % (vname[:-4], i), v)
        case('validation ini', p, ['validate', '--data', p, '--write', os.path.join(T, 'v.md'), '--jobs', '1'],
             loc=at_line(p), timeout=300)

# 8. merge shards
shards = {}
for fmt in ['csv', 'json']:
    for tag, vary in (('a', 'cpufreq=performance,powersave'), ('b', 'cpufreq=performance,schedutil')):
        for k in (0, 1):
            r = subprocess.run([B, 'sweep', '--machine', 'i7-4790', '--workload', 'pingpong', '--vary', vary,
                                '-d', '0.02', '--format', fmt, '--shard', '%d/2' % k], capture_output=True, cwd=R,
                               env=ENV)
            shards[(fmt, tag, k)] = r.stdout.decode()
for fmt in ['csv', 'json']:
    q = write('s-%s-good1.%s' % (fmt, fmt), shards[(fmt, 'a', 1)])
    for i, v in enumerate(mutate_lines(shards[(fmt, 'a', 0)], 16)):
        p = write('s-%s-%d.%s' % (fmt, i, fmt), v)
        case('merge shard', p, ['merge', p, q], loc=[at_line(p), r'point \d+ is missing'])
    p = write('s-%s-other0.%s' % (fmt, fmt), shards[(fmt, 'b', 0)])
    case('merge shard', 'two sweeps ' + fmt, ['merge', p, q], loc=[at_line(p), at_line(q)])
    p = write('s-%s-nul.%s' % (fmt, fmt), shards[(fmt, 'a', 0)].replace('performance', 'perf\x00rmance', 1))
    case('merge shard', 'NUL ' + fmt, ['merge', p, q], loc=at_line(p))
    p = write('s-%s-dup.%s' % (fmt, fmt), shards[(fmt, 'a', 1)])
    case('merge shard', 'twice ' + fmt, ['merge', p, q], loc=[at_line(p), at_line(q)])
p = write('s-mixed.json', shards[('json', 'a', 0)])
q = write('s-mixed.csv', shards[('csv', 'a', 1)])
case('merge shard', 'csv with json', ['merge', p, q], loc=[re.escape(q), re.escape(p)])


# 9. host state files in a fake tree
def tree(name):
    d = os.path.join(T, 'tree-' + name)
    shutil.copytree(R + '/tests/fixtures/host/acpi-cpufreq-server', d, symlinks=True)
    return d


good_state = open(R + '/tests/fixtures/hoststate/server-host-latency').read()
for i, v in enumerate(mutate_lines(good_state, 24)):
    d = tree('st%d' % i)
    os.makedirs(d + '/run/pmlab', mode=0o700, exist_ok=True)
    os.chmod(d + '/run/pmlab', 0o700)
    with open(d + '/run/pmlab/profile', 'w', errors='surrogateescape') as f:
        f.write(v + ('\n' if not v.endswith('\n') else ''))
    os.chmod(d + '/run/pmlab/profile', 0o600)
    case('host state', d, ['profile', 'off', '--root', d], loc=r'run/pmlab/profile:\d+')
for i, mode in enumerate([0o777, 0o757, 0o770]):
    d = tree('stm%d' % i)
    os.makedirs(d + '/run/pmlab', exist_ok=True)
    os.chmod(d + '/run/pmlab', mode)
    case('host state', d + ' mode %o' % mode, ['profile', 'apply', '--root', d, 'powersave'], loc=r'run/pmlab')

# 10. fake sysfs trees with corrupt values
cpu = 'sys/devices/system/cpu'
targets = [cpu + '/cpufreq/policy0/scaling_available_frequencies', cpu + '/cpufreq/policy0/cpuinfo_max_freq',
           cpu + '/cpufreq/policy0/cpuinfo_min_freq', cpu + '/cpufreq/policy0/scaling_governor',
           cpu + '/cpufreq/policy0/affected_cpus', cpu + '/online', cpu + '/cpu0/cpuidle/state1/latency',
           cpu + '/cpu0/cpuidle/state1/name', cpu + '/cpufreq/policy0/scaling_available_governors',
           'proc/stat', 'proc/cpuinfo']
vals = [b'', b'abc', b'99999999999999999999\n', b'-1\n', b'\x00\x01\x02', b'0-99999\n', b'1,2,,3\n', b'x' * 70000,
        b'4294967296\n']
n = 0
for t in targets:
    for v in random.sample(vals, 4):
        d = tree('sys%d' % n)
        n += 1
        if not os.path.exists(os.path.join(d, t)):
            continue
        with open(os.path.join(d, t), 'wb') as f:
            f.write(v)
        loc = [re.escape(t), re.escape(d)]
        case('host sysfs', d + ':' + t, ['profile', 'apply', '--root', d, '--dry-run', 'balanced'], loc=loc)
        case('host sysfs', d + ':' + t + ' (monitor)', ['monitor', '--root', d, '--count', '1',
                                                        '--interval', '0.05'], loc=loc)
        case('host sysfs', d + ':' + t + ' (info)', ['info', '--root', d], loc=loc)

# 11. command-line arguments
big = '99999999999999999999'
bad_vals = ['', big, '-1', '0x10', 'abc', '1e400', 'nan', '-0', ' 5', '+5', '=', ',', '\x01', '18446744073709551616']
cmds = {
    'sim': SIM,
    'compare': ['compare', '--machine', 'i7-4790', '--workload', 'batch', '-d', '0.01', '--profiles',
                'none,powersave'],
    'sweep': ['sweep', '--machine', 'i7-4790', '--workload', 'batch', '-d', '0.01', '--vary', 'seed=1,2'],
    'replay': ['replay', 'data/traces/hackbench.dat', '-d', '0.1'],
    'govtrace': ['govtrace', '--governor', 'ondemand', '--freqs', '1200000,2400000', '--input',
                 'tests/fixtures/govtrace/ondemand.csv'],
    'idletrace': ['idletrace', '--governor', 'menu', '--machine', 'i7-4790', '--input',
                  'tests/fixtures/idletrace/short.csv'],
    'monitor': ['monitor', '--root', 'tests/fixtures/host/acpi-cpufreq-server', '--count', '1', '--interval', '0.01'],
}
opts = {
    'sim': ['--machine', '--workload', '--cpus', '-d', '--seed', '--cpufreq', '--cpuidle', '--set', '--format',
            '--profile', '--window', '--trace-cpus'],
    'compare': ['--runs', '--jobs', '--format', '--profiles', '--cpus', '--set', '--seed', '-d'],
    'sweep': ['--vary', '--shard', '--jobs', '--format', '--cpus', '--seed', '--set'],
    'replay': ['--machine', '--cpus', '--capture-khz', '--runs', '--profiles', '--format', '--set', '-d'],
    'govtrace': ['--freqs', '--set', '--governor', '--transition-latency-us', '--base-khz', '--hz'],
    'idletrace': ['--set', '--governor', '--hz', '--machine', '--tick-policy'],
    'monitor': ['--count', '--interval', '--format', '--root'],
}
for c, base in cmds.items():
    for o in opts[c]:
        for v in random.sample(bad_vals, 7):
            a = list(base)
            if o in a:
                k = a.index(o)
                del a[k:k + 2]
            extra = [o, v]
            if o in ('--window', '--trace-cpus'):
                extra = ['--timeline', os.path.join(T, 'tl.json')] + extra
            case('arguments', ' '.join(a + extra)[:200], a + extra,
                 loc=[re.escape(o), 'expected', 'unknown', re.escape(v.strip()) if v.strip() else 'xx'])
for c in ['sim', 'compare', 'sweep', 'replay', 'merge', 'validate', 'profile', 'monitor', 'govd', 'daemon', 'bench',
          'record', 'govtrace', 'idletrace', 'machines', 'governors', 'workloads', 'info', 'complete']:
    for extra in [['--bogus'], ['--help=1'], ['-Z'], ['--format'], ['x' * 5000], ['--format', 'xml']]:
        case('arguments', c + ' ' + ' '.join(extra)[:60], [c] + extra, loc=None, timeout=30)
# every tunable with malformed values
tun = subprocess.run([B, 'governors'], capture_output=True, cwd=R, env=ENV).stdout.decode()
keys = sorted(set(re.findall(r'^      (\w+) +default', tun, re.M)))
for k in keys:
    for v in random.sample(bad_vals, 3):
        case('--set tunable', '%s=%s' % (k, v), SIM + ['--set', '%s=%s' % (k, v)], loc=re.escape('--set ' + k))
# sweep --vary forms
for vary in ['', '=', 'cpufreq=', '=a,b', 'cpufreq=performance,,powersave', 'nosuch=1,2', 'seed=1..' + big,
             'seed=' + ','.join(str(i) for i in range(3000)), 'cpufreq=performance,performance', 'seed=5..1',
             'seed=1..3..5', 'pm_qos_latency_us=a,b', 'x' * 5000 + '=1']:
    case('sweep --vary', vary[:60], ['sweep', '--machine', 'i7-4790', '--workload', 'batch', '-d', '0.001',
                                     '--vary', vary], loc=['--vary', 'point \\d+'], timeout=120)
case('sweep --vary', 'a product of 1e12 points', ['sweep', '--machine', 'i7-4790', '--workload', 'batch']
     + sum([['--vary', 'seed=1..10000'] for _ in range(3)], []), loc=['--vary', 'points'], timeout=60)

with ThreadPoolExecutor(JOBS) as ex:
    results = list(ex.map(run, cases))

by = defaultdict(Counter)
for cat, name, rc, verdict, msg in results:
    by[cat][verdict] += 1
total = Counter(r[3] for r in results)
order = ['located', 'unlocated', 'multiline', 'accepted', 'timeout', 'CRASH']
print('%-26s %6s  %s' % ('category', 'cases', '  '.join('%9s' % o for o in order) + '  other'))
for cat in by:
    other = {k: v for k, v in by[cat].items() if k not in order}
    print('%-26s %6d  %s  %s' % (cat, sum(by[cat].values()), '  '.join('%9d' % by[cat][o] for o in order),
                                 other or ''))
other = {k: v for k, v in total.items() if k not in order}
print('%-26s %6d  %s  %s' % ('TOTAL', len(results), '  '.join('%9d' % total[o] for o in order), other or ''))
with open(os.path.join(T, 'details.txt'), 'w') as f:
    for r in results:
        f.write('%s | %s | rc=%s | %s | %s\n' % r)
