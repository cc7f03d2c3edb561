"""ci_workflows.py: runs the example CI workflows (doc/ci/*.yml) as the CI systems would (ci_workflows.sh).

Both files must parse as YAML. Their shell steps then run verbatim, in a scratch
directory, with real parts wherever this machine has them:
  - GitHub: each `run` step in bash -eo pipefail with the workflow's and the step's env,
    `if:` decided for the event; the `uses: OWNER/ev2hp@v1` step is ev2hp's Action
    (action.yml), its steps run as the runner runs them (tests/action_runner.py) with
    the step's `with:`, in a world (tests/action_world.py) whose GitHub is a local
    stand-in (tests/github_stub.py) that Debian's gh, git and curl talk to: the release
    v1 with a .deb of this build's ev2hp, and main's runs (one in progress, one finished
    that kept the eventlog) when the scenario has a base.
  - GitLab: `rules:` decided for the pipeline, then the job's script lines in one bash
    -eo pipefail shell with its variables; Debian's curl and jq talk to the same stand-in
    as GitLab's API (the default branch's eventlog, the uploads, the merge request's notes).
  - the program is tests/ghc/CiProg.hs, built by Debian's GHC with the workflow's own
    --ghc-options (the `cabal` stub runs ghc; plus -eventlog, which GHC 9.4 and later
    link always), and run with the workflow's own +RTS line (the action's, for GitHub):
    a line GHC rejects fails the step, as it would in CI (the test checks that the old
    `-ol FILE` form does). Where a scenario needs known numbers (a base at half the size,
    a leak), the program still runs as written, ev2hp must read the eventlog it wrote,
    and then a bundled eventlog takes its place (the `program` wrapper).
  - cmark-gfm, xmllint: the summary must render, the JUnit report validate.
The steps that install packages and build ev2hp are not run (the suite's ev2hp is on
PATH instead, or in the release's .deb); their package lists are checked instead: every
library configure requires (by the Debian package owning its .pc file here) and every
command the build runs must be installed by the list, Depends followed in this machine's
dpkg database, and by bootstrap's list too.
"""
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import action_world  # noqa: E402
import github_stub  # noqa: E402

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
    case "$2" in exe:?*) ;; *) echo "cabal stub: no target exe:NAME in: $*" >&2; exit 1 ;; esac
    opts=""
    for a in "$@"; do case "$a" in --ghc-options=*) opts="$opts ${a#--ghc-options=}" ;; esac; done
    mkdir -p "$STUB_DIR/bin"
    # shellcheck disable=SC2086
    ghc -O0 $opts -eventlog -outputdir "$CI_TEST_GHC_OUT" "$CI_TEST_PROG_SRC" \
        -o "$STUB_DIR/bin/${2#exe:}" > "$STUB_DIR/ghc.log" 2>&1 || { cat "$STUB_DIR/ghc.log" >&2; exit 1; } ;;
list-bin)
    [ -x "$STUB_DIR/bin/${2#exe:}" ] || { echo "cabal stub: $*: not built" >&2; exit 1; }
    echo "${2#exe:}" > "$STUB_DIR/name"
    if [ -n "${CI_TEST_EVENTLOG:-}" ]; then echo "$STUB_DIR/program"; else echo "$STUB_DIR/bin/${2#exe:}"; fi ;;
*) echo "cabal stub: $*" >&2; exit 1 ;;
esac
""",
    "program": r"""#!/bin/sh
# the GHC-built program, run with the workflow's arguments as they are; ev2hp must read the
# eventlog it wrote, which then gives way to the scenario's (CI_TEST_EVENTLOG)
touch "$STUB_DIR/before"
"$STUB_DIR/bin/$(cat "$STUB_DIR/name")" "$@" || exit
written=$(find . -maxdepth 1 -name '*.eventlog' -newer "$STUB_DIR/before")
[ -n "$written" ] && [ "$(echo "$written" | wc -l)" = 1 ] || {
    echo "program wrapper: the program wrote no eventlog here ($written)" >&2; exit 1; }
