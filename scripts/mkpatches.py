#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Regenerate the perfctr patches from the repository's tree-shaped folders.

scripts/patches.conf says which patch adds which new kernel files.  Each
patch file keeps its own header (From, Date, Subject, description,
Signed-off-by) and its hunks for existing kernel files (maintained with
quilt); everything else -- the hunks that add the new files, the patch
numbering, the diffstat -- is rewritten here from the tree.

  mkpatches.py           rewrite patches/ and series
  mkpatches.py --check   exit 1, naming each stale file, if patches/,
                         series, the cover letter or notes/SERIES.md's
                         patch list is not what this would write
  mkpatches.py --move FROM TO FILE...
                         move the hunks to existing kernel files FILE... from
                         patch FROM to patch TO (both named as in
                         scripts/patches.conf; TO comes first, its header
                         written): a change to core code that a perfctr
                         patch carried becomes a patch of its own
  mkpatches.py --states FILE NNNN=STATE...
                         set the states of FILE, a new file or one the series
                         adds: after patch NNNN (its number) it is as STATE
                         (a path) is; the first NNNN must be the patch that
                         adds FILE (scripts/patches.conf), the last STATE
                         becomes the tree's file, and the hunks to FILE of
                         every later patch are rewritten (a patch not named
                         loses them): a file split in two, its concerns
                         growing patch by patch, is written this way
  mkpatches.py --restack FILE...
                         FILE is a new file that later patches grow, changed
                         in the tree where their hunks lie: carry the change
                         down the stack first -- each later patch's hunks to
                         FILE are rewritten so that the patches leave FILE as
                         the tree has it, every state before merged with the
                         change (git merge-file; where a state lacks the lines
                         changed, as before a later patch adds them, the state
                         wins and the change lands in the later patch: the
                         bisect group then shows whether each patch still
                         builds).  To move lines to an earlier patch's region,
                         restack without them first, then with them.

0000-cover-letter.patch (top level, not in patches/) is written too, in the form of git
format-patch --cover-letter: scripts/cover-letter.txt's subject and
text, its Signed-off-by, then the shortlog and the series' diffstat.  It
is not in series: quilt refuses a patch without a diff, and git am too.
In scripts/cover-letter.txt, {patch:SLUG} stands for the number of the
patch whose file name, without its number and ".patch", is SLUG, and
{patches} for how many patches there are.

