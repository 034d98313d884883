"""serve_totals.py CALLTREE CORPUS — one total (calltree/totals.h): the figure percentages are
of is the same in `annotate --json`, `check --json` and serve's /api/v1/profile, and where the
file states a total other than the sum of its self costs, each of them shows both and says so
first: the corpus's Xdebug, pyprof2calltree and callgrind files (a short summary:, a summary:
below totals:, a wrapped one, several parts), files stating nothing, and made-up ones.
"""
import json
import os
import subprocess
import sys
import tempfile

from serve_process import FAILURES, Server, check


def run_json(*args):
    p = subprocess.run(args, capture_output=True, text=True)
    return json.loads(p.stdout), p.stderr


def main():
    calltree, corpus = sys.argv[1], sys.argv[2]
    Server.calltree = calltree
    tmp = tempfile.mkdtemp()
    made = {
        # pyprof2calltree states its largest inclusive time, below the sum of its self times.
        "py.callgrind": "events: ns\nsummary: 57000\nfl=a.py\nfn=f\n1 30000\nfn=g\n2 28000\n",
        # Xdebug: summary: after the body, time above the functions' (outside any function).
        "xd.callgrind": "version: 1\ncreator: xdebug 3.2.0\nevents: Time Memory\n\nfl=(1) a.php\n"
                        "fn=(1) {main}\n1 40 100\n\nsummary: 50 60\n",
        "none.callgrind": "events: Ir\nfl=a.c\nfn=main\n1 7\n",
        "totals15.callgrind": "events: Ir\nfl=a.c\nfn=main\n1 5\ntotals: 15\n",
    }
    files = []
    for name, text in made.items():
        path = os.path.join(tmp, name)
        with open(path, "w") as f:
            f.write(text)
        files.append(path)
    for name in ["xdebug-classes.callgrind", "xdebug-includes.callgrind",
                 "pyprof2calltree-work.callgrind", "ruby-prof-work.callgrind",
                 "vg-recurse-cacheuse.callgrind", "vg-phases-dump-before-zero-combined.callgrind",
                 "vg-clientreq-instr-atstart-no-combined.callgrind", "cachegrind-recurse.cachegrind"]:
        files.append(os.path.join(corpus, name))

    expect_program = {"py.callgrind": {"ns": 57000}, "xd.callgrind": {"Time": 50, "Memory": 60},
                      "none.callgrind": {"Ir": 7}, "totals15.callgrind": {"Ir": 15},
                      "xdebug-classes.callgrind": {"Time_(10ns)": 1247774, "Memory_(bytes)": 759096},
                      "pyprof2calltree-work.callgrind": {"ns": 23661972}}
    for path in files:
        name = os.path.basename(path)
        ann, ann_err = run_json(calltree, "annotate", "--json", path)
        chk, _ = run_json(calltree, "check", "--json", path)
        s = Server(path)
        prof = s.json("/api/v1/profile")
        s.stop()
        if not prof:
            continue
        events = ann["recorded_events"]
        warnings, below = [], []
        for e in events:
            program = ann["totals"][e]
            check(chk["program_totals"][e] == program,
                  "%s %s: check says %s, annotate %s" % (name, e, chk["program_totals"][e], program))
            check(int(prof["totals"][e]) == program,
                  "%s %s: serve says %s, annotate %s" % (name, e, prof["totals"][e], program))
            for key, got in (("totals_stated", chk["totals_stated"][e]),
                             ("totals_stated", prof["totals_stated"][e]),
                             ("totals_summed", int(prof["totals_summed"][e]))):
                want = ann[key][e]
                check(got == want if got is None or want is None else int(got) == int(want),
                      "%s %s: %s %s, annotate %s" % (name, e, key, got, want))
            check(ann["totals_summed"][e] == chk["totals"][e],
                  "%s %s: summed %s, check's totals %s" % (name, e, ann["totals_summed"][e],
                                                          chk["totals"][e]))
            stated, summed = ann["totals_stated"][e], ann["totals_summed"][e]
            # The program total is the stated one where there is one, else the sum.
            check(program == (stated if stated is not None else summed),
                  "%s %s: program %s, stated %s, summed %s" % (name, e, program, stated, summed))
            if stated is not None and stated != summed:
                warnings.append("the file states a total of %d %s but its self costs sum to %d"
                                % (stated, e, summed))
                if stated < summed:  # (the reader's summary-mismatch warning says it: check's text)
                    below.append("summary: says %d %s, less than" % (stated, e))
            if name in expect_program and e in expect_program[name]:
                check(program == expect_program[name][e],
                      "%s %s: program total %s, not %s" % (name, e, program,
                                                           expect_program[name][e]))
        # Both figures, said first, the same sentence everywhere.
        for where, said in (("annotate --json", ann["totals_warnings"]),
                            ("check --json", chk["totals_warnings"]),
                            ("serve's first warnings", prof["inputs"][-1]["warnings"][:len(warnings)]),
                            ("annotate's stderr", [l[len("calltree annotate: warning: "):]
                                                   for l in ann_err.splitlines()[:len(warnings)]])):
            check(len(said) == len(warnings) and all(s.startswith(w) for s, w in zip(said, warnings)),
                  "%s: %s says %s, expected %s" % (name, where, said, warnings))
        # check's text says each once: a stated total below the sum in the reader's
        # summary-mismatch warning (stderr, at its line), any other in the summary's lines.
        r = subprocess.run([calltree, "check", path], capture_output=True, text=True)
        lines = [l for l in r.stdout.splitlines() if l.startswith(path + ": warning: the file states")]
        check(len(lines) == len(warnings) - len(below), "%s: check's text says %s" % (name, lines))
        for b in below:
            check(r.stderr.count(b) == 1, "%s: check's diagnostics say '%s' %d times"
                  % (name, b, r.stderr.count(b)))
        print("ok: %s: %s" % (name, ", ".join("%s %s" % (e, ann["totals"][e]) for e in events)))

    # A part of several: annotate --part and check agree with the rule per part
    # (vg-phases-dump-before-zero part 4: summary 154,871,410 below totals: 162,313,504).
    f = os.path.join(corpus, "vg-phases-dump-before-zero-combined.callgrind")
    ann, _ = run_json(calltree, "annotate", "--json", "--part=4", f)
    check(ann["totals"]["Ir"] == 162313504, "part 4: %s" % ann["totals"]["Ir"])
    if FAILURES:
        print("%d failure(s)" % len(FAILURES))
        sys.exit(1)
    print("serve_totals.py: all passed")


if __name__ == "__main__":
    main()