"$EV2HP" --summary "$written" > /dev/null || { echo "program wrapper: $written unreadable" >&2; exit 1; }
cp "$CI_TEST_EVENTLOG" "$written"
""",
}


def stub_dir(tmp):
    d = os.path.join(tmp, "stubs")
    os.makedirs(d, exist_ok=True)
    for name, text in STUBS.items():
        path = os.path.join(d, name)
        with open(path, "w") as f:
            f.write(text.replace("#!PYTHON3", "#!" + sys.executable))
        os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
    return d


def base_env(tmp, ghc_out, eventlog, base, env):
    """ENV (the runner's) with the stubs first on PATH, then the suite's ev2hp."""
    env = dict(env)
    env["PATH"] = stub_dir(tmp) + os.pathsep + os.path.dirname(EV2HP) + os.pathsep + env["PATH"]
    env["STUB_DIR"] = os.path.join(tmp, "stubs")
    env["CI_TEST_GHC_OUT"] = ghc_out
    env["CI_TEST_PROG_SRC"] = PROG_SRC
    env["LC_ALL"] = "C.UTF-8"
    for k in ("CI_TEST_BASE", "CI_TEST_EVENTLOG", "GH_TOKEN", "GITHUB_TOKEN"):
        env.pop(k, None)
    if eventlog:
        env["CI_TEST_EVENTLOG"] = eventlog
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


def run_github(doc, world, ghc_out, eventlog, base, on_main, env_extra):
    """The workflow for a push to main (on_main) or pull request 7, in WORLD: 0 or the
    failing step's status, the artifacts (name -> {file: bytes}), the job summary."""
    st = world.state
    deb_name, deb = world.make_deb()
    uses = [s["uses"] for s in doc["jobs"]["heap"]["steps"] if "/ev2hp@" in s.get("uses", "")]
    assert len(uses) == 1, "the workflow does not use the action once: %s" % uses
    repo, ref = uses[0].split("@")
    st.releases[(repo, ref)] = [(deb_name, deb)]
    if base:   # main: a run still going, then the finished one that kept the eventlog
        with open(base, "rb") as f:
            st.runs.append({"id": 4242, "branch": "main", "status": "completed",
                            "conclusion": "success", "workflow": doc["name"],
                            "artifacts": {"heap-profile-eventlog": {"heap.eventlog": f.read()}}})
        st.runs.append({"id": 4243, "branch": "main", "status": "in_progress",
                        "workflow": doc["name"], "artifacts": {}})
    world.commit("c1", "2026-01-01T10:00:00Z")
    github, env, work, ws = world.context("c1", None if on_main else 7, ref)
    github["action_repository"] = repo
    github["workflow"] = env["GITHUB_WORKFLOW"] = doc["name"]
    env = base_env(work, ghc_out, eventlog, base, env)
    env.update(env_extra)
    status, artifacts, lines = 0, {}, []
    wf_env = strings(doc.get("env"))
    for step in doc["jobs"]["heap"]["steps"]:
        when = github_if(step.get("if"), on_main)
        if status and "always()" not in str(step.get("if", "")):
            when = False
        if not when:
            continue
        e = dict(env, **wf_env, **strings(step.get("env")))
        if "/ev2hp@" in step.get("uses", ""):
            rc, _, _ = world.run_action(github, e, work, ws, step.get("with"), artifacts, lines)
        elif "uses" in step:
            assert step["uses"].split("@")[0] in ("actions/checkout", "haskell-actions/setup"), \
                "a step the test cannot play: %s" % step["uses"]
            continue   # the workspace is the checkout; Debian's GHC is installed
        else:
            rc = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c",
                                 step["run"]], cwd=ws, env=e, stderr=quiet(env)).returncode
        if rc and not status:
            status = rc
    world.record(github, status, artifacts)
    summary = env["GITHUB_STEP_SUMMARY"]
    return status, artifacts, open(summary).read() if os.path.exists(summary) else ""


def run_gitlab(doc, world, work, env):
    """The job's script in WORK: its status, the artifact paths kept."""
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


def pipeline_env(on_main):
    """What GitLab sets for a push to the default branch (on_main) or a merge request."""
    env = dict(CI_JOB_TOKEN=action_world.TOKEN, CI_API_V4_URL="http://gitlab.localhost/api/v4",
               CI_PROJECT_ID="1", CI_DEFAULT_BRANCH="main", CI_JOB_NAME="heap-profile",
               HEAP_NOTE_TOKEN=action_world.TOKEN)
    if on_main:
        env.update(CI_PIPELINE_SOURCE="push", CI_COMMIT_BRANCH="main")
    else:   # a merge-request pipeline has no CI_COMMIT_BRANCH
        env.update(CI_PIPELINE_SOURCE="merge_request_event", CI_MERGE_REQUEST_IID="7")
    return env


