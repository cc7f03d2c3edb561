#!/usr/bin/env python3
"""docs_examples.py SRCDIR WORKDIR: every command of the README, the user guide and the
manual's EXAMPLES runs, as a reader would type it.

The commands are the lines of the documents' code blocks (Markdown blocks indented by four
spaces or fenced; the manual's .nf lines under EXAMPLES). A block whose lines start with
`$ ` shows commands and, under each, what ev2hp prints: that output must be what ev2hp
prints (the lines joined, since the documents fold long messages). Every command runs in a
directory of its block's own, where the file names the documents use are the fixtures of
FILES, and `ev2hp` is the ev2hp under test (first on PATH). A command ends with the status
STATUS gives it (0 when not listed); one that is neither an ev2hp command nor in RULES,
or an ev2hp command naming an input FILES does not map, fails the test. Lines that need
something no test has (a GHC program running, a browser) are listed with why, never
skipped silently. Besides: every picture and local link of the two Markdown documents
exists, every #anchor names a heading, and every picture is one share/examples/
make-examples.sh makes.
"""
import gzip
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

SRC, WORK = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
DOCS = ["README.md", "doc/guide.md"]
MAN = "doc/ev2hp.1"
GUARD = 600  # seconds: a guard against a hang, not a time limit

# The documents' file names, and the fixture each stands for (relative to SRC; one under
# ../shared is left out, and its commands listed as not run, when ../shared is not beside
# the tree). tests/ and share/ are the tree's own in every block's directory.
FILES = {
    "prog.eventlog": "share/examples/leak-hc.eventlog",     # a -hc run with markers
    "prog.hp": "tests/data/leak-hc.hp",                     # the runtime's .hp of that run
    "base.eventlog": "tests/data/leak-hc.hp",               # a base to compare with
    "main.eventlog": "tests/data/leak-hc.hp",               # the main branch's run
    "base/prog.eventlog": "tests/data/leak-hc.hp",          # In CI: main's last eventlog
    "timeprof.eventlog": "tests/data/timeprof/tpsingle-P.eventlog",  # +RTS -p -l
    "fluid-killed-hc.eventlog": "../shared/corpus/fluid-killed-hc.eventlog",  # truncated
    "phases.eventlog": "tests/data/phases3-hT.eventlog.gz",  # traceMarker phases, gzipped
}
# Names that stand for the gzip of another name's fixture.
GZIPPED = {"prog.eventlog.gz": "prog.eventlog"}
# Files the documents name that ev2hp makes from a fixture (its arguments): two pprof
# profiles of one run, a census early in the run and the peak's.
MADE = {
    "before.pb.gz": ["prog.eventlog", "--at", "1", "-o", "before.pb.gz"],
    "after.pb.gz": ["prog.eventlog", "-o", "after.pb.gz"],
}
# Tools a command may use besides ev2hp; without one installed, the command is listed as
# not run. A pager is for a person: `| less` runs as `| cat`.
TOOLS = ["go", "hp2ps", "grep"]
PAGER = ("| less", "| cat")
# Text a command cannot keep as written: a socket path of the block's own (a listener the
# test starts sends it prog.eventlog's fixture once ev2hp says it waits), a free port.
SOCKET = "/tmp/prog.sock"
PORT = "8080"

# Expected statuses of the commands that do not end with 0, by a piece of their text.
STATUS = {
    # the bundled example's buildMap rises at 53 MiB/s: --max-growth 1M/s fails (3)
    "--max-peak 512M --max-growth 1M/s --summary=markdown": 3,
    "--max-peak 512M --max-increase 10 --max-growth 1M/s --bands 5": 3,
    "set -- --max-peak 512M --max-growth 1M/s": 3,
    # the guide's trend: the bundled example's 131 MiB peak is over --max-peak 96M (3)
    "--max-peak 96M --commit 4f0c2a1": 3,
    # the test run's serve phase leaks at 2.97 MiB/s (tests/data/phases3.hs)
    "--phases marker --max-growth 1M/s --junit phases.xml": 3,
}