notes/SERIES.md's patch list, between the two marker lines LIST_BEGIN and
LIST_END, is written too: each group's comment from scripts/patches.conf,
its patches' numbers and subjects, and the ABI version the uapi header
defines.  The rest of notes/SERIES.md is hand-written and kept as it is.
"""
import fnmatch
import os
import re
import subprocess
import sys
import tempfile
import textwrap

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CONF = os.path.join(TOP, 'scripts', 'patches.conf')
TRAILER = '-- \nperfctr\n'
COVER = '0000-cover-letter.patch'
NOTES = os.path.join('notes', 'SERIES.md')
LIST_BEGIN = '<!-- patch list: written by scripts/mkpatches.py; edit scripts/patches.conf -->'
LIST_END = '<!-- end of the patch list -->'


def read_conf():
    """Return [(patch name, [globs])] and the series banner lines."""
    patches, banner, comments = [], [], {}
    pending = []
    with open(CONF) as f:
        for line in f:
            line = line.rstrip('\n')
            if line.startswith('##'):
                banner.append(line[1:])
                continue
            if line.startswith('#') or not line.strip():
                pending.append(line)
                continue
            name, _, globs = line.partition(':')
            comments[name.strip()] = [c for c in pending if c.strip()]
            pending = []
            patches.append((name.strip(), globs.split()))
    return patches, banner, comments


def tracked_files():
    out = subprocess.run(['git', 'ls-files', '--cached', '--others',
                          '--exclude-standard'], cwd=TOP, check=True,
                         capture_output=True, text=True).stdout
    return sorted(set(out.split()))


def staged(path, later):
    """The content of new file PATH as the patch that adds it leaves it:
    the tree's file with LATER (the hunks to it of the patches after that
    one, in series order) reverse-applied, last first, without fuzz."""
    with open(os.path.join(TOP, path), 'rb') as f:
        data = f.read()
    if not later:
        return data
    with tempfile.TemporaryDirectory() as tmp:
        dst = os.path.join(tmp, path)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        with open(dst, 'wb') as f:
            f.write(data)
        for name, chunk in reversed(later):
            out = subprocess.run(['git', 'apply', '-R', '-'], input=chunk.encode(),
                                 cwd=tmp, capture_output=True)
            if out.returncode:
                sys.exit(f'{path}: the hunks of {name} do not reverse-apply to the '
                         f'tree\'s file: refresh them with quilt\n{out.stderr.decode()}')
        with open(dst, 'rb') as f:
            return f.read()


def new_file_diff(path, later=()):
    data = staged(path, later)
    text = data.decode()
    if text and not text.endswith('\n'):
        sys.exit(f'{path}: no newline at end of file')
    blob = subprocess.run(['git', 'hash-object', '--stdin'], input=data,
                          capture_output=True, check=True).stdout.decode()[:7]
    lines = text.splitlines(keepends=True)
    mode = '100755' if os.access(os.path.join(TOP, path), os.X_OK) else '100644'
    out = [f'diff --git a/{path} b/{path}\n', f'new file mode {mode}\n',
           f'index 0000000..{blob}\n', '--- /dev/null\n', f'+++ b/{path}\n',
           f'@@ -0,0 +1,{len(lines)} @@\n' if len(lines) != 1 else '@@ -0,0 +1 @@\n']
    out += ['+' + l for l in lines]
    return ''.join(out)


def add_git_headers(text):
    """Give quilt-style hunks ("--- a/X" / "+++ b/X" with no "diff --git"
    line, as quilt refresh writes them) the git header the rest expects."""
    lines = text.splitlines(keepends=True)
    out = []
    for i, line in enumerate(lines):
        nxt = lines[i + 1] if i + 1 < len(lines) else ''
        if (line.startswith(('--- a/', '--- /dev/null')) and nxt.startswith('+++ b/') and
                not re.match(r'(diff --git |index |new file mode |deleted file mode )',
                             out[-1] if out else '')):
            path = nxt[6:].split('\t')[0].rstrip('\n')
            out.append(f'diff --git a/{path} b/{path}\n')
            if line.startswith('--- /dev/null'):	# regenerated anyway
                out.append('new file mode 100644\n')
        out.append(line)
    return ''.join(out)


def split_patch(text):
    """Split into (header, {path: chunk} in order) -- drop the old stat."""
    text = add_git_headers(text)
    m = re.search(r'^diff --git ', text, re.M)
    head = text[:m.start()] if m else text
    body = text[m.start():] if m else ''
    # The header ends at the '---' line before the diffstat.
    hm = re.search(r'^---\n', head, re.M)
    header = head[:hm.start()] if hm else head
    # Hunks in a form not recognised above would be dropped: refuse.
    stray = re.search(r'^(---|\+\+\+) \S.*$', head[hm.end():] if hm else head, re.M)
    if stray:
        sys.exit(f'unrecognised hunk header "{stray.group(0)}" '
                 '(refresh with "-p ab": see scripts/quilt-tree.sh)')
    if body.endswith(TRAILER):
        body = body[:-len(TRAILER)]
    chunks = {}
    for part in re.split(r'(?m)^(?=diff --git )', body):
        if not part:
            continue
        path = re.match(r'diff --git a/(\S+) ', part).group(1)
        chunks[path] = part
    return header.rstrip('\n') + '\n', chunks


def diffstat(diffs):
    if not diffs:		# a patch being started: its hunks come next
        return ''
    out = subprocess.run(['git', 'apply', '--stat', '--summary', '-'],
                         input=diffs, capture_output=True, text=True,
                         cwd='/')
    if out.returncode:
        sys.exit('git apply --stat failed: ' + out.stderr)
    return out.stdout


def build():
    patches, banner, comments = read_conf()
    files = tracked_files()
    owner = {}
    result = {}
    total = len(patches)
    parsed = []
    for name, globs in patches:
        path = os.path.join(TOP, 'patches', name)
        if not os.path.exists(path):
            sys.exit(f'patches/{name} is missing: write its header first')
        with open(path) as f:
            parsed.append(split_patch(f.read()))
    for idx, (name, globs) in enumerate(patches, 1):
        header, chunks = parsed[idx - 1]
        mine = []
        for g in globs:
            hit = [p for p in files if fnmatch.fnmatch(p, g)]
            if not hit:
                sys.exit(f'{name}: {g} matches no file')
            for p in hit:
                if p in owner and owner[p] != name:
                    sys.exit(f'{p} claimed by {owner[p]} and {name}')
                owner[p] = name
                if p not in mine:
                    mine.append(p)
        kept = [c for p, c in chunks.items() if p not in mine and
                not c.split('\n', 2)[1].startswith('new file mode')]
        # A file this patch adds may grow in later patches (a model family
        # added to the driver's table): their hunks are kept with quilt,
        # and this patch adds the file as it was before them.
        later = {p: [(n, parsed[j][1][p]) for j, (n, _) in enumerate(patches)
                     if j >= idx and p in parsed[j][1]] for p in mine}
        diffs = ''.join(kept) + ''.join(new_file_diff(p, later[p]) for p in mine)
        header = re.sub(r'^Subject: \[PATCH[^\]]*\]',
                        f'Subject: [PATCH {idx:02d}/{total:02d}]', header,
                        count=1, flags=re.M)
        result[os.path.join('patches', name)] = (
            header + '---\n' + diffstat(diffs) + '\n' + diffs + TRAILER)
    series = ['#' + b for b in banner]
    for name, _ in patches:
        series += comments.get(name, [])
        series.append(name)
    result['series'] = '\n'.join(series) + '\n'
    result[COVER] = cover_letter(result, patches)
    result[NOTES] = series_notes(result, patches, comments)
    kernel_dirs = ('include/', 'arch/', 'kernel/', 'tools/', 'Documentation/')
    # tools/papi and tools/qemu: series against PAPI's and QEMU's sources,
    # not the kernel's.
    not_kernel = ('tools/papi/', 'tools/qemu/')
    stray = [p for p in files if p.startswith(kernel_dirs) and not p.startswith(not_kernel)
             and p not in owner]
    if stray:
        sys.exit('not in any patch (scripts/patches.conf): ' + ' '.join(stray))
    return result


def subject(result, name):
    patch = result[os.path.join('patches', name)]
    return re.search(r'^Subject: \[PATCH [^\]]*\] (.*)$', patch, re.M).group(1)


def abi_version():
    """PERFCTR_API_VERSION and PERFCTR_CPU_VERSION as the uapi header has them."""
    with open(os.path.join(TOP, 'include', 'uapi', 'linux', 'perfctr.h')) as f:
        text = f.read()
    found = {}
    for what in ('API', 'CPU'):
        m = re.search(rf'^#define PERFCTR_{what}_VERSION\s+(0x[0-9a-fA-F]+)', text, re.M)
        if not m:
            sys.exit(f'include/uapi/linux/perfctr.h: no PERFCTR_{what}_VERSION')
        found[what] = m.group(1)
    return found


def series_notes(result, patches, comments):
    """notes/SERIES.md with its patch list rewritten from the series."""
    path = os.path.join(TOP, NOTES)
    with open(path) as f:
        text = f.read()
    start, end = text.find(LIST_BEGIN + '\n'), text.find(LIST_END)
    if start < 0 or end < start:
        sys.exit(f'{NOTES}: the marker lines of the patch list are missing')
    lines = []
    for idx, (name, _) in enumerate(patches, 1):
        group = ' '.join(c.lstrip('#').strip() for c in comments.get(name, []))
        if group:
            if lines:
                lines.append('')
            lines += textwrap.wrap(group, 72) + ['']
        lines.append(f'    {idx:02d} {subject(result, name)}')
    version = abi_version()
    lines += ['', f'{len(patches)} patches.  ABI version (include/uapi/linux/perfctr.h): '
              f'PERFCTR_API_VERSION {version["API"]}, PERFCTR_CPU_VERSION {version["CPU"]}.']
    return (text[:start] + LIST_BEGIN + '\n' + '\n'.join(lines) + '\n'
            + text[end:])


def cover_numbers(text, patches):
    """Put the series' numbers in for {patch:SLUG} and {patches}."""
    slugs = {re.sub(r'^\d+-|\.patch$', '', name): idx
             for idx, (name, _) in enumerate(patches, 1)}

    def number(m):
        if m.group(1) not in slugs:
            sys.exit(f'scripts/cover-letter.txt: no patch {m.group(1)} in the series')
        return f'{slugs[m.group(1)]:02d}'
    text = re.sub(r'\{patch:([^}]+)\}', number, text)
    return text.replace('{patches}', str(len(patches)))


