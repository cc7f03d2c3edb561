"""ci_workflows.py: runs the example CI workflows (doc/ci/*.yml) as the CI systems would (ci_workflows.sh).

Both files must parse as YAML. Their shell steps then run verbatim (GitHub: each `run`
step in bash -eo pipefail with the workflow's and the step's env, `if:` decided for the
event; GitLab: `rules:` decided for the pipeline, then the job's script lines in one
bash -eo pipefail shell with its variables), in a scratch directory, with ev2hp on PATH,
and with real parts wherever this machine has them:
  - the program is tests/ghc/CiProg.hs, built by Debian's GHC with the workflow's own
    --ghc-options (the `cabal` stub runs ghc; plus -eventlog, which GHC 9.4 and later
    link always), and run with the workflow's own +RTS line: a line GHC rejects fails
    the step, as it would in CI (the test checks that the old `-ol FILE` form does).
    Where a scenario needs known numbers (a base at half the size, a leak), the program
    still runs as written, ev2hp must read the eventlog it wrote, and then a bundled
    eventlog takes its place (the `program` wrapper).
  - gh: every command line goes first to Debian's gh, offline (the workflow's token,
    every connection refused by a proxy at 127.0.0.1:9): gh parses its flags and
    arguments before it connects, so only a line it accepts reaches the network error;
    anything else is rejected, as the real gh would. Then GitHub's answer is played:
    runs of main (one in progress, one finished with the eventlog) and of the pull
    request's branch, filtered by the flags given; the --jq expression runs in jq.
  - curl (GitLab's API): every command line goes first to Debian's curl with its
    connections refused the same way; then the artifact download or the note is played.
  - cmark-gfm, xmllint: the summary must render, the JUnit report validate.
A command line the real tool rejected fails the scenario even when the workflow swallows
the error. The steps that install packages and build ev2hp are not run (the suite's ev2hp
is on PATH instead); their package lists are checked instead: every library configure
requires (by the Debian package owning its .pc file here) and every command the build
runs must be installed by the list, Depends followed in this machine's dpkg database,
and by bootstrap's list too.
"""
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile

import yaml

EV2HP, SRCDIR = os.environ["EV2HP"], os.environ["SRCDIR"]
DATA = os.path.join(SRCDIR, "tests", "data")
PROG_SRC = os.path.join(SRCDIR, "tests", "ghc", "CiProg.hs")
failed = False


def fail(msg):
    global failed
    print("FAIL: " + msg)
    failed = True


