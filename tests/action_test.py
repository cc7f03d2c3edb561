"""action_test.py: the GitHub Action (action.yml, ci/action/) run as GitHub's runner runs it
(tests/action_runner.py), against a stand-in for GitHub (tests/github_stub.py), with the
real tools: Debian's gh (API calls, the release download, main's eventlog), git (the
pictures branch, pushed over HTTP to a local bare repository through git http-backend),
curl (the comment's image links followed as a browser would), jq, and a program GHC built
(tests/ghc/CiProg.hs, run by the action's own command line). tests/action.sh runs it.

The story, each run a fresh checkout of a local repository whose commits have fixed times:
  0. the release v1 of owner/ev2hp is published: .github/workflows/release.yml's upload
     step (Debian's gh) attaches the package (here a .deb of this build's ev2hp).
  1. three pushes to main (ev2hp installed from that release's .deb), the first run
     twice from a bundled eventlog (a re-run draws the same bytes: nothing to commit): no
     comparison, no comment; the eventlog and the outputs uploaded; the pictures branch
     made, each commit's history file on it.
  2. the pull request's first push: compared with main's last run (gh run list, gh run
     download of its eventlog), ONE comment made, holding the summary with the change
     against main and the heap, diff and trend PNGs, whose links lead (GitHub's redirect)
     to PNGs committed to the pictures branch.
  3. its second push with a gate that fails: the same comment edited (PATCH, same id),
     now saying the gate failed, with this commit's pictures; then the action fails. The
     trend of the five recorded commits (main's three, the pull request's two) has five
     points per series and the failed commit marked (its SVG).
  then another run's push lands between this run's fetch and its push: the pictures are
     committed again on top of it, both kept.
  4. a pull request from a fork (the comment refused, 403) whose labels are markup: a
     warning, the action's verdict is the gates'; the body renders (cmark-gfm, GitHub's
     extensions) with no label acting: only the action's own links and images.
  5. a release with no .deb (404): the action says it builds from source and asks apt-get
     for the build's packages (the build itself, minutes, is not run here: its commands
     are stubbed and the step stops there).
Every request the stand-in could not answer is a failure.
"""
import html.parser
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import yaml  # noqa: E402

import action_world  # noqa: E402
import github_stub  # noqa: E402
import pngread  # noqa: E402
from action_world import World, requests, sh  # noqa: E402

failed = False


def fail(msg):
    global failed
    print("FAIL: " + msg)
    failed = True


def ok(msg):
    print("ok: " + msg)


class Page(html.parser.HTMLParser):
    """The tags, links and images of a rendered comment."""

    def __init__(self):
        super().__init__()
        self.tags, self.links, self.images = set(), [], []

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        a = dict(attrs)
        if tag == "a":
            self.links.append(a.get("href"))
        if tag == "img":
            self.images.append(a.get("src"))


def render(text):
    r = subprocess.run(["cmark-gfm", "--extension", "table", "--extension", "strikethrough",
                        "--extension", "autolink", "--extension", "tagfilter",
                        "--extension", "tasklist"], input=text, capture_output=True, text=True,
                       check=True)
    p = Page()
    p.feed(r.stdout)
    return p


def fetch_image(world, url, where):
    """Follows an image link as a browser would (curl -L through the stand-in); the bytes
    must be the PNG committed to the pictures branch at the path the link names."""
    out = os.path.join(world.tmp, "fetched.png")
    env = dict(os.environ, **github_stub.proxy_env(world.proxy))
    r = subprocess.run(["curl", "-sS", "-f", "-L", "-o", out, "-w", "%{num_redirects}", url],
                       env=env, capture_output=True, text=True)
    if r.returncode:
        fail("%s: %s does not resolve: %s" % (where, url, r.stderr.strip()))
        return None
    m = re.fullmatch(r"http://github\.localhost/owner/project/blob/([^/]+)/(.+)\?raw=true", url)
    if not m:
        fail("%s: %s is not a github.com/O/R/blob/BRANCH/PATH?raw=true link" % (where, url))
        return None
    committed = subprocess.run(["git", "--git-dir", world.bare, "cat-file", "blob",
                                "%s:%s" % m.groups()], capture_output=True).stdout
    with open(out, "rb") as f:
        got = f.read()
    if not committed or got != committed:
        fail("%s: %s is not the PNG committed at %s:%s" % ((where, url) + m.groups()))
        return None
    w, h, _ = pngread.read(out)
    return m.group(2), w, h


