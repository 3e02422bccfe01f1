"""cfmem.ir_io.check_dominance: a value used where its definition does not dominate is refused
at parse time (xDSL's verifier does not check it, and the liveness analyses assume it)."""

import pytest

from cfmem.errors import CfmemError
from cfmem.ir_io import parse_module

VALID = """
func.func @main(%c: i1, %x: memref<4xf32>) {
  %a = memref.alloc() : memref<4xf32>
  scf.if %c {
    "memref.copy"(%a, %x) : (memref<4xf32>, memref<4xf32>) -> ()
  }
  func.return
}
"""


def test_a_value_used_in_a_region_nested_after_its_definition_is_accepted():
    parse_module(VALID)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (VALID.replace("  %a = memref.alloc() : memref<4xf32>\n", "").replace("  func.return", "  %a = memref.alloc() : memref<4xf32>\n  func.return"),
         "<stdin>:4:5: error: 'memref.copy' uses %a where its definition does not dominate the use"),
        ("func.func @main(%c: i1, %x: memref<4xf32>) {\n  %r = scf.if %c -> (memref<4xf32>) {\n"
         '    "memref.copy"(%r, %x) : (memref<4xf32>, memref<4xf32>) -> ()\n    scf.yield %x : memref<4xf32>\n'
         "  } else {\n    scf.yield %x : memref<4xf32>\n  }\n  func.return\n}\n",
         "<stdin>:3:5: error: 'memref.copy' uses %r where its definition does not dominate the use"),
    ],
    ids=["used before its definition", "used inside the op that defines it"],
)
def test_a_use_its_definition_does_not_dominate_is_refused(text, message):
    with pytest.raises(CfmemError) as err:
        parse_module(text)
    assert str(err.value) == message
