#!/usr/bin/env python3
"""ci_recipes.py — docs/ci.md's CI jobs (its ```yaml blocks: GitHub Actions, GitLab CI), run as a
fresh runner runs them: in an empty folder that holds only the project's checkout
(tests/docs/ci_project: a Makefile and bench.c), with a calltree of the build on PATH.

Each job is run three times, as three pipelines of one repository, the same folder emptied
between them, with only what the job's cache keeps (runs/, ~/.cache/calltree) carried over:
  1. the first pipeline ever (no cache): the job passes;
  2. the same code again: it passes, and the folder holds two runs;
  3. a pull request that makes hot() 5 % slower, which moves the program total by less than
     2 %: the job's gate fails it (exit 1), and its Markdown names hot().

What needs the CI service itself is not run, and each such step is named as it is skipped:
GitHub's `uses:` steps (checkout: the folder is the checkout; cache: carried over as above;
upload-artifact), and the steps that install packages (apt-get: the machine has valgrind, make
and cc; scripts/deb-check.sh installs the .debs). ${{ github.run_number }} and
$CI_PIPELINE_IID are the pipeline's number, $GITHUB_STEP_SUMMARY a file. Every other line runs,
with bash -e, as both services run them.

Usage: ci_recipes.py CALLTREE CI_MD PROJECT_DIR
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

import yaml

calltree, ci_md, project = (os.path.abspath(a) for a in sys.argv[1:4])
failures = []


def fail(msg):
    print("FAIL:", msg)
    failures.append(msg)


def installs_packages(script):
    return re.match(r"\s*(sudo\s+)?apt(-get)?\s", script) is not None


def yaml_blocks(path):
    text = open(path).read()
    return [yaml.safe_load(b) for b in re.findall(r"^```yaml\n(.*?)^```$", text, re.M | re.S)]


def github_steps(job):
    """The run: scripts of a GitHub job, the skipped steps named."""
    scripts = []
    for step in job["steps"]:
        if "uses" in step:
            print("   skipped (the CI service's own): uses: %s" % step["uses"])
        elif installs_packages(step["run"]):
            print("   skipped (installs packages): %s" % step["run"].strip())
        else:
            scripts.append(step["run"])
    return scripts


def gitlab_steps(job):
    scripts = []
    for key in ("before_script", "script", "after_script"):
        for line in job.get(key, []):
            if installs_packages(line):
                print("   skipped (installs packages): %s" % line)
            else:
                scripts.append(line)
    return scripts


def run_pipeline(name, scripts, number, cache, kept, hot_rounds, substitute):
    """Runs one pipeline in a fresh folder; returns (exit status, folder, env)."""
    work = os.path.join(root, "job")  # (the same path each time, as a runner's checkout)
    home = os.path.join(root, "home")
    for d in (work, home):
        shutil.rmtree(d, ignore_errors=True)
    shutil.copytree(project, work)  # the checkout
    os.makedirs(home)
    if hot_rounds is not None:  # the pull request's change
        src = os.path.join(work, "bench.c")
        text = open(src).read()
        open(src, "w").write(text.replace("#define HOT_ROUNDS 300000", "#define HOT_ROUNDS %d" % hot_rounds))
    for rel in kept:  # the cache restored
        saved = os.path.join(cache, rel)
        if os.path.exists(saved):
            dest = os.path.join(home if rel.startswith("~/") else work, rel.removeprefix("~/"))
            shutil.copytree(saved, dest)
    summary = os.path.join(root, "summary-%s-%d.md" % (name, number))
    env = {"PATH": os.path.join(root, "bin") + ":/usr/bin:/bin", "HOME": home,
           "GITHUB_STEP_SUMMARY": summary, "CI_PIPELINE_IID": str(number), "LANG": "C.UTF-8"}
    status = 0
    log = open(os.path.join(root, "log-%s-%d" % (name, number)), "w")
    for script in scripts:
        script = substitute(script, number)
        status = subprocess.call(["bash", "-e", "-c", script], cwd=work, env=env, stdout=log, stderr=log)
        if status != 0:
            break
    log.close()
    if status == 0:  # the cache is saved when the job passes (both services' default)
        for rel in kept:
            src = os.path.join(home if rel.startswith("~/") else work, rel.removeprefix("~/"))
            if os.path.exists(src):
                shutil.rmtree(os.path.join(cache, rel), ignore_errors=True)
                shutil.copytree(src, os.path.join(cache, rel))
    return status, work, summary


def check_job(name, scripts, kept, substitute, markdown_of):
    print("-- %s: %d steps run" % (name, len(scripts)))
    cache = os.path.join(root, "cache-" + name)
    os.makedirs(cache)
    want = [(1, None, 0), (2, None, 0), (3, 315000, 1)]
    for number, hot, expected in want:
        status, work, summary = run_pipeline(name, scripts, number, cache, kept, hot, substitute)
        log = open(os.path.join(root, "log-%s-%d" % (name, number))).read()
        print("   pipeline %d%s: exit %d" % (number, " (hot() 5 % slower)" if hot else "", status))
        if status != expected:
            fail("%s: pipeline %d exits %d, not %d:\n%s" % (name, number, status, expected, log[-3000:]))
            return
        runs = sorted(os.listdir(os.path.join(work, "runs")))
        if len(runs) != number:
            fail("%s: pipeline %d: runs/ holds %s" % (name, number, runs))
        md = markdown_of(work, summary)
        if number == 1 and "### calltree trend: 1 run\n" not in md:
            fail("%s: the first pipeline's Markdown: %s" % (name, md[:400]))
        if number == 3:
            # The total moved by less than the gate's 2 %: only the per-function gate fails it.
            total = re.search(r"\*\*program total\*\* \| `Ir` \| total \| ([\d,]+) \| ([\d,]+) \|", md)
            if total:
                before, after = (int(x.replace(",", "")) for x in total.groups())
                if not after < before * 1.02:
                    fail("%s: the program total moved by 2 %% or more: %d -> %d" % (name, before, after))
            if not re.search(r"Gate failed[^\n]*\n\n(- .*\n)*- `hot` \(self\): [\d,]+ -> [\d,]+ \(\+5\.\d\d%\)", md):
                fail("%s: the gate does not name hot(): %s" % (name, md))


root = tempfile.mkdtemp()
try:
    os.makedirs(os.path.join(root, "bin"))
    os.symlink(calltree, os.path.join(root, "bin", "calltree"))
    for tool in ("valgrind", "make", "cc", "sort", "ls", "tail", "head", "cat", "mkdir"):
        if not shutil.which(tool, path="/usr/bin:/bin"):
            fail("%s is not installed" % tool)
    blocks = yaml_blocks(ci_md)
    github = [b for b in blocks if isinstance(b, dict) and "jobs" in b]
    gitlab = [b for b in blocks if isinstance(b, dict) and "jobs" not in b]
    if len(github) != 1 or len(gitlab) != 1:
        fail("ci.md: %d GitHub and %d GitLab jobs, not one of each" % (len(github), len(gitlab)))
    else:
        job = github[0]["jobs"]["profile"]
        kept = []
        for step in job["steps"]:
            if step.get("uses", "").startswith("actions/cache@"):
                kept = [p.strip() for p in step["with"]["path"].split("\n") if p.strip()]
        if sorted(kept) != ["runs", "~/.cache/calltree"]:
            fail("the GitHub job's cache keeps %s" % kept)

        def github_vars(script, number):
            return script.replace("${{ github.run_number }}", str(number))

        check_job("github", github_steps(job), kept, github_vars,
                  lambda work, summary: open(summary).read() if os.path.exists(summary) else "")
        name, job = next(iter(gitlab[0].items()))
        kept = [p.rstrip("/") for p in job["cache"]["paths"]]
        check_job("gitlab", gitlab_steps(job), kept, lambda script, number: script,
                  lambda work, summary: open(os.path.join(work, "trend.md")).read())
finally:
    shutil.rmtree(root, ignore_errors=True)

if failures:
    sys.exit(1)
print("ok: docs/ci.md's GitHub and GitLab jobs: a fresh runner passes, a 5 % slower hot() fails")