def cover_letter(result, patches):
    """The cover letter: its text, the shortlog and the whole diffstat."""
    with open(os.path.join(TOP, 'scripts', 'cover-letter.txt')) as f:
        text = cover_numbers(f.read(), patches)
    m = re.match(r'Subject: (.*)\n\n', text)
    if not m:
        sys.exit('scripts/cover-letter.txt: starts with "Subject: ..." and a blank line')
    first = result[os.path.join('patches', patches[0][0])]
    author = re.search(r'^From: (.*)$', first, re.M).group(1)
    date = re.search(r'^Date: (.*)$', first, re.M).group(1)
    subjects, stat = [], {}
    for name, _ in patches:
        patch = result[os.path.join('patches', name)]
        subjects.append(subject(result, name))
        body = patch[patch.index('\ndiff --git ') + 1:] if '\ndiff --git ' in patch else ''
        if not body:
            continue
        out = subprocess.run(['git', 'apply', '--numstat', '-'], input=body,
                             capture_output=True, text=True, cwd='/')
        if out.returncode:
            sys.exit('git apply --numstat failed: ' + out.stderr)
        for line in out.stdout.splitlines():
            add, rem, path = line.split('\t')
            a, r = stat.get(path, (0, 0))
            stat[path] = (a + int(add), r + int(rem))
    width = max(len(p) for p in stat)
    most = max(a + r for a, r in stat.values())
    lines = []
    for path in sorted(stat):
        a, r = stat[path]
        n = a + r
        bar = 50 if most > 50 else most
        na = round(a * bar / most) if most > bar else a
        nr = round(r * bar / most) if most > bar else r
        if a and not na:
            na = 1
        if r and not nr:
            nr = 1
        lines.append(f' {path.ljust(width)} | {str(n).rjust(5)} {"+" * na}{"-" * nr}')
    ins = sum(a for a, _ in stat.values())
    dels = sum(r for _, r in stat.values())
    lines.append(f' {len(stat)} files changed, {ins} insertions(+), {dels} deletions(-)')
    shortlog = [f'{author.split(" <")[0]} ({len(subjects)}):'] + [f'  {t}' for t in subjects]
    return (f'From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n'
            f'From: {author}\nDate: {date}\n'
            f'Subject: [PATCH 00/{len(patches):02d}] {m.group(1)}\n\n'
            + text[m.end():].rstrip('\n') + f'\n\nSigned-off-by: {author}\n\n'
            + '\n'.join(shortlog) + '\n\n'
            + '\n'.join(lines) + '\n\n' + TRAILER)