# Lines that are not ev2hp commands: what the test does with each, by a regex of its text.
# "skip" says why the line cannot run here; "run" runs it as written; "need" runs it when
# the tools of TOOLS it uses are installed, and says which is not otherwise.
RULES = [
    (r"^ev2hp \[OPTION\]", "skip", "the synopsis, not a command"),
    (r"^ghc ", "skip", "builds a Haskell program: needs GHC (tests/ghc builds real ones)"),
    (r"^\./prog ", "skip", "runs the user's GHC program (in a FIFO block, the fixture is "
                           "written into the FIFO in its place)"),
    (r"^\./bootstrap|^autoreconf ", "skip", "builds ev2hp itself: this test runs in that build"),
    (r"^make check", "skip", "the test command: this test is part of it"),
    (r"^go tool pprof -http", "skip", "pprof's web UI serves until stopped "
                                      "(make-examples.sh draws it for the README)"),
    (r"^go tool pprof ", "need", "go tool pprof reads the profile"),
    (r"^mkfifo ", "run", "a FIFO block"),
    (r"^sudo apt-get install \./ev2hp_", "skip",
     "installs the package: tests/debian_package.sh runs it in fresh bookworm and sid chroots"),
]

failed = []


def note(text):
    """One line of the test's log: what ran, and what did not and why."""
    print(text, flush=True)


def fail(where, text):
    """Records a failure, once, and goes on: one run reports every broken command."""
    if "%s: %s" % (where, text) not in failed:
        failed.append("%s: %s" % (where, text))


def md_blocks(path):
    """(line number, [lines]) of every code block of a Markdown file."""
    lines = open(path, encoding="utf-8").read().split("\n")
    blocks, i = [], 0
    while i < len(lines):
        line = lines[i]
        fence = re.match(r"^\s*(```|~~~)", line)
        if fence:
            j = i + 1
            while j < len(lines) and not lines[j].strip().startswith(fence.group(1)):
                j += 1
            blocks.append((i + 2, lines[i + 1:j]))
            i = j + 1
            continue
        indent = len(line) - len(line.lstrip(" "))
        prev_blank = i == 0 or lines[i - 1].strip() == ""
        if (indent >= 4 and prev_blank and line.strip()
                and not re.match(r"^\s*([-*+]|\d+\.) ", line)):
            j, block = i, []
            while j < len(lines) and (lines[j].strip() == "" or
                                      len(lines[j]) - len(lines[j].lstrip(" ")) >= indent):
                block.append(lines[j][indent:])
                j += 1
            while block and not block[-1].strip():
                block.pop()
            blocks.append((i + 1, block))
            i = j
            continue
        i += 1
    return blocks


def man_blocks(path):
    """The manual's EXAMPLES: each .nf ... .fi block, unescaped."""
    text = open(path, encoding="utf-8").read().split("\n")
    blocks, inside, current, start = [], False, [], 0
    section = None
    for n, line in enumerate(text, 1):
        if line.startswith(".SH"):
            section = line[3:].strip().strip('"')
        if section != "EXAMPLES":
            continue
        if line == ".nf":
            inside, current, start = True, [], n + 1
        elif line == ".fi":
            inside = False
            blocks.append((start, current))
        elif inside:
            current.append(line.replace("\\-", "-").replace("\\(aq", "'")
                           .replace("\\e", "\\"))
    return blocks


def units(where, block):
    """A block's commands: (command, expected output or None); a command goes on over
    lines ending in a backslash. Comment lines are left out."""
    prompted = any(l.startswith("$ ") for l in block)
    out, i = [], 0
    while i < len(block):
        line = block[i]
        if not line.strip() or line.lstrip().startswith("#"):
            i += 1
            continue
        if prompted and not line.startswith("$ "):
            fail(where, "output without its command: %r" % line)
            i += 1
            continue
        cmd = [line[2:] if prompted else line]
        while cmd[-1].rstrip().endswith("\\") and i + 1 < len(block):
            i += 1
            cmd.append(block[i])
        i += 1
        expected = None
        if prompted:
            expected = []
            while i < len(block) and not block[i].startswith("$ "):
                if block[i].strip():
                    expected.append(block[i].strip())
                i += 1
        out.append(("\n".join(cmd), expected))
    return out


