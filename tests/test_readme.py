"""The README's Python snippets run as written."""

import re

from conftest import ROOT


def test_embedding_snippet_runs(monkeypatch, capsys):
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Embedding the passes in another xDSL flow", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    monkeypatch.chdir(ROOT)
    exec(compile(code, "README.md", "exec"), {})
    printed = capsys.readouterr().out.strip()
    assert re.fullmatch(r"\d+ : i64", printed) and int(printed.split()[0]) > 1_000_000