def scenario(ghc_out, kind, name, eventlog, base, want_status, checks, on_main=False,
             text=None, pushes=1):
    doc = yaml.safe_load(text or load(kind))
    with tempfile.TemporaryDirectory() as tmp:
        world = action_world.World(os.path.join(tmp, "world"))
        try:
            for push in range(1, pushes + 1):
                label = "%s: %s%s" % (kind, name, " (push %d)" % push if pushes > 1 else "")
                one_run(doc, world, tmp, ghc_out, kind, label, eventlog, base, want_status,
                        checks, on_main)
        finally:
            world.server.shutdown()


def one_run(doc, world, tmp, ghc_out, kind, label, eventlog, base, want_status, checks,
            on_main):
    quiet_env = {"CI_TEST_QUIET": "1"} if want_status not in (0, 3) else {}
    junit = None
    if kind == "github":
        status, artifacts, text = run_github(doc, world, ghc_out, eventlog, base, on_main,
                                             quiet_env)
        kept = artifacts.get("heap-profile", {})
        missing = [f for f in ("heap.svg", "heap.png", "heap.html", "heap-summary.md")
                   if not kept.get(f)]
    else:
        work = os.path.join(tmp, "work")
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work)
        env = dict(os.environ, **github_stub.proxy_env(world.proxy))
        env = base_env(tmp, ghc_out, eventlog, base, env)
        env.update(pipeline_env(on_main), **quiet_env)
        if base:
            with open(base, "rb") as f:
                world.state.gitlab_artifacts[("main", "prog.eventlog", "heap-profile")] = f.read()
        if not gitlab_runs(doc["heap-profile"], env):
            fail("%s: the job's rules: do not run it in this pipeline" % label)
            return
        status, paths = run_gitlab(doc, world, work, env)
        missing = [p for p in paths if not os.path.isfile(os.path.join(work, p))
                   or not os.path.getsize(os.path.join(work, p))]
        notes = world.state.notes.get(7, [])
        text = notes[-1]["body"] if notes else ""
        if on_main:   # no merge request: no note; the artifact
            summary = os.path.join(work, "heap-summary.md")
            text = open(summary).read() if os.path.exists(summary) else ""
        if os.path.exists(os.path.join(work, "heap-junit.xml")):
            try:
                junit = junit_counts(os.path.join(work, "heap-junit.xml"))
            except subprocess.CalledProcessError:
                fail("%s: heap-junit.xml does not validate" % label)
    if status != want_status:
        fail("%s: status %d, not %d" % (label, status, want_status))
    if want_status not in (0, 3):   # a broken step: nothing more is expected
        if not failed:
            print("ok: %s: status %d" % (label, status))
        return
    for p in missing:
        fail("%s: the artifact %s was not written" % (label, p))
    for r in world.state.requests:
        if not r["answered"]:
            fail("%s: the stand-in could not answer %s %s%s" % (label, r["method"], r["host"],
                                                                r["path"]))
    if "| Band | Peak | Mean | Growth (whole run)" not in text:
        fail("%s: the summary was not %s" % (label, "written to the job summary"
                                              if kind == "github" else "posted"))
    r = subprocess.run(["cmark-gfm", "--extension", "table"], input=text, text=True,
                       capture_output=True)
    if r.returncode or "<table>" not in r.stdout:
        fail("%s: cmark-gfm does not render the summary's table" % label)
    for check in checks:
        if not check(text, junit, world.state):
            fail("%s: %s" % (label, check.__doc__))
    if not failed:
        print("ok: %s: status %d" % (label, status))


def compared(text, junit, tools):
    """the summary compares with main's run"""
    return "#### Compared with " in text


def not_compared(text, junit, tools):
    """a first run (no eventlog of main) is not compared"""
    return "Compared with" not in text


def plus_100(text, junit, tools):
    """+100 % against a base at half the size, and the failed gate"""
    return "**+100 %**" in text and "`--max-increase` | +10 % | +100 % | ❌" in text


def real_run(text, junit, tools):
    """the summary is of the GHC-built program's own eventlog (GHC 9, by closure type)"""
    return "closure type" in text and "GHC-9" in text