def prepare(d):
    """The block's directory: the tree's tests/ and share/ (which no command writes to),
    copies of the fixtures under the names the documents use."""
    os.makedirs(d)
    for top in ("tests", "share"):
        os.symlink(os.path.join(SRC, top), os.path.join(d, top))
    for name, fixture in FILES.items():
        path = os.path.join(SRC, fixture)
        if os.path.exists(path):
            os.makedirs(os.path.dirname(os.path.join(d, name)), exist_ok=True)
            shutil.copyfile(path, os.path.join(d, name))  # a copy: commands write over them


def make_files(d, block):
    """GZIPPED's and MADE's files that the block names."""
    for name, of in GZIPPED.items():
        if name in "\n".join(block):
            with open(os.path.join(SRC, FILES[of]), "rb") as f, \
                    gzip.GzipFile(os.path.join(d, name), "wb", mtime=0) as g:
                shutil.copyfileobj(f, g)
    for name, args in MADE.items():
        if name not in "\n".join(block):
            continue
        subprocess.run(["ev2hp"] + args, cwd=d, env=environment(d), check=True,
                       timeout=GUARD, stdout=subprocess.DEVNULL)


def one_line(cmd):
    """A command as one line: continuation lines joined, spaces collapsed."""
    return " ".join(cmd.replace("\\\n", " ").split())


def missing_tool(cmd):
    """The first tool of TOOLS the command runs that is not installed, or None."""
    for tool in TOOLS:
        if re.search(r"(^|[|&;]\s*)%s\b" % tool, cmd) and not shutil.which(tool):
            return tool
    return None


def environment(d):
    """The commands' environment: ev2hp first on PATH, a job summary file of the block's
    own (In CI's commands append to it), a UTF-8 locale (the summaries' sparklines), a
    Go build cache of the test's own."""
    env = dict(os.environ)
    env["PATH"] = os.path.join(WORK, "bin") + os.pathsep + env["PATH"]
    env["GITHUB_STEP_SUMMARY"] = os.path.join(d, "step-summary.md")
    env["LC_ALL"] = "C.UTF-8"
    env["GOCACHE"] = os.path.join(WORK, "gocache")  # go tool pprof, wherever HOME is
    return env


def listen_after_wait(sock_path, stderr_path, fixture, done, sent):
    """A program streaming its eventlog over a socket, as eventlog-socket does: it starts
    listening once ev2hp has said it waits, sends the whole eventlog to one client (then
    sets sent), and gives up when done is set first."""
    while not done.is_set():
        try:
            if "waiting for the program to listen" in open(stderr_path).read():
                break
        except OSError:
            pass
        time.sleep(0.05)
    if done.is_set():
        return
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(sock_path)
    server.listen(1)
    server.settimeout(0.1)
    while not done.is_set():
        try:
            conn, _ = server.accept()
        except socket.timeout:
            continue
        conn.settimeout(None)
        with open(fixture, "rb") as f:
            conn.sendall(f.read())
        conn.close()
        sent.set()
        break
    server.close()


