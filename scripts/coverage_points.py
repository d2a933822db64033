"""Reads Verilator coverage data files (verilator_coverage's .dat format) for the coverage scripts
(scripts/rtl-coverage.sh, scripts/top-coverage.sh): one (fields, count) per coverage point, where
fields holds the point's keys ('page' = type/module, 'f' = file, 'l' = line, 'o' = name)."""


def points(path):
    for line in open(path, encoding="latin-1"):
        if not line.startswith("C '"):
            continue
        key, count = line[3:].rstrip("\n").rsplit("' ", 1)
        fields = {}
        for item in key.split("\x01"):
            if "\x02" in item:
                k, v = item.split("\x02", 1)
                fields[k] = v
        yield fields, int(count)


def kind(fields):
    """Coverage type of a point: line, toggle, branch, ..."""
    return fields.get("page", "?").split("/")[0].replace("v_", "")
