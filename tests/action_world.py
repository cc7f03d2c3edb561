"""action_world.py: the machine a test of the GitHub Action runs it on (tests/action_test.py,
tests/ci_workflows.py): a stand-in for GitHub (tests/github_stub.py) with a bare repository
behind its git URL, a local project repository whose commits have fixed times, the
runner's environment for a push to main or a pull request, sudo played (apt-get install
of a .deb unpacks it into a folder on PATH), and the action's steps run as the runner runs
them (tests/action_runner.py), actions/upload-artifact kept as the run's artifacts, which
the stand-in then serves to later runs.
"""
import os
import re
import shutil
import subprocess

import action_runner
import github_stub

EV2HP, SRCDIR = os.environ["EV2HP"], os.environ["SRCDIR"]
TOKEN = "ghs_stubtoken0123456789"
REPO = "owner/project"
WORKFLOW = "heap profile"


def sh(*args, **kw):
    return subprocess.run(args, check=True, capture_output=True, text=True, **kw).stdout


SUDO = r"""#!/bin/sh
# sudo: the runner's passwordless sudo, played: apt-get install of a .deb unpacks it under
# $STUB_ROOT (on PATH), as dpkg would under /; other apt-get lines are recorded only
echo "sudo $*" >> "$STUB_LOG"
[ "$1" = apt-get ] || { echo "sudo stub: $*" >&2; exit 1; }
shift
case "$1" in
update) exit 0 ;;
install)
    for a in "$@"; do
        case "$a" in
        *.deb) dpkg-deb --info "$a" > /dev/null || exit 100
               dpkg-deb -x "$a" "$STUB_ROOT" ;;
        esac
    done ;;
*) echo "sudo stub: apt-get $*" >&2; exit 1 ;;
esac
"""
AUTORECONF = r"""#!/bin/sh
# autoreconf: the source build's first command; not run here (minutes of build)
echo "autoreconf $* in $PWD" >> "$STUB_LOG"
echo "autoreconf stub: the source build is not run in this test" >&2
exit 42
"""