STUBS = {
    "cabal": r"""#!/bin/sh
# cabal: `update` does nothing; `build exe:NAME --ghc-options=OPTS` builds CiProg.hs with
# Debian's GHC and OPTS; `list-bin exe:NAME` names it (or the wrapper, see program)
case "$1" in
update) exit 0 ;;
build)
    [ "$2" = "exe:$PROG" ] || { echo "cabal stub: no target exe:$PROG in: $*" >&2; exit 1; }
    opts=""
    for a in "$@"; do case "$a" in --ghc-options=*) opts="$opts ${a#--ghc-options=}" ;; esac; done
    mkdir -p "$STUB_DIR/bin"
    # shellcheck disable=SC2086
    ghc -O0 $opts -eventlog -outputdir "$CI_TEST_GHC_OUT" "$CI_TEST_PROG_SRC" \
        -o "$STUB_DIR/bin/$PROG" > "$STUB_DIR/ghc.log" 2>&1 || { cat "$STUB_DIR/ghc.log" >&2; exit 1; } ;;
list-bin)
    [ "$2" = "exe:$PROG" ] && [ -x "$STUB_DIR/bin/$PROG" ] || { echo "cabal stub: $*: not built" >&2; exit 1; }
    if [ -n "${CI_TEST_EVENTLOG:-}" ]; then echo "$STUB_DIR/program"; else echo "$STUB_DIR/bin/$PROG"; fi ;;
*) echo "cabal stub: $*" >&2; exit 1 ;;
esac
""",
    "program": r"""#!/bin/sh
# the GHC-built program, run with the workflow's arguments as they are; ev2hp must read the
# eventlog it wrote, which then gives way to the scenario's (CI_TEST_EVENTLOG)
touch "$STUB_DIR/before"
"$STUB_DIR/bin/$PROG" "$@" || exit
written=$(find . -maxdepth 1 -name '*.eventlog' -newer "$STUB_DIR/before")
[ -n "$written" ] && [ "$(echo "$written" | wc -l)" = 1 ] || {
    echo "program wrapper: the program wrote no eventlog here ($written)" >&2; exit 1; }
"$EV2HP" --summary "$written" > /dev/null || { echo "program wrapper: $written unreadable" >&2; exit 1; }
cp "$CI_TEST_EVENTLOG" "$written"
""",
    "gh": r"""#!PYTHON3
# gh: Debian's gh checks the command line offline, then GitHub's answer is played
import json, os, shutil, subprocess, sys
args = sys.argv[1:]
log = open(os.environ["CI_TEST_TOOL_LOG"], "a")
off = dict(os.environ, GH_CONFIG_DIR=os.path.join(os.environ["STUB_DIR"], "gh-config"),
           GH_NO_UPDATE_NOTIFIER="1", GH_PROMPT_DISABLED="1", NO_PROXY="", no_proxy="")
for k in ("HTTPS_PROXY", "HTTP_PROXY", "https_proxy", "http_proxy"):
    off[k] = "http://127.0.0.1:9"
r = subprocess.run([os.environ["CI_TEST_REAL_GH"]] + args, env=off, capture_output=True,
                   text=True, timeout=60, stdin=subprocess.DEVNULL)
if "proxyconnect tcp: dial tcp 127.0.0.1:9" not in r.stderr:
    log.write("rejected: gh %s: %s\n" % (" ".join(args), r.stderr.splitlines()[:1]))
    sys.stderr.write(r.stderr)
    sys.exit(r.returncode or 1)
log.write("accepted: gh %s\n" % " ".join(args))
longs = {"-R": "--repo", "-b": "--branch", "-w": "--workflow", "-L": "--limit", "-q": "--jq",
         "-n": "--name", "-D": "--dir"}
opts, pos, i = {}, [], 2
while i < len(args):
    a = args[i]
    if a.startswith("-"):
        k, eq, v = a.partition("=")
        k = longs.get(k, k)
        if not eq:
            i += 1
            v = args[i]
        opts[k] = v
    else:
        pos.append(a)
    i += 1
base = os.environ.get("CI_TEST_BASE")
if args[:2] == ["run", "list"]:
    runs = [{"databaseId": 4300, "status": "in_progress", "conclusion": "",
             "headBranch": "feature", "workflowName": os.environ["CI_TEST_WORKFLOW"]}]
    if base:   # main: a run still going, then the finished one that kept the eventlog
        runs += [dict(runs[0], databaseId=4243, headBranch="main"),
                 dict(runs[0], databaseId=4242, headBranch="main", status="completed",
                      conclusion="success")]
    if opts.get("--workflow", os.environ["CI_TEST_WORKFLOW"]) != os.environ["CI_TEST_WORKFLOW"]:
        sys.exit("could not find any workflows named %s" % opts["--workflow"])
    runs = [r for r in runs if opts.get("--branch", r["headBranch"]) == r["headBranch"]]
    runs = runs[:int(opts.get("--limit", 20))]
    fields = opts["--json"].split(",")
    out = json.dumps([{f: r[f] for f in fields} for r in runs])
    if "--jq" in opts:
        out = subprocess.run(["jq", "-r", opts["--jq"]], input=out, capture_output=True,
                             text=True, check=True).stdout
    sys.stdout.write(out)
elif args[:2] == ["run", "download"]:
    if not base or pos != ["4242"]:
        sys.exit("no valid artifacts found to download")
    name = os.environ["CI_TEST_ARTIFACT"]
    d = opts.get("--dir", ".")
    if "--name" not in opts:
        d = os.path.join(d, name)
    elif opts["--name"] != name:
        sys.exit("no artifact matches any of the names or patterns provided")
    os.makedirs(d, exist_ok=True)
    shutil.copy(base, os.path.join(d, "prog.eventlog"))
else:
    sys.exit("gh stub: no answer for gh %s" % " ".join(args))
""",
    "curl": r"""#!/bin/sh
# curl: Debian's curl checks the command line (every connection refused by a proxy at
# 127.0.0.1:9: status 7 means it got that far), then GitLab's API is played: a raw
# artifact download (--output FILE), or a note posted (body@FILE)
err=$(/usr/bin/curl --proxy http://127.0.0.1:9 --noproxy '' "$@" 2>&1 > /dev/null)
rc=$?
if [ "$rc" != 7 ]; then
    echo "rejected: curl $*: status $rc: $err" >> "$CI_TEST_TOOL_LOG"
    echo "$err" >&2; exit "$rc"
fi
echo "accepted: curl $*" >> "$CI_TEST_TOOL_LOG"
output="" body="" url=""
while [ $# -gt 0 ]; do
    case "$1" in
    --output) output=$2; shift ;;
    --data-urlencode) body=${2#body@}; shift ;;
    --header|--request) shift ;;
    http*) url=$1 ;;
    esac
    shift
done
case "$url" in
*/jobs/artifacts/*/raw/prog.eventlog\?job=*)
    [ -n "${CI_TEST_BASE:-}" ] || exit 22
    cp "$CI_TEST_BASE" "$output" ;;
*/merge_requests/*/notes)
    cp "$body" "$CI_TEST_NOTE" ;;
*) echo "curl stub: $url" >&2; exit 1 ;;
esac
""",
}


