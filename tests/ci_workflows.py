"""ci_workflows.py: runs the shell steps of doc/ci/*.yml on bundled eventlogs (ci_workflows.sh).

Both workflow files must parse as YAML; then their shell steps run as the CI system would
run them (GitHub: each `run` step in bash -eo pipefail with the workflow's and the step's
env, `if:` decided for a pull request; GitLab: the job's script lines in one bash -eo
pipefail shell with its variables), in a scratch directory, with ev2hp on PATH. What
needs a network or a compiler is stubbed on PATH, so the steps themselves run verbatim:
  - cabal: `build` and `update` succeed; `list-bin` names a stub program, which insists
    on the heap profile flags (-h..., -l, -ol FILE) and copies CI_TEST_EVENTLOG to FILE;
  - gh (GitHub) and curl (GitLab) "download" the main branch's eventlog: CI_TEST_BASE,
    or fail when there is none; curl records a merge-request note it is asked to post.
The step that builds and installs ev2hp (GitHub: id ev2hp; GitLab: before_script) is
not run: the suite's ev2hp is on PATH instead. After the run, every artifact the
workflow keeps must exist, the job summary (GitHub) or note (GitLab) must hold the
Markdown summary, and the JUnit report (GitLab) must validate.
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
failed = False


def fail(msg):
    global failed
    print("FAIL: " + msg)
    failed = True


STUBS = {
    "cabal": r"""#!/bin/sh
case "$1" in
update) exit 0 ;;
build) case "$2" in exe:?*) exit 0 ;; esac; echo "cabal stub: build what? $*" >&2; exit 1 ;;
list-bin) echo "$STUB_DIR/program" ;;
*) echo "cabal stub: $*" >&2; exit 1 ;;
esac
""",
    "program": r"""#!/bin/sh
# a GHC program run with +RTS ... -RTS: insists on a heap profile written as an eventlog
rts=0 h=0 l=0 out=""
while [ $# -gt 0 ]; do
    case "$1" in
    +RTS) rts=1 ;;
    -RTS) rts=0 ;;
    -h*) [ $rts = 1 ] && h=1 ;;
    -l) [ $rts = 1 ] && l=1 ;;
    -ol) [ $rts = 1 ] && { shift; out=$1; } ;;
    esac
    shift
done
[ $h = 1 ] && [ $l = 1 ] && [ -n "$out" ] || { echo "program stub: no -h -l -ol" >&2; exit 1; }
cp "$CI_TEST_EVENTLOG" "$out"
""",
    "gh": r"""#!/bin/sh
# gh run download ... --dir DIR: main's eventlog, if the test has one
[ "$1 $2" = "run download" ] || { echo "gh stub: $*" >&2; exit 1; }
[ -n "${GH_TOKEN:-}" ] || { echo "gh stub: no GH_TOKEN" >&2; exit 1; }
dir=.
while [ $# -gt 0 ]; do [ "$1" = --dir ] && dir=$2; shift; done
[ -n "${CI_TEST_BASE:-}" ] || { echo "no artifact found" >&2; exit 1; }
mkdir -p "$dir" && cp "$CI_TEST_BASE" "$dir/prog.eventlog"
""",
    "curl": r"""#!/bin/sh
# GitLab's API: a raw artifact download (--output FILE), or a note posted (body@FILE)
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
            f.write(text)
        os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
    return d


def base_env(tmp, eventlog, base):
    env = dict(os.environ)
    env["PATH"] = stub_dir(tmp) + os.pathsep + os.path.dirname(EV2HP) + os.pathsep + env["PATH"]
    env["STUB_DIR"] = os.path.join(tmp, "stubs")
    env["CI_TEST_EVENTLOG"] = eventlog
    env["LC_ALL"] = "C.UTF-8"
    env.pop("CI_TEST_BASE", None)
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


def github_if(cond):
    """An if: for a pull request (not main)."""
    if cond is None:
        return True
    expr = str(cond).replace("${{", "").replace("}}", "")
    expr = expr.replace("always()", "True")
    expr = re.sub(r"github\.ref\s*==\s*'refs/heads/main'", "False", expr)
    expr = re.sub(r"github\.ref\s*!=\s*'refs/heads/main'", "True", expr)
    expr = expr.replace("&&", " and ").replace("||", " or ").replace("!", " not ")
    assert re.fullmatch(r"[\sA-Za-z()]*", expr) and not re.search(
        r"\b(?!True\b|False\b|and\b|or\b|not\b)\w+", expr), "cannot decide if: " + str(cond)
    return eval(expr)


def run_github(doc, work, env):
    """0 or the failing step's status, and the artifact paths kept."""
    status, kept = 0, []
    wf_env = strings(doc.get("env"))
    for job in doc["jobs"].values():
        for step in job["steps"]:
            when = github_if(step.get("if"))
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
                                step["run"]], cwd=work, env=e)
            if r.returncode and not status:
                status = r.returncode
    return status, kept


