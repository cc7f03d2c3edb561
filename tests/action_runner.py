"""action_runner.py: runs a composite GitHub Action (action.yml) as the runner does, for the
tests (tests/action.sh, tests/ci_workflows.sh).

The action's YAML is read with PyYAML and its steps run in order, as GitHub's runner runs
a composite action's steps: `${{ }}` expressions evaluated (the contexts inputs, github,
steps, runner, env; the operators ==, !=, &&, ||, !, with GitHub's loose comparison:
values of different types compared as numbers, strings without regard to case; the status
functions always(), success(), failure(), cancelled()); an input's default used when the
workflow gives none; each `run:` step written to a file and run as `shell: bash` is,
`bash --noprofile --norc -eo pipefail FILE`, in the workspace, with the runner's
environment (GITHUB_ACTION_PATH, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, RUNNER_TEMP...) and
the step's `env:`; what a step writes to GITHUB_OUTPUT (name=value, or name<<DELIMITER
lines) becomes steps.ID.outputs; a step after a failed one runs only when its if: says
always() or failure(). `uses:` steps are played by the caller's functions (USES: the
action's name before @ -> a function of (with, env) returning (status, outputs)), the
way actions/upload-artifact would upload.
"""
import os
import re
import subprocess
import tempfile

import yaml


# --- expressions --------------------------------------------------------------------
_TOKEN = re.compile(r"\s*(?:(?P<str>'(?:[^']|'')*')|(?P<num>-?\d+(?:\.\d+)?)|"
                    r"(?P<op>==|!=|&&|\|\||!|\(|\)|,)|(?P<name>[A-Za-z_][\w.-]*))")


def _tokens(text):
    pos, out = 0, []
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            if text[pos:].strip() == "":
                break
            raise ValueError("cannot read the expression %r at %d" % (text, pos))
        pos = m.end()
        kind = m.lastgroup
        out.append((kind, m.group(kind)))
    return out


def _number(v):
    if v is None:
        return 0.0
    if isinstance(v, bool):
        return 1.0 if v else 0.0
    if isinstance(v, (int, float)):
        return float(v)
    if isinstance(v, str):
        s = v.strip()
        if s == "":
            return 0.0
        try:
            return float(int(s, 0)) if s.lower().startswith("0x") else float(s)
        except ValueError:
            return float("nan")
    return float("nan")


def _equal(a, b):
    if isinstance(a, str) and isinstance(b, str):
        return a.lower() == b.lower()
    if type(a) is type(b) and not isinstance(a, (str, int, float, bool)) and a is not None:
        return a is b
    return _number(a) == _number(b)


def truthy(v):
    return not (v is None or v is False or v == "" or (isinstance(v, (int, float))
                                                         and not isinstance(v, bool) and v == 0))


class _Parser:
    def __init__(self, text, lookup, status):
        self.toks, self.i, self.lookup, self.status = _tokens(text), 0, lookup, status

    def peek(self):
        return self.toks[self.i] if self.i < len(self.toks) else (None, None)

    def take(self, value=None):
        tok = self.peek()
        if value is not None and tok[1] != value:
            raise ValueError("expected %s, found %s" % (value, tok[1]))
        self.i += 1
        return tok

    def parse(self):
        v = self.or_()
        if self.i != len(self.toks):
            raise ValueError("unexpected %s" % (self.peek()[1],))
        return v

    def binary(self, ops, operand, apply):
        """A left-associative level of binary operators ops between operands parsed by
        operand: apply(op, left, right) gives each one's value."""
        v = operand()
        while self.peek()[1] in ops:
            op = self.take()[1]
            v = apply(op, v, operand())
        return v

    def or_(self):
        return self.binary(("||",), self.and_, lambda op, v, w: v if truthy(v) else w)

    def and_(self):
        return self.binary(("&&",), self.cmp, lambda op, v, w: w if truthy(v) else v)

    def cmp(self):
        return self.binary(("==", "!="), self.unary,
                           lambda op, v, w: _equal(v, w) if op == "==" else not _equal(v, w))

    def unary(self):
        if self.peek()[1] == "!":
            self.take()
            return not truthy(self.unary())
        return self.atom()

    def atom(self):
        kind, value = self.take()
        if value == "(":
            v = self.or_()
            self.take(")")
            return v
        if kind == "str":
            return value[1:-1].replace("''", "'")
        if kind == "num":
            return float(value)
        if kind == "name":
            if value in ("true", "false"):
                return value == "true"
            if value == "null":
                return None
            if self.peek()[1] == "(":
                self.take("(")
                self.take(")")
                return self.status(value)
            return self.lookup(value)
        raise ValueError("unexpected %s" % value)


def _text(v):
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