def stub_dir(tmp):
    d = os.path.join(tmp, "stubs")
    os.makedirs(d)
    for name, text in STUBS.items():
        path = os.path.join(d, name)
        with open(path, "w") as f:
            f.write(text.replace("#!PYTHON3", "#!" + sys.executable))
        os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
    return d


def base_env(tmp, ghc_out, eventlog, base):
    env = dict(os.environ)
    env["PATH"] = stub_dir(tmp) + os.pathsep + os.path.dirname(EV2HP) + os.pathsep + env["PATH"]
    env["STUB_DIR"] = os.path.join(tmp, "stubs")
    env["CI_TEST_GHC_OUT"] = ghc_out
    env["CI_TEST_PROG_SRC"] = PROG_SRC
    env["CI_TEST_REAL_GH"] = shutil.which("gh") or "/usr/bin/gh"
    env["CI_TEST_TOOL_LOG"] = os.path.join(tmp, "tools.log")
    env["LC_ALL"] = "C.UTF-8"
    for k in ("CI_TEST_BASE", "CI_TEST_EVENTLOG", "GH_TOKEN", "GITHUB_TOKEN"):
        env.pop(k, None)
    if eventlog:
        env["CI_TEST_EVENTLOG"] = eventlog
    if base:
        env["CI_TEST_BASE"] = base
    return env


def strings(env):
    """A workflow's env block as strings; GitHub expressions stand for a token."""
    out = {}
    for k, v in (env or {}).items():
        v = "" if v is None else str(v)
        out[k] = "stub-token" if "${{" in v else v
    return out


def github_if(cond, on_main):
    """An if: for a push to main (on_main) or a pull request."""
    if cond is None:
        return True
    expr = str(cond).replace("${{", "").replace("}}", "")
    expr = expr.replace("always()", "True")
    expr = re.sub(r"github\.ref\s*==\s*'refs/heads/main'", str(on_main), expr)
    expr = re.sub(r"github\.ref\s*!=\s*'refs/heads/main'", str(not on_main), expr)
    expr = expr.replace("&&", " and ").replace("||", " or ").replace("!", " not ")
    assert re.fullmatch(r"[\sA-Za-z()]*", expr) and not re.search(
        r"\b(?!True\b|False\b|and\b|or\b|not\b)\w+", expr), "cannot decide if: " + str(cond)
    return eval(expr)


