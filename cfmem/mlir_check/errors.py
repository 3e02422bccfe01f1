"""The one error the upstream-MLIR checker raises."""


class MlirCheckError(Exception):
    """Upstream MLIR could not parse, verify, lower or run a module.

    The message is one line and carries MLIR's own diagnostic where there is one.
    """

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message
