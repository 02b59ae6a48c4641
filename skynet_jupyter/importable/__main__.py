"""``python -m skynet_jupyter.importable`` prints the folder to add to ``PYTHONPATH``."""

from . import DIR

print(DIR)
