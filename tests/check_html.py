#!/usr/bin/env python3
"""Checks a tracetool HTML report (spec/visual.md 11): balanced non-void tags, no src/href/
url( other than #fragment or data:, a CSP meta, no CDATA in the script, and every inline
<svg> parsing with xmllint (skipped with a notice when xmllint is missing).
Usage: check_html.py FILE; prints "ok" or the problems, exit 1 on a problem."""
import html.parser, re, shutil, subprocess, sys

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}

class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.bad, self.svg_depth = [], [], 0
    def handle_starttag(self, tag, attrs):
        for k, v in attrs:
            if k in ("src", "href", "xlink:href") and v is not None and not v.startswith(("#", "data:")):
                self.bad.append("external %s=%r" % (k, v))
        if tag in VOID and not self.svg_depth:
            return
        if tag == "svg":
            self.svg_depth += 1
        self.stack.append(tag)
    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if not (tag in VOID and not self.svg_depth):
            self.handle_endtag(tag)
    def handle_endtag(self, tag):
        if tag in VOID and not self.svg_depth:
            return
        if not self.stack or self.stack[-1] != tag:
            self.bad.append("unbalanced </%s> (open: %s)" % (tag, "/".join(self.stack[-4:])))
            return
        self.stack.pop()
        if tag == "svg":
            self.svg_depth -= 1

def main():
    text = open(sys.argv[1], encoding="utf-8").read()
    p = P()
    p.feed(text)
    p.close()
    bad = p.bad + (["unclosed: " + "/".join(p.stack)] if p.stack else [])
    for m in re.finditer(r"url\(\s*([^)]*)\)", text):
        if not m.group(1).strip("'\"").startswith(("#", "data:")):
            bad.append("external url(%s)" % m.group(1))
    if "Content-Security-Policy" not in text:
        bad.append("no Content-Security-Policy")
    for s in re.findall(r"<script[^>]*>(.*?)</script>", text, re.S):
        if "CDATA" in s:
            bad.append("CDATA in a script")
    if shutil.which("xmllint"):
        for i, svg in enumerate(re.findall(r"<svg\b.*?</svg>", text, re.S)):
            r = subprocess.run(["xmllint", "--noout", "--nonet", "-"], input=svg.encode(),
                               capture_output=True)
            if r.returncode:
                bad.append("svg %d does not parse: %s" % (i + 1, r.stderr.decode()[:200]))
    else:
        print("check_html: notice: xmllint missing: inline SVGs not parsed", file=sys.stderr)
    print("\n".join(bad) if bad else "ok")
    return 1 if bad else 0

sys.exit(main())