def check_trend(world, path, names, failed_commit):
    """The trend of the recorded commits: five points per series, the failed one marked."""
    import xml.etree.ElementTree as ET
    if not os.path.exists(path):
        fail("trend: no %s" % path)
        return
    ns = "{http://www.w3.org/2000/svg}"
    root = ET.parse(path).getroot()
    shas = [world.commits[n][:7] for n in names]
    points = {}
    for r in root.iter(ns + "rect"):
        if r.get("class") == "trend-point":
            series, commit, _ = r.find(ns + "title").text.split("\n")
            points.setdefault(series, []).append((float(r.get("x")) + float(r.get("width")) / 2,
                                                  commit.split(" ")[0]))
    bad = [s for s, pts in points.items() if [c for _, c in pts] != shas]
    if len(points) < 3 or bad:
        fail("trend: series %s, not five points at %s each (%s)" % (sorted(points), shas, bad))
        return
    xs = [x for x, _ in next(iter(points.values()))]
    marks = [r for r in root.iter(ns + "rect") if r.get("class") == "gate-failed"]
    at = [float(m.get("x")) + float(m.get("width")) / 2 for m in marks]
    want = xs[names.index(failed_commit)]
    if len(marks) != 1 or abs(at[0] - want) > 0.2:
        fail("trend: the failed gates marked at %s, not once at %s (%s)" % (at, want, failed_commit))
        return
    ok("trend: %d series of five points (%s), the failed commit %s marked"
       % (len(points), ", ".join(shas), world.commits[failed_commit][:7]))


def check_comment(world, body, where, commit, want_diff, trend=False):
    if not body.startswith("<!-- ev2hp -->"):
        fail("%s: the comment does not start with the marker" % where)
    for want in ("| Band | Peak | Mean | Growth (whole run)", "GHC-9", "by closure type"):
        if want not in body:
            fail("%s: the comment has no %r (the program's summary)" % (where, want))
    if want_diff and "#### Compared with" not in body:
        fail("%s: the comment does not compare with main" % where)
    page = render(body)
    pngs = {}
    for src in page.images:
        got = fetch_image(world, src, where)
        if got:
            pngs[got[0]] = got[1:]
    sha = world.commits[commit]
    want = {"%s/heap.png" % sha} | ({"%s/heap-diff.png" % sha} if want_diff else set()) | (
        {"%s/trend.png" % sha} if trend else set())
    if not want <= set(pngs):
        fail("%s: the comment's images %s, not %s" % (where, sorted(pngs), sorted(want)))
    elif all(w >= 640 and h >= 360 for w, h in pngs.values()):
        ok("%s: the comment shows %s, committed PNGs (%s)" % (where, ", ".join(
            os.path.basename(p) for p in sorted(pngs)), ", ".join(
            "%dx%d" % pngs[p] for p in sorted(pngs))))
    else:
        fail("%s: the images' sizes %s" % (where, pngs))
    links = [h for h in page.links if "/artifacts/" in h]
    if not links:
        fail("%s: no link to the report (the run's artifact)" % where)
    return page