def file_chunk(path, old, new):
    """The hunks of one patch to FILE: a unified diff from OLD to NEW."""
    with tempfile.TemporaryDirectory() as tmp:
        a, b = os.path.join(tmp, 'a'), os.path.join(tmp, 'b')
        with open(a, 'wb') as f:
            f.write(old)
        with open(b, 'wb') as f:
            f.write(new)
        out = subprocess.run(['diff', '-u', '--label', f'a/{path}', '--label',
                              f'b/{path}', a, b], capture_output=True)
        if out.returncode > 1:
            sys.exit(f'diff failed: {out.stderr.decode()}')
    if not out.stdout:
        return ''
    return f'diff --git a/{path} b/{path}\n' + out.stdout.decode()


def merged(ours, base, theirs):
    """git merge-file: BASE->THEIRS applied to OURS; conflicts go to OURS."""
    with tempfile.TemporaryDirectory() as tmp:
        names = []
        for n, data in (('ours', ours), ('base', base), ('theirs', theirs)):
            names.append(os.path.join(tmp, n))
            with open(names[-1], 'wb') as f:
                f.write(data)
        out = subprocess.run(['git', 'merge-file', '--ours', '-p'] + names,
                             capture_output=True)
        if out.returncode < 0 or out.returncode > 127:
            sys.exit(f'git merge-file failed: {out.stderr.decode()}')
        return out.stdout, out.returncode