def free_port():
    """A TCP port nothing listens on now, for the documents' 8080."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return str(port)


def unmapped_inputs(cmd, d):
    """Input files an ev2hp command names that are neither in its directory nor mapped."""
    words = one_line(cmd).split()
    if "#" in words:
        words = words[:words.index("#")]
    missing = []
    for k, w in enumerate(words):
        if k == 0 or words[k - 1] in ("-o", "--output", "--junit", ">", ">>", "-f"):
            continue
        if re.search(r"\.(eventlog|hp)(\.gz)?$", w) and not w.startswith("-"):
            if not os.path.exists(os.path.join(d, w)):
                missing.append(w)
    return missing


def is_command(line):
    """Whether a block's line is a command: ev2hp's, after a prompt, or one RULES knows."""
    line = line[2:] if line.startswith("$ ") else line
    return (re.match(r"^ev2hp\s", line) is not None
            or any(re.search(pattern, line) for pattern, _, _ in RULES))


def expected_status(cmd):
    """The status STATUS gives the command (0 when none), noting the entry as used."""
    line = one_line(cmd)
    for piece, status in STATUS.items():
        if piece in line:
            used_status.add(piece)
            return status
    return 0


def run_ev2hp(where, cmd, expected, d):
    tool = missing_tool(cmd)
    if tool:
        note("SKIP %s: %s: %s not installed" % (where, one_line(cmd), tool))
        return
    port = free_port() if PORT in cmd else None
    text = cmd.replace(SOCKET, os.path.join(d, "prog.sock")).replace(*PAGER)
    if port:
        text = text.replace(PORT, port)
    if re.search(r"(-o|--output|--junit|>)\s*(tests|share)/", one_line(cmd)):
        fail(where, "writes into the source tree's tests/ or share/: %s" % one_line(cmd))
        return
    missing = unmapped_inputs(text, d)
    if missing:
        if any("shared" in FILES.get(m, "") for m in missing):
            note("SKIP %s: %s: ../shared is not beside the tree" % (where, cmd))
            return
        fail(where, "names an input the test cannot map (%s): %s" % (", ".join(missing), cmd))
        return
    err_path = os.path.join(d, ".stderr")
    out_path = os.path.join(d, ".stdout")
    done, sent = threading.Event(), threading.Event()
    listener = None
    if SOCKET in cmd:
        listener = threading.Thread(target=listen_after_wait, args=(
            os.path.join(d, "prog.sock"), err_path,
            os.path.join(SRC, FILES["prog.eventlog"]), done, sent))
        listener.start()
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        p = subprocess.Popen(["bash", "-o", "pipefail", "-c", text], cwd=d, stdout=out,
                             stderr=err, env=environment(d), start_new_session=True)
        if "--serve" in cmd:
            status = serve(where, p, err_path, sent if listener else None)
        else:
            try:
                status = p.wait(GUARD)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                status = p.wait()
                fail(where, "still running after %d s: %s" % (GUARD, cmd))
    done.set()
    if listener:
        listener.join()
    want = expected_status(cmd)
    errors = open(err_path, errors="replace").read()
    if status != want:
        fail(where, "status %d, the document expects %d: %s\n%s" % (status, want, cmd,
                                                                   errors[-600:]))
        return
    words = one_line(text).split()
    for option, name in zip(words, words[1:]):
        if (option in ("-o", "--output", "--junit") and name != "-"
                and not name.startswith("/dev/") and not os.path.exists(os.path.join(d, name))):
            fail(where, "%s was not written: %s" % (name, one_line(cmd)))
            return
    if expected is not None:
        shown = " ".join(" ".join(expected).split())
        if port:
            shown = shown.replace(PORT, port)
        shown = shown.replace(SOCKET, os.path.join(d, "prog.sock"))
        printed = " ".join((open(out_path, errors="replace").read() + errors).split())
        if "--serve" in cmd:
            printed = " ".join(errors.split("\n")[0].split())
        if shown != printed:
            fail(where, "prints what the document does not show: %s\n  shown:   %s\n"
                        "  printed: %s" % (cmd, shown, printed))
            return
    note("ok   %s: %s" % (where, one_line(cmd)))


def serve(where, p, err_path, sent):
    """--serve: once ev2hp says it serves (and a socket input has been sent), the page
    must answer; then SIGINT ends it, status 0."""
    start = time.monotonic()
    url = None
    while time.monotonic() - start < GUARD and p.poll() is None:
        m = re.search(r"serving (http://\S+/)", open(err_path, errors="replace").read())
        if m:
            url = m.group(1)
            break
        time.sleep(0.05)
    if not url:
        fail(where, "never said where it serves")
    elif sent is not None and not sent.wait(GUARD):
        fail(where, "ev2hp never connected to the socket")
    while url:
        try:
            with urllib.request.urlopen(url, timeout=GUARD) as r:
                page = r.read()
            if r.status != 200 or b"<html" not in page[:2000].lower():
                fail(where, "%s: not the report (%d)" % (url, r.status))
            break
        except urllib.error.HTTPError as e:
            # 503 until the input is open (the server listens first): asked again, as a
            # reader would reload
            if e.code == 503 and time.monotonic() - start < GUARD:
                time.sleep(0.1)
                continue
            fail(where, "%s: %s" % (url, e))
            break
        except OSError as e:
            fail(where, "%s: %s" % (url, e))
            break
    if p.poll() is None:
        os.killpg(p.pid, signal.SIGINT)
    try:
        return p.wait(GUARD)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()
        fail(where, "did not end on SIGINT")
        return -1


def run_fifo_block(where, block, d):
    """mkfifo prog.eventlog; ev2hp prog.eventlog > prog.hp &; ./prog +RTS ...: the fixture
    is written into the FIFO where the program would run; prog.hp must be its .hp."""
    os.unlink(os.path.join(d, "prog.eventlog"))
    fixture = os.path.join(SRC, FILES["prog.eventlog"])
    script = []
    for line in block:
        if re.match(r"^\./prog ", line):
            script.append("cat '%s' > prog.eventlog" % fixture)
        elif line.strip():
            script.append(line)
    script.append("wait $!")
    status = subprocess.run(["bash", "-e", "-c", "\n".join(script)], cwd=d,
                            env=environment(d), timeout=GUARD,
                            stderr=subprocess.PIPE).returncode
    want = subprocess.run(["ev2hp", fixture], env=environment(d), capture_output=True,
                          timeout=GUARD).stdout
    got = open(os.path.join(d, "prog.hp"), "rb").read()
    if status != 0 or got != want:
        fail(where, "the FIFO block: status %d, prog.hp %s" % (
            status, "as from the file" if got == want else "differs from the file's"))
    else:
        note("ok   %s: the FIFO block (the fixture written into the FIFO)" % where)


def run_script_block(where, block, d):
    """A block that is a shell script (In CI's heart): run whole, as a CI job would."""
    text = "\n".join(block)
    p = subprocess.run(["bash", "-c", text], cwd=d, env=environment(d), timeout=GUARD,
                       capture_output=True)
    want = expected_status(text)
    if p.returncode != want:
        fail(where, "the script's status %d, the document expects %d\n%s" % (
            p.returncode, want, p.stderr.decode(errors="replace")[-600:]))
    elif not os.path.getsize(os.path.join(d, "step-summary.md")):
        fail(where, "the script wrote no step summary")
    else:
        note("ok   %s: the script (status %d)" % (where, want))


def run_other(where, cmd, d):
    for pattern, action, why in RULES:
        if re.search(pattern, cmd):
            break
    else:
        fail(where, "neither an ev2hp command nor a line the test knows: %s" % cmd)
        return
    if action == "skip":
        note("SKIP %s: %s: %s" % (where, cmd.split("\n")[0], why))
        return
    if action.startswith("need "):
        tool = missing_tool(cmd)
        if tool:
            note("SKIP %s: %s: %s not installed" % (where, cmd, tool))
            return
    p = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], cwd=d, env=environment(d),
                       timeout=GUARD, capture_output=True)
    if p.returncode != 0:
        fail(where, "status %d: %s\n%s" % (p.returncode, cmd,
                                           p.stderr.decode(errors="replace")[-400:]))
    else:
        note("ok   %s: %s (%s)" % (where, cmd, why))