def run_gitlab(doc, work, env):
    job = doc["heap-profile"]
    e = dict(env, **strings(doc.get("variables")), **strings(job.get("variables")))
    script = "\n".join(job["script"])
    r = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script],
                       cwd=work, env=e)
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


def scenario(kind, name, eventlog, base, want_status, checks):
    path = os.path.join(SRCDIR, "doc", "ci", "github-actions.yml" if kind == "github" else
                        "gitlab-ci.yml")
    doc = yaml.safe_load(open(path))
    with tempfile.TemporaryDirectory() as tmp:
        work = os.path.join(tmp, "work")
        os.makedirs(work)
        env = base_env(tmp, eventlog, base)
        env["GITHUB_STEP_SUMMARY"] = os.path.join(tmp, "step-summary.md")
        env["RUNNER_TEMP"] = tmp
        env["GITHUB_REPOSITORY"] = "owner/project"
        env.update(CI_JOB_TOKEN="stub", CI_API_V4_URL="https://gitlab.example/api/v4",
                   CI_PROJECT_ID="1", CI_DEFAULT_BRANCH="main", CI_JOB_NAME="heap-profile",
                   CI_COMMIT_BRANCH="feature", CI_MERGE_REQUEST_IID="7",
                   HEAP_NOTE_TOKEN="stub", CI_TEST_NOTE=os.path.join(tmp, "note.md"))
        run = run_github if kind == "github" else run_gitlab
        status, kept = run(doc, work, env)
        label = "%s: %s" % (kind, name)
        if status != want_status:
            fail("%s: status %d, not %d" % (label, status, want_status))
        for p in kept:
            if not os.path.isfile(os.path.join(work, p)) or not os.path.getsize(os.path.join(work, p)):
                fail("%s: the artifact %s was not written" % (label, p))
        shown = env["GITHUB_STEP_SUMMARY"] if kind == "github" else env["CI_TEST_NOTE"]
        text = open(shown).read() if os.path.exists(shown) else ""
        if "| Band | Peak | Mean | Growth | Over the run |" not in text:
            fail("%s: the summary was not %s" % (label, "written to the job summary"
                                                  if kind == "github" else "posted"))
        junit = None
        if kind == "gitlab" and os.path.exists(os.path.join(work, "heap-junit.xml")):
            try:
                junit = junit_counts(os.path.join(work, "heap-junit.xml"))
            except subprocess.CalledProcessError:
                fail("%s: heap-junit.xml does not validate" % label)
        for check in checks:
            if not check(text, junit):
                fail("%s: %s" % (label, check.__doc__))
        if not failed:
            print("ok: %s: status %d" % (label, status))


def compared(text, junit):
    """the summary compares with main's run"""
    return "#### Compared with base/prog.eventlog" in text


def not_compared(text, junit):
    """a first run (no eventlog of main) is not compared"""
    return "Compared with" not in text


def plus_100(text, junit):
    """+100 % against a base at half the size, and the failed gate"""
    return "**+100 %**" in text and "`--max-increase` | +10 % | +100 % | ❌" in text


def junit_gates(n, failures):
    def check(text, junit):
        return junit is None or junit[:2] == (n, failures)
    check.__doc__ = "JUnit: %d gates, %d failures" % (n, failures)
    return check


def main():
    for path in ("github-actions.yml", "gitlab-ci.yml"):
        try:
            yaml.safe_load(open(os.path.join(SRCDIR, "doc", "ci", path)))
            print("ok: doc/ci/%s parses as YAML" % path)
        except yaml.YAMLError as e:
            fail("doc/ci/%s: %s" % (path, e))
    with tempfile.TemporaryDirectory() as tmp:
        flat = os.path.join(DATA, "flat-hc.eventlog")
        leak = os.path.join(DATA, "leak-hc.eventlog")
        half = os.path.join(tmp, "half.hp")   # a base at half the size (.hp read too)
        scaled_hp(os.path.join(DATA, "flat-hc.hp"), half, 1, 2)
        for kind in ("github", "gitlab"):
            scenario(kind, "no change", flat, flat, 0, [compared, junit_gates(3, 0)])
            scenario(kind, "first run", flat, None, 0, [not_compared, junit_gates(2, 0)])
            scenario(kind, "peak doubled", flat, half, 3,
                     [compared, plus_100, junit_gates(3, 1)])
            scenario(kind, "a leak", leak, None, 3, [junit_gates(2, 1)])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