def gitlab_if(cond, env):
    """A rules: if: of `$A == "x"`, `$A != $B`, `$A` terms joined by && or || (GitLab's
    precedence: && first); an unset variable equals nothing but another unset one."""
    def term(t):
        m = re.fullmatch(r'\s*\$(\w+)\s*(?:(==|!=)\s*(?:\$(\w+)|"([^"]*)"))?\s*', t)
        assert m, "cannot decide rules: if: " + cond
        left = env.get(m.group(1)) or None
        if not m.group(2):
            return left is not None
        right = (env.get(m.group(3)) or None) if m.group(3) else m.group(4)
        return (left == right) == (m.group(2) == "==")
    return any(all(term(t) for t in alt.split("&&")) for alt in cond.split("||"))


def gitlab_runs(job, env):
    for rule in job.get("rules", [{}]):
        if "if" not in rule or gitlab_if(rule["if"], env):
            return rule.get("when", "on_success") != "never"
    return False


def quiet(env):
    return subprocess.DEVNULL if env.get("CI_TEST_QUIET") else None


def run_github(doc, work, env, on_main):
    """0 or the failing step's status, and the artifact paths kept."""
    status, kept = 0, []
    wf_env = strings(doc.get("env"))
    for job in doc["jobs"].values():
        for step in job["steps"]:
            when = github_if(step.get("if"), on_main)
            if status and "always()" not in str(step.get("if", "")):
                when = False
            if not when:
                continue
            if "uses" in step:
                if step["uses"].startswith("actions/upload-artifact"):
                    kept += str(step["with"]["path"]).split()
                continue
            if step.get("id") == "ev2hp":
                continue   # the suite's ev2hp is on PATH
            e = dict(env, **wf_env, **strings(step.get("env")))
            r = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c",
                                step["run"]], cwd=work, env=e, stderr=quiet(env))
            if r.returncode and not status:
                status = r.returncode
    return status, kept


def run_gitlab(doc, work, env, on_main):
    job = doc["heap-profile"]
    e = dict(env, **strings(doc.get("variables")), **strings(job.get("variables")))
    script = "\n".join(job["script"])
    r = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script],
                       cwd=work, env=e, stderr=quiet(env))
    art = job["artifacts"]
    assert art.get("when") == "always", "artifacts not kept on failure"
    return r.returncode, list(art["paths"]) + [art["reports"]["junit"]]


