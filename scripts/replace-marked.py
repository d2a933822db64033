#!/usr/bin/env python3
"""Replaces the block between '<!-- NAME:begin' and '<!-- NAME:end -->' (markers included) of a
document with the text in the environment variable TABLE, which must carry both markers itself.
Used by the scripts that write measured tables into docs/ (synth-sat.sh, synth-top.sh).
Usage: TABLE=... scripts/replace-marked.py DOC NAME"""
import os
import re
import sys

path, name = sys.argv[1], sys.argv[2]
text = open(path).read()
pattern = re.compile(r"<!-- " + re.escape(name) + r":begin.*?<!-- " + re.escape(name) + r":end -->", re.S)
if not pattern.search(text):
    sys.exit(f"{path}: no {name}:begin/end markers")
open(path, "w").write(pattern.sub(lambda m: os.environ["TABLE"], text))