def asked_github(text, junit, state):
    """gh listed main's runs and downloaded the finished one's eventlog"""
    return (action_world.requests(state, "GET", r"/repos/owner/project/actions/workflows/\d+/runs")
            and action_world.requests(state, "GET", r"/repos/owner/project/actions/artifacts/4242\d/zip"))


def one_note(text, junit, state):
    """one note on the merge request, with the marker, made once (POST) and edited (PUT)
    on later pushes, its images the PNGs uploaded to the project"""
    notes = state.notes.get(7, [])
    posts = action_world.requests(state, "POST", r"/api/v4/projects/1/merge_requests/7/notes")
    gets = action_world.requests(state, "GET", r"/api/v4/projects/1/merge_requests/7/notes")
    puts = action_world.requests(state, "PUT", r"/api/v4/projects/1/merge_requests/7/notes/\d+")
    if len(notes) != 1 or len(posts) != 1 or len(puts) != len(gets) - 1:
        return False
    images = re.findall(r"!\[[^]]*\]\((/uploads/[^)]+)\)", notes[0]["body"])
    return (notes[0]["body"].startswith("<!-- ev2hp -->\n") and len(images) == 2 and
            all(state.uploads.get(u, b"")[:8] == b"\x89PNG\r\n\x1a\n" for u in images))


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
    with open(os.path.join(SRCDIR, "ci", "action", "install.sh")) as f:
        action = f.read()
    for name, script in (("the action", action),
                         ("gitlab", "\n".join(yaml.safe_load(load("gitlab"))["heap-profile"]
                                              ["before_script"]))):
        # the longest apt-get install line (the action's other installs the .deb)
        found = [m.group(1).replace("\\\n", " ").split() for m in re.finditer(
            r"apt-get install((?:\s+(?:\\\n)?\s*[\w.+-]+)+)", script)]
        lists[name] = [w for w in max(found, key=len, default=[]) if not w.startswith("-")]
    for name, pkgs in lists.items():
        have = installed_closure(pkgs)
        missing = sorted("%s (%s)" % (pkg, what) for what, pkg in needed.items()
                         if pkg and pkg not in have)
        if missing:
            fail("package lists: %s's apt-get does not install %s" % (name, ", ".join(missing)))
        else:
            print("ok: %s's package list installs what the build needs (%d packages)"
                  % (name, len(set(needed.values()))))


def documented_step():
    """The Action's step as the README and the guide show it is a step of
    doc/ci/github-actions.yml (which the scenarios run): the same action and release, its
    inputs given the same values there."""
    wf = [s for s in yaml.safe_load(load("github"))["jobs"]["heap"]["steps"]
          if "/ev2hp@" in s.get("uses", "")][0]
    for doc in ("README.md", os.path.join("doc", "guide.md")):
        text = open(os.path.join(SRCDIR, doc), encoding="utf-8").read()
        m = re.search(r"\n\n((    - uses: OWNER/ev2hp@.*\n)(    .*\n)*)", text)
        if not m:
            fail("%s shows no step `- uses: OWNER/ev2hp@...`" % doc)
            continue
        step = yaml.safe_load(re.sub(r"(?m)^    ", "", m.group(1)))[0]
        if step["uses"] != wf["uses"] or any(wf["with"].get(k) != v
                                             for k, v in step["with"].items()):
            fail("%s's step %s is not the workflow's %s" % (doc, step, wf))
        else:
            print("ok: %s's step is the workflow's (%d lines)" % (doc, m.group(1).count("\n")))


def rules():
    """GitLab runs the job in merge-request pipelines and on the default branch only."""
    doc = yaml.safe_load(load("gitlab"))
    job = doc["heap-profile"]
    cases = [("a merge-request pipeline", pipeline_env(False), True),
             ("the default branch", pipeline_env(True), True),
             ("another branch's pipeline", dict(pipeline_env(True),
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
    documented_step()
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
                     [compared, junit_gates(3, 0)] +
                     ([asked_github] if kind == "github" else [one_note]))
            scenario(ghc_out, kind, "peak doubled", flat, half, 3,
                     [compared, plus_100, junit_gates(3, 1)])
            scenario(ghc_out, kind, "a leak", leak, None, 3, [junit_gates(2, 1)])
            if kind == "github":   # the action's command line: tests/action.sh runs it
                continue
            scenario(ghc_out, kind, "two pushes of the merge request", flat, half, 3,
                     [compared, one_note], pushes=2)
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