class Action:
    """One composite action (the folder holding action.yml) run in WORKSPACE."""

    def __init__(self, path, uses=None):
        self.path = path
        with open(os.path.join(path, "action.yml")) as f:
            self.doc = yaml.safe_load(f)
        assert self.doc["runs"]["using"] == "composite", "not a composite action"
        self.uses = uses or {}

    def run(self, workspace, inputs, github, env, runner_temp, log=None):
        """Runs every step; returns (status: 0, or the first failed step's, the action's
        outputs, the steps' outcomes and outputs)."""
        steps, failed = {}, False
        ctx_env = dict(env)

        def lookup(name):
            parts = name.split(".")
            roots = {"inputs": given, "github": github, "steps": steps, "env": ctx_env,
                     "runner": {"temp": runner_temp, "os": "Linux", "arch": "X64"}}
            if parts[0] not in roots:
                raise ValueError("unknown context %s" % parts[0])
            v = roots[parts[0]]
            for p in parts[1:]:
                v = v.get(p) if isinstance(v, dict) else None
            return v

        def status(fn):
            return {"always": True, "success": not failed, "failure": bool(failed),
                    "cancelled": False}[fn]

        def expr(text):
            return _Parser(text, lookup, status).parse()

        def template(value):
            if not isinstance(value, str):
                return _text(value)
            return re.sub(r"\$\{\{(.*?)\}\}", lambda m: _text(expr(m.group(1))), value)

        given = {}
        for name, spec in (self.doc.get("inputs") or {}).items():
            if name in inputs:
                given[name] = _text(inputs[name])
            else:
                given[name] = template((spec or {}).get("default", ""))
        unknown = set(inputs) - set(given)
        assert not unknown, "inputs the action does not declare: %s" % sorted(unknown)

        os.makedirs(runner_temp, exist_ok=True)
        summary = env.get("GITHUB_STEP_SUMMARY") or os.path.join(runner_temp, "step-summary.md")
        for n, step in enumerate(self.doc["runs"]["steps"]):
            cond = step.get("if", "success()")
            cond = str(cond).strip()
            if cond.startswith("${{") and cond.endswith("}}"):
                cond = cond[3:-2]
            if not re.search(r"\b(always|failure|cancelled|success)\(\)", cond):
                cond = "success() && (%s)" % cond
            sid = step.get("id", "__step%d" % n)
            if not truthy(expr(cond)):
                steps[sid] = {"outputs": {}, "outcome": "skipped", "conclusion": "skipped"}
                if log:
                    log("skipped: %s" % step.get("name", sid))
                continue
            step_env = dict(env)
            for k, v in (step.get("env") or {}).items():
                step_env[k] = template(v)
            out_file = os.path.join(runner_temp, "_output_%d" % n)
            open(out_file, "w").close()
            step_env.update(GITHUB_ACTION_PATH=self.path, GITHUB_OUTPUT=out_file,
                            GITHUB_STEP_SUMMARY=summary, RUNNER_TEMP=runner_temp,
                            GITHUB_WORKSPACE=workspace)
            if "uses" in step:
                name = step["uses"].split("@")[0]
                with_ = {k: template(v) for k, v in (step.get("with") or {}).items()}
                rc, outputs = self.uses[name](with_, step_env)
            else:
                assert step.get("shell") == "bash", "a run step without shell: bash"
                with tempfile.NamedTemporaryFile("w", suffix=".sh", dir=runner_temp,
                                                 delete=False) as f:
                    f.write(template(step["run"]))
                rc = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail",
                                     f.name], cwd=workspace, env=step_env,
                                    stdin=subprocess.DEVNULL).returncode
                outputs = read_outputs(out_file)
            if log:
                log("%s: %s" % ("ok" if rc == 0 else "failed (%d)" % rc,
                                step.get("name", sid)))
            steps[sid] = {"outputs": outputs, "outcome": "success" if rc == 0 else "failure",
                          "conclusion": "success" if rc == 0 else "failure", "status": rc}
            if rc and not failed:
                failed = rc
        outs = {k: template(v["value"]) for k, v in (self.doc.get("outputs") or {}).items()}
        return (failed or 0), outs, steps


def read_outputs(path):
    """A GITHUB_OUTPUT file: name=value lines and name<<DELIMITER ... DELIMITER blocks."""
    out = {}
    with open(path) as f:
        lines = f.read().split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        m = re.fullmatch(r"([\w-]+)<<(\S+)", line)
        if m:
            end = lines.index(m.group(2), i + 1)
            out[m.group(1)] = "\n".join(lines[i + 1:end])
            i = end + 1
            continue
        if "=" in line:
            k, v = line.split("=", 1)
            out[k] = v
        i += 1
    return out
