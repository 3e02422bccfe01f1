"""The ONNX importer: an ONNX model to the nn dialect."""