def check_links(doc):
    """Pictures and local links exist; #anchors name headings; pictures are made by
    make-examples.sh."""
    path = os.path.join(SRC, doc)
    text = open(path, encoding="utf-8").read()
    made = open(os.path.join(SRC, "share/examples/make-examples.sh")).read()

    def anchors(p):
        heads = re.findall(r"^#+ (.*)$|^(.+)\n[-=]{3,}$", open(p, encoding="utf-8").read(),
                           re.M)
        return {re.sub(r"[^\w\- ]", "", (a or b).strip().lower()).replace(" ", "-")
                for a, b in heads}
    for m in re.finditer(r"(!?)\[[^\]]*\]\(([^)\s]+)\)", text):
        target = m.group(2)
        if re.match(r"^[a-z]+:", target):
            continue
        file, _, anchor = target.partition("#")
        full = os.path.normpath(os.path.join(os.path.dirname(path), file)) if file else path
        if not os.path.exists(full):
            fail(doc, "links to %s, which does not exist" % target)
            continue
        if anchor and anchor not in anchors(full):
            fail(doc, "links to %s: no such heading" % target)
        if m.group(1) and not picture_made(os.path.basename(full), made):
            fail(doc, "shows %s, which share/examples/make-examples.sh does not make" % target)


def check_options():
    """The options --help lists are the ones the guide describes (a definition term: a
    line of options in backquotes, then ": ..."), and the manual names each of them."""
    helptext = subprocess.run(["ev2hp", "--help"], capture_output=True, text=True,
                              env=environment(WORK), timeout=GUARD).stdout
    listed = set(re.findall(r"^\s+(?:-[a-zA-Z], )?(--[a-z][a-z-]*)", helptext, re.M))
    guide = open(os.path.join(SRC, "doc/guide.md"), encoding="utf-8").read().split("\n")
    described = set()
    for term, after in zip(guide, guide[1:]):
        if term.startswith("`-") and after.startswith(": "):
            described.update(re.findall(r"`(--[a-z][a-z-]*)", term))
    man = open(os.path.join(SRC, MAN), encoding="utf-8").read()
    for option in sorted(listed - described):
        fail("doc/guide.md", "--help lists %s; the guide does not describe it" % option)
    for option in sorted(described - listed):
        fail("doc/guide.md", "describes %s, which --help does not list" % option)
    for option in sorted(listed):
        if option.replace("-", "\\-") not in man:
            fail(MAN, "--help lists %s; the manual does not name it" % option)
    if not listed:
        fail("--help", "no options found in it")


