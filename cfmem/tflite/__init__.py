"""TensorFlow Lite flatbuffers: reading a ``.tflite`` model, and what TFLite Micro expects of one.

The schema's Python object API comes from the ``tflite-micro`` package (the schema TFLite
Micro itself is built with), installed with ``pip install 'cfmem[tflite]'``.
"""