def restack(paths):
    """Rewrite the later patches' hunks to each new file in PATHS so that
    the series leaves it as the tree has it (see the module's help)."""
    patches, _, _ = read_conf()
    parsed = {}
    for name, _ in patches:
        with open(os.path.join(TOP, 'patches', name)) as f:
            parsed[name] = f.read()
    for path in paths:
        chunks = [(name, split_patch(parsed[name])[1].get(path)) for name, _ in patches]
        chunks = [(n, c) for n, c in chunks if c]
        if not chunks or not chunks[0][1].split('\n', 2)[1].startswith('new file mode'):
            sys.exit(f'{path}: not a file the series adds')
        if len(chunks) == 1:
            print(f'{path}: no later patch grows it: nothing to restack')
            continue
        # The states the series leaves it in now, patch after patch.
        with tempfile.TemporaryDirectory() as tmp:
            os.makedirs(os.path.join(tmp, os.path.dirname(path)), exist_ok=True)
            states = []
            for i, (name, chunk) in enumerate(chunks):
                out = subprocess.run(['git', 'apply', '-'], input=chunk.encode(),
                                     cwd=tmp, capture_output=True)
                if out.returncode:
                    sys.exit(f'{path}: {name} does not apply to the state before it:\n'
                             + out.stderr.decode())
                with open(os.path.join(tmp, path), 'rb') as f:
                    states.append(f.read())
        with open(os.path.join(TOP, path), 'rb') as f:
            new = f.read()
        base = states[-1]
        new_states = []
        for i, st in enumerate(states):
            m, conflicts = merged(st, base, new)
            if conflicts and i + 1 < len(states):
                print(f'{path}: {conflicts} change(s) deferred past {chunks[i][0]} '
                      '(lines it does not have yet)')
            new_states.append(m)
        if new_states[-1] != new:
            sys.exit(f'{path}: the restacked series would not leave the tree\'s file')
        for i in range(1, len(chunks)):
            name = chunks[i][0]
            text = add_git_headers(parsed[name])
            old_chunk = split_patch(parsed[name])[1][path]
            chunk = file_chunk(path, new_states[i - 1], new_states[i])
            if old_chunk not in text:
                sys.exit(f'{name}: cannot find its hunks to {path}')
            parsed[name] = text.replace(old_chunk, chunk, 1)
            with open(os.path.join(TOP, 'patches', name), 'w') as f:
                f.write(parsed[name])
            print(f'{path}: rewrote the hunks of {name}')


