#!/usr/bin/env python3
"""Prints the text of one section of a tracetool HTML report, a table row or caption per
line, inline SVG charts as [svg: TITLE] (golden tests of tests/cli/html/).
Usage: html_section.py FILE SECTION_ID"""
import html, re, sys

text = open(sys.argv[1], encoding="utf-8").read()
m = re.search(r'<section id="%s".*?</section>' % re.escape(sys.argv[2]), text, re.S)
if not m:
    sys.exit("no section " + sys.argv[2])
s = m.group(0)
s = re.sub(r'<svg class="chart".*?<title>(.*?)</title>.*?</svg>', r'\n[chart: \1]\n', s, flags=re.S)
s = re.sub(r'<svg .*?<title id="[^"]*">(.*?)</title>.*?</svg>', r'\n[flame graph: \1]\n', s, flags=re.S)
s = re.sub(r'</(tr|caption|summary|h2|h3|p|figcaption|li)>', '\n', s)
s = re.sub(r'</t[dh]>', ' | ', s)
s = re.sub(r'<[^>]+>', '', s)
for line in html.unescape(s).split("\n"):
    line = re.sub(r'\s+', ' ', line).strip(' |')
    if line:
        print(line)
