"""`go tool pprof -raw` output, parsed (shared by check_pprof.py and check_fleet.py)."""
import re
from collections import defaultdict

LOC = re.compile(r"^\s*(\d+): 0x[0-9a-f]+ (?:M=\d+ )?(.*):(\d+) s=(\d+)(?:\(.*\))?$")
SAMPLE = re.compile(r"^\s*(-?\d+(?:\s+-?\d+)*):((?:\s+\d+)*)\s*$")


def raw_sections(text):
    """`go tool pprof -raw` output: (sample type strings, [(values, [location ids])], {section:
    [line]}), the Samples section parsed, the Locations and Mappings sections' lines kept."""
    types, samples, lines = [], [], {"Locations": [], "Mappings": []}
    section = None
    for line in text.splitlines():
        if line in ("Samples:", "Locations", "Mappings"):
            section = line
            continue
        if section == "Samples:":
            if not types:
                types = [t.replace("[dflt]", "") for t in line.split()]
                continue
            m = SAMPLE.match(line)
            if m:
                samples.append(([int(v) for v in m.group(1).split()],
                                [int(i) for i in m.group(2).split()]))
        elif section:
            lines[section].append(line)
    return types, samples, lines


def parse_raw(text):
    """(sample type strings, {location id: 'name file'}, [(values, [location ids])])."""
    types, samples, lines = raw_sections(text)
    locs = {}
    for line in lines["Locations"]:
        m = LOC.match(line)
        if m:
            locs[int(m.group(1))] = m.group(2)
    return types, locs, samples


def per_function(locs, samples, ntypes):
    out = defaultdict(lambda: [0] * ntypes)
    for values, ids in samples:
        row = out[locs[ids[0]]]
        for i, v in enumerate(values):
            row[i] += v
    return out