def set_states(path, specs):
    """The series adds PATH and leaves it, after each patch named in
    SPECS (NNNN=STATE), as STATE is (see the module's help)."""
    names = [n for n, _ in read_conf()[0]]
    states = []
    for spec in specs:
        num, _, src = spec.partition('=')
        name = [n for n in names if n.startswith(num + '-')]
        if len(name) != 1 or not os.path.exists(src):
            sys.exit(f'--states: {spec}: no such patch or state')
        with open(src, 'rb') as f:
            states.append((name[0], f.read()))
    order = [n for n, _ in states]
    if order != sorted(order, key=names.index):
        sys.exit('--states: name the patches in series order')
    for idx, name in enumerate(names):
        with open(os.path.join(TOP, 'patches', name)) as f:
            text = add_git_headers(f.read())
        old = split_patch(text)[1].get(path)
        if name == order[0] or (old is None and name not in order):
            continue
        chunk = ''
        if name in order:
            i = order.index(name)
            chunk = file_chunk(path, states[i - 1][1], states[i][1])
        if old is not None:
            text = text.replace(old, chunk, 1)
        elif chunk:
            body = text[:-len(TRAILER)] if text.endswith(TRAILER) else text
            text = body.rstrip('\n') + '\n' + chunk + TRAILER
        with open(os.path.join(TOP, 'patches', name), 'w') as f:
            f.write(text)
        print(f'{path}: {"rewrote" if old is not None else "added"} the hunks of {name}'
              if chunk else f'{path}: no hunks in {name}')
    dst = os.path.join(TOP, path)
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    with open(dst, 'wb') as f:
        f.write(states[-1][1])


def move(src, dst, paths):
    """Move the chunks of PATHS from patch SRC to patch DST."""
    names = [n for n, _ in read_conf()[0]]
    if src not in names or dst not in names or names.index(dst) >= names.index(src):
        sys.exit(f'--move: {dst} must come before {src} in scripts/patches.conf')
    texts = {}
    for name in (src, dst):
        with open(os.path.join(TOP, 'patches', name)) as f:
            texts[name] = add_git_headers(f.read())
    chunks = split_patch(texts[src])[1]
    for path in paths:
        chunk = chunks.get(path)
        if not chunk or chunk.split('\n', 2)[1].startswith('new file mode'):
            sys.exit(f'--move: {src} has no hunks to the existing file {path}')
        texts[src] = texts[src].replace(chunk, '', 1)
        body = texts[dst]
        if body.endswith(TRAILER):
            body = body[:-len(TRAILER)]
        texts[dst] = body.rstrip('\n') + '\n' + chunk + TRAILER if '\ndiff --git ' in body \
            else body.rstrip('\n') + '\n---\n\n' + chunk + TRAILER
        print(f'{path}: moved from {src} to {dst}')
    for name in (src, dst):
        with open(os.path.join(TOP, 'patches', name), 'w') as f:
            f.write(texts[name])


def main():
    if sys.argv[1:2] == ['--move']:
        move(sys.argv[2], sys.argv[3], sys.argv[4:])
    if sys.argv[1:2] == ['--states']:
        set_states(sys.argv[2], sys.argv[3:])
    if sys.argv[1:2] == ['--restack']:
        restack(sys.argv[2:])
    check = '--check' in sys.argv[1:]
    result = build()
    stale = []
    for rel, text in result.items():
        path = os.path.join(TOP, rel)
        old = open(path).read() if os.path.exists(path) else None
        if old != text:
            stale.append(rel)
            if not check:
                with open(path, 'w') as f:
                    f.write(text)
    names = {os.path.join('patches', n) for n, _ in read_conf()[0]}
    extra = [os.path.join('patches', p) for p in os.listdir(os.path.join(TOP, 'patches'))
             if p.endswith('.patch') and p != COVER and
             os.path.join('patches', p) not in names]
    for rel in extra:
        print(f'{rel}: not listed in scripts/patches.conf', file=sys.stderr)
    if check:
        for rel in stale:
            print(f'{rel}: stale; run "make patches"', file=sys.stderr)
        sys.exit(1 if stale or extra else 0)
    for rel in stale:
        print(f'wrote {rel}')


if __name__ == '__main__':
    main()