def picture_made(name, made):
    """Whether make-examples.sh writes NAME (the views' pictures by their loop)."""
    if name in made:
        return True
    views = re.search(r"for view in ([a-z ]+); do", made)
    m = re.match(r"^leak-hc-([a-z]+)\.svg$", name)
    return bool(views and m and m.group(1) in views.group(1).split())


used_status = set()


def main():
    os.makedirs(os.path.join(WORK, "bin"))
    os.symlink(os.environ["EV2HP"], os.path.join(WORK, "bin", "ev2hp"))
    n = 0
    sources = [(doc, md_blocks(os.path.join(SRC, doc))) for doc in DOCS]
    sources.append((MAN, man_blocks(os.path.join(SRC, MAN))))
    for doc in DOCS:
        check_links(doc)
    check_options()
    for doc, blocks in sources:
        for line, block in blocks:
            n += 1
            where = "%s:%d" % (doc, line)
            d = os.path.join(WORK, "b%03d" % n)
            prepare(d)
            make_files(d, block)
            first = next((l for l in block if l.strip()), "")
            if first.startswith("mkfifo "):
                run_fifo_block(where, block, d)
                continue
            if first.startswith("set -- "):
                run_script_block(where, block, d)
                continue
            if not any(is_command(l) for l in block):
                note("SKIP %s: %s: shows output, no command" % (where, first))
                continue
            for cmd, expected in units(where, block):
                if re.match(r"^ev2hp\s+(?!\[)", cmd) and not cmd.startswith("ev2hp:"):
                    run_ev2hp(where, cmd, expected, d)
                else:
                    run_other(where, cmd, d)
    for piece in STATUS:
        if piece not in used_status:
            fail("STATUS", "no command of the documents has %r any more" % piece)
    for f in failed:
        print("FAIL: " + f)
    return 1 if failed else 0


sys.exit(main())