def scaled_hp(src, dst, num, den):
    with open(src, errors="surrogateescape") as f, open(dst, "w", errors="surrogateescape") as out:
        for line in f:
            if "\t" in line:
                label, value = line.rstrip("\n").rsplit("\t", 1)
                line = "%s\t%d\n" % (label, int(value) * num // den)
            out.write(line)


def junit_counts(path):
    import xml.etree.ElementTree as ET
    subprocess.run(["xmllint", "--noout", "--schema", os.path.join(SRCDIR, "tests", "junit.xsd"),
                    path], check=True, stderr=subprocess.DEVNULL)
    root = ET.parse(path).getroot()
    return int(root.get("tests")), int(root.get("failures")), int(root.get("errors"))


def load(kind):
    path = os.path.join(SRCDIR, "doc", "ci", "github-actions.yml" if kind == "github" else
                        "gitlab-ci.yml")
    with open(path) as f:
        return f.read()


def pipeline_env(kind, on_main, doc):
    """What GitHub or GitLab sets for a push to main (on_main) or a pull/merge request."""
    if kind == "github":
        upload = [s for s in doc["jobs"]["heap"]["steps"] if "upload-artifact" in s.get("uses", "")
                  and "eventlog" in str(s["with"]["path"])]
        return dict(GITHUB_REPOSITORY="owner/project", GITHUB_WORKFLOW=doc["name"],
                    CI_TEST_WORKFLOW=doc["name"], CI_TEST_ARTIFACT=upload[0]["with"]["name"],
                    GITHUB_REF="refs/heads/main" if on_main else "refs/pull/7/merge")
    env = dict(CI_JOB_TOKEN="stub", CI_API_V4_URL="https://gitlab.example/api/v4",
               CI_PROJECT_ID="1", CI_DEFAULT_BRANCH="main", CI_JOB_NAME="heap-profile",
               HEAP_NOTE_TOKEN="stub")
    if on_main:
        env.update(CI_PIPELINE_SOURCE="push", CI_COMMIT_BRANCH="main")
    else:   # a merge-request pipeline has no CI_COMMIT_BRANCH
        env.update(CI_PIPELINE_SOURCE="merge_request_event", CI_MERGE_REQUEST_IID="7")
    return env


def scenario(ghc_out, kind, name, eventlog, base, want_status, checks, on_main=False,
             text=None):
    doc = yaml.safe_load(text or load(kind))
    with tempfile.TemporaryDirectory() as tmp:
        work = os.path.join(tmp, "work")
        os.makedirs(work)
        env = base_env(tmp, ghc_out, eventlog, base)
        env["GITHUB_STEP_SUMMARY"] = os.path.join(tmp, "step-summary.md")
        env["RUNNER_TEMP"] = tmp
        env["CI_TEST_NOTE"] = os.path.join(tmp, "note.md")
        env.update(pipeline_env(kind, on_main, doc))
        label = "%s: %s" % (kind, name)
        if kind == "gitlab" and not gitlab_runs(doc["heap-profile"], env):
            fail("%s: the job's rules: do not run it in this pipeline" % label)
            return
        run = run_github if kind == "github" else run_gitlab
        if want_status not in (0, 3):   # a broken step: its messages are not shown
            env["CI_TEST_QUIET"] = "1"
        status, kept = run(doc, work, env, on_main)
        if status != want_status:
            fail("%s: status %d, not %d" % (label, status, want_status))
        if want_status not in (0, 3):   # a broken step: nothing more is expected
            if not failed:
                print("ok: %s: status %d" % (label, status))
            return
        for p in kept:
            if not os.path.isfile(os.path.join(work, p)) or not os.path.getsize(os.path.join(work, p)):
                fail("%s: the artifact %s was not written" % (label, p))
        tools = open(env["CI_TEST_TOOL_LOG"]).read() if os.path.exists(env["CI_TEST_TOOL_LOG"]) else ""
        for line in tools.splitlines():
            if line.startswith("rejected:"):
                fail("%s: %s" % (label, line))
        shown = env["GITHUB_STEP_SUMMARY"] if kind == "github" else env["CI_TEST_NOTE"]
        text = open(shown).read() if os.path.exists(shown) else ""
        summary = os.path.join(work, "heap-summary.md")
        if on_main and kind == "gitlab":   # no merge request: no note; the artifact
            text = open(summary).read() if os.path.exists(summary) else ""
        if "| Band | Peak | Mean | Growth (whole run)" not in text:
            fail("%s: the summary was not %s" % (label, "written to the job summary"
                                                  if kind == "github" else "posted"))
        r = subprocess.run(["cmark-gfm", "--extension", "table"], input=text, text=True,
                           capture_output=True)
        if r.returncode or "<table>" not in r.stdout:
            fail("%s: cmark-gfm does not render the summary's table" % label)
        junit = None
        if kind == "gitlab" and os.path.exists(os.path.join(work, "heap-junit.xml")):
            try:
                junit = junit_counts(os.path.join(work, "heap-junit.xml"))
            except subprocess.CalledProcessError:
                fail("%s: heap-junit.xml does not validate" % label)
        for check in checks:
            if not check(text, junit, tools):
                fail("%s: %s" % (label, check.__doc__))
        if not failed:
            print("ok: %s: status %d" % (label, status))


def compared(text, junit, tools):
    """the summary compares with main's run"""
    return "#### Compared with base/prog.eventlog" in text


def not_compared(text, junit, tools):
    """a first run (no eventlog of main) is not compared"""
    return "Compared with" not in text


def plus_100(text, junit, tools):
    """+100 % against a base at half the size, and the failed gate"""
    return "**+100 %**" in text and "`--max-increase` | +10 % | +100 % | ❌" in text


def real_run(text, junit, tools):
    """the summary is of the GHC-built program's own eventlog (GHC 9, by closure type)"""
    return "closure type" in text and "GHC-9" in text


def asked_github(text, junit, tools):
    """gh listed main's runs and downloaded the finished one's eventlog"""
    return ("accepted: gh run list" in tools and "--branch main" in tools
            and re.search(r"accepted: gh run download 4242 ", tools) is not None)


def junit_gates(n, failures):
    def check(text, junit, tools):
        return junit is None or junit[:2] == (n, failures)
    check.__doc__ = "JUnit: %d gates, %d failures" % (n, failures)
    return check


def installed_closure(names):
    """names and everything they depend on, from this machine's dpkg database (the first
    alternative of each dependency, virtual packages by their providers)."""
    out = subprocess.run(["dpkg-query", "-W", "-f",
                          "${Package}\t${Provides}\t${Depends}, ${Pre-Depends}\n"],
                         capture_output=True, text=True).stdout
    deps, providers = {}, {}
    for line in out.splitlines():
        pkg, provides, depends = line.split("\t")
        deps[pkg] = [re.split(r"[\s(:]", alt.split("|")[0].strip())[0]
                     for alt in depends.split(",") if alt.strip()]
        for p in provides.split(","):
            if p.strip():
                providers.setdefault(re.split(r"[\s(]", p.strip())[0], []).append(pkg)
    seen, todo = set(), list(names)
    while todo:
        p = todo.pop()
        if p in seen:
            continue
        seen.add(p)
        todo += deps.get(p, []) + providers.get(p, [])[:1]
    return seen


def owner(path):
    r = subprocess.run(["dpkg", "-S", path], capture_output=True, text=True)
    if r.returncode and path.startswith("/usr/"):
        r = subprocess.run(["dpkg", "-S", path[4:]], capture_output=True, text=True)
    return r.stdout.split(":")[0] if r.returncode == 0 else None


def package_lists():
    """Every package the build needs is installed by each workflow's list and by
    bootstrap's: the owners (here) of the .pc files of configure's required modules, of
    the programs it requires and of the commands the workflows' build runs."""
    with open(os.path.join(SRCDIR, "configure.ac")) as f:
        conf = f.read()
    modules = [m.group(1).split()[0] for m in re.finditer(
        r"PKG_CHECK_MODULES\(\[\w+\],\s*\[([^\]]+)\]\)", conf)]   # with no fallback
    needed = {}
    for mod in modules:
        pc = subprocess.run(["pkg-config", "--variable=pcfiledir", mod], capture_output=True,
                            text=True).stdout.strip()
        needed["pkg-config " + mod] = owner(os.path.join(pc, mod + ".pc"))
    # and the programs configure stops without ("AC_MSG_ERROR([protoc-c was not found")
    required = re.findall(r"AC_MSG_ERROR\(\[([\w.+-]+) was not found", conf)
    for cmd in ["git", "autoreconf", "automake", "pkg-config", "make", "cc"] + required:
        path = shutil.which(cmd)
        needed[cmd] = owner(os.path.realpath(path)) if path else None
    for what, pkg in needed.items():
        if not pkg:
            fail("package lists: no Debian package owns %s here" % what)
    with open(os.path.join(SRCDIR, "bootstrap")) as f:
        boot = re.search(r'PACKAGES="([^"]*)"', f.read()).group(1).split()
    lists = {"bootstrap": boot}
    for kind in ("github", "gitlab"):
        doc = yaml.safe_load(load(kind))
        if kind == "github":
            steps = [s for s in doc["jobs"]["heap"]["steps"] if s.get("id") == "ev2hp"]
            script = steps[0]["run"]
        else:
            script = "\n".join(doc["heap-profile"]["before_script"])
        m = re.search(r"apt-get install((?:\s+(?:\\\n)?\s*[\w.+-]+)+)", script)
        lists[kind] = [w for w in m.group(1).replace("\\\n", " ").split()
                       if not w.startswith("-")] if m else []
    for name, pkgs in lists.items():
        have = installed_closure(pkgs)
        missing = sorted("%s (%s)" % (pkg, what) for what, pkg in needed.items()
                         if pkg and pkg not in have)
        if missing:
            fail("package lists: %s's apt-get does not install %s" % (name, ", ".join(missing)))
        else:
            print("ok: %s's package list installs what the build needs (%d packages)"
                  % (name, len(set(needed.values()))))


def rules():
    """GitLab runs the job in merge-request pipelines and on the default branch only."""
    doc = yaml.safe_load(load("gitlab"))
    job = doc["heap-profile"]
    cases = [("a merge-request pipeline", pipeline_env("gitlab", False, doc), True),
             ("the default branch", pipeline_env("gitlab", True, doc), True),
             ("another branch's pipeline", dict(pipeline_env("gitlab", True, doc),
                                                CI_COMMIT_BRANCH="feature"), False)]
    for what, env, want in cases:
        if gitlab_runs(job, env) != want:
            fail("gitlab: rules: the job %s in %s" % ("does not run" if want else "runs", what))
        else:
            print("ok: gitlab: rules: %s in %s" % ("runs" if want else "does not run", what))


def main():
    texts = {}
    for kind in ("github", "gitlab"):
        try:
            texts[kind] = load(kind)
            yaml.safe_load(texts[kind])
            print("ok: doc/ci/%s parses as YAML" % kind)
        except yaml.YAMLError as e:
            fail("doc/ci/%s: %s" % (kind, e))
    if failed:
        return 1
    for tool in ("ghc", "gh", "cmark-gfm", "jq", "curl", "xmllint"):
        if not shutil.which(tool):
            fail("%s is missing (bootstrap installs it)" % tool)
    if failed:
        return 1
    package_lists()
    rules()
    with tempfile.TemporaryDirectory() as tmp:
        ghc_out = os.path.join(tmp, "ghc")
        flat = os.path.join(DATA, "flat-hc.eventlog")
        leak = os.path.join(DATA, "leak-hc.eventlog")
        half = os.path.join(tmp, "half.hp")   # a base at half the size (.hp read too)
        scaled_hp(os.path.join(DATA, "flat-hc.hp"), half, 1, 2)
        for kind in ("github", "gitlab"):
            # the program's own eventlog, end to end
            scenario(ghc_out, kind, "the program's eventlog, first run", None, None, 0,
                     [not_compared, real_run, junit_gates(2, 0)])
            scenario(ghc_out, kind, "on main", None, flat, 0, [not_compared, real_run],
                     on_main=True)
            scenario(ghc_out, kind, "no change", flat, flat, 0,
                     [compared, junit_gates(3, 0)] + ([asked_github] if kind == "github" else []))
            scenario(ghc_out, kind, "peak doubled", flat, half, 3,
                     [compared, plus_100, junit_gates(3, 1)])
            scenario(ghc_out, kind, "a leak", leak, None, 3, [junit_gates(2, 1)])
            # the form GHC rejects ("-ol expects filename") must fail the program's step
            broken = texts[kind].replace("-olprog.eventlog", "-ol prog.eventlog")
            if broken == texts[kind]:
                fail("%s: no -olprog.eventlog in the workflow" % kind)
            else:
                scenario(ghc_out, kind, "-ol FILE, the form GHC rejects", None, None, 1, [],
                         text=broken)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