def main():
    for tool in ("gh", "git", "curl", "jq", "cmark-gfm", "ghc", "dpkg-deb"):
        if not shutil.which(tool):
            print("action.sh: %s not installed: skipped" % tool)
            return 77
    tmp = tempfile.mkdtemp(prefix="ev2hp-action.")
    try:
        return story(World(tmp))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def release_upload(world, deb_name, deb):
    """release.yml's upload step, with Debian's gh, the package built beside it (its build
    step is debian_package.sh's dpkg-buildpackage, not run here)."""
    with open(os.path.join(action_world.SRCDIR, ".github", "workflows", "release.yml")) as f:
        steps = yaml.safe_load(f)["jobs"]["deb"]["steps"]
    build = [s for s in steps if "dpkg-buildpackage -us -uc -b" in s.get("run", "")]
    upload = [s for s in steps if "gh release upload" in s.get("run", "")]
    if len(build) != 1 or len(upload) != 1:
        fail("release.yml: no build step or no upload step")
        return
    d = os.path.join(world.tmp, "release")
    os.makedirs(d)
    with open(os.path.join(d, deb_name), "wb") as f:
        f.write(deb)
    env = dict(os.environ, **github_stub.proxy_env(world.proxy))
    env.update(GH_TOKEN=action_world.TOKEN, GH_HOST="github.localhost",
               GH_CONFIG_DIR=os.path.join(d, "gh"), GITHUB_REF_NAME="v1",
               GITHUB_REPOSITORY="owner/ev2hp")
    rc = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c",
                         upload[0]["run"]], cwd=d, env=env).returncode
    got = dict(world.state.releases[("owner/ev2hp", "v1")])
    if rc or got.get(deb_name) != deb:
        fail("release.yml: the upload step (status %d) did not attach %s: %s"
             % (rc, deb_name, sorted(got)))
    else:
        ok("release.yml: %s attached to the release v1 (gh release upload)" % deb_name)