class World:
    """The machine the runs share: the stand-in, the bare repositories, the project."""

    def __init__(self, tmp):
        self.tmp = tmp
        site = os.path.join(tmp, "site")
        os.makedirs(site)
        self.bare = os.path.join(site, "project.git")
        sh("git", "init", "-q", "--bare", self.bare)
        sh("git", "--git-dir", self.bare, "config", "http.receivepack", "true")
        self.state = github_stub.State(TOKEN, self.bare)
        self.state.workflows = [WORKFLOW]
        self.server, self.proxy = github_stub.start(self.state)
        self.stubs = os.path.join(tmp, "stubs")
        os.makedirs(self.stubs)
        for name, text in (("sudo", SUDO), ("autoreconf", AUTORECONF)):
            p = os.path.join(self.stubs, name)
            with open(p, "w") as f:
                f.write(text)
            os.chmod(p, 0o755)
        self.root = os.path.join(tmp, "root")   # where the .deb unpacks
        self.log = os.path.join(tmp, "stub.log")
        self.run_id = 9000
        self.project = os.path.join(tmp, "project")
        self.commits = {}
        sh("git", "init", "-q", "-b", "main", self.project)
        self.ghc_out = os.path.join(tmp, "ghc")

    def commit(self, name, when):
        """A commit of the project at the fixed time WHEN (ISO 8601)."""
        with open(os.path.join(self.project, "NOTES"), "a") as f:
            f.write(name + "\n")
        env = dict(os.environ, GIT_AUTHOR_DATE=when, GIT_COMMITTER_DATE=when,
                   GIT_AUTHOR_NAME="a", GIT_AUTHOR_EMAIL="a@b", GIT_COMMITTER_NAME="a",
                   GIT_COMMITTER_EMAIL="a@b")
        sh("git", "-C", self.project, "add", "NOTES", env=env)
        sh("git", "-C", self.project, "commit", "-q", "-m", name, env=env)
        self.commits[name] = sh("git", "-C", self.project, "rev-parse", "HEAD").strip()
        return self.commits[name]

    def build_program(self):
        os.makedirs(self.ghc_out)
        prog = os.path.join(self.tmp, "prog")
        subprocess.run(["ghc", "-O0", "-rtsopts", "-eventlog", "-outputdir", self.ghc_out,
                        os.path.join(SRCDIR, "tests", "ghc", "CiProg.hs"), "-o", prog],
                       check=True, capture_output=True)
        return prog

    def make_deb(self):
        """A .deb of this build's ev2hp, as a release would attach (the real package is
        built and installed by tests/debian_package.sh)."""
        version = re.search(r"AC_INIT\(\[ev2hp\], \[([^]]*)\]",
                            open(os.path.join(SRCDIR, "configure.ac")).read()).group(1)
        arch = sh("dpkg", "--print-architecture").strip()
        tree = os.path.join(self.tmp, "deb")
        os.makedirs(os.path.join(tree, "DEBIAN"))
        os.makedirs(os.path.join(tree, "usr", "bin"))
        shutil.copy(EV2HP, os.path.join(tree, "usr", "bin", "ev2hp"))
        with open(os.path.join(tree, "DEBIAN", "control"), "w") as f:
            f.write("Package: ev2hp\nVersion: %s\nArchitecture: %s\nMaintainer: t <t@t>\n"
                    "Description: test\n" % (version, arch))
        name = "ev2hp_%s_%s.deb" % (version, arch)
        sh("dpkg-deb", "--root-owner-group", "-b", tree, os.path.join(self.tmp, name))
        with open(os.path.join(self.tmp, name), "rb") as f:
            return name, f.read()

    def context(self, commit, pr=None, action_ref="v1"):
        """A fresh checkout of COMMIT and what the runner sets for a push of it (to main,
        or to pull request PR): (github context, environment, run folder, workspace)."""
        self.run_id += 1
        run_id = self.run_id
        sha = self.commits[commit]
        work = os.path.join(self.tmp, "run%d" % run_id)
        ws = os.path.join(work, "workspace")
        sh("git", "clone", "-q", self.project, ws)
        sh("git", "-C", ws, "checkout", "-q", sha)
        branch = "main" if pr is None else "feature"
        github = {"repository": REPO, "sha": sha, "workflow": WORKFLOW, "run_id": str(run_id),
                  "server_url": "http://github.localhost", "token": TOKEN,
                  "action_repository": "owner/ev2hp", "action_ref": action_ref,
                  "event": {"repository": {"default_branch": "main"}}}
        env = dict(os.environ)
        for k in list(env):
            if k.startswith(("GITHUB_", "GH_", "RUNNER_")) or k.lower().endswith("_proxy"):
                del env[k]
        env.update(github_stub.proxy_env(self.proxy))
        env.update(PATH=os.pathsep.join([self.stubs, os.path.join(self.root, "usr", "bin"),
                                         "/usr/sbin", "/usr/bin", "/sbin", "/bin"]),
                   HOME=os.path.join(work, "home"), GH_CONFIG_DIR=os.path.join(work, "gh"),
                   STUB_ROOT=self.root, STUB_LOG=self.log, LC_ALL="C.UTF-8",
                   GITHUB_REPOSITORY=REPO, GITHUB_WORKFLOW=WORKFLOW, GITHUB_SHA=sha,
                   GITHUB_RUN_ID=str(run_id), GITHUB_ACTIONS="true", CI="true",
                   GITHUB_STEP_SUMMARY=os.path.join(work, "step-summary.md"))
        if pr is None:
            github.update(ref="refs/heads/main", ref_name="main", head_ref="",
                          event_name="push")
            env.update(GITHUB_REF="refs/heads/main", GITHUB_REF_NAME="main",
                       GITHUB_HEAD_REF="", GITHUB_EVENT_NAME="push")
        else:
            github.update(ref="refs/pull/%d/merge" % pr, ref_name="%d/merge" % pr,
                          head_ref=branch, event_name="pull_request")
            github["event"]["pull_request"] = {"number": pr, "head": {"sha": sha}}
            env.update(GITHUB_REF=github["ref"], GITHUB_REF_NAME=github["ref_name"],
                       GITHUB_HEAD_REF=branch, GITHUB_EVENT_NAME="pull_request")
        os.makedirs(env["HOME"])
        self.workspace = ws
        return github, env, work, ws

    def run_action(self, github, env, work, ws, inputs, artifacts, lines):
        """The action's steps in WS; ARTIFACTS gets what actions/upload-artifact keeps."""
        run_id = int(github["run_id"])

        def upload(with_, step_env):
            """actions/upload-artifact: the files kept with the run (the stand-in serves
            them to gh run download)."""
            path = os.path.join(ws, with_["path"])
            files = {}
            if os.path.isdir(path):
                for name in sorted(os.listdir(path)):
                    with open(os.path.join(path, name), "rb") as f:
                        files[name] = f.read()
            elif os.path.isfile(path):
                with open(path, "rb") as f:
                    files[os.path.basename(path)] = f.read()
            else:
                return 1, {}
            artifacts[with_["name"]] = files
            aid = run_id * 10 + len(artifacts)
            return 0, {"artifact-id": str(aid), "artifact-url": "http://github.localhost/%s/"
                       "actions/runs/%d/artifacts/%d" % (REPO, run_id, aid)}

        action = action_runner.Action(SRCDIR, uses={"actions/upload-artifact": upload})
        return action.run(ws, inputs or {}, github, env, os.path.join(work, "runner-temp"),
                          lines.append)

    def record(self, github, status, artifacts):
        """The run, finished, as GitHub lists it for later runs."""
        self.state.runs.append({"id": int(github["run_id"]),
                                "branch": github["head_ref"] or github["ref_name"],
                                "status": "completed",
                                "conclusion": "failure" if status else "success",
                                "workflow": WORKFLOW, "artifacts": artifacts})

    def push(self, label, commit, pr=None, inputs=None, action_ref="v1"):
        """The action run for a push of COMMIT (to main, or to pull request PR)."""
        github, env, work, ws = self.context(commit, pr, action_ref)
        artifacts, lines = {}, []
        status, outputs, steps = self.run_action(github, env, work, ws, inputs, artifacts, lines)
        self.record(github, status, artifacts)
        summary = env["GITHUB_STEP_SUMMARY"]
        text = open(summary).read() if os.path.exists(summary) else ""
        print("%s: %s" % (label, "; ".join(lines)))
        return status, outputs, steps, text, artifacts


def requests(state, method, rx):
    """The requests the stand-in was sent by METHOD to a path (no query) matching RX."""
    return [r for r in state.requests
            if r["method"] == method and re.fullmatch(rx, r["path"].split("?")[0])]
