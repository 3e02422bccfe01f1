"""The README's Python snippets run as written."""

import re

from conftest import ROOT


def embedding_snippets() -> list[str]:
    section = (ROOT / "README.md").read_text().split("## Embedding the passes in another xDSL flow", 1)[1]
    return re.findall(r"```python\n(.*?)```", section.split("\n## ", 1)[0], re.S)


def test_embedding_snippets_run(monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    printed = []
    for code in embedding_snippets():
        exec(compile(code, "README.md", "exec"), {})
        printed.append(capsys.readouterr().out.strip())
    nn_arena, plain_arena = printed  # wakeword's nn plan, then the bufferized upstream program's
    assert re.fullmatch(r"\d+ : i64", nn_arena) and int(nn_arena.split()[0]) > 1_000_000
    assert plain_arena == "640 : i64"  # five 128-byte buffers, two of them a carried one's slots