def story(world):
    st = world.state
    prog = world.build_program()
    deb_name, deb = world.make_deb()
    # 0. the release v1 published: .github/workflows/release.yml attaches the package
    st.releases[("owner/ev2hp", "v1")] = [("ev2hp-1.0.tar.gz", b"source")]
    release_upload(world, deb_name, deb)
    inputs = {"command": prog, "max-peak": "512M", "max-increase": "10", "max-growth": "1M/s"}

    # 1. main, three pushes (the history the trend starts from), the first run twice (a
    # re-run: the same bytes, nothing new to commit)
    for n in (1, 1, 2, 3):
        if "m%d" % n not in world.commits:
            world.commit("m%d" % n, "2026-01-0%dT10:00:00Z" % n)
        status, outputs, steps, text, arts = world.push(
            "main's push %d" % n, "m%d" % n,
            inputs=dict(inputs, outputs="svg png html benchmark", command="",
                        eventlog=os.path.join(action_world.SRCDIR, "tests", "data",
                                              "flat-hc.eventlog")) if n == 1 else
            dict(inputs, outputs="svg png html benchmark"))
        if status:
            fail("main's push %d: status %d" % (n, status))
    log = open(world.log).read() if os.path.exists(world.log) else ""
    if "sudo apt-get install -y -qq --no-install-recommends %s" % os.path.join(
            world.tmp, "run%d" % world.run_id, "runner-temp", "ev2hp-deb", deb_name) not in log:
        fail("main's push: the release's .deb was not installed (%s)" % log.strip())
    elif not requests(st, "GET", r"/repos/owner/ev2hp/releases/assets/\d+"):
        fail("main's push: gh did not download the release asset")
    else:
        ok("main's push: ev2hp installed from the release v1's %s (gh release download)" % deb_name)
    if requests(st, "POST", r"/repos/.*/comments"):
        fail("main's push: commented (no pull request)")
    if sorted(arts) != ["heap-profile", "heap-profile-eventlog"]:
        fail("main's push: artifacts %s" % sorted(arts))
    elif not {"heap.png", "heap.svg", "heap.html", "heap-summary.md"} <= set(arts["heap-profile"]):
        fail("main's push: the outputs uploaded: %s" % sorted(arts["heap-profile"]))
    else:
        ok("main's push: outputs and the eventlog uploaded, no comment")
    bench = json.loads(arts["heap-profile"].get("heap-benchmark.json", b"[]"))
    if not bench or not all({"name", "unit", "value"} <= set(b) for b in bench):
        fail("main's push: heap-benchmark.json is not github-action-benchmark's list: %s" % bench)
    if "| Band | Peak |" not in text:
        fail("main's push: no summary in the job summary")
    for n in (1, 2, 3):
        sha = world.commits["m%d" % n]
        r = subprocess.run(["git", "--git-dir", world.bare, "cat-file", "blob",
                            "ev2hp-pictures:history/main/%s.json" % sha], capture_output=True,
                           text=True)
        if r.returncode or json.loads(r.stdout).get("commit", {}).get("sha") != sha:
            fail("main's push %d: no history/main/%s.json on the pictures branch" % (n, sha))
        else:
            h = json.loads(r.stdout)
            ok("main's push %d: history/main/%s.json on ev2hp-pictures (peak %d bytes, %s)"
               % (n, sha[:7], h["peak"]["bytes"], h["commit"]["time"]))

    # 2. the pull request's first push
    world.commit("p1", "2026-01-04T10:00:00Z")
    status, outputs, steps, text, arts = world.push("first push of #7", "p1", pr=7, inputs=inputs)
    if status:
        fail("first push: status %d" % status)
    if not requests(st, "GET", r"/repos/owner/project/actions/runs/9004/artifacts"):
        fail("first push: main's run's artifacts were not asked for (gh run download)")
    posts = requests(st, "POST", r"/repos/owner/project/issues/7/comments")
    comments = st.comments.get(7, [])
    if len(posts) != 1 or len(comments) != 1:
        fail("first push: %d comments made, %d on the pull request" % (len(posts), len(comments)))
    else:
        cid = comments[0]["id"]
        ok("first push: one comment made (id %d)" % cid)
        check_comment(world, comments[0]["body"], "first push", "p1", True)
        if outputs.get("comment-url") != comments[0]["html_url"]:
            fail("first push: the output comment-url is %r" % outputs.get("comment-url"))
    if "## ev2hp: ✅ every gate passed" not in text:
        fail("first push: the job summary has not the comment's verdict")

    # 3. the second push: a gate fails
    world.commit("p2", "2026-01-05T10:00:00Z")
    status, outputs, steps, text, arts = world.push(
        "second push of #7", "p2", pr=7, inputs=dict(inputs, **{"max-peak": "100K"}))
    comments = st.comments.get(7, [])
    patches = requests(st, "PATCH", r"/repos/owner/project/issues/comments/\d+")
    posts = requests(st, "POST", r"/repos/owner/project/issues/7/comments")
    if status == 0 or steps["comment"]["outcome"] != "success":
        fail("second push: the action's status %d, the comment step %s"
             % (status, steps["comment"]["outcome"]))
    elif [s for s, v in steps.items() if v["outcome"] == "failure"] != ["__step%d" % (
            len(steps) - 1)]:
        fail("second push: the failed steps: %s" % [s for s, v in steps.items()
                                                     if v["outcome"] == "failure"])
    else:
        ok("second push: the last step (the gates) failed, after the comment")
    if len(posts) != 1 or len(patches) != 1 or len(comments) != 1:
        fail("second push: %d POST, %d PATCH, %d comments" % (len(posts), len(patches), len(comments)))
    elif patches[0]["path"] != "/repos/owner/project/issues/comments/%d" % comments[0]["id"]:
        fail("second push: PATCH %s, not the comment %d" % (patches[0]["path"], comments[0]["id"]))
    else:
        body = comments[0]["body"]
        ok("second push: the same comment edited (PATCH %s)" % patches[0]["path"])
        if "## ev2hp: ❌ a gate failed" not in body or "`--max-peak` | 100 KiB" not in body:
            fail("second push: the edited comment does not say the gate failed")
        check_comment(world, body, "second push", "p2", True, trend=True)
    check_trend(world, os.path.join(world.workspace, "heap-profile", "trend.svg"),
                ["m1", "m2", "m3", "p1", "p2"], "p2")
    # another run's push lands between this run's fetch and push: made again on top
    def other_run():
        # a commit of another pull request's pictures on top of the branch, in the bare
        # repository (as its push would leave it)
        env = dict(os.environ, GIT_INDEX_FILE=os.path.join(world.tmp, "race.index"),
                   GIT_AUTHOR_NAME="b", GIT_AUTHOR_EMAIL="b@b", GIT_COMMITTER_NAME="b",
                   GIT_COMMITTER_EMAIL="b@b")
        git = ["git", "--git-dir", world.bare]
        sh(*git, "read-tree", "ev2hp-pictures", env=env)
        blob = subprocess.run(git + ["hash-object", "-w", "--stdin"], input=b"other",
                              capture_output=True, check=True).stdout.decode().strip()
        sh(*git, "update-index", "--add", "--cacheinfo", "100644,%s,other-run/heap.png" % blob,
           env=env)
        tree = sh(*git, "write-tree", env=env).strip()
        new = sh(*git, "commit-tree", tree, "-p", "ev2hp-pictures", "-m", "other run",
                 env=env).strip()
        sh(*git, "update-ref", "refs/heads/ev2hp-pictures", new)
    st.race = other_run
    world.commit("p2b", "2026-01-05T12:00:00Z")
    status, outputs, steps, text, arts = world.push("#7 racing another run", "p2b", pr=7,
                                                    inputs=inputs)
    tree = sh("git", "--git-dir", world.bare, "ls-tree", "-r", "--name-only", "ev2hp-pictures")
    if st.race or status or "other-run/heap.png" not in tree or \
            "%s/heap.png" % world.commits["p2b"] not in tree:
        fail("race: the other run's push and this one's are not both on the branch "
             "(status %d)" % status)
    else:
        ok("race: another run pushed first; the pictures were committed again on top of it")

    # 4. a pull request from a fork (its token may not comment) whose labels are markup
    evil = os.path.join(world.tmp, "evil.hp")
    with open(evil, "w") as f:
        f.write('JOB "evil <script>alert(1)</script> | `x` ![i](http://evil.example/i.png)"\n'
                'SAMPLE_UNIT "seconds"\nVALUE_UNIT "bytes"\n')
        for i in range(1, 7):
            f.write("BEGIN_SAMPLE %d.0\n" % i)
            for n, label in enumerate(["<script>alert(1)</script>", "a|b", "`code` *em* _u_",
                                       "[link](http://evil.example) <b>b</b> &amp;",
                                       "![img](http://evil.example/x.png) @someone #1 ~~s~~",
                                       "www.evil.example/path x@evil.example"]):
                f.write("%s\t%d\n" % (label, i * (6000 - 800 * n)))
            f.write("END_SAMPLE %d.0\n" % i)
    world.commit("f1", "2026-01-06T10:00:00Z")
    st.refuse.add(("POST", r"/repos/owner/project/issues/8/comments"))
    status, outputs, steps, text, arts = world.push(
        "a fork's pull request #8", "f1", pr=8, inputs={"eventlog": evil, "base": "none"})
    if status or steps["comment"]["outcome"] != "success" or st.comments.get(8):
        fail("fork: status %d, the comment step %s, comments %s" % (
            status, steps["comment"]["outcome"], st.comments.get(8)))
    else:
        ok("fork: the comment refused (403): a warning, the job's status is the gates' (0)")
    page = render(text)
    bad = page.tags - {"h2", "h3", "h4", "ul", "li", "strong", "p", "table", "thead", "tbody",
                       "tr", "th", "td", "code", "a", "img", "em"}
    ours = [u for u in page.links + page.images
            if not u.startswith("http://github.localhost/owner/project/")]
    if bad or ours or "evil.example" in "".join(page.links + page.images):
        fail("fork: labels act in the rendered comment: tags %s, links %s" % (bad, ours))
    elif not text.startswith("<!-- ev2hp -->") or "&lt;script&gt;" not in subprocess.run(
            ["cmark-gfm", "--extension", "table"], input=text, capture_output=True,
            text=True).stdout:
        fail("fork: the hostile labels are not shown as text")
    else:
        ok("fork: rendered by cmark-gfm with GitHub's extensions, no label acts "
           "(links and images: the action's own, %d)" % len(page.links + page.images))

    # 5. a release without a .deb: built from the action's source
    world.commit("p3", "2026-01-07T10:00:00Z")
    before = open(world.log).read()
    status, outputs, steps, text, arts = world.push(
        "#7 with an action ref that has no release", "p3", pr=7, inputs=inputs, action_ref="main")
    log = open(world.log).read()[len(before):]
    if not requests(st, "GET", r"/repos/owner/ev2hp/releases/tags/main"):
        fail("no release: the release was not asked for")
    elif "libmicrohttpd-dev" not in log or "autoreconf -fi in " not in log:
        fail("no release: the source build was not started (%s)" % log)
    else:
        ok("no release (404): the build's packages asked for, the source build started")

    unanswered = [r for r in st.requests if not r["answered"]]
    for r in unanswered:
        fail("the stand-in could not answer %s %s%s" % (r["method"], r["host"], r["path"]))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
