"""github_stub.py: a small stand-in for GitHub, for the tests of the Action (tests/action.sh).

GitHub cannot run here, so this server answers as the documented REST endpoints the
Action uses do, and records every request. It is reached as an HTTP proxy: the Action's
gh, curl and git are pointed at the host github.localhost (GITHUB_SERVER_URL
http://github.localhost; gh's own name for a local GitHub, whose API it calls over plain
HTTP at http://api.github.localhost/) with http_proxy and HTTP_PROXY set to this server, so
they send it absolute URLs and no certificate is needed. It serves:

  api.github.localhost (REST, token required: "Authorization: token T" as gh sends it)
    GET   /repos/O/R/issues/N/comments        the comments, 30 a page (per_page, page,
                                              a Link header to the next page)
    POST  /repos/O/R/issues/N/comments        201 and the new comment
    PATCH /repos/O/R/issues/comments/ID       200 and the edited comment
    GET   /repos/O/R/releases/tags/TAG        the release, or 404 (none)
    GET   /repos/O/R/releases/assets/ID       the asset's bytes (Accept: octet-stream)
    DELETE /repos/O/R/releases/assets/ID      (gh release upload --clobber)
    GET   /repos/O/R/actions/workflows[/ID]   the workflows (gh run list --workflow)
    GET   /repos/O/R/actions[/workflows/ID]/runs  the runs, filtered by branch
    GET   /repos/O/R/actions/runs/ID/artifacts    a run's artifacts
    GET   /repos/O/R/actions/artifacts/ID/zip     an artifact as a zip
    POST  /graphql                            RepositoryReleaseByTag, which gh asks beside
                                              the REST lookup of a release
  github.localhost (the site)
    /O/R.git/...                              git's smart HTTP (git http-backend) on a
                                              local bare repository, push and fetch, the
                                              token as actions/checkout sends it (basic)
    GET /O/R/blob/BRANCH/PATH?raw=true        302 to raw.github.localhost, as GitHub does
  uploads.github.localhost
    POST /repos/O/R/releases/ID/assets?name=N  a release asset uploaded (the upload_url)
  raw.github.localhost
    GET /O/R/BRANCH/PATH                      the file's bytes from the bare repository
  gitlab.localhost (GitLab's API: JOB-TOKEN for artifacts, PRIVATE-TOKEN for the rest)
    GET  /api/v4/projects/ID/jobs/artifacts/REF/raw/PATH?job=NAME   a job's file
    POST /api/v4/projects/ID/uploads          a file for notes (multipart), its Markdown
    GET/POST /api/v4/projects/ID/merge_requests/IID/notes, PUT .../notes/NOTE_ID

Anything else is a 404 and recorded as unanswered, so a test sees an endpoint it did not
expect.
"""
import base64
import email.parser
import email.policy
import http.server
import io
import json
import os
import re
import subprocess
import threading
import urllib.parse
import zipfile

HOST = "github.localhost"


class State:
    """What the stand-in knows: the repository, its comments, releases, runs; and what it
    was asked (requests: a list of dicts, method, host, path, body)."""

    def __init__(self, token, bare=None):
        self.token = token
        self.bare = bare            # the pictures' bare repository (the site's O/R.git)
        self.comments = {}          # issue number -> [comment]
        self.next_id = 1000
        self.releases = {}          # (repo, tag) -> [(name, bytes)]
        self.runs = []              # dicts: id, branch, status, workflow, artifacts {name: {file: bytes}}
        self.workflows = []         # names
        self.notes = {}             # GitLab: mr iid -> [note]
        self.uploads = {}           # GitLab: /uploads/HASH/NAME -> bytes
        self.gitlab_artifacts = {}  # GitLab: (ref, path, job) -> bytes
        self.refuse = set()         # (method, path regex) answered 403
        self.race = None            # a function run once before a push is answered: another
                                    # run's push landing first
        self.requests = []
        self.lock = threading.Lock()


def _page(items, query, base_url):
    per = int(query.get("per_page", ["30"])[0])
    page = int(query.get("page", ["1"])[0])
    chunk = items[(page - 1) * per: page * per]
    link = None
    if page * per < len(items):
        q = dict((k, v[0]) for k, v in query.items())
        q.update(page=str(page + 1), per_page=str(per))
        link = '<%s?%s>; rel="next"' % (base_url, urllib.parse.urlencode(q))
    return chunk, link


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    state = None  # set by start()

    def log_message(self, *args):
        pass

    def handle(self):
        try:
            super().handle()
        except (BrokenPipeError, ConnectionResetError):
            pass   # the client went away (gh drops a query it no longer needs)

    def _send(self, code, body=b"", ctype="application/json; charset=utf-8", headers=()):
        if isinstance(body, (dict, list)):
            body = json.dumps(body).encode()
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _record(self, host, path, body, answered):
        rec = {"method": self.command, "host": host, "path": path, "answered": answered}
        if body and self.headers.get("Content-Type", "").startswith("application/json"):
            try:
                rec["json"] = json.loads(body)
            except ValueError:
                rec["body"] = body.decode(errors="replace")
        with self.state.lock:
            self.state.requests.append(rec)

    def _handle(self):
        url = urllib.parse.urlsplit(self.path)
        host = (url.hostname or self.headers.get("Host", "")).lower()
        path = url.path
        query = urllib.parse.parse_qs(url.query)
        n = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(n) if n else b""
        try:
            answered = self._route(host, path, query, body, url)
        except (BrokenPipeError, ConnectionResetError):
            answered = True   # the client went away (gh drops the query it no longer needs)
        except Exception as e:  # a bug here: say so to the client and the test
            answered = False
            self._send(500, {"message": "stub error: %r" % e})
        self._record(host, path + ("?" + url.query if url.query else ""), body, answered)

    do_GET = do_POST = do_PATCH = do_PUT = do_DELETE = do_HEAD = _handle

    # --- routing ------------------------------------------------------------------
    def _route(self, host, path, query, body, url):
        st = self.state
        for method, rx in st.refuse:
            if method == self.command and re.fullmatch(rx, path):
                self._send(403, {"message": "Resource not accessible by integration"})
                return True
        if host == "api." + HOST:
            if self.headers.get("Authorization") != "token " + st.token:
                self._send(401, {"message": "Bad credentials"})
                return True
            return self._api(path, query, body)
        if host == HOST:
            m = re.fullmatch(r"/([^/]+/[^/]+?)\.git(/.*)", path)
            if m:
                return self._git(m.group(2), url.query, body)
            m = re.fullmatch(r"/([^/]+/[^/]+)/blob/([^/]+)/(.+)", path)
            if m and query.get("raw") == ["true"]:
                self._send(302, b"", "text/html", [("Location", "http://raw.%s/%s/%s/%s" % (
                    HOST, m.group(1), m.group(2), m.group(3)))])
                return True
        if host == "uploads." + HOST:
            if self.headers.get("Authorization") != "token " + st.token:
                self._send(401, {"message": "Bad credentials"})
                return True
            m = re.fullmatch(r"/repos/([^/]+/[^/]+)/releases/(\d+)/assets", path)
            if m and self.command == "POST":
                key = sorted(st.releases)[int(m.group(2)) - 1]
                name = query["name"][0]
                with st.lock:
                    st.releases[key] = [a for a in st.releases[key] if a[0] != name] + [(name, body)]
                i = [a[0] for a in st.releases[key]].index(name)
                self._send(201, self._release(key[0], key[1], st.releases[key])["assets"][i])
                return True
        if host == "raw." + HOST:
            m = re.fullmatch(r"/([^/]+/[^/]+)/([^/]+)/(.+)", path)
            if m and st.bare:
                r = subprocess.run(["git", "--git-dir", st.bare, "cat-file", "blob",
                                    "%s:%s" % (m.group(2), m.group(3))], capture_output=True)
                if r.returncode == 0:
                    self._send(200, r.stdout, "image/png" if path.endswith(".png")
                               else "text/plain; charset=utf-8")
                    return True
            self._send(404, b"404: Not Found", "text/plain")
            return True
        if host == "gitlab.localhost":
            return self._gitlab(path, body)
        self._send(404, {"message": "Not Found"})
        return False

    def _api(self, path, query, body):
        st = self.state
        base = "http://api.%s%s" % (HOST, path)
        if path == "/graphql":
            # gh release download asks at once for the release by REST and, by GraphQL,
            # whether the tag names a draft (RepositoryReleaseByTag); only that query
            q = json.loads(body)
            if "RepositoryReleaseByTag" not in q.get("query", ""):
                self._send(200, {"errors": [{"message": "stub: unknown query"}]})
                return False
            v = q["variables"]
            found = ("%s/%s" % (v["owner"], v["name"]), v["tagName"]) in st.releases
            self._send(200, {"data": {"repository": {"release": {
                "databaseId": 1, "isDraft": False} if found else None}}})
            return True
        m = re.fullmatch(r"/repos/([^/]+/[^/]+)/issues/(\d+)/comments", path)
        if m:
            with st.lock:
                items = st.comments.setdefault(int(m.group(2)), [])
                if self.command == "GET":
                    chunk, link = _page(items, query, base)
                    self._send(200, chunk, headers=[("Link", link)] if link else [])
                    return True
                if self.command == "POST":
                    c = self._comment(m.group(1), int(m.group(2)), json.loads(body)["body"])
                    items.append(c)
                    self._send(201, c)
                    return True
        m = re.fullmatch(r"/repos/([^/]+/[^/]+)/issues/comments/(\d+)", path)
        if m and self.command == "PATCH":
            with st.lock:
                for items in st.comments.values():
                    for c in items:
                        if c["id"] == int(m.group(2)):
                            c["body"] = json.loads(body)["body"]
                            c["updated_at"] = "2026-01-01T00:00:%02dZ" % (len(st.requests) % 60)
                            self._send(200, c)
                            return True
            self._send(404, {"message": "Not Found"})
            return True
        m = re.fullmatch(r"/repos/([^/]+/[^/]+)/releases/tags/(.+)", path)
        if m:
            assets = st.releases.get((m.group(1), m.group(2)))
            if assets is None:
                self._send(404, {"message": "Not Found",
                                 "documentation_url": "https://docs.github.com/rest/releases/releases#get-a-release-by-tag-name"})
                return True
            self._send(200, self._release(m.group(1), m.group(2), assets))
            return True
        m = re.fullmatch(r"/repos/([^/]+/[^/]+)/releases/assets/(\d+)", path)
        if m and self.command == "DELETE":
            for (repo, tag), assets in st.releases.items():
                for i in range(len(assets)):
                    if repo == m.group(1) and self._asset_id(repo, tag, i) == int(m.group(2)):
                        with st.lock:
                            del assets[i]
                        self._send(204)
                        return True
        if m:
            for (repo, tag), assets in st.releases.items():
                for i, (name, data) in enumerate(assets):
                    if repo == m.group(1) and self._asset_id(repo, tag, i) == int(m.group(2)):
                        self._send(200, data, "application/octet-stream")
                        return True
        m = re.fullmatch(r"/repos/([^/]+/[^/]+)/actions/workflows(?:/([^/]+))?", path)
        if m and self.command == "GET":
            wfs = [{"id": 100 + i, "name": w, "path": ".github/workflows/%d.yml" % i,
                    "state": "active"} for i, w in enumerate(st.workflows)]
            if m.group(2):
                wf = [w for w in wfs if str(w["id"]) == m.group(2)
                      or w["path"].endswith("/" + m.group(2))]
                self._send(200 if wf else 404, wf[0] if wf else {"message": "Not Found"})
            else:
                self._send(200, {"total_count": len(wfs), "workflows": wfs})
            return True
        m = re.fullmatch(r"/repos/([^/]+/[^/]+)/actions(?:/workflows/(\d+))?/runs", path)
        if m:
            runs = [r for r in st.runs if
                    (not m.group(2) or 100 + st.workflows.index(r["workflow"]) == int(m.group(2)))
                    and r["branch"] == query.get("branch", [r["branch"]])[0]]
            runs = sorted(runs, key=lambda r: -r["id"])
            chunk, link = _page(runs, query, base)
            self._send(200, {"total_count": len(runs), "workflow_runs": [
                self._run(m.group(1), r) for r in chunk]},
                headers=[("Link", link)] if link else [])
            return True
        m = re.fullmatch(r"/repos/([^/]+/[^/]+)/actions/runs/(\d+)/artifacts", path)
        if m:
            run = [r for r in st.runs if r["id"] == int(m.group(2))]
            arts = []
            for r in run:
                for i, name in enumerate(sorted(r["artifacts"])):
                    aid = r["id"] * 10 + i
                    arts.append({"id": aid, "name": name, "expired": False, "size_in_bytes": 1,
                                 "archive_download_url": "http://api.%s/repos/%s/actions/artifacts/%d/zip"
                                 % (HOST, m.group(1), aid)})
            self._send(200, {"total_count": len(arts), "artifacts": arts})
            return True
        m = re.fullmatch(r"/repos/([^/]+/[^/]+)/actions/artifacts/(\d+)/zip", path)
        if m:
            aid = int(m.group(2))
            for r in st.runs:
                names = sorted(r["artifacts"])
                if r["id"] == aid // 10 and aid % 10 < len(names):
                    buf = io.BytesIO()
                    with zipfile.ZipFile(buf, "w") as z:
                        for fname, data in r["artifacts"][names[aid % 10]].items():
                            z.writestr(fname, data)
                    self._send(200, buf.getvalue(), "application/zip")
                    return True
        self._send(404, {"message": "Not Found"})
        return False

    def _comment(self, repo, number, text):
        self.state.next_id += 1
        cid = self.state.next_id
        return {"id": cid, "node_id": "IC_%d" % cid, "body": text,
                "url": "http://api.%s/repos/%s/issues/comments/%d" % (HOST, repo, cid),
                "html_url": "http://%s/%s/pull/%d#issuecomment-%d" % (HOST, repo, number, cid),
                "issue_url": "http://api.%s/repos/%s/issues/%d" % (HOST, repo, number),
                "user": {"login": "github-actions[bot]", "type": "Bot"},
                "created_at": "2026-01-01T00:00:00Z", "updated_at": "2026-01-01T00:00:00Z"}

    def _asset_id(self, repo, tag, i):
        return 500 + 10 * sorted(self.state.releases).index((repo, tag)) + i

    def _release_id(self, repo, tag):
        return 1 + sorted(self.state.releases).index((repo, tag))

    def _release(self, repo, tag, assets):
        rid = self._release_id(repo, tag)
        return {"id": rid, "tag_name": tag, "name": tag, "draft": False, "prerelease": False,
                "url": "http://api.%s/repos/%s/releases/%d" % (HOST, repo, rid),
                "upload_url": "http://uploads.%s/repos/%s/releases/%d/assets{?name,label}"
                % (HOST, repo, rid),
                "html_url": "http://%s/%s/releases/tag/%s" % (HOST, repo, tag),
                "tarball_url": "http://api.%s/repos/%s/tarball/%s" % (HOST, repo, tag),
                "zipball_url": "http://api.%s/repos/%s/zipball/%s" % (HOST, repo, tag),
                "assets": [{"id": self._asset_id(repo, tag, i), "name": name, "size": len(data),
                            "state": "uploaded", "content_type": "application/vnd.debian.binary-package",
                            "url": "http://api.%s/repos/%s/releases/assets/%d"
                            % (HOST, repo, self._asset_id(repo, tag, i)),
                            "browser_download_url": "http://%s/%s/releases/download/%s/%s"
                            % (HOST, repo, tag, name)} for i, (name, data) in enumerate(assets)]}

    def _run(self, repo, r):
        return {"id": r["id"], "name": r["workflow"], "head_branch": r["branch"],
                "status": r["status"], "conclusion": r.get("conclusion"),
                "workflow_id": 100 + self.state.workflows.index(r["workflow"]),
                "event": "push", "head_sha": "%040x" % r["id"], "run_number": r["id"],
                "display_title": "a commit", "created_at": "2026-01-01T00:00:00Z",
                "updated_at": "2026-01-01T00:00:00Z", "run_started_at": "2026-01-01T00:00:00Z",
                "url": "http://api.%s/repos/%s/actions/runs/%d" % (HOST, repo, r["id"]),
                "html_url": "http://%s/%s/actions/runs/%d" % (HOST, repo, r["id"]),
                "jobs_url": "http://api.%s/repos/%s/actions/runs/%d/jobs" % (HOST, repo, r["id"]),
                "head_commit": {"message": "a commit", "id": "%040x" % r["id"]}}

    def _git(self, rest, query, body):
        st = self.state
        want = "basic " + base64.b64encode(("x-access-token:" + st.token).encode()).decode()
        if self.headers.get("Authorization", "").lower() != want.lower():
            self._send(401, b"Authentication required\n", "text/plain",
                       [("WWW-Authenticate", 'Basic realm="GitHub"')])
            return True
        if rest == "/info/refs" and "service=git-receive-pack" in query and st.race:
            race, st.race = st.race, None
            race()
        env = dict(os.environ, GIT_PROJECT_ROOT=os.path.dirname(st.bare),
                   GIT_HTTP_EXPORT_ALL="1", REMOTE_USER="x-access-token",
                   PATH_INFO="/" + os.path.basename(st.bare) + rest, QUERY_STRING=query,
                   REQUEST_METHOD=self.command,
                   CONTENT_TYPE=self.headers.get("Content-Type", ""),
                   CONTENT_LENGTH=str(len(body)))
        enc = self.headers.get("Content-Encoding")
        if enc:
            env["HTTP_CONTENT_ENCODING"] = enc
        r = subprocess.run(["git", "http-backend"], input=body, env=env, capture_output=True)
        head, _, payload = r.stdout.partition(b"\r\n\r\n")
        code, headers = 200, []
        for line in head.decode().split("\r\n"):
            k, _, v = line.partition(":")
            if k.lower() == "status":
                code = int(v.split()[0])
            elif k:
                headers.append((k, v.strip()))
        ctype = dict((k.lower(), v) for k, v in headers).get("content-type", "text/plain")
        self._send(code, payload, ctype, [h for h in headers if h[0].lower() != "content-type"])
        return True

    def _gitlab(self, path, body):
        st = self.state
        m = re.fullmatch(r"/api/v4/projects/([^/]+)/jobs/artifacts/([^/]+)/raw/(.+)", path)
        if m:
            if self.headers.get("JOB-TOKEN") != st.token:
                self._send(401, {"message": "401 Unauthorized"})
                return True
            job = urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query).get("job", [""])[0]
            data = st.gitlab_artifacts.get((m.group(2), m.group(3), job))
            self._send(200 if data else 404, data or {"message": "404 Not Found"},
                       "application/octet-stream" if data else "application/json")
            return True
        if self.headers.get("PRIVATE-TOKEN") != st.token:
            self._send(401, {"message": "401 Unauthorized"})
            return True
        m = re.fullmatch(r"/api/v4/projects/([^/]+)/uploads", path)
        if m and self.command == "POST":
            msg = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
                b"Content-Type: " + self.headers["Content-Type"].encode() + b"\r\n\r\n" + body)
            part = [p for p in msg.iter_parts() if p.get_param("name", header="content-disposition") == "file"][0]
            name = part.get_filename()
            with st.lock:
                st.next_id += 1
                url = "/uploads/%032x/%s" % (st.next_id, name)
                st.uploads[url] = part.get_payload(decode=True)
            self._send(201, {"id": st.next_id, "alt": name.rsplit(".", 1)[0], "url": url,
                             "full_path": "/-/project/%s%s" % (m.group(1), url),
                             "markdown": "![%s](%s)" % (name.rsplit(".", 1)[0], url)})
            return True
        m = re.fullmatch(r"/api/v4/projects/([^/]+)/merge_requests/(\d+)/notes(?:/(\d+))?", path)
        if not m:
            self._send(404, {"message": "404 Not Found"})
            return False
        ctype = self.headers.get("Content-Type", "")
        if body and ctype.startswith("application/x-www-form-urlencoded"):
            form = dict((k, v[0]) for k, v in urllib.parse.parse_qs(body.decode()).items())
        elif body:
            form = json.loads(body)
        else:
            form = {}
        with st.lock:
            notes = st.notes.setdefault(int(m.group(2)), [])
            if self.command == "GET" and not m.group(3):
                self._send(200, notes)
                return True
            if self.command == "POST" and not m.group(3):
                st.next_id += 1
                note = {"id": st.next_id, "body": form["body"], "system": False,
                        "author": {"username": "project_1_bot"}, "noteable_type": "MergeRequest"}
                notes.append(note)
                self._send(201, note)
                return True
            if self.command == "PUT" and m.group(3):
                for note in notes:
                    if note["id"] == int(m.group(3)):
                        note["body"] = form["body"]
                        self._send(200, note)
                        return True
        self._send(404, {"message": "404 Not found"})
        return True


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True


def start(state):
    """Serves STATE on a free port of 127.0.0.1 in a thread; returns (server, proxy URL)."""
    handler = type("StubHandler", (Handler,), {"state": state})
    server = _Server(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, "http://127.0.0.1:%d" % server.server_address[1]


def proxy_env(proxy):
    """The environment that sends gh, curl and git to the stand-in."""
    env = {k: proxy for k in ("http_proxy", "HTTP_PROXY")}
    env.update(no_proxy="", NO_PROXY="", GITHUB_SERVER_URL="http://" + HOST,
               GITHUB_API_URL="http://api." + HOST, GH_NO_UPDATE_NOTIFIER="1",
               GH_PROMPT_DISABLED="1")
    return env
